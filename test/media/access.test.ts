// Who may call the media API, and which site it acts on (the same auth, roles, rate limits,
// envelopes and site isolation as every other group; src/http/site-scope.ts): no token is
// 401, a non-member is told the site does not exist (an editor may use media: docs/roles.md,
// test/http/roles.test.ts), and the legacy address /api/media… picks its site by blog_id,
// X-Svc-Blog-Id or domain on every call, for administrators only.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { makeSite, makeUser, startTestApp, type Answer, type TestApp } from "../support/app.ts";
import { noisyPng } from "./serving-helpers.ts";
import { site, storedBlobs, uploadRaw } from "./upload-helpers.ts";

/** A refusal raised before the handler, in the `{code, message, data}` envelope. */
function preRefusal(r: Answer, status: number, code: string, what: string): void {
  assert.equal(r.status, status, `${what}: ${r.text.slice(0, 300)}`);
  assert.equal(r.body?.code, code, what);
  assert.equal(r.body?.data?.status, status, what);
}

describe("media API: tokens and roles", () => {
  let t: TestApp;
  let S: number;
  let png: Buffer;
  let editor: { id: number; token: string };
  let stranger: { id: number; token: string };
  let before_: Answer;

  /** Every media call on `prefix`, with `token` (null: none). */
  const everyCall = (prefix: string, token: string | null) =>
    [
      ["GET /media", () => t.call("GET", `${prefix}/media`, { token })],
      ["GET /media/{ref}", () => t.call("GET", `${prefix}/media/guarded`, { token })],
      [
        "POST /media",
        () =>
          t.call("POST", `${prefix}/media?filename=x.png`, {
            token,
            payload: png,
            headers: { "content-type": "image/png" },
          }),
      ],
      ["PATCH /media/{ref}", () => t.call("PATCH", `${prefix}/media/guarded`, { token, body: { alt: "changed" } })],
      [
        "PUT /media/{ref}",
        () =>
          t.call("PUT", `${prefix}/media/guarded?filename=y.png`, {
            token,
            payload: png,
            headers: { "content-type": "image/png" },
          }),
      ],
      ["DELETE /media/{ref}", () => t.call("DELETE", `${prefix}/media/guarded?force=1`, { token })],
    ] as Array<[string, () => Promise<Answer>]>;

  before(async () => {
    t = await startTestApp();
    S = await makeSite(t, "Guarded", "guarded.localhost");
    png = await noisyPng(40, 30);
    assert.equal((await uploadRaw(t, S, await noisyPng(50, 50), { filename: "guarded.png" })).status, 201);
    editor = await makeUser(t, "media-editor");
    assert.equal((await t.call("PUT", `${site(S)}/users/${editor.id}`, { body: { role: "editor" } })).status, 200);
    stranger = await makeUser(t, "media-stranger");
    before_ = await t.call("GET", `${site(S)}/media/guarded`);
  });
  after(() => t.close());

  /** Nothing the refused calls sent was kept: the file as it was, no other file, no other blob. */
  async function unchanged(): Promise<void> {
    assert.deepEqual((await t.call("GET", `${site(S)}/media/guarded`)).body, before_.body);
    assert.equal((await t.call("GET", `${site(S)}/media`)).body.total, 1);
    assert.deepEqual(storedBlobs(t.dataDir), [before_.body.media.sha256]);
  }

  it("no token is 401 missing_token on every media call, at both addresses, and changes nothing", async () => {
    for (const prefix of [site(S), "/api", site(987654)]) {
      for (const [what, call] of everyCall(prefix, null))
        preRefusal(await call(), 401, "missing_token", `${prefix} ${what}`);
    }
    await unchanged();
  });

  it("a user of no site gets 404 site_not_found on /api/site/{id}/media…, the same answer as a site that does not exist", async () => {
    const nowhere = await t.call("GET", `${site(987654)}/media`);
    preRefusal(nowhere, 404, "site_not_found", "an unknown site");
    for (const [what, call] of everyCall(site(S), stranger.token)) {
      const r = await call();
      preRefusal(r, 404, "site_not_found", what);
      assert.deepEqual(r.body, nowhere.body, `${what}: nothing tells the site exists`);
    }
    await unchanged();
  });

  it("on the legacy address an editor and a non-member get 403 insufficient_role, whatever selects the site", async () => {
    for (const user of [editor, stranger]) {
      for (const [what, call] of everyCall(`/api`, user.token))
        preRefusal(await call(), 403, "insufficient_role", `main site ${what}`);
      for (const query of [`blog_id=${S}`, "domain=guarded.localhost"]) {
        preRefusal(await t.call("GET", `/api/media?${query}`, { token: user.token }), 403, "insufficient_role", query);
        preRefusal(
          await t.call("PATCH", `/api/media/guarded?${query}`, { token: user.token, body: { alt: "x" } }),
          403,
          "insufficient_role",
          query,
        );
      }
      preRefusal(
        await t.call("DELETE", "/api/media/guarded?force=1", {
          token: user.token,
          headers: { "x-svc-blog-id": String(S) },
        }),
        403,
        "insufficient_role",
        "header",
      );
    }
    await unchanged();
  });
});

