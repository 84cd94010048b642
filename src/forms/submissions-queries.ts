// A form's submissions as stored, read for the submissions API (docs/forms.md, "Submissions"):
// newest first (by id, unique), with the page each was sent from (its current path, when the page
// still exists). The client address's hash is never read out.
import { Type } from "@sinclair/typebox";
import type { Db } from "../store/database.ts";
import { JsonColumn } from "../store/json-column.ts";
import { listWindow, type ListWindow } from "../store/lists.ts";

export interface Submission {
  id: number;
  form: string;
  /** The declared fields sent, by name, as text. */
  fields: Record<string, string>;
  /** The page it was sent from: its id, and its path while the page exists. */
  page: { id: number; path: string | null } | null;
  lang: string | null;
  created_at: string;
  user_agent: string;
}

const FIELDS = new JsonColumn("form_submissions.fields_json", Type.Record(Type.String(), Type.String()));

/** The submissions of one form, newest first, with their page's path. */
function submissionsOf(db: Db, siteId: number, form: string) {
  return db
    .selectFrom("form_submissions")
    .leftJoin("pages", (join) =>
      join.onRef("pages.id", "=", "form_submissions.page_id").onRef("pages.site_id", "=", "form_submissions.site_id"),
    )
    .select([
      "form_submissions.id",
      "form_submissions.form",
      "form_submissions.fields_json",
      "form_submissions.page_id",
      "pages.path",
      "form_submissions.lang",
      "form_submissions.created_at_gmt",
      "form_submissions.user_agent",
    ])
    .where("form_submissions.site_id", "=", siteId)
    .where("form_submissions.form", "=", form)
    .orderBy("form_submissions.id", "desc");
}

type SubmissionRow = Awaited<ReturnType<ReturnType<typeof submissionsOf>["execute"]>>[number];

function submissionOf(row: SubmissionRow): Submission {
  return {
    id: row.id,
    form: row.form,
    // A value that is not fields by name is answered empty rather than failing the whole list.
    fields: FIELDS.readOr(row.fields_json, {}),
    page: row.page_id === null ? null : { id: row.page_id, path: row.path ?? null },
    lang: row.lang,
    created_at: row.created_at_gmt,
    user_agent: row.user_agent,
  };
}

export async function listSubmissions(
  db: Db,
  siteId: number,
  form: string,
  window: ListWindow,
): Promise<{ total: number; submissions: Submission[] }> {
  const { total, rows } = await listWindow(submissionsOf(db, siteId, form), window);
  return { total, submissions: rows.map(submissionOf) };
}

export async function readSubmission(
  db: Db,
  siteId: number,
  form: string,
  id: number,
): Promise<Submission | undefined> {
  const row = await submissionsOf(db, siteId, form).where("form_submissions.id", "=", id).executeTakeFirst();
  return row ? submissionOf(row) : undefined;
}

/** Every submission of the form, newest first, a slice at a time (a CSV export of any size). */
export async function* allSubmissions(db: Db, siteId: number, form: string, slice = 500): AsyncGenerator<Submission[]> {
  let before: number | null = null;
  for (;;) {
    let query = submissionsOf(db, siteId, form).limit(slice);
    if (before !== null) query = query.where("form_submissions.id", "<", before);
    const rows = await query.execute();
    if (rows.length > 0) yield rows.map(submissionOf);
    if (rows.length < slice) return;
    before = rows.at(-1)!.id;
  }
}
