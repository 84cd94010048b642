// The svc command line (dist/cli.js as a process): usage errors exit 2, a refusal of the API is one
// `code: message` line with exit 1, --json prints one document for every command, --env with
// svc.json, svc login saving a token outside the folder, and a site with languages and media
// pulled and pushed back unchanged.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseOne, read, runSvc, serve, tempDir, write, type Served } from "./harness.ts";

const SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="12" height="8"><rect width="12" height="8" fill="#c00"/></svg>';

describe("usage", () => {
  for (const [args, pattern] of [
    [["frobnicate"], /unknown command 'frobnicate'/],
    [["push", "--bogus"], /unknown option '--bogus'/],
    [["push", "--only", "frames,widgets"], /"widgets" is not a kind/],
    [["status", "/no/such/folder"], /no such folder/],
    [["watch", "--debounce", "soon"], /--debounce soon/],
    [[], /a command is needed/],
  ] as const) {
    it(`svc ${args.join(" ") || "(nothing)"}: exit 2 and one line`, async () => {
      const run = await runSvc([...args], { env: { SVC_URL: "http://127.0.0.1:9", SVC_TOKEN: "op_x" } });
      assert.equal(run.code, 2, run.stdout + run.stderr);
      assert.match(run.stderr, pattern);
      assert.equal(run.stdout, "");
    });
  }

  it("no service given: exit 2 naming SVC_URL, --url and --env; --json makes it one JSON document", async () => {
    const run = await runSvc(["status", "--json"], { env: { SVC_URL: undefined, SVC_TOKEN: undefined } });
    assert.equal(run.code, 2);
    const doc = parseOne(run);
    assert.deepEqual([doc.ok, doc.exit, doc.error.code], [false, 2, "usage"]);
    assert.match(doc.error.message, /SVC_URL.*--url.*--env/);
  });

  it("--help and --version exit 0", async () => {
    assert.equal((await runSvc(["--help"])).code, 0);
    assert.match((await runSvc(["push", "--help"])).stdout, /--dry-run/);
    assert.match((await runSvc(["--version"])).stdout, /^\d+\.\d+\.\d+/);
  });
});

