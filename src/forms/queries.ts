// A site's forms as stored, read by the forms API, by renders (`svc/form`) and by the public
// submission route: the row made a typed form, with a stored column that cannot be read taken
// as empty rather than failing a visitor's page.
import type { Selectable } from "kysely";
import type { Db } from "../store/database.ts";
import type { FormsTable } from "../store/schema-forms.ts";
import type { FormField, FormSpec } from "./input.ts";

export type FormRow = Selectable<FormsTable>;

export interface StoredForm extends FormSpec {
  name: string;
  created_at: string;
  updated_at: string;
}

function parsed<T>(text: string, fallback: T): T {
  try {
    const value = JSON.parse(text) as unknown;
    return Array.isArray(value) ? (value as T) : fallback;
  } catch {
    return fallback;
  }
}

export function formOf(row: FormRow): StoredForm {
  return {
    name: row.name,
    fields: parsed<FormField[]>(row.fields_json, []),
    redirect: row.redirect,
    notify: parsed<string[]>(row.notify_json, []),
    store: row.store === 1,
    active: row.active === 1,
    created_at: row.created_at_gmt,
    updated_at: row.updated_at_gmt,
  };
}

export async function formRow(db: Db, siteId: number, name: string): Promise<FormRow | undefined> {
  return db.selectFrom("forms").selectAll().where("site_id", "=", siteId).where("name", "=", name).executeTakeFirst();
}

export async function readForm(db: Db, siteId: number, name: string): Promise<StoredForm | undefined> {
  const row = await formRow(db, siteId, name);
  return row ? formOf(row) : undefined;
}

export async function listForms(db: Db, siteId: number): Promise<StoredForm[]> {
  const rows = await db.selectFrom("forms").selectAll().where("site_id", "=", siteId).orderBy("name").execute();
  return rows.map(formOf);
}

/** The names of these a site has forms by (a frame write's `unknown_form` check). */
export async function formNamesIn(db: Db, siteId: number, names: readonly string[]): Promise<Set<string>> {
  if (names.length === 0) return new Set();
  const rows = await db
    .selectFrom("forms")
    .select("name")
    .where("site_id", "=", siteId)
    .where("name", "in", [...names])
    .execute();
  return new Set(rows.map((row) => row.name));
}

/** How many submissions a form keeps, and how many were taken for a bot's (never kept). */
export interface FormCounts {
  submissions: number;
  spam: number;
}

export async function formCounts(db: Db, siteId: number, name: string): Promise<FormCounts> {
  const kept = await db
    .selectFrom("form_submissions")
    .select((eb) => eb.fn.countAll().as("n"))
    .where("site_id", "=", siteId)
    .where("form", "=", name)
    .executeTakeFirst();
  const row = await formRow(db, siteId, name);
  return { submissions: Number(kept?.n ?? 0), spam: Number(row?.spam_count ?? 0) };
}
