// How the HTTP layer answers a refusal: the status and envelope of every catalogued code
// (src/errors.ts holds the codes and messages). Two envelopes exist (docs/foundation.md): a handler error
// `{success: false, error, message, ...details}` and an error raised before a handler (token, site
// selection, body, route) `{code, message, data: {status}}`.
import { fail as serviceFail, type ServiceError, type ErrorCode } from "../errors.ts";
import { isByteQuota } from "../quotas/catalogue.ts";

export type Envelope = "handler" | "pre";

interface Answer {
  status: number;
  envelope?: Envelope;
  /** Where the status depends on the refusal's details (quota_exceeded); `status` otherwise. */
  statusFor?: (details: Record<string, unknown>) => number;
}

/** The status of every code, and the envelope of those raised before a handler. */
const ANSWERS = {
  // before a handler
  missing_token: { status: 401, envelope: "pre" },
  invalid_token: { status: 401, envelope: "pre" },
  too_many_auth_failures: { status: 429, envelope: "pre" },
  too_many_requests: { status: 429, envelope: "pre" },
  read_only_token: { status: 403, envelope: "pre" },
  route_not_found: { status: 404, envelope: "pre" },
  method_not_allowed: { status: 405, envelope: "pre" },
  invalid_json: { status: 400, envelope: "pre" },
  invalid_body: { status: 400, envelope: "pre" },
  body_too_large: { status: 413, envelope: "pre" },
  body_too_deep: { status: 400, envelope: "pre" },
  // Raised before a handler for a body that is not JSON (error-handler.ts, preFail); a media
  // upload of a type not allowed is a handler's refusal like the other media codes.
  unsupported_media_type: { status: 415 },
  database_unavailable: { status: 503, envelope: "pre" },
  internal_error: { status: 500, envelope: "pre" },

  // handler errors shared by every capability; site selection raises the first two
  // before a handler, in the pre-handler envelope (preFail)
  site_not_found: { status: 404 },
  insufficient_role: { status: 403 },
  invalid_field: { status: 400 },
  forbidden: { status: 403 },
  internal_unavailable: { status: 502 },
  precondition_failed: { status: 412 },
  gone: { status: 410 },
  nothing_to_update: { status: 400 },
  invalid_parameter: { status: 400 },
  // a write given a query parameter its route does not know (query-parameters.ts); reads warn
  unknown_parameter: { status: 400 },

  // quotas (docs/security.md, "Quotas"): 409 for a count, 413 for bytes (the quota named in the details)
  quota_exceeded: { status: 409, statusFor: (details) => (isByteQuota(details.quota) ? 413 : 409) },
  invalid_quota: { status: 400 },

  // network: sites, users, tokens, login
  site_name_required: { status: 400 },
  invalid_domain: { status: 400 },
  domain_taken: { status: 409 },
  domain_not_found: { status: 404 },
  domain_is_primary: { status: 409 },
  main_site: { status: 409 },
  login_required: { status: 400 },
  invalid_login: { status: 400 },
  invalid_email: { status: 400 },
  weak_password: { status: 400 },
  login_taken: { status: 409 },
  user_not_found: { status: 404 },
  token_not_found: { status: 404 },
  token_limit_reached: { status: 409 },
  invalid_role: { status: 400 },
  membership_not_found: { status: 404 },
  invalid_credentials: { status: 401 },
  session_expired: { status: 401, envelope: "pre" },
  invalid_csrf_token: { status: 403, envelope: "pre" },
  domain_reserved: { status: 409 },

  // frames
  invalid_slug: { status: 400 },
  frame_html_required: { status: 400 },
  frame_url_not_supported: { status: 400 },
  frame_ref_conflict: { status: 400 },
  frame_cycle: { status: 400 },
  slug_taken: { status: 409 },
  frame_too_large: { status: 413 },
  render_too_large: { status: 422 },
  frame_not_found: { status: 404 },
  frame_ref_required: { status: 400 },
  nothing_to_rebake: { status: 400 },

  // content model: settings, languages, pages, translations, data sets, data sources (docs/content-model.md)
  invalid_language_code: { status: 400 },
  unknown_language: { status: 400 },
  multilang_inactive: { status: 409 },
  page_not_found: { status: 404 },
  ambiguous_page: { status: 409 },
  page_required: { status: 400 },
  title_required: { status: 400 },
  parent_not_found: { status: 404 },
  parent_cycle: { status: 400 },
  parent_lang_mismatch: { status: 400 },
  page_has_children: { status: 409 },
  lang_mismatch: { status: 409 },
  translation_link_failed: { status: 422 },
  translation_exists: { status: 409 },
  unknown_location: { status: 400 },
  invalid_dataset_name: { status: 400 },
  dataset_not_found: { status: 404 },

  // menus (docs/menus.md); unknown_location, slug_taken and invalid_slug are shared with the codes above
  menu_not_found: { status: 404 },
  ambiguous_menu: { status: 409 },
  menu_not_assigned: { status: 404 },
  menu_name_required: { status: 400 },
  bad_items: { status: 400 },
  menu_items_unresolved: { status: 409 },
  menu_items_invalid: { status: 409 },
  menu_assignment_not_stored: { status: 500 },
  location_required: { status: 400 },
  location_in_use: { status: 409 },
  item_target_required: { status: 400 },
  item_not_found: { status: 404 },
  bad_parent: { status: 409 },
  bad_reorder: { status: 400 },
  too_many_items: { status: 400 },
  tree_too_deep: { status: 400 },

  // media (docs/media.md)
  media_not_found: { status: 404 },
  media_in_use: { status: 409 },
  media_too_large: { status: 413 },
  media_type_mismatch: { status: 400 },
  upload_conflict: { status: 409 },

  // stylesheets (docs/styles.md)
  invalid_style_name: { status: 400 },
  style_not_found: { status: 404 },
  style_in_use: { status: 409 },
  invalid_css: { status: 422 },

  // SEO and addresses (docs/seo.md, docs/domains.md)
  invalid_redirect_status: { status: 400 },
  redirect_shadows_page: { status: 409 },
  redirect_not_found: { status: 404 },
  invalid_csv: { status: 400 },

  // documentation sidebars (docs/sidebars.md)
  invalid_sidebar_name: { status: 400 },
  sidebar_not_found: { status: 404 },
  sidebar_items_invalid: { status: 409 },
  sidebar_items_unresolved: { status: 409 },
  sidebar_tree_required: { status: 400 },

  // forms (docs/forms.md)
  invalid_form_name: { status: 400 },
  form_not_found: { status: 404 },
  form_exists: { status: 409 },
  bad_form_fields: { status: 400 },
  bad_form_redirect: { status: 400 },
  bad_form_notify: { status: 400 },
  form_submission_not_found: { status: 404 },
  form_invalid: { status: 422 },
  form_rate_limited: { status: 429 },

  // strings per language (docs/markup.md)
  bad_strings: { status: 400 },

  // revisions and the trash (docs/revisions.md)
  revision_not_found: { status: 404 },
  trash_item_not_found: { status: 404 },

  // preview (docs/preview.md)
  page_without_frame: { status: 409 },
  invalid_expires_in: { status: 400 },
  preview_link_not_found: { status: 404 },
  // site bundles (docs/bundles.md)
  invalid_bundle: { status: 400 },
  bundle_version_unsupported: { status: 400 },

  webhook_not_found: { status: 404 },
  delivery_not_found: { status: 404 },
  webhook_url_not_allowed: { status: 400 },
} satisfies Record<ErrorCode, Answer>;

