// Read-only tokens (docs/security.md, "Read-only tokens"): every write operation of the served
// OpenAPI document, at both addresses, sent with a read-only token of a super-administrator is
// refused 403 read_only_token and appends no event (every write appends one per object it
// wrote, test/events/every-write-route.test.ts), so nothing was written. The posts that write
// nothing (a check, a preview, a source resolved) answer as for any token; reads are served.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import type { TestApp } from "../support/app.ts";
import { ok, startTestApp } from "../seo/helpers.ts";
import { fixture, SCENARIO_ENV, send, SITE_WRITES, writeOperations, type Fixture } from "../support/write-scenarios.ts";
import { NETWORK_WRITES } from "../support/network-write-scenarios.ts";

/** Posts that write nothing: open to read-only tokens (their route's `writesNothing`). */
const WRITES_NOTHING = new Set(["checkFrames", "previewPage", "resolveDataSource", "mcp"]);
const WRITES = { ...SITE_WRITES, ...NETWORK_WRITES };
const siteTwin = (operationId: string) => operationId.replace(/Legacy$/, "");

describe("read-only tokens", () => {
  let t: TestApp;
  let readOnly: string;
  let shared: Fixture;
  before(async () => {
    t = await startTestApp({ checkAnswers: false, env: SCENARIO_ENV });
    const issued = ok(
      await t.call("POST", "/api/users/me/tokens", { body: { label: "agent", read_only: true } }),
      "read-only token",
      201,
    );
    readOnly = issued.token;
    shared = await fixture(t);
  });
  after(() => t.close());

  /** The id of the last event of the network (read as the super-administrator). */
  async function lastEvent(): Promise<number> {
    await t.settled();
    const events = ok(await t.call("GET", "/api/events?limit=1000&since=0"), "events").events as Array<{ id: number }>;
    return events.at(-1)?.id ?? 0;
  }

  it("is listed with read_only, and reads with it are served", async () => {
    const tokens = ok(await t.call("GET", "/api/users/me/tokens"), "tokens").tokens as any[];
    assert.deepEqual(
      tokens.map((token) => [token.label, token.read_only]),
      [
        ["SVC_ADMIN_TOKEN", false],
        ["agent", true],
      ],
    );
    ok(await t.call("GET", `/api/site/${shared.s.id}/pages`, { token: readOnly }), "pages read");
    ok(await t.call("GET", "/api/sites", { token: readOnly }), "sites read");
  });

  it("refuses every write operation of the document at both addresses, 403 read_only_token, writing nothing", async () => {
    const operations = [...(await writeOperations(t)).keys()];
    const checked: string[] = [];
    for (const operationId of operations) {
      const write = WRITES[siteTwin(operationId)];
      assert.ok(write, `${operationId}: no scenario in test/support/*write-scenarios.ts`);
      const f = write.prepare || write.languages ? await fixture(t, write.languages) : shared;
      const prepared = await write.prepare?.(f);
      const [method, path, body, sent = {}] = write.call(f, prepared);
      // Calls signed in without a token (login, the admin's logout) have no token to be read-only.
      if (sent.token === null) continue;
      const before = await lastEvent();
      const answer = await send(f, [method, path, body, { ...sent, token: readOnly }], operationId.endsWith("Legacy"));
      const what = `${operationId}: ${method} ${path}`;
      if (WRITES_NOTHING.has(siteTwin(operationId))) {
        ok(answer, what, write.status ?? 200);
        continue;
      }
      assert.equal(answer.status, 403, `${what}: ${answer.status} ${answer.text.slice(0, 300)}`);
      assert.equal(answer.body.code, "read_only_token", what);
      assert.equal(await lastEvent(), before, `${what} wrote nothing`);
      checked.push(operationId);
    }
    assert.ok(checked.length > 80, `${checked.length} writes refused`);
  });

  it("leaves the token's own user writing with its other tokens", async () => {
    ok(await t.call("POST", `/api/site/${shared.s.id}/menus`, { body: { name: "Still mine" } }), "admin write", 201);
  });
});
