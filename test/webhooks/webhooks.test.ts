// Webhooks (docs/webhooks.md) against a real HTTP receiver: made and read by the site's
// administrators, the secret shown only when made or rotated; the site's events of the hook's
// types are POSTed signed as Standard Webhooks says (checked with the `standardwebhooks` package),
// the event as GET /events shows it; a failed attempt is retried with the same webhook-id; a 410
// turns the hook off; a test event and a redelivery are sent at once.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { Webhook as Verifier } from "standardwebhooks";
import { makeSite, makeUser, startTestApp, type TestApp } from "../support/app.ts";
import { startReceiver, type Receiver } from "../support/webhook-receiver.ts";

const S = "/api/site/1";
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function verify(secret: string, received: { headers: Record<string, unknown>; body: string }): unknown {
  const headers = {
    "webhook-id": String(received.headers["webhook-id"]),
    "webhook-timestamp": String(received.headers["webhook-timestamp"]),
    "webhook-signature": String(received.headers["webhook-signature"]),
  };
  return new Verifier(secret).verify(received.body, headers);
}

describe("webhooks", { timeout: 120_000 }, () => {
  let t: TestApp;
  let receiver: Receiver;

  before(async () => {
    t = await startTestApp({ env: { SVC_WEBHOOKS_ALLOW_PRIVATE: "1" } });
    receiver = await startReceiver();
  });
  after(async () => {
    await t.close();
    await receiver.close();
  });

  const hook = async (body: Record<string, unknown>) => {
    const made = await t.call("POST", `${S}/webhooks`, { body });
    assert.equal(made.status, 201, made.text);
    return made.body.webhook as { id: number; secret: string };
  };
  const deliveries = async (id: number) =>
    (await t.call("GET", `${S}/webhooks/${id}/deliveries`)).body.deliveries as any[];

  it("a webhook is made with a secret shown only then: whsec_ and base64 of 32 bytes; reads never show it", async () => {
    const made = await t.call("POST", `${S}/webhooks`, {
      body: { url: receiver.url, events: ["menu"], description: "chat" },
    });
    assert.equal(made.status, 201);
    const { webhook } = made.body;
    assert.match(webhook.secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
    assert.equal(Buffer.from(webhook.secret.slice(6), "base64").length, 32);
    assert.deepEqual(
      [webhook.url, webhook.events, webhook.active, webhook.description],
      [receiver.url, ["menu"], true, "chat"],
    );
    const one = await t.call("GET", `${S}/webhooks/${webhook.id}`);
    const list = await t.call("GET", `${S}/webhooks`);
    const patched = await t.call("PATCH", `${S}/webhooks/${webhook.id}`, { body: { active: false } });
    assert.equal(patched.body.webhook.active, false);
    for (const answer of [one, list, patched])
      assert.ok(!answer.text.includes(webhook.secret) && !answer.text.includes('secret"'));
    const events = (await t.call("GET", `${S}/events?type=webhook`)).body.events as any[];
    assert.deepEqual(
      events.filter((event) => event.object.id === String(webhook.id)).map((event) => event.type),
      ["webhook.created", "webhook.updated"],
    );
    assert.ok(!JSON.stringify(events).includes(webhook.secret));
    assert.equal((await t.call("DELETE", `${S}/webhooks/${webhook.id}`)).status, 200);
    assert.equal((await t.call("GET", `${S}/webhooks/${webhook.id}`)).body.error, "webhook_not_found");
  });

  it("bad input is refused by field: no url, another scheme, a bad type prefix, a non-boolean active, nothing to change", async () => {
    const refused = async (method: string, path: string, body: unknown) =>
      (await t.call(method, `${S}${path}`, { body })).body;
    assert.equal((await refused("POST", "/webhooks", {})).field, "url");
    assert.equal((await refused("POST", "/webhooks", { url: "ftp://example.com/x" })).field, "url");
    assert.equal((await refused("POST", "/webhooks", { url: receiver.url, events: ["Frame!"] })).field, "events[0]");
    assert.equal((await refused("POST", "/webhooks", { url: receiver.url, active: "yes" })).field, "active");
    const { id } = await hook({ url: receiver.url });
    assert.equal((await refused("PATCH", `/webhooks/${id}`, {})).error, "nothing_to_update");
    await t.call("DELETE", `${S}/webhooks/${id}`);
  });

  it("another site's webhooks are not found, and an editor may not read them", async () => {
    const { id } = await hook({ url: receiver.url, active: false });
    const other = await makeSite(t, "Other", "other-hooks.test");
    assert.equal((await t.call("GET", `/api/site/${other}/webhooks/${id}`)).body.error, "webhook_not_found");
    assert.equal((await t.call("DELETE", `/api/site/${other}/webhooks/${id}`)).body.error, "webhook_not_found");
    const editor = await makeUser(t, "hook-editor");
    await t.call("PUT", `${S}/users/${editor.id}`, { body: { role: "editor" } });
    assert.equal((await t.call("GET", `${S}/webhooks`, { token: editor.token })).status, 403);
    await t.call("DELETE", `${S}/webhooks/${id}`);
  });

  it("the site's events of the hook's types are POSTed, signed so that standardwebhooks verifies them, the body the event as GET /events shows it", async () => {
    const { id, secret } = await hook({ url: receiver.url, events: ["frame"] });
    const start = receiver.received.length;
    await t.call("POST", `${S}/frames`, { body: { slug: "hooked", html: "<p>1</p>" } });
    await t.call("POST", `${S}/pages`, { body: { title: "Not a frame" } });
    const [got] = (await receiver.waitFor(start + 1)).slice(start);
    assert.equal(got.headers["content-type"], "application/json");
    const payload = verify(secret, got) as any;
    assert.equal(payload.type, "frame.created");
    assert.match(String(got.headers["webhook-id"]), /^msg_[0-9a-f]{32}$/);
    assert.ok(Math.abs(Number(got.headers["webhook-timestamp"]) - Date.now() / 1000) < 30);
    const [event] = (await t.call("GET", `${S}/events?type=frame.created&since=${payload.id - 1}&limit=1`)).body.events;
    assert.deepEqual(payload, event);
    assert.throws(() => verify(`whsec_${Buffer.alloc(32, 1).toString("base64")}`, got));
    await sleep(1500);
    assert.equal(receiver.received.length, start + 1, "the page's events are not the hook's types");
    const [delivery] = await deliveries(id);
    assert.equal(delivery.status, "delivered");
    assert.equal(delivery.event_id, payload.id);
    assert.equal(delivery.response_code, 204);
    await t.call("DELETE", `${S}/webhooks/${id}`);
  });

  it("after a rotation both secrets sign for a day: the signature header carries two, each verifies", async () => {
    const { id, secret } = await hook({ url: receiver.url, events: ["menu.created"] });
    const rotated = await t.call("POST", `${S}/webhooks/${id}/rotate`);
    assert.equal(rotated.status, 200);
    const fresh = rotated.body.webhook.secret as string;
    assert.notEqual(fresh, secret);
    assert.ok(Date.parse(rotated.body.webhook.previous_secret_expires_at) - Date.now() > 23.9 * 3600_000);
    const start = receiver.received.length;
    await t.call("POST", `${S}/menus`, { body: { name: "Rotated" } });
    const [got] = (await receiver.waitFor(start + 1)).slice(start);
    assert.equal(String(got.headers["webhook-signature"]).split(" ").length, 2);
    verify(fresh, got);
    verify(secret, got);
    await t.call("DELETE", `${S}/webhooks/${id}`);
  });

  it("a failed attempt is retried within a minute with the same webhook-id, and the delivery records both attempts", async () => {
    const { id } = await hook({ url: receiver.url, events: ["data"] });
    const start = receiver.received.length;
    receiver.answers.push(503);
    await t.call("PUT", `${S}/data/retried`, { body: { items: [{ n: 1 }] } });
    const [first, second] = (await receiver.waitFor(start + 2, 60_000)).slice(start);
    assert.equal(first.headers["webhook-id"], second.headers["webhook-id"]);
    assert.ok(second.at - first.at >= 3000, "the retry waits (about 5 s)");
    await sleep(100);
    const [delivery] = await deliveries(id);
    assert.deepEqual([delivery.status, delivery.attempts, delivery.response_code], ["delivered", 2, 204]);
    await t.call("DELETE", `${S}/webhooks/${id}`);
  });

  it("an answer 410 Gone turns the hook off: active false, nothing more is sent", async () => {
    const { id } = await hook({ url: receiver.url, events: ["sidebar"] });
    const start = receiver.received.length;
    receiver.answers.push(410);
    await t.call("PUT", `${S}/sidebars/gone`, { body: { items: [] } });
    await receiver.waitFor(start + 1);
    await sleep(300);
    assert.equal((await t.call("GET", `${S}/webhooks/${id}`)).body.webhook.active, false);
    await t.call("PUT", `${S}/sidebars/gone`, { body: { items: [{ url: "/x", title: "X" }] } });
    await sleep(1500);
    assert.equal(receiver.received.length, start + 1);
    assert.equal((await deliveries(id))[0].status, "failed");
    await t.call("DELETE", `${S}/webhooks/${id}`);
  });

  it("a test event is sent signed at once and answered; a redelivery sends the same message again", async () => {
    const { id, secret } = await hook({ url: receiver.url, events: ["nothing.yet"] });
    const start = receiver.received.length;
    const tested = await t.call("POST", `${S}/webhooks/${id}/test`);
    assert.equal(tested.status, 200);
    assert.deepEqual([tested.body.delivery.status, tested.body.delivery.type], ["delivered", "webhook.test"]);
    const [got] = (await receiver.waitFor(start + 1)).slice(start);
    assert.equal((verify(secret, got) as any).type, "webhook.test");
    const again = await t.call("POST", `${S}/webhooks/${id}/deliveries/${tested.body.delivery.id}/redeliver`);
    assert.equal(again.status, 200);
    assert.equal(again.body.delivery.message_id, tested.body.delivery.message_id);
    const [resent] = (await receiver.waitFor(start + 2)).slice(start + 1);
    assert.equal(resent.headers["webhook-id"], got.headers["webhook-id"]);
    verify(secret, resent);
    assert.equal(
      (await t.call("POST", `${S}/webhooks/${id}/deliveries/999999/redeliver`)).body.error,
      "delivery_not_found",
    );
    await t.call("DELETE", `${S}/webhooks/${id}`);
  });
});

describe("webhook addresses", () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  it("loopback, private, link-local, unspecified and metadata addresses are refused with 400 webhook_url_not_allowed, in any notation", async () => {
    for (const url of [
      "http://127.0.0.1/x",
      "http://localhost/x",
      "http://2130706433/x",
      "http://[::ffff:127.0.0.1]/x",
      "http://[::1]/x",
      "http://10.1.2.3/x",
      "https://192.168.0.1/x",
      "http://169.254.169.254/latest/meta-data",
      "http://0.0.0.0/x",
    ]) {
      const refused = await t.call("POST", `${S}/webhooks`, { body: { url } });
      assert.equal(refused.status, 400, url);
      assert.equal(refused.body.error, "webhook_url_not_allowed", url);
    }
    assert.equal((await t.call("GET", `${S}/webhooks`)).body.webhooks.length, 0);
  });
});