/** An error in the form the HTTP layer answers it: the service error plus status, envelope and headers. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly details: Record<string, unknown> = {},
    readonly envelope: Envelope = "handler",
    /** Extra response headers, e.g. Retry-After on a 429. */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** The status a code answers with. */
export function statusOf(code: ErrorCode): number {
  return ANSWERS[code].status;
}

/** A service error (or any catalogued one) as the HTTP layer answers it. */
export function fromServiceError(error: ServiceError, headers: Record<string, string> = {}): HttpError {
  const answer: Answer = ANSWERS[error.code];
  return new HttpError(
    answer.statusFor?.(error.details) ?? answer.status,
    error.code,
    error.message,
    error.details,
    answer.envelope ?? "handler",
    headers,
  );
}

/** A catalogued error raised by the HTTP layer itself. */
export function fail(
  code: ErrorCode,
  details: Record<string, unknown> = {},
  message?: string,
  headers?: Record<string, string>,
): HttpError {
  return fromServiceError(serviceFail(code, details, message), headers);
}

/** The same error raised before a handler (site selection), in the `{code, message, data}` envelope. */
export function preFail(code: ErrorCode, details: Record<string, unknown> = {}, message?: string): HttpError {
  const error = fail(code, details, message);
  return new HttpError(error.status, error.code, error.message, error.details, "pre", error.headers);
}

/** The response body for an error, in its envelope. */
export function envelopeOf(error: HttpError): Record<string, unknown> {
  if (error.envelope === "pre")
    return { code: error.code, message: error.message, data: { status: error.status, ...error.details } };
  return { success: false, error: error.code, message: error.message, ...error.details };
}
