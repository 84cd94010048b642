// `?dry_run=1` (or `true`) on DELETE (docs/foundation.md "Dry runs of deletes"): the
// answer is the delete's own, refusals included, with `dry_run: true, applied: false` (and a
// `rebaked` that rebaked nothing), and nothing is written: each test reads the object back, then
// deletes it for real and compares the two answers.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { makeSite, makeUser, startTestApp, type Answer, type TestApp } from "../support/app.ts";
import { noisyPng } from "../media/serving-helpers.ts";
import { uploadRaw } from "../media/upload-helpers.ts";

/** The dry run's answer is the delete's, but for the marks and the rebake report. */
function sameAnswer(dry: Answer, real: Answer): void {
  assert.equal(dry.status, 200, dry.text);
  assert.equal(real.status, 200, real.text);
  assert.equal(dry.body.dry_run, true);
  assert.equal(dry.body.applied, false);
  assert.equal(real.body.dry_run, undefined);
  assert.equal(real.body.applied, undefined);
  const { dry_run: _d, applied: _a, rebaked: dryRebaked, ...dryRest } = dry.body;
  const { rebaked: _r, ...realRest } = real.body;
  assert.deepEqual(dryRest, realRest);
  if (dryRebaked !== undefined) assert.deepEqual(dryRebaked.frames, [], "a dry run rebakes nothing");
}

function refused(r: Answer, status: number, code: string): void {
  assert.equal(r.status, status, r.text);
  assert.equal(r.body.error, code, r.text);
}

