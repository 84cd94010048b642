// A visitor's submission of a form (docs/forms.md, "Submitting"), checked before anything is
// kept, in this order: the form exists on the site and is active (404 form_not_found, the same
// for another site's form); a bot's submission (honeypot filled; time token missing, altered, of
// another site, younger than MIN_AGE_MS or older than MAX_AGE_MS) is answered like a success and
// only counted (`forms.spam_count`); the fields (submission-check.ts); the limit of submissions
// per client address and form. A valid one is one write through the pipeline: the row (when the
// form keeps submissions, counted against quota `form_submissions`), the e-mails it owes
// (notify-queue.ts) and its event `form.submitted`. It changes nothing a page prints, so it
// announces no change and publishes nothing (docs/publishing.md).
import { gmt } from "../clock.ts";
import { fail } from "../errors.ts";
import { HONEYPOT_FIELD, TOKEN_FIELD } from "../markup/index.ts";
import type { ServiceContext } from "../write/context.ts";
import { runWrite } from "../write/pipeline.ts";
import { isFormName } from "./input.ts";
import { queueNotification, type FormMessage } from "./notify-queue.ts";
import { readForm, type StoredForm } from "./queries.ts";
import { NOWHERE, sentFrom, type SentFrom } from "./sent-from.ts";
import { checkFields, ERROR_TEXT_KEYS, type FieldError, type SubmittedBody } from "./submission-check.ts";
import { MAX_AGE_MS, MIN_AGE_MS, type FormKeys, type TokenFacts } from "./token.ts";
import { labelIn, textsIn } from "./view.ts";

/** The longest user agent kept. */
const MAX_USER_AGENT = 512;

export interface SubmitInput {
  siteId: number;
  name: string;
  body: SubmittedBody;
  /** The client's address: counted by the limit, kept only as a salted hash. */
  address: string;
  userAgent: string;
}

/** One submission of a client address to a form, counted against its window; answers whether it is within. */
export type SubmissionLimit = (
  address: string,
  form: string,
) => { allowed: boolean; retryAfterSeconds: number } | Promise<{ allowed: boolean; retryAfterSeconds: number }>;

/** A submission as answered to a JSON caller (`id` null when the form keeps none). */
export interface SubmissionAnswer {
  id: number | null;
  form: string;
  fields: Record<string, string>;
  page: number | null;
  lang: string | null;
  created_at: string;
}

export type SubmitOutcome =
  /** Kept (or only e-mailed), or a bot's answered as if it were: the visitor's answer is the same. */
  | { kind: "accepted"; form: StoredForm; from: SentFrom; submission: SubmissionAnswer }
  | { kind: "invalid"; form: StoredForm; from: SentFrom; errors: FieldError[]; input: Record<string, string> }
  | { kind: "limited"; retryAfterSeconds: number };

function first(body: SubmittedBody, name: string): string | undefined {
  return body.values[name]?.[0];
}

/** What the time token says when it is this site's (a bot may send another site's or none). */
async function siteToken(keys: FormKeys, siteId: number, body: SubmittedBody): Promise<TokenFacts | null> {
  const facts = await keys.read(first(body, TOKEN_FIELD));
  return facts !== null && facts.siteId === siteId ? facts : null;
}

/** Whether a person sent it: the honeypot left empty, the token this site's and of a person's age. */
function sentByPerson(body: SubmittedBody, token: TokenFacts | null, now: number): boolean {
  if ((first(body, HONEYPOT_FIELD) ?? "") !== "" || token === null) return false;
  const age = now - token.issuedMs;
  return age >= MIN_AGE_MS && age <= MAX_AGE_MS;
}

/** The next id a kept submission would take: what a bot's answer shows, so it reads like a success. */
async function likelyNextId(ctx: ServiceContext, form: StoredForm): Promise<number | null> {
  if (!form.store) return null;
  const row = await ctx.db
    .selectFrom("form_submissions")
    .select((eb) => eb.fn.max("id").as("last"))
    .executeTakeFirst();
  return Number(row?.last ?? 0) + 1;
}

async function countSpam(ctx: ServiceContext, siteId: number, name: string): Promise<void> {
  await ctx.db
    .updateTable("forms")
    .set((eb) => ({ spam_count: eb("spam_count", "+", 1) }))
    .where("site_id", "=", siteId)
    .where("name", "=", name)
    .execute();
}