describe("media API on the legacy address /api/media…", () => {
  let t: TestApp;
  let S: number;
  const host = "legacy-media.localhost";
  before(async () => {
    t = await startTestApp();
    S = await makeSite(t, "Legacy media", host);
    assert.equal((await uploadRaw(t, S, await noisyPng(60, 40), { filename: "shared-name.png" })).status, 201);
    assert.equal(
      (await uploadRaw(t, 1, await noisyPng(61, 40), { filename: "shared-name.png" })).status,
      201,
      "the main site has a file of the same slug",
    );
  });
  after(() => t.close());

  const selectors: Array<[string, string, Record<string, string>]> = [
    ["blog_id", "?blog_id=SITE", {}],
    ["header", "", { "x-svc-blog-id": "SITE" }],
    ["domain", `?domain=${host}`, {}],
  ];
  const withSite = (value: string | Record<string, string>) =>
    typeof value === "string"
      ? value.replace("SITE", String(S))
      : Object.fromEntries(Object.entries(value).map(([k, v]) => [k, v.replace("SITE", String(S))]));
  const join = (path: string, query: string, more = "") =>
    `${path}${query}${more ? `${query ? "&" : "?"}${more}` : ""}`;

  for (const [source, rawQuery, rawHeaders] of selectors) {
    it(`selected by ${source}: GET, PATCH, PUT and DELETE act on that site's file (site_id, X-Svc-Blog-Source: ${source}), never the main site's of the same slug`, async () => {
      const query = withSite(rawQuery) as string;
      const headers = withSite(rawHeaders) as Record<string, string>;
      const mainBefore = (await t.call("GET", `${site(1)}/media/shared-name`)).body.media;
      const own = (await uploadRaw(t, S, await noisyPng(70, 30), { filename: `by-${source}.png` })).body.media;

      const listed = await t.call("GET", join("/api/media", query), { headers });
      assert.equal(listed.status, 200, listed.text);
      assert.equal(listed.headers["x-svc-blog-source"], source);
      assert.equal(listed.body.site_id, S);
      assert.ok(listed.body.media.some((m: { id: number }) => m.id === own.id));
      assert.ok(!listed.body.media.some((m: { id: number }) => m.id === mainBefore.id), "not the main site's files");

      const read = await t.call("GET", join(`/api/media/${own.slug}`, query), { headers });
      assert.deepEqual(
        [read.status, read.headers["x-svc-blog-source"], read.body.site_id, read.body.media],
        [200, source, S, own],
      );

      const patched = await t.call("PATCH", join("/api/media/shared-name", query), {
        headers,
        body: { alt: `alt by ${source}` },
      });
      assert.equal(patched.status, 200, patched.text);
      assert.deepEqual([patched.headers["x-svc-blog-source"], patched.body.site_id], [source, S]);
      assert.equal((await t.call("GET", `${site(S)}/media/shared-name`)).body.media.alt[""], `alt by ${source}`);
      assert.deepEqual(
        (await t.call("GET", `${site(1)}/media/shared-name`)).body.media,
        mainBefore,
        "the main site's file of that slug is untouched",
      );

      const bytes = await noisyPng(90, 45);
      const replaced = await t.call("PUT", join(`/api/media/${own.id}`, query, "filename=replaced.png"), {
        headers: { ...headers, "content-type": "image/png" },
        payload: bytes,
      });
      assert.equal(replaced.status, 200, replaced.text);
      assert.deepEqual(
        [
          replaced.headers["x-svc-blog-source"],
          replaced.body.site_id,
          replaced.body.media.id,
          replaced.body.media.width,
        ],
        [source, S, own.id, 90],
      );
      const readBack = (await t.call("GET", `${site(S)}/media/${own.id}`)).body.media;
      assert.deepEqual([readBack.filename, readBack.sha256], ["replaced.png", replaced.body.media.sha256]);
      const served = await t.app.inject({ method: "GET", url: readBack.url, headers: { host } });
      assert.equal(served.statusCode, 200);
      assert.ok(served.rawPayload.equals(bytes), "the new bytes answer on the site's domain");

      const deleted = await t.call("DELETE", join(`/api/media/${own.slug}`, query), { headers });
      assert.equal(deleted.status, 200, deleted.text);
      assert.deepEqual(
        [deleted.headers["x-svc-blog-source"], deleted.body.site_id, deleted.body.media.id],
        [source, S, own.id],
      );
      assert.equal((await t.call("GET", `${site(S)}/media/${own.id}`)).status, 404);
      assert.deepEqual((await t.call("GET", `${site(1)}/media/shared-name`)).body.media, mainBefore);
    });
  }

  it("with no selector the legacy address is the main site's (X-Svc-Blog-Source: default)", async () => {
    const r = await t.call("GET", "/api/media/shared-name");
    assert.equal(r.status, 200);
    assert.deepEqual([r.headers["x-svc-blog-source"], r.body.site_id], ["default", 1]);
    assert.equal(r.body.media.id, (await t.call("GET", `${site(1)}/media/shared-name`)).body.media.id);
  });
});
