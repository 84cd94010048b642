// Events (docs/events.md): every write appends, in its own transaction, one event per object it
// wrote and one site.changed; a dry run appends none; GET /events reads them after ?since by ?type.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { makeUser, startTestApp, type TestApp } from "../support/app.ts";

describe("events", () => {
  let t: TestApp;
  const S = "/api/site/1";
  const events = async (query = "") => (await t.call("GET", `${S}/events${query}`)).body.events as any[];
  const last = async () => {
    const all = await events("?limit=1000");
    return all.at(-1)?.id ?? 0;
  };
  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  it("a frame's creation appends frame.created and site.changed, with who wrote it and the request's id", async () => {
    const since = await last();
    const made = await t.call("POST", `${S}/frames`, { body: { slug: "card", html: "<p>1</p>" } });
    assert.equal(made.status, 201);
    const appended = await events(`?since=${since}`);
    assert.deepEqual(
      appended.map((event) => event.type),
      ["frame.created", "site.changed"],
    );
    const [created] = appended;
    assert.equal(created.object.kind, "frame");
    assert.equal(created.object.id, made.body.frame.id);
    assert.equal(created.object.slug, "card");
    assert.equal(created.actor.user_id, 1);
    assert.equal(typeof created.actor.token_id, "number");
    assert.equal(created.request_id, made.headers["x-request-id"]);
    assert.match(created.at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.equal(created.changes.sha256_before, null);
    assert.equal(created.changes.sha256_after, made.body.frame.sha256);
  });

  it("an update carries the sha256 before and after; a dry run appends nothing", async () => {
    const since = await last();
    const before = (await t.call("GET", `${S}/frames/card`)).body.frame.sha256;
    assert.equal((await t.call("PUT", `${S}/frames/card?dry_run=1`, { body: { html: "<p>dry</p>" } })).status, 200);
    assert.deepEqual(await events(`?since=${since}`), []);
    const put = await t.call("PUT", `${S}/frames/card`, { body: { html: "<p>2</p>" } });
    const [updated] = await events(`?since=${since}`);
    assert.equal(updated.type, "frame.updated");
    assert.equal(updated.changes.sha256_before, before);
    assert.equal(updated.changes.sha256_after, put.body.frame.sha256);
  });

  it("?type matches a type or its prefix, ?since is exclusive and ?limit caps the answer", async () => {
    const since = await last();
    await t.call("POST", `${S}/pages`, { body: { title: "About" } });
    await t.call("DELETE", `${S}/frames/card`);
    const deleted = await events(`?since=${since}&type=frame`);
    assert.deepEqual(
      deleted.map((event) => [event.type, event.object.slug]),
      [["frame.deleted", "card"]],
    );
    assert.deepEqual(
      (await events(`?since=${since}&type=page.created`)).map((event) => event.type),
      ["page.created"],
    );
    const two = await events(`?since=${since}&limit=2`);
    assert.equal(two.length, 2);
    assert.ok(two[0].id > since && two[1].id > two[0].id);
    const refused = await t.call("GET", `${S}/events?limit=1001`);
    assert.equal(refused.status, 400);
    assert.equal(refused.body.error, "invalid_parameter");
  });

  it("a page whose status becomes publish is page.published, and page.unpublished when it leaves it; a data set is named by its name", async () => {
    const since = await last();
    const page = (await t.call("POST", `${S}/pages`, { body: { title: "News", status: "draft" } })).body.page;
    await t.call("PATCH", `${S}/pages/${page.id}`, { body: { status: "publish" } });
    await t.call("PATCH", `${S}/pages/${page.id}`, { body: { title: "All the news" } });
    await t.call("PATCH", `${S}/pages/${page.id}`, { body: { status: "draft" } });
    await t.call("PUT", `${S}/data/team`, { body: { items: [{ name: "Ada" }] } });
    const types = (await events(`?since=${since}`)).filter((event) => event.type !== "site.changed");
    assert.deepEqual(
      types.map((event) => [event.type, event.object.slug]),
      [
        ["page.created", "news"],
        ["page.published", "news"],
        ["page.updated", "news"],
        ["page.unpublished", "news"],
        ["data.created", "team"],
      ],
    );
    assert.deepEqual(types[2].changes.fields, ["title"]);
  });

  it("a page put in the trash is page.deleted whatever the call, and page.restored when it leaves it", async () => {
    const page = (await t.call("POST", `${S}/pages`, { body: { title: "Binned" } })).body.page;
    const since = await last();
    await t.call("PATCH", `${S}/pages/${page.id}`, { body: { status: "trash" } });
    await t.call("PATCH", `${S}/pages/${page.id}`, { body: { status: "draft" } });
    await t.call("DELETE", `${S}/pages/${page.id}`);
    await t.call("DELETE", `${S}/pages/${page.id}?force=true`);
    const types = (await events(`?since=${since}`)).filter((event) => event.type !== "site.changed");
    assert.deepEqual(
      types.map((event) => [event.type, event.object.id]),
      [
        ["page.deleted", String(page.id)],
        ["page.restored", String(page.id)],
        ["page.deleted", String(page.id)],
        ["page.deleted", String(page.id)],
      ],
    );
  });

  it("a site's events are its administrators': an editor gets 403; the network's are the super-administrators'", async () => {
    const editor = await makeUser(t, "events-editor");
    assert.equal((await t.call("PUT", `${S}/users/${editor.id}`, { body: { role: "editor" } })).status, 200);
    const refused = await t.call("GET", `${S}/events`, { token: editor.token });
    assert.equal(refused.status, 403);
    assert.equal((await t.call("GET", "/api/events", { token: editor.token })).status, 403);
    const network = await t.call("GET", "/api/events?type=token");
    assert.equal(network.status, 200);
    assert.ok(network.body.events.some((event: any) => event.type === "token.created" && event.site_id === null));
    const legacy = await t.call("GET", "/api/events?blog_id=1&type=member");
    assert.deepEqual(
      legacy.body.events.map((event: any) => [event.type, event.site_id]),
      [["member.added", 1]],
    );
  });
  it("an event tells what its write published once its publish run is over: the pages rebaked and their public addresses; a write that publishes nothing has nothing", async () => {
    const since = await last();
    const layout = "<html><body><!-- svc/bind page.title /--></body></html>";
    await t.call("POST", `${S}/frames`, { body: { slug: "shown", html: layout } });
    const page = await t.call("POST", `${S}/pages`, { body: { title: "Shown", frame: "shown", status: "publish" } });
    assert.equal(page.status, 201);
    const domain = (await t.call("GET", "/api/sites/1")).body.site.domain as string;
    let appended: any[] = [];
    for (let tries = 0; tries < 50; tries++) {
      appended = await events(`?since=${since}`);
      if (appended.every((event) => event.published !== null)) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const byType = (type: string) => appended.filter((event) => event.type === type);
    assert.deepEqual(byType("frame.created")[0].published, { rebaked: 0, urls: [] });
    const created = byType("page.created")[0];
    assert.equal(created.published.rebaked, 1);
    assert.equal(created.published.urls.length, 1);
    assert.match(created.published.urls[0], new RegExp(`^http://${domain.replace(/\./g, "\\.")}(:\\d+)?/shown/$`));
    assert.deepEqual(byType("site.changed")[1].published, created.published);
  });
});
