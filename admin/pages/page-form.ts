// The page editor's form and what a write sends of it (docs/admin.md, "Pages"). The fields of a
// post (docs/content-model.md, "Dates, tags and feeds") and the content are sent only when they
// differ from the page as read, so the service decides what a change of format stores
// (src/pages/content.ts) and an unchanged date is never read back through a local time.

export type ContentFormat = "html" | "markdown";

export interface EditedPage {
  id: number;
  title: string;
  slug: string;
  content: string;
  content_format: ContentFormat;
  frame: string | null;
  status: "publish" | "future" | "draft" | "trash";
  date: string | null;
  tags: string[];
  feed: boolean;
  lang: string | null;
  translations: Record<string, number>;
  url: string;
}

export interface Form {
  title: string;
  slug: string;
  content: string;
  format: ContentFormat;
  frame: string;
  /** A `datetime-local` value: the date in the browser's time zone, "" for none. */
  date: string;
  /** The date input holds a partly typed date (its value is then ""), which is never sent as none. */
  dateIncomplete: boolean;
  /** The tags as typed, separated by commas. */
  tags: string;
  feed: boolean;
}

/** The fields of a page write the editor sends. */
export interface PageBody {
  title: string;
  frame: string | null;
  slug?: string;
  content?: string;
  content_format?: ContentFormat;
  date?: string | null;
  tags?: string[];
  feed?: boolean;
}

const two = (n: number) => String(n).padStart(2, "0");

/** An API date (ISO 8601, UTC) as a `datetime-local` value in the browser's time zone; "" for none. */
export function localDateOf(iso: string | null): string {
  if (iso === null) return "";
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return "";
  const day = `${String(at.getFullYear()).padStart(4, "0")}-${two(at.getMonth() + 1)}-${two(at.getDate())}`;
  const seconds = at.getSeconds() === 0 ? "" : `:${two(at.getSeconds())}`;
  return `${day}T${two(at.getHours())}:${two(at.getMinutes())}${seconds}`;
}

/**
 * A `datetime-local` value as the API takes a date: the instant in UTC (`2030-03-01T08:30:00Z`);
 * null for "" (none). A date-time without an offset is local time in JavaScript, as the field means it.
 */
export function isoDateOf(local: string): string | null {
  if (local === "") return null;
  const at = new Date(local);
  // Not a value the field gives; sent as typed, for the service to refuse by the date field.
  if (Number.isNaN(at.getTime())) return local;
  return at.toISOString().replace(/\.\d{3}Z$/, "Z");
}

/** Whether a `datetime-local` value is later than `now`: the page would be scheduled. */
export function isAhead(local: string, now = Date.now()): boolean {
  if (local === "") return false;
  const at = new Date(local).getTime();
  return !Number.isNaN(at) && at > now;
}

/** Tags typed with commas: each trimmed, empty ones dropped. */
export function tagListOf(typed: string): string[] {
  return typed
    .split(",")
    .map((tag) => tag.trim())
    .filter((tag) => tag !== "");
}

export function formOf(page: EditedPage | null): Form {
  return {
    title: page?.title ?? "",
    slug: page?.slug ?? "",
    content: page?.content ?? "",
    format: page?.content_format ?? "html",
    frame: page?.frame ?? "",
    date: localDateOf(page?.date ?? null),
    dateIncomplete: false,
    tags: (page?.tags ?? []).join(", "),
    feed: page?.feed ?? false,
  };
}

/** What a write sends: title and frame always, the slug when given, the rest when it changed. */
export function bodyOf(form: Form, page: EditedPage | null): PageBody {
  const read = formOf(page);
  const body: PageBody = { title: form.title, frame: form.frame === "" ? null : form.frame };
  if (form.slug.trim() !== "") body.slug = form.slug;
  if (page === null || form.content !== read.content) body.content = form.content;
  if (form.format !== read.format) body.content_format = form.format;
  if (form.date !== read.date) body.date = isoDateOf(form.date);
  const tags = tagListOf(form.tags);
  if (tags.join("\n") !== tagListOf(read.tags).join("\n")) body.tags = tags;
  if (form.feed !== read.feed) body.feed = form.feed;
  return body;
}

/** The form field an error of the service's `field` is shown by: a list's item by its list (`tags.3`). */
export function formFieldOf(field: string | null): string | null {
  return field === null ? null : field.replace(/\.\d+$/, "");
}