describe("dry runs of deletes", () => {
  let t: TestApp;
  let S: number;
  const at = (path: string) => `/api/site/${S}${path}`;
  before(async () => {
    t = await startTestApp();
    S = await makeSite(t, "Dry", "dry.localhost");
  });
  after(() => t.close());

  it("a value other than 1, true, 0 or false is 400 invalid_parameter; 0 and false delete", async () => {
    const created = await t.call("POST", at("/seo/redirects"), { body: { from: "/old/", to: "/new/" } });
    const id = created.body.redirect.id;
    const bad = await t.call("DELETE", at(`/seo/redirects/${id}?dry_run=yes`));
    refused(bad, 400, "invalid_parameter");
    assert.equal(bad.body.parameter, "dry_run");
    assert.equal((await t.call("GET", at("/seo/redirects"))).body.redirects.length, 1);
    const real = await t.call("DELETE", at(`/seo/redirects/${id}?dry_run=false`));
    assert.equal(real.status, 200);
    assert.equal(real.body.dry_run, undefined);
    assert.equal((await t.call("GET", at("/seo/redirects"))).body.redirects.length, 0);
  });

  it("media: the file and its used_by, 409 media_in_use without force, its bytes and record kept", async () => {
    assert.equal((await uploadRaw(t, S, await noisyPng(64, 32), { filename: "hero.png" })).status, 201);
    assert.equal(
      (
        await t.call("POST", at("/frames"), {
          body: { slug: "shows-hero", html: '<figure><!-- svc/image {"media": "hero"} /--></figure>' },
        })
      ).status,
      201,
    );
    const before = await t.call("GET", at("/media/hero"));

    const inUse = await t.call("DELETE", at("/media/hero?dry_run=1"));
    refused(inUse, 409, "media_in_use");
    assert.deepEqual(inUse.body.used_by, before.body.media.used_by);
    const dry = await t.call("DELETE", at("/media/hero?force=1&dry_run=true"));
    assert.equal(dry.status, 200, dry.text);
    assert.deepEqual(dry.body.media, before.body.media);

    const still = await t.call("GET", at("/media/hero"));
    assert.equal(still.status, 200);
    assert.deepEqual(still.body.media, before.body.media);
    const served = await t.app.inject({
      method: "GET",
      url: before.body.media.url,
      headers: { host: "dry.localhost" },
    });
    assert.equal(served.statusCode, 200, "the bytes are still served");

    sameAnswer(dry, await t.call("DELETE", at("/media/hero?force=1")));
    assert.equal((await t.call("GET", at("/media/hero"))).status, 404);
    refused(await t.call("DELETE", at("/media/hero?dry_run=1")), 404, "media_not_found");
  });

  it("redirects: the redirect as deleted, still served", async () => {
    const created = await t.call("POST", at("/seo/redirects"), { body: { from: "/gone/", to: "/here/", status: 302 } });
    const id = created.body.redirect.id;
    const dry = await t.call("DELETE", at(`/seo/redirects/${id}?dry_run=1`));
    assert.deepEqual(dry.body.deleted, created.body.redirect);
    const served = await t.app.inject({ method: "GET", url: "/gone/", headers: { host: "dry.localhost" } });
    assert.equal(served.statusCode, 302);
    assert.deepEqual(
      (await t.call("GET", at("/seo/redirects"))).body.redirects.map((r: { id: number }) => r.id),
      [id],
    );
    sameAnswer(dry, await t.call("DELETE", at(`/seo/redirects/${id}`)));
    refused(await t.call("DELETE", at(`/seo/redirects/${id}?dry_run=1`)), 404, "redirect_not_found");
  });

  it("domains: the domains that would be left; 409 domain_is_primary; the alias still answers", async () => {
    assert.equal(
      (await t.call("POST", `/api/sites/${S}/domains`, { body: { domain: "www.dry.localhost" } })).status,
      201,
    );
    const dry = await t.call("DELETE", `/api/sites/${S}/domains/www.dry.localhost?dry_run=1`);
    assert.deepEqual(dry.body.domains, [{ domain: "dry.localhost", primary: true, https: null, scheme: "http" }]);
    const listed = await t.call("GET", `/api/sites/${S}/domains`);
    assert.deepEqual(
      listed.body.domains.map((d: { domain: string }) => d.domain),
      ["dry.localhost", "www.dry.localhost"],
    );
    const alias = await t.app.inject({ method: "GET", url: "/", headers: { host: "www.dry.localhost" } });
    assert.equal(alias.statusCode, 301, "the alias still answers 301");
    refused(await t.call("DELETE", `/api/sites/${S}/domains/dry.localhost?dry_run=1`), 409, "domain_is_primary");
    refused(await t.call("DELETE", `/api/sites/${S}/domains/nowhere.localhost?dry_run=1`), 404, "domain_not_found");
    sameAnswer(dry, await t.call("DELETE", `/api/sites/${S}/domains/www.dry.localhost`));
  });

  it("site users: the role that would go; 404 membership_not_found; the user keeps it", async () => {
    const user = await makeUser(t, "dry-editor");
    assert.equal((await t.call("PUT", at(`/users/${user.id}`), { body: { role: "editor" } })).status, 200);
    const dry = await t.call("DELETE", at(`/users/${user.id}?dry_run=1`));
    assert.equal(dry.body.role, "editor");
    const roles = async () =>
      (await t.call("GET", "/api/profile", { token: user.token })).body.sites.map((s: { id: number; role: string }) => [
        s.id,
        s.role,
      ]);
    assert.deepEqual(await roles(), [[S, "editor"]], "the user keeps the role");
    sameAnswer(dry, await t.call("DELETE", at(`/users/${user.id}`)));
    assert.deepEqual(await roles(), []);
    refused(await t.call("DELETE", at(`/users/${user.id}?dry_run=1`)), 404, "membership_not_found");
  });

  it("tokens: the token that would be revoked keeps working; 404 token_not_found", async () => {
    const user = await makeUser(t, "dry-token");
    const listed = await t.call("GET", `/api/users/${user.id}/tokens`);
    const tokenId = listed.body.tokens[0].token_id;
    const dry = await t.call("DELETE", `/api/users/${user.id}/tokens/${tokenId}?dry_run=1`);
    assert.equal(dry.body.token_id, tokenId);
    assert.equal((await t.call("GET", "/api/profile", { token: user.token })).status, 200, "the token still works");
    assert.equal((await t.call("GET", `/api/users/${user.id}/tokens`)).body.total, 1);
    // A user may try revoking its own token.
    const own = await t.call("DELETE", `/api/users/me/tokens/${tokenId}?dry_run=1`, { token: user.token });
    assert.equal(own.status, 200, own.text);
    assert.equal((await t.call("GET", "/api/profile", { token: user.token })).status, 200);
    sameAnswer(dry, await t.call("DELETE", `/api/users/${user.id}/tokens/${tokenId}`));
    refused(await t.call("DELETE", `/api/users/${user.id}/tokens/${tokenId}?dry_run=1`), 404, "token_not_found");
  });

  it("sites: the site as deleted, 409 main_site, and everything in it still there", async () => {
    const id = await makeSite(t, "Doomed", "doomed.localhost");
    assert.equal(
      (await t.call("POST", `/api/site/${id}/frames`, { body: { slug: "keep", html: "<p>kept</p>" } })).status,
      201,
    );
    const dry = await t.call("DELETE", `/api/sites/${id}?dry_run=1`);
    assert.equal(dry.body.site.id, id);
    assert.equal((await t.call("GET", `/api/sites/${id}`)).status, 200);
    assert.equal((await t.call("GET", `/api/site/${id}/frames/keep`)).status, 200);
    refused(await t.call("DELETE", "/api/sites/1?dry_run=1"), 409, "main_site");
    const editor = await makeUser(t, "not-super");
    refused(await t.call("DELETE", `/api/sites/${id}?dry_run=1`, { token: editor.token }), 403, "insufficient_role");
    sameAnswer(dry, await t.call("DELETE", `/api/sites/${id}`));
    refused(await t.call("DELETE", `/api/sites/${id}?dry_run=1`), 404, "site_not_found");
  });

  it("languages: the languages and default that would be left; the language stays", async () => {
    for (const code of ["en", "de"])
      assert.equal((await t.call("POST", at("/languages"), { body: { code } })).status, 201);
    const before = await t.call("GET", at("/languages"));
    const dry = await t.call("DELETE", at("/languages/en?dry_run=1"));
    assert.equal(dry.status, 200, dry.text);
    assert.deepEqual(
      dry.body.languages.map((l: { code: string }) => l.code),
      ["de"],
    );
    assert.deepEqual(await t.call("GET", at("/languages")).then((r) => r.body), before.body);
    sameAnswer(dry, await t.call("DELETE", at("/languages/en")));
    refused(await t.call("DELETE", at("/languages/en?dry_run=1")), 400, "unknown_language");
  });

  it("pages: trashing and deleting for good write nothing", async () => {
    const page = (await t.call("POST", at("/pages"), { body: { title: "Kept", status: "publish" } })).body.page;
    for (const query of ["?dry_run=1", "?force=1&dry_run=true"]) {
      const dry = await t.call("DELETE", at(`/pages/${page.id}${query}`));
      assert.equal(dry.status, 200, dry.text);
      assert.equal(dry.body.dry_run, true);
      assert.equal(dry.body.applied, false);
      const read = await t.call("GET", at(`/pages/${page.id}`));
      assert.equal(read.body.page.status, "publish", query);
    }
  });

  it("legacy addresses too", async () => {
    const created = await t.call("POST", at("/seo/redirects"), { body: { from: "/legacy/", to: "/new/" } });
    const dry = await t.call("DELETE", `/api/seo/redirects/${created.body.redirect.id}?blog_id=${S}&dry_run=1`);
    assert.equal(dry.status, 200, dry.text);
    assert.equal(dry.body.applied, false);
    assert.equal((await t.call("GET", at("/seo/redirects"))).body.redirects.length, 1);
  });
});
