// svc dev's proxy (src/cli/dev/proxy.ts) in front of a service that sends an https site's plain-HTTP
// requests to https (public/secure-front.ts): it says it stands for the site's scheme
// (X-Forwarded-Proto), so a service that trusts it answers the site; one that does not is
// explained in a 502, never a redirect back to svc dev itself (which a browser would follow forever).
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import { proxyRequest } from "../../src/cli/dev/proxy.ts";
import { makeSite, startTestApp, type TestApp } from "../support/app.ts";
import { assign, frame, page } from "../support/site.ts";

const DOMAIN = "secure.example.test";

async function httpsSite(t: TestApp): Promise<void> {
  const id = await makeSite(t, DOMAIN, DOMAIN);
  const S = `/api/site/${id}`;
  await frame(t, "hello", "<!DOCTYPE html><html><body><p>hello</p></body></html>", S);
  await assign(t, "hello", (await page(t, { title: "Hello", slug: "hello" }, S)).id, S);
  const set = await t.call("PATCH", `/api/sites/${id}/domains/${DOMAIN}`, { body: { https: true } });
  assert.equal(set.status, 200, set.text);
}

/** A service with `env`, listening, and svc dev's proxy in front of it for the https site. */
function devInFront(env: Record<string, string>) {
  const held: { t?: TestApp; dev?: Server; devOrigin?: string } = {};
  before(async () => {
    const t = await startTestApp({ env });
    await t.app.listen({ host: "127.0.0.1", port: 0 });
    await httpsSite(t);
    const serviceUrl = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
    const dev = createServer((req, res) =>
      proxyRequest({ serviceUrl, siteOrigin: `https://${DOMAIN}`, devOrigin: held.devOrigin! }, req, res),
    );
    await new Promise<void>((resolve) => dev.listen(0, "127.0.0.1", resolve));
    Object.assign(held, { t, dev, devOrigin: `http://127.0.0.1:${(dev.address() as { port: number }).port}` });
  });
  after(async () => {
    held.dev?.close();
    await held.t?.close();
  });
  return (path: string) => fetch(`${held.devOrigin}${path}`, { redirect: "manual" });
}

describe("svc dev's proxy before a service that trusts it (SVC_TRUST_PROXY=127.0.0.1)", () => {
  const get = devInFront({ SVC_TRUST_PROXY: "127.0.0.1" });

  it("an https site's page and sitemap are answered through it, not sent to https", async () => {
    const hello = await get("/hello/");
    assert.equal(hello.status, 200);
    assert.match(await hello.text(), /<p>hello<\/p>/);
    const sitemap = await get("/sitemap.xml");
    assert.equal(sitemap.status, 200);
    assert.match(await sitemap.text(), /https:\/\/secure\.example\.test\/hello\//);
  });
});

describe("svc dev's proxy before a service that does not trust it", () => {
  const get = devInFront({});

  it("a move of the same address to https is not passed on: 502 saying what to do", async () => {
    const answer = await get("/sitemap.xml");
    assert.equal(answer.status, 502);
    assert.equal(answer.headers.get("location"), null);
    assert.match(await answer.text(), /SVC_TRUST_PROXY/);
  });
});
