// One catalogue of the service's error codes, and the error type services throw.
// Two envelopes exist (spec, Errors): a handler error `{success: false, error, message, ...details}`
// and an error raised before a handler (token, site selection, body, route) `{code, message, data: {status}}`.

export type Envelope = "handler" | "pre";

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> = {},
    readonly envelope: Envelope = "handler",
    /** Extra response headers, e.g. Retry-After on a 429. */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

interface Entry {
  status: number;
  message: string;
  envelope?: Envelope;
}

/** Every code the service answers with, its status and its default message. */
export const CATALOGUE = {
  // before a handler
  missing_token: { status: 401, message: "No API token: send Authorization: Bearer <token> or X-Svc-Key.", envelope: "pre" },
  invalid_token: { status: 401, message: "The API token is not valid (malformed, unknown, revoked or reissued).", envelope: "pre" },
  too_many_auth_failures: { status: 429, message: "Too many failed authentication attempts from this address; wait and retry.", envelope: "pre" },
  too_many_requests: { status: 429, message: "Too many requests; wait and retry.", envelope: "pre" },
  route_not_found: { status: 404, message: "No such route.", envelope: "pre" },
  method_not_allowed: { status: 405, message: "This method is not allowed on this route.", envelope: "pre" },
  invalid_json: { status: 400, message: "The request body is not valid JSON.", envelope: "pre" },
  invalid_body: { status: 400, message: "The request body must be a JSON object.", envelope: "pre" },
  body_too_large: { status: 413, message: "The request body is too large.", envelope: "pre" },
  unsupported_media_type: { status: 415, message: "Send the body as application/json.", envelope: "pre" },
  database_unavailable: { status: 503, message: "The database does not answer; retry shortly.", envelope: "pre" },
  internal_error: { status: 500, message: "An unexpected error occurred.", envelope: "pre" },

  // handler errors shared by every capability; site selection raises the first two
  // before a handler, in the pre-handler envelope (preFail)
  site_not_found: { status: 404, message: "No such site." },
  insufficient_role: { status: 403, message: "You are not an administrator of this site." },
  invalid_field: { status: 400, message: "A field has the wrong type or value." },
  forbidden: { status: 403, message: "Not allowed." },
  internal_unavailable: { status: 502, message: "The renderer did not answer; what was saved stays saved. Repeat the call later." },
  precondition_failed: { status: 412, message: "The resource changed since you read it (If-Match does not match)." },
  gone: { status: 410, message: "This endpoint or input was removed." },
  nothing_to_update: { status: 400, message: "Nothing to update." },

  // network: sites, users, tokens, login
  site_name_required: { status: 400, message: "A site needs a name." },
  invalid_domain: { status: 400, message: "The domain is not a valid host name." },
  domain_taken: { status: 409, message: "Another site already has this domain." },
  main_site: { status: 409, message: "The main site cannot be deleted." },
  login_required: { status: 400, message: "A user needs a login." },
  invalid_login: { status: 400, message: "A login is 1 to 60 characters of letters, digits, dot, dash, underscore or @." },
  invalid_email: { status: 400, message: "The email address is not valid." },
  weak_password: { status: 400, message: "A password needs at least 8 characters." },
  login_taken: { status: 409, message: "Another user already has this login." },
  user_not_found: { status: 404, message: "No such user." },
  token_not_found: { status: 404, message: "No such token." },
  invalid_role: { status: 400, message: "The role must be administrator or editor." },
  membership_not_found: { status: 404, message: "This user has no role on this site." },
  invalid_credentials: { status: 401, message: "Wrong login or password." },

  // frames
  invalid_slug: { status: 400, message: "The slug does not match the required pattern." },
  frame_html_required: { status: 400, message: "A frame needs markup (html, markup or content)." },
  frame_url_not_supported: { status: 400, message: "Frames have no address; a page names its frame." },
  frame_ref_conflict: { status: 400, message: "One insert names two different frames." },
  frame_cycle: { status: 400, message: "The frame would embed itself through its references." },
  slug_taken: { status: 409, message: "Another record already has this slug." },
  frame_too_large: { status: 413, message: "The markup is over 2 MB." },
  frame_not_found: { status: 404, message: "No such frame." },
  frame_ref_required: { status: 400, message: "A frame reference (id or slug) is required." },
  nothing_to_rebake: { status: 400, message: "Name at least one selector: all, menus, pages, languages, settings, datasets or frames." },

  // content model: settings, languages, pages, translations, data sets, data sources (issue 3)
  invalid_language_code: { status: 400, message: "A language code is two lower-case letters, optionally a dash and two more (en, pt-br)." },
  unknown_language: { status: 400, message: "This language is not one of the site's languages." },
  multilang_inactive: { status: 409, message: "The site has no languages yet, so lang cannot be used; add one with POST /languages." },
  page_not_found: { status: 404, message: "No such page." },
  ambiguous_page: { status: 409, message: "Several pages match this reference; use the id or the full path (see candidates)." },
  page_required: { status: 400, message: "This needs a page (id, slug or path)." },
  title_required: { status: 400, message: "A new page needs a title." },
  parent_not_found: { status: 404, message: "The parent page does not exist in this language; pass create_missing_parents: true to create draft stubs." },
  parent_cycle: { status: 400, message: "A page cannot be its own parent or the parent of one of its ancestors." },
  parent_lang_mismatch: { status: 400, message: "The parent page is in another language; a page and its parent share one language." },
  page_has_children: { status: 409, message: "The page has child pages; change their language first, or move them." },
  lang_mismatch: { status: 409, message: "This id belongs to a page in another language; a translation has its own id (drop id, or use the translation's id)." },
  translation_link_failed: { status: 422, message: "The translation could not be linked to its origin." },
  unknown_location: { status: 400, message: "Unknown menu location." },
  invalid_dataset_name: { status: 400, message: "A data-set name is lower-case letters, digits, dash and underscore, starting with a letter or digit." },
  dataset_not_found: { status: 404, message: "No such data set, neither in this language nor shared." },

  // menus (issue 6); unknown_location, slug_taken and invalid_slug are shared with the codes above
  menu_not_found: { status: 404, message: "No such menu." },
  ambiguous_menu: { status: 409, message: "Several menus have this name; use the id or the slug (see candidates)." },
  menu_not_assigned: { status: 404, message: "No menu is assigned to this location in this language and theme." },
  menu_name_required: { status: 400, message: "A menu needs a name." },
  bad_items: { status: 400, message: "The items are not a valid tree: each item has exactly one of page or url (see errors)." },
  menu_items_unresolved: { status: 409, message: "Some items name pages that cannot be found (see errors); nothing was written." },
  menu_items_invalid: { status: 409, message: "Some items point to unpublished or deleted pages (see invalid); pass allow_invalid: true to leave them out." },
  menu_assignment_not_stored: { status: 500, message: "The location map read back does not hold the menu (see read_back)." },
  location_required: { status: 400, message: "Name a location: header, footer_1, footer_2 or footer_3." },
  item_target_required: { status: 400, message: "An item needs a page (id, slug or path) or a url." },
  item_not_found: { status: 404, message: "No such item in this menu." },
  bad_parent: { status: 409, message: "An item cannot be its own parent or sit under one of its own descendants." },
  bad_reorder: { status: 400, message: "order must list ids of items of one level, each once." },
  too_many_items: { status: 400, message: "A menu holds at most 2,000 items." },
  tree_too_deep: { status: 400, message: "A menu is at most 8 levels deep." },
} satisfies Record<string, Entry>;

export type ErrorCode = keyof typeof CATALOGUE;

/** Builds the catalogued error; `message` overrides the default text when a case needs more precision. */
export function fail(code: ErrorCode, details: Record<string, unknown> = {}, message?: string, headers?: Record<string, string>): ApiError {
  const entry: Entry = CATALOGUE[code];
  return new ApiError(entry.status, code, message ?? entry.message, details, entry.envelope ?? "handler", headers ?? {});
}

/** The same error raised before a handler (site selection), in the `{code, message, data}` envelope. */
export function preFail(code: ErrorCode, details: Record<string, unknown> = {}, message?: string): ApiError {
  const error = fail(code, details, message);
  return new ApiError(error.status, error.code, error.message, error.details, "pre", error.headers);
}

/** The response body for an error, in its envelope. */
export function envelopeOf(error: ApiError): Record<string, unknown> {
  if (error.envelope === "pre") return { code: error.code, message: error.message, data: { status: error.status, ...error.details } };
  return { success: false, error: error.code, message: error.message, ...error.details };
}