describe("against the service", () => {
  let t: Served;
  before(async () => {
    t = await serve();
  });
  after(() => t.stop());

  it("a refused token is one line `invalid_token: …` and exit 1", async () => {
    const run = await t.svc(["status", tempDir("svc-cli-x-")], { env: { SVC_TOKEN: `op_${"0".repeat(64)}` } });
    assert.equal(run.code, 1);
    assert.match(run.stderr.trim(), /^invalid_token: .+$/);
  });

  it("an unreachable service is exit 1 with one line", async () => {
    const run = await t.svc(["status", tempDir("svc-cli-x-")], { env: { SVC_URL: "http://127.0.0.1:9" } });
    assert.equal(run.code, 1);
    assert.match(run.stderr.trim(), /^unreachable: cannot reach http:\/\/127\.0\.0\.1:9/);
  });

  it("--env takes url and site from the folder's svc.json; --site overrides it", async () => {
    const dir = tempDir("svc-cli-env-");
    writeFileSync(
      join(dir, "svc.json"),
      JSON.stringify({ environments: { local: { url: t.url, site: 1 }, other: { url: t.url, site: 99 } } }),
    );
    const ok = await t.svc(["status", dir, "--env", "local", "--json"], { env: { SVC_URL: "http://127.0.0.1:9" } });
    assert.equal(ok.code, 0, ok.stderr);
    assert.deepEqual(parseOne(ok).target, { url: t.url, site: 1 });
    const missing = await t.svc(["status", dir, "--env", "other"]);
    assert.equal(missing.code, 1, "site 99 does not exist");
    assert.match(missing.stderr, /^site_not_found: /m);
    const overridden = await t.svc(["status", dir, "--env", "other", "--site", "1"]);
    assert.equal(overridden.code, 0, overridden.stderr);
  });

  it("svc login saves a token in ~/.config/svc/credentials.json (0600), which later commands use", async () => {
    const created = await t.api("POST", "/api/users", { login: "dev", password: "correct horse battery" });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.equal(
      (await t.api("PUT", `/api/site/1/users/${created.body.user.id}`, { role: "administrator" })).status,
      200,
    );
    const dir = tempDir("svc-cli-login-");
    const noToken = { SVC_TOKEN: undefined };
    const login = await t.svc(["login", dir, "--login", "dev", "--password-stdin"], {
      env: noToken,
      input: "correct horse battery\n",
    });
    assert.equal(login.code, 0, login.stderr);
    assert.match(login.stdout, /logged in to .* as dev/);
    const path = join(t.home, ".config/svc/credentials.json");
    assert.equal(statSync(path).mode & 0o777, 0o600);
    const saved = JSON.parse(readFileSync(path, "utf8"));
    assert.match(saved.tokens[t.url].token, /^op_/);
    assert.ok(
      !existsSync(join(dir, ".svc")) && !readFileSync(path, "utf8").includes(dir),
      "nothing written in the folder",
    );
    const status = await t.svc(["status", dir], { env: noToken });
    assert.equal(status.code, 0, status.stderr);
    const wrong = await t.svc(["login", dir, "--login", "dev", "--password-stdin"], { env: noToken, input: "wrong" });
    assert.equal(wrong.code, 1);
    assert.match(wrong.stderr, /^invalid_credentials: /m);
    const logout = await t.svc(["logout", dir], { env: noToken });
    assert.equal(logout.code, 0, logout.stderr);
    assert.equal((await t.svc(["status", dir], { env: noToken })).code, 2, "no token any more");
  });

  it("a site with languages, data-set variants and media: pulled into pages/<lang>/, data/<name>.<lang>.json and media/, pushed back as no change", async () => {
    for (const [method, path, body] of [
      ["POST", "/languages", { code: "en", default: true }],
      ["POST", "/languages", { code: "de" }],
      ["POST", "/frames", { slug: "base", html: "<main>base</main>" }],
      ["POST", "/pages", { title: "Docs", slug: "docs", lang: "en", frame: "base" }],
      [
        "POST",
        "/pages",
        { title: "Intro", slug: "intro", parent: "/docs", lang: "en", frame: "base", content: "<p>Hello</p>" },
      ],
      ["POST", "/pages", { title: "Doku", slug: "doku", lang: "de", frame: "base" }],
      ["PUT", "/data/links", { items: [{ label: "Home" }] }],
      ["PUT", "/data/links", { items: [{ label: "Startseite" }], lang: "de" }],
      ["PUT", "/data/links", { items: [{ label: "Home (en)" }], lang: "en" }],
      ["POST", "/menus", { name: "Docs", items: [{ page: "/docs/intro" }, { page: "/de/doku" }] }],
    ] as const) {
      const answer = await t.api(method, path, body);
      assert.ok(answer.status < 300, `${method} ${path}: ${JSON.stringify(answer.body)}`);
    }
    const upload = await fetch(`${t.url}/api/site/1/media?filename=Logo.svg`, {
      method: "POST",
      headers: { authorization: `Bearer ${t.token}`, "content-type": "image/svg+xml" },
      body: SVG,
    });
    assert.equal(upload.status, 201, await upload.text());
    const dir = tempDir("svc-cli-lang-");
    const pull = await t.svc(["pull", dir, "--json"]);
    assert.equal(pull.code, 0, pull.stderr);
    assert.equal(parseOne(pull).counts.create, 12, JSON.stringify(parseOne(pull).items.map((i: any) => i.key)));
    assert.equal(JSON.parse(read(dir, "pages/en/docs/intro.json")).content, "<p>Hello</p>");
    assert.ok(existsSync(join(dir, "pages/de/doku.json")));
    assert.deepEqual(
      JSON.parse(read(dir, "data/links.json")),
      [{ label: "Home" }],
      "the shared set, not the default language's variant",
    );
    assert.deepEqual(JSON.parse(read(dir, "data/links.de.json")), [{ label: "Startseite" }]);
    assert.deepEqual(JSON.parse(read(dir, "data/links.en.json")), [{ label: "Home (en)" }]);
    assert.deepEqual(JSON.parse(read(dir, "menus/docs.json")).items, [{ page: "/docs/intro" }, { page: "/de/doku" }]);
    assert.equal(read(dir, "media/logo.svg"), SVG);
    const push = await t.svc(["push", dir]);
    assert.equal(push.code, 0, push.stderr);
    assert.match(push.stdout, /0 writes sent/);

    const noMedia = tempDir("svc-cli-nomedia-");
    assert.equal((await t.svc(["pull", noMedia, "--no-media"])).code, 0);
    assert.ok(!existsSync(join(noMedia, "media")));

    write(dir, "media/logo.svg", SVG.replace("#c00", "#00c"));
    write(dir, "media/mark.svg", SVG);
    write(dir, "pages/de/doku/start.json", JSON.stringify({ title: "Start", frame: "base" }));
    const changed = await t.svc(["push", dir]);
    assert.equal(changed.code, 0, changed.stderr);
    assert.match(changed.stdout, /^update\s+media\/logo\.svg/m);
    assert.match(changed.stdout, /^create\s+media\/mark\.svg/m);
    const media = (await t.api("GET", "/media")).body.media as Array<{ slug: string; filename: string }>;
    assert.deepEqual(media.map((m) => m.slug).sort(), ["logo", "mark"]);
    const start = await t.api("GET", `/pages/${encodeURIComponent("/doku/start")}?lang=de`);
    assert.equal(start.body.page?.lang, "de", JSON.stringify(start.body));
    assert.equal((await t.svc(["status", dir])).code, 0);
    assert.match((await t.svc(["push", dir])).stdout, /0 writes sent/);

    write(dir, "data/links.de.json", JSON.stringify([{ label: "Start" }, { label: "Kontakt" }]));
    write(dir, "pages/_/loose.json", JSON.stringify({ title: "Loose", frame: "base" }));
    const variant = await t.svc(["push", dir]);
    assert.equal(variant.code, 0, variant.stderr);
    assert.match(variant.stdout, /^update\s+data\/links\.de\.json/m);
    assert.match(variant.stderr, /warning page_placed_elsewhere: pages\/_\/loose\.json: .*pages\/en\/loose\.json/);
    assert.deepEqual((await t.api("GET", "/data/links?lang=de")).body.items, [
      { label: "Start" },
      { label: "Kontakt" },
    ]);
    assert.deepEqual(
      (await t.api("GET", "/data/links?lang=en")).body.items,
      [{ label: "Home (en)" }],
      "the other variant untouched",
    );
  });
});
