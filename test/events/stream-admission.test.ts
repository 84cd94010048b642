// An open event stream's caller is asked again (docs/events.md, "The stream"; events/stream-admission.ts):
// before events go out and at each keep-alive, the token it was opened with must still exist (the
// admin session still live), and its user must still administer the site (the network's stream:
// be a super-administrator). Once not, the stream ends without sending anything written since.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { makeUser, startTestApp, type Answer, type TestApp } from "../support/app.ts";
import { openSse, type SseAnswer } from "../support/sse-client.ts";

const S = "/api/site/1";
const ADMIN_HOST = "admin.localhost";
const PASSWORD = "correct horse battery";

/** An administrator of site 1 with a token of their own. */
async function siteAdmin(t: TestApp, login: string) {
  const user = await makeUser(t, login, { password: PASSWORD });
  assert.equal((await t.call("PUT", `${S}/users/${user.id}`, { body: { role: "administrator" } })).status, 200);
  const tokens = await t.call("GET", `/api/users/${user.id}/tokens`);
  return { ...user, tokenId: tokens.body.tokens[0].token_id as number };
}

function streamsOf(t: () => TestApp) {
  const open: SseAnswer[] = [];
  return {
    async open(path: string, headers: Record<string, string>): Promise<SseAnswer> {
      const port = (t().app.server.address() as { port: number }).port;
      const answer = await openSse(port, path, headers);
      open.push(answer);
      assert.equal(answer.status, 200, answer.text);
      await answer.until((blocks) => blocks.length >= 1);
      return answer;
    },
    close: () => {
      for (const answer of open) answer.close();
    },
  };
}

/** Writes on site 1, as the super-administrator: events any stream of site 1 would be sent. */
const write = (t: TestApp, slug: string) =>
  t.call("POST", `${S}/frames`, { body: { slug, html: `<p>${slug}</p>` } }).then((r: Answer) => {
    assert.equal(r.status, 201, r.text);
  });

/** An app listening on a socket for the suite, with keep-alives every `keepAliveMs`, and its streams closed after it. */
function listeningApp(keepAliveMs: number) {
  const held: { t?: TestApp } = {};
  const streams = streamsOf(() => held.t!);
  before(async () => {
    held.t = await startTestApp({ build: { eventStreams: { keepAliveMs } } });
    await held.t.app.listen({ host: "127.0.0.1", port: 0 });
  });
  after(async () => {
    streams.close();
    await held.t?.close();
  });
  return { app: () => held.t!, streams };
}

describe("an open stream whose caller may no longer read it: events written since are not sent", () => {
  // Keep-alives far apart: what ends these streams is the check before events go out.
  const { app, streams } = listeningApp(600_000);
  let t: TestApp;
  before(() => {
    t = app();
  });

  it("the token it was opened with revoked: the next events end it, unsent", async () => {
    const admin = await siteAdmin(t, "revoked-admin");
    const stream = await streams.open(`${S}/events/stream`, { authorization: `Bearer ${admin.token}` });
    await write(t, "before-revoke");
    await stream.until((blocks) => blocks.some((block) => block.event === "frame.created"));
    const seen = stream.events().length;
    const revoked = await t.call("DELETE", `/api/users/${admin.id}/tokens/${admin.tokenId}`);
    assert.equal(revoked.status, 200, revoked.text);
    await write(t, "after-revoke");
    await stream.ended;
    assert.equal(stream.events().length, seen, "an event written after the revocation was sent");
    assert.ok(!stream.events().some((block) => block.data?.includes("after-revoke")));
  });

  it("its user made an editor of the site, or removed from it: the next events end it, unsent", async () => {
    const demoted = await siteAdmin(t, "demoted-admin");
    const removed = await siteAdmin(t, "removed-admin");
    const one = await streams.open(`${S}/events/stream`, { authorization: `Bearer ${demoted.token}` });
    const two = await streams.open(`/api/events/stream?blog_id=1`, { authorization: `Bearer ${removed.token}` });
    assert.equal((await t.call("PUT", `${S}/users/${demoted.id}`, { body: { role: "editor" } })).status, 200);
    assert.equal((await t.call("DELETE", `${S}/users/${removed.id}`)).status, 200);
    await write(t, "after-demotion");
    await Promise.all([one.ended, two.ended]);
    assert.deepEqual(
      [one, two].map((stream) => stream.events().filter((block) => block.data?.includes("after-demotion")).length),
      [0, 0],
    );
  });

  it("a stream whose caller still may read it goes on: its administrator's stream beside them receives the events", async () => {
    const kept = await siteAdmin(t, "kept-admin");
    const stream = await streams.open(`${S}/events/stream`, { authorization: `Bearer ${kept.token}` });
    await write(t, "still-read");
    await stream.until((blocks) => blocks.some((block) => block.data?.includes("still-read")));
  });
});

describe("an idle open stream whose caller may no longer read it ends at its next keep-alive", () => {
  const { app, streams } = listeningApp(100);
  let t: TestApp;
  before(() => {
    t = app();
  });

  it("the network's stream of a super-administrator's token, once the token is revoked", async () => {
    const root = await makeUser(t, "stream-root", { super_admin: true });
    const tokens = await t.call("GET", `/api/users/${root.id}/tokens`);
    const stream = await streams.open("/api/events/stream", { authorization: `Bearer ${root.token}` });
    await stream.until((blocks) => blocks.filter((block) => block.comments.includes("keep-alive")).length >= 2);
    assert.equal(
      (await t.call("DELETE", `/api/users/${root.id}/tokens/${tokens.body.tokens[0].token_id}`)).status,
      200,
    );
    await stream.ended;
  });

  it("a stream opened by the admin's session cookie, once the session is signed out", async () => {
    await siteAdmin(t, "session-admin");
    const login = await t.call("POST", "/api/login", {
      token: null,
      headers: { host: ADMIN_HOST },
      body: { login: "session-admin", password: PASSWORD, session: true },
    });
    assert.equal(login.status, 200, login.text);
    const cookie = String(login.headers["set-cookie"]).split(";")[0];
    const session = await t.call("GET", "/api/session", { token: null, headers: { host: ADMIN_HOST, cookie } });
    const stream = await streams.open(`${S}/events/stream`, { host: ADMIN_HOST, cookie });
    await stream.until((blocks) => blocks.filter((block) => block.comments.includes("keep-alive")).length >= 2);
    const out = await t.call("POST", "/api/logout", {
      token: null,
      headers: { host: ADMIN_HOST, cookie, "x-csrf-token": session.body.csrf_token },
    });
    assert.equal(out.status, 200, out.text);
    await stream.ended;
  });
});