/** The e-mail a submission owes: every field by its label, the visitor's address to reply to. */
function messageOf(form: StoredForm, fields: Record<string, string>, from: SentFrom, siteName: string): FormMessage {
  const lines = form.fields
    .filter((field) => fields[field.name] !== undefined)
    .map((field) => `${labelIn(field.label, field.name, from.lang)}: ${fields[field.name]}`);
  const replyTo = form.fields.find((field) => field.type === "email" && fields[field.name] !== undefined);
  return {
    to: form.notify,
    subject: `${siteName}: a submission of the form ${form.name}`,
    text: `${lines.join("\n")}\n`,
    ...(replyTo ? { replyTo: fields[replyTo.name] } : {}),
  };
}

async function store(
  ctx: ServiceContext,
  keys: FormKeys,
  input: SubmitInput,
  form: StoredForm,
  from: SentFrom,
  fields: Record<string, string>,
): Promise<SubmissionAnswer> {
  const now = ctx.clock();
  const createdAt = gmt(now);
  const addressHash = await keys.addressHash(input.siteId, input.address);
  const { value } = await runWrite(ctx, {
    siteId: input.siteId,
    apply: async (trx) => {
      let id: number | null = null;
      if (form.store) {
        const row = await trx
          .insertInto("form_submissions")
          .values({
            site_id: input.siteId,
            form: form.name,
            fields_json: JSON.stringify(fields),
            page_id: from.pageId,
            lang: from.lang,
            user_agent: input.userAgent.slice(0, MAX_USER_AGENT),
            address_hash: addressHash,
            created_at_gmt: createdAt,
          })
          .returning("id")
          .executeTakeFirstOrThrow();
        id = Number(row.id);
      }
      if (form.notify.length > 0) {
        const site = await trx.selectFrom("sites").select("name").where("id", "=", input.siteId).executeTakeFirst();
        await queueNotification(trx, input.siteId, form.name, messageOf(form, fields, from, site?.name ?? ""), now);
      }
      return {
        value: id,
        // The form is the event's object: `form.submitted`, with the names of the fields sent.
        wrote: [{ kind: "form", id: form.name, action: "created", verb: "submitted", fields: Object.keys(fields) }],
        room: form.store ? { form_submissions: 1 } : undefined,
      };
    },
  });
  return { id: value, form: form.name, fields, page: from.pageId, lang: from.lang, created_at: createdAt };
}

export async function submitForm(
  ctx: ServiceContext,
  keys: FormKeys,
  limit: SubmissionLimit,
  input: SubmitInput,
): Promise<SubmitOutcome> {
  // A name no form could have is answered as any form the site does not have.
  const name = isFormName(input.name) ? input.name : null;
  const form = name === null ? undefined : await readForm(ctx.db, input.siteId, name);
  if (name === null || !form?.active) throw fail("form_not_found", { name: input.name.slice(0, 64) });
  const now = ctx.clock();
  const token = await siteToken(keys, input.siteId, input.body);
  const from = token?.pageId ? await sentFrom(ctx.db, input.siteId, token.pageId) : NOWHERE;
  const checked = checkFields(form.fields, input.body);
  if (!sentByPerson(input.body, token, now)) {
    await countSpam(ctx, input.siteId, name);
    const id = await likelyNextId(ctx, form);
    const submission = {
      id,
      form: name,
      fields: checked.fields,
      page: from.pageId,
      lang: from.lang,
      created_at: gmt(now),
    };
    return { kind: "accepted", form, from, submission };
  }
  if (checked.errors.length > 0) {
    // Told again in the submission's language, with the site's texts for it (view.ts).
    const texts = await textsIn(ctx.db, input.siteId, from.lang, ERROR_TEXT_KEYS);
    const told = texts.size > 0 ? checkFields(form.fields, input.body, texts) : checked;
    return { kind: "invalid", form, from, errors: told.errors, input: told.input };
  }
  const allowance = await limit(input.address, `${input.siteId}:${name}`);
  if (!allowance.allowed) return { kind: "limited", retryAfterSeconds: allowance.retryAfterSeconds };
  return { kind: "accepted", form, from, submission: await store(ctx, keys, input, form, from, checked.fields) };
}
