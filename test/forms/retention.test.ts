// Retention of form submissions (docs/forms.md, "Submissions"): the sweep deletes what is older than
// SVC_FORM_SUBMISSIONS_DAYS on every site, keeps the rest, and leaves quota `form_submissions` equal
// to a recount, run twice at once too; owed e-mails past the same age go. The forms' variables are
// read and refused by name (never quoting an SMTP password).
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { makeSite, startTestApp, type TestApp } from "../support/app.ts";
import { storeSubmission } from "../support/form-submissions.ts";
import { sweepSubmissions } from "../../src/forms/submissions-retention.ts";
import { queueNotification } from "../../src/forms/notify-queue.ts";
import { recountUsage, usageOf } from "../../src/quotas/usage.ts";
import { ConfigError, loadConfig } from "../../src/config.ts";

const DAY = 24 * 60 * 60 * 1000;

describe("forms: retention of submissions", () => {
  let t: TestApp;
  let other: number;
  before(async () => {
    t = await startTestApp({ checkAnswers: false });
    other = await makeSite(t, "Kept", "kept.localhost");
  });
  after(() => t.close());

  const count = async (siteId: number) =>
    (await t.store.db.selectFrom("form_submissions").select("id").where("site_id", "=", siteId).execute()).length;

  it("deletes submissions older than the days kept on every site, keeps the newer ones, and the counters equal a recount", async () => {
    const now = Date.now();
    const db = t.store.db;
    for (const [site, ages] of [
      [1, [400, 366, 364, 1]],
      [other, [1000, 10]],
    ] as const)
      for (const age of ages)
        await storeSubmission(db, site, "contact", { fields: { n: String(age) }, at: now - age * DAY });
    await queueNotification(db, 1, "contact", { to: ["a@example.test"], subject: "old", text: "old" }, now - 400 * DAY);
    await queueNotification(db, 1, "contact", { to: ["a@example.test"], subject: "new", text: "new" }, now);
    assert.equal((await usageOf(db, 1)).form_submissions, 4);

    // Two sweeps at once (two processes): each row freed once.
    const gone = await Promise.all([sweepSubmissions(db, 365, now), sweepSubmissions(db, 365, now)]);
    assert.equal(gone[0] + gone[1], 3);
    assert.deepEqual([await count(1), await count(other)], [2, 1]);
    for (const site of [1, other])
      assert.equal((await usageOf(db, site)).form_submissions, (await recountUsage(db, site)).form_submissions);
    assert.equal((await usageOf(db, 1)).form_submissions, 2);
    const owed = await db.selectFrom("form_notifications").select("message_json").execute();
    assert.deepEqual(
      owed.map((row) => JSON.parse(row.message_json).subject),
      ["new"],
    );
    assert.equal(await sweepSubmissions(db, 365, now), 0, "nothing more to sweep");
  });

  it("SVC_FORM_SUBMISSIONS_DAYS defaults to 365; SVC_SMTP_URL and SVC_MAIL_FROM are checked, a bad URL refused without its password", () => {
    const base = { SVC_DATA_DIR: t.dataDir };
    const config = loadConfig(base);
    assert.deepEqual([config.formSubmissionsDays, config.smtpUrl, config.mailFrom], [365, null, "noreply@localhost"]);
    const set = loadConfig({
      ...base,
      SVC_FORM_SUBMISSIONS_DAYS: "30",
      SVC_SMTP_URL: "smtps://forms:secret@mail.example.com:465",
      SVC_MAIL_FROM: "Example Site <forms@example.com>",
    });
    assert.deepEqual(
      [set.formSubmissionsDays, set.smtpUrl, set.mailFrom],
      [30, "smtps://forms:secret@mail.example.com:465", "Example Site <forms@example.com>"],
    );
    const refusals: Array<[string, string]> = [
      ["SVC_FORM_SUBMISSIONS_DAYS", "0"],
      ["SVC_FORM_SUBMISSIONS_DAYS", "a year"],
      ["SVC_SMTP_URL", "https://forms:hunter2@mail.example.com"],
      ["SVC_SMTP_URL", "not a url hunter2"],
      ["SVC_MAIL_FROM", "nobody"],
    ];
    for (const [variable, value] of refusals) {
      assert.throws(
        () => loadConfig({ ...base, [variable]: value }),
        (error: unknown) =>
          error instanceof ConfigError && error.variable === variable && !error.message.includes("hunter2"),
        `${variable}=${value}`,
      );
    }
  });
});
