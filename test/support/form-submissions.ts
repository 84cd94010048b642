// Submissions stored as a visitor's would be (docs/forms.md, "Submissions"), for tests of what reads,
// exports and deletes them: a row of form_submissions and its place of quota `form_submissions`,
// taken in one transaction as the submitting route takes it.
import { gmt } from "../../src/clock.ts";
import { chargeRoom, holdRoom } from "../../src/quotas/usage.ts";
import type { Db } from "../../src/store/database.ts";

export interface StoredSubmission {
  fields: Record<string, string>;
  pageId?: number | null;
  lang?: string | null;
  userAgent?: string;
  /** When it was sent (default now). */
  at?: number;
}

/** Stores the submission; answers its id. */
export async function storeSubmission(db: Db, siteId: number, form: string, sent: StoredSubmission): Promise<number> {
  return db.transaction().execute(async (trx) => {
    await holdRoom(trx, siteId);
    const row = await trx
      .insertInto("form_submissions")
      .values({
        site_id: siteId,
        form,
        fields_json: JSON.stringify(sent.fields),
        page_id: sent.pageId ?? null,
        lang: sent.lang ?? null,
        user_agent: sent.userAgent ?? "Mozilla/5.0 (test)",
        address_hash: "hash-of-the-address",
        created_at_gmt: gmt(sent.at ?? Date.now()),
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await chargeRoom(trx, siteId, { form_submissions: 1 });
    return row.id;
  });
}
