// Row types of a site's forms (docs/forms.md): the forms, what visitors sent, the e-mails owed.
// Part of the schema (schema.ts), kept apart as schema-seo.ts is.
import type { Generated } from "kysely";

/** A form of a site, named by a slug. */
export interface FormsTable {
  site_id: number;
  name: string;
  /** The fields in order: `{name, label, type, required, max_length, options}`. */
  fields_json: string;
  /** A page reference or a path; null: the same page with `?sent=1`. */
  redirect: string | null;
  /** E-mail addresses told of each submission (`[]`: none). */
  notify_json: string;
  /** 1: submissions are kept; 0: only e-mailed. */
  store: number;
  /** 0: the form takes no submissions (404). */
  active: number;
  /** Submissions taken for a bot's (honeypot filled, token missing, foreign or too fresh): counted, never kept. */
  spam_count: Generated<number>;
  created_at_gmt: string;
  updated_at_gmt: string;
}

/** What a visitor sent through a form. */
export interface FormSubmissionsTable {
  id: Generated<number>;
  site_id: number;
  form: string;
  /** The declared fields sent, by name, as text. */
  fields_json: string;
  /** The page the form was sent from, when known. */
  page_id: number | null;
  lang: string | null;
  user_agent: string;
  /** The client address as a salted hash: never the address itself. */
  address_hash: string;
  created_at_gmt: string;
}

/** An e-mail owed for a submission (forms/notify-worker.ts): sent, or retried at `next_at_gmt`. */
export interface FormNotificationsTable {
  id: Generated<number>;
  site_id: number;
  form: string;
  /** `{to, subject, text, replyTo?}`. */
  message_json: string;
  attempts: Generated<number>;
  next_at_gmt: string;
  last_error: string | null;
}

/** The network's form key (forms/token.ts): one row, `id` "form". */
export interface FormKeysTable {
  id: string;
  secret: string;
}
