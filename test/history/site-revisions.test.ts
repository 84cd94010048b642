// GET /api/site/{id}/revisions (docs/revisions.md, "Recent changes"): every revision of every kind
// of the site, newest first, each with the address of its object's own history calls.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { makeSite, makeUser, startTestApp, type TestApp } from "../support/app.ts";

describe("the site's recent changes", () => {
  let t: TestApp;
  let site: number;
  let S: string;
  before(async () => {
    t = await startTestApp();
    site = await makeSite(t, "History", "history.example");
    S = `/api/site/${site}`;
    assert.equal((await t.call("POST", `${S}/languages`, { body: { code: "de" } })).status, 201);
    assert.equal((await t.call("POST", `${S}/frames`, { body: { slug: "card", html: "<p>1</p>" } })).status, 201);
    assert.equal((await t.call("POST", `${S}/pages`, { body: { title: "About" } })).status, 201);
    const data = await t.call("PUT", `${S}/data/team`, { body: { items: [{ name: "Ada" }] }, query: { lang: "de" } });
    assert.ok(data.status === 200 || data.status === 201, data.text);
    assert.equal((await t.call("PUT", `${S}/frames/card`, { body: { html: "<p>2</p>" } })).status, 200);
  });
  after(() => t.close());

  it("lists every kind's revisions newest first, each with the address of its own history calls", async () => {
    const answer = await t.call("GET", `${S}/revisions`);
    assert.equal(answer.status, 200, answer.text);
    const kinds = answer.body.changes.map(
      (change: { kind: string; revision: number }) => `${change.kind} ${change.revision}`,
    );
    assert.deepEqual(kinds, ["frames 2", "data 1", "pages 1", "frames 1"]);
    assert.equal(answer.body.total, 4);
    for (const change of answer.body.changes) {
      const own = await t.call("GET", `${S}${change.address.replace(/(\?|$)/, "/revisions$1")}`);
      assert.equal(own.status, 200, `${change.address}: ${own.text}`);
      assert.ok(own.body.revisions.some((r: { revision: number }) => r.revision === change.revision));
    }
    assert.match(answer.body.changes[1].address, /^\/data\/team\?lang=de$/);
  });

  it("is paged like every list, and an editor reads it; a user with no role on the site gets 404", async () => {
    const paged = await t.call("GET", `${S}/revisions?per_page=1&page=2`);
    assert.deepEqual(
      paged.body.changes.map((change: { kind: string }) => change.kind),
      ["data"],
    );
    assert.equal(paged.headers["x-wp-total"], "4");
    const editor = await makeUser(t, "history-editor");
    assert.equal((await t.call("PUT", `${S}/users/${editor.id}`, { body: { role: "editor" } })).status, 200);
    assert.equal((await t.call("GET", `${S}/revisions`, { token: editor.token })).status, 200);
    const stranger = await makeUser(t, "history-stranger");
    const refused = await t.call("GET", `${S}/revisions`, { token: stranger.token });
    assert.equal(refused.status, 404);
  });
});
