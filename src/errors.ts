// The service error catalogue: every code a service can refuse with, and its default message.
// Services throw `fail(code, details?, message?)`; they know nothing of HTTP. The HTTP layer alone
// maps a code to its status and envelope (src/http/errors.ts), the way Fastify's own
// lib/errors.js and lib/error-handler.js split declaring errors from answering them.

/** Every code and its default message. */
export const MESSAGES = {
  // before a handler
  missing_token: "No API token: send Authorization: Bearer <token> or X-Svc-Key.",
  invalid_token: "The API token is not valid (malformed, unknown, revoked or reissued).",
  too_many_auth_failures: "Too many failed authentication attempts from this address; wait and retry.",
  too_many_requests: "Too many requests; wait and retry.",
  read_only_token:
    "This token reads only: it may not write. Nothing was written; send the write with a token made without read_only.",
  route_not_found: "No such route.",
  method_not_allowed: "This method is not allowed on this route.",
  invalid_json: "The request body is not valid JSON.",
  invalid_body: "The request body must be a JSON object.",
  body_too_large: "The request body is too large.",
  body_too_deep: "The request body nests objects and arrays more than 64 levels deep.",
  unsupported_media_type: "Send the body as application/json.",
  database_unavailable: "The database does not answer; retry shortly.",
  internal_error: "An unexpected error occurred.",

  // handler errors shared by every capability; site selection raises the first two
  // before a handler, in the pre-handler envelope (preFail)
  site_not_found: "No such site.",
  insufficient_role: "You are not an administrator of this site.",
  invalid_field: "A field has the wrong type or value.",
  forbidden: "Not allowed.",
  internal_unavailable: "The renderer did not answer; what was saved stays saved. Repeat the call later.",
  precondition_failed: "The resource changed since you read it (If-Match does not match).",
  gone: "This endpoint or input was removed.",
  nothing_to_update: "Nothing to update.",
  invalid_parameter: "A query parameter is out of range or not a number (see parameter).",
  unknown_parameter: "A query parameter is not known on this call (see parameter); nothing was done.",

  // quotas (docs/security.md, "Quotas"): any write that adds pages, frames, data items or stored bytes
  quota_exceeded: "This write would take the site past a quota (see quota, limit and used); nothing was written.",
  invalid_quota: "A quota is a whole number of at least 0, or null for its default (see quota).",

  // network: sites, users, tokens, login
  site_name_required: "A site needs a name.",
  invalid_domain: "The domain is not a valid host name.",
  domain_taken: "A site already has this domain, as its primary domain or an alias.",
  domain_not_found: "This domain is no alias of the site.",
  domain_is_primary:
    "The site's primary domain cannot be removed; give the site another primary domain first (PATCH /api/sites/{id}).",
  main_site: "The main site cannot be deleted.",
  login_required: "A user needs a login.",
  invalid_login: "A login is 1 to 60 characters of letters, digits, dot, dash, underscore or @.",
  invalid_email: "The email address is not valid.",
  weak_password: "A password needs at least 8 characters.",
  login_taken: "Another user already has this login.",
  user_not_found: "No such user.",
  token_not_found: "No such token.",
  token_limit_reached: "This user holds the most live tokens allowed; revoke one first.",
  invalid_role: "The role must be administrator or editor.",
  membership_not_found: "This user has no role on this site.",
  invalid_credentials: "Wrong login or password.",
  session_expired:
    "No live session: it ended (signed out, idle 12 hours, 7 days old, or the password changed). Sign in again.",
  invalid_csrf_token:
    "A call signed in by the session cookie must send X-CSRF-Token with the csrf_token of GET /api/session; nothing was done.",
  domain_reserved: "This host is the admin's own (SVC_ADMIN_HOST); no site may take it as a domain or alias.",

  // frames
  invalid_slug: "The slug does not match the required pattern.",
  frame_html_required: "A frame needs markup (html, markup or content).",
  frame_url_not_supported: "Frames have no address; a page names its frame.",
  frame_ref_conflict: "One insert names two different frames.",
  frame_cycle: "The frame would embed itself through its references.",
  slug_taken: "Another record already has this slug.",
  frame_too_large: "The markup is over 2 MB.",
  render_too_large: "A bake would go past a render budget (see budget and chain); nothing was written.",
  frame_not_found: "No such frame.",
  frame_ref_required: "A frame reference (id or slug) is required.",
  nothing_to_rebake: "Name at least one selector: all, menus, pages, languages, settings, datasets or frames.",

  // content model: settings, languages, pages, translations, data sets, data sources (docs/content-model.md)
  invalid_language_code: "A language code is two lower-case letters, optionally a dash and two more (en, pt-br).",
  unknown_language: "This language is not one of the site's languages.",
  multilang_inactive: "The site has no languages yet, so lang cannot be used; add one with POST /languages.",
  page_not_found: "No such page.",
  ambiguous_page: "Several pages match this reference; use the id or the full path (see candidates).",
  page_required: "This needs a page (id, slug or path).",
  title_required: "A new page needs a title.",
  parent_not_found:
    "The parent page does not exist in this language; pass create_missing_parents: true to create draft stubs.",
  parent_cycle: "A page cannot be its own parent or the parent of one of its ancestors.",
  parent_lang_mismatch: "The parent page is in another language; a page and its parent share one language.",
  page_has_children: "The page has child pages; change their language first, or move them.",
  lang_mismatch:
    "This id belongs to a page in another language; a translation has its own id (drop id, or use the translation's id).",
  translation_link_failed: "The translation could not be linked to its origin.",
  translation_exists: "One of the two pages already has a translation in that language.",
  unknown_location: "Unknown menu location.",
  invalid_dataset_name:
    "A data-set name is lower-case letters, digits, dash and underscore, starting with a letter or digit.",
  dataset_not_found: "No such data set, neither in this language nor shared.",

  // menus (docs/menus.md); unknown_location, slug_taken and invalid_slug are shared with the codes above
  menu_not_found: "No such menu.",
  ambiguous_menu: "Several menus have this name; use the id or the slug (see candidates).",
  menu_not_assigned: "No menu is assigned to this location in this language and theme.",
  menu_name_required: "A menu needs a name.",
  bad_items: "The items are not a valid tree: each item has exactly one of page or url (see errors).",
  menu_items_unresolved: "Some items name pages that cannot be found (see errors); nothing was written.",
  menu_items_invalid:
    "Some items point to unpublished or deleted pages (see invalid); pass allow_invalid: true to leave them out.",
  menu_assignment_not_stored: "The location map read back does not hold the menu (see read_back).",
  location_required: "Name a location: one of the site's menu locations (see locations).",
  location_in_use:
    "A menu is assigned to a location this write removes (see assigned); free it with DELETE /menus/{ref}/location first.",
  item_target_required: "An item needs a page (id, slug or path) or a url.",
  item_not_found: "No such item in this menu.",
  bad_parent: "An item cannot be its own parent or sit under one of its own descendants.",
  bad_reorder: "order must list ids of items of one level, each once.",
  too_many_items: "A menu holds at most 2,000 items.",
  tree_too_deep: "A menu is at most 8 levels deep.",

  // media (docs/media.md); an upload whose bytes are of a type not allowed is unsupported_media_type
  // (above, in the handler envelope there), and a slug is refused with invalid_slug or slug_taken
  media_not_found: "No such media file.",
  media_in_use: "Frames show this file (see used_by); pass ?force=1 to delete it anyway.",
  media_too_large: "The file is larger than the service accepts (see max_bytes); nothing was stored.",
  media_type_mismatch:
    "The bytes are not of the type the Content-Type claims (see claimed and detected); nothing was stored.",
  upload_conflict:
    "A delete of a file with the same bytes removed them while this upload was recorded; nothing was written. Send the file again.",

  // stylesheets (docs/styles.md)
  invalid_style_name:
    "A stylesheet name is lower-case letters, digits, dash and underscore, starting with a letter or digit.",
  style_not_found: "No such stylesheet in this theme.",
  style_in_use:
    "Frames link this stylesheet, or other stylesheets import it (see frames and imported_by); pass ?force=1 to delete it anyway.",
  invalid_css: "The CSS cannot be used (see line, column and message); nothing was stored.",

  // SEO and addresses (docs/seo.md, docs/domains.md)
  invalid_redirect_status: "A redirect's status is 301 (the default), 302, 307 or 308.",
  redirect_shadows_page: "A live page answers at this address; a redirect never shadows a page (see page).",
  redirect_not_found: "No such redirect on this site.",
  invalid_csv: "The CSV body cannot be read (see line and reason); nothing was written.",

  // documentation sidebars (docs/sidebars.md)
  invalid_sidebar_name:
    "A sidebar name is lower-case letters, digits, dash and underscore, starting with a letter or digit.",
  sidebar_not_found: "No such sidebar on this site.",
  sidebar_items_invalid:
    "Some items point to unpublished or deleted pages (see invalid); pass ?allow_invalid=true to leave them out.",
  sidebar_items_unresolved: "Some items name pages that cannot be found (see errors); nothing was written.",
  sidebar_tree_required: "Send the tree as items (an array) or root (a page), not both.",

  // forms (docs/forms.md)
  invalid_form_name: "A form name is lower-case letters, digits, dash and underscore, starting with a letter or digit.",
  form_not_found: "No such form on this site.",
  form_exists: "A form by this name exists on this site; change it with PATCH /forms/{name}.",
  bad_form_fields:
    "fields must be a list of {name, label, type, required, max_length} with unique names (see field and reason); a select needs options.",
  bad_form_redirect: "redirect is a page (id, slug or path) of this site or a path starting with /.",
  bad_form_notify: "notify must be a list of e-mail addresses.",
  form_submission_not_found: "No such submission of this form.",
  form_invalid: "Some fields are missing or not valid (see errors); nothing was stored.",
  form_rate_limited: "Too many submissions from this address; wait Retry-After seconds.",

  // strings per language (docs/markup.md)
  bad_strings:
    "strings must be an object of key: text; keys are dot-separated segments of letters, digits, _ and - (see field).",

  // revisions and the trash (docs/revisions.md)
  revision_not_found: "This object has no revision by that number (see last).",
  trash_item_not_found: "No such deleted object in the site's trash.",

  // preview (docs/preview.md)
  page_without_frame:
    "The page stands on no frame, so it shows nothing; assign one (POST /frames/{ref}/assign) or preview it with page_fields.frame.",
  invalid_expires_in:
    "expires_in is a whole number of seconds from 60 to 2592000 (30 days); the default is 604800 (7 days).",
  preview_link_not_found: "No such preview link on this site.",

  // webhooks (docs/webhooks.md)
  webhook_not_found: "No such webhook on this site.",
  delivery_not_found: "No such delivery of this webhook.",
  // site bundles (docs/bundles.md)
  invalid_bundle:
    "The bundle is corrupt or tampered with (see reason and entry); nothing was written. Export it again and resend it whole.",
  bundle_version_unsupported:
    "The bundle was written by a newer format than this service reads (see format_version and supported); nothing was written. Import it into an instance at least as new as the one that exported it.",

  webhook_url_not_allowed:
    "Webhooks are sent to http:// or https:// addresses on the public internet; this one is (or resolves to) a loopback, private, link-local, unspecified or metadata address.",
} as const;

export type ErrorCode = keyof typeof MESSAGES;

/** A refusal: a catalogued code, a message and the details the caller needs to act on it. */
export class ServiceError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/** Builds the catalogued error; `message` overrides the default text when a case needs more precision. */
export function fail(code: ErrorCode, details: Record<string, unknown> = {}, message?: string): ServiceError {
  return new ServiceError(code, message ?? MESSAGES[code], details);
}
