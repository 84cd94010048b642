// svc push against the whole push and per environment (docs/cli.md, "Environments", "Warnings",
// "changed: lines"), the built CLI against the built service: an environment's settings laid over
// settings.json; a push to production from a folder last synced with staging refused without
// --yes (nothing written) and carried out with it; a frame and its layout created in one push
// judged together; --strict failing with file:line:column before any write; `changed:` naming
// only addresses that answer 200, and redirects as from → to.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseOne, read, serve, tempDir, write, type Served } from "./harness.ts";

const LAYOUT =
  '<!doctype html><html><head><title>Site</title></head><body><main><!-- svc/slot {"name": "main"} /--></main></body></html>';
const ARTICLE =
  '<!-- svc/layout {"frame": "base"} /--><!-- svc/block {"name": "main"} --><h1 data-op-bind=\'{"text": "page.title"}\'></h1><!-- /svc/block -->';

describe("svc push: environments, the whole push's warnings, --strict, changed: lines", () => {
  let t: Served;
  let dir: string;
  before(async () => {
    t = await serve();
    const site = await t.api("POST", "/api/sites", { name: "Production", domain: "prod.example.org" });
    assert.equal(site.status, 201, JSON.stringify(site.body));
    dir = tempDir("svc-cli-envs-");
    writeFileSync(
      join(dir, "svc.json"),
      JSON.stringify({
        environments: {
          staging: { url: t.url, site: 1 },
          production: {
            url: t.url,
            site: 2,
            settings: { tagline: "Live and well" },
            domains: ["www.prod.example.org"],
          },
        },
      }),
    );
  });
  after(async () => {
    await t.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("a frame and its layout created in the same push: no frame_ref_missing or unused_block, in the dry run or the push", async () => {
    assert.equal((await t.svc(["pull", dir, "--env", "staging"])).code, 0);
    write(dir, "frames/base.html", LAYOUT);
    write(dir, "frames/article.html", ARTICLE);
    const dry = await t.svc(["push", dir, "--env", "staging", "--dry-run", "--strict"]);
    assert.equal(dry.code, 0, dry.stdout + dry.stderr);
    assert.doesNotMatch(dry.stdout + dry.stderr, /frame_ref_missing|unused_block|warning/);
    const json = parseOne(await t.svc(["push", dir, "--env", "staging", "--dry-run", "--json"]));
    assert.deepEqual(
      json.items.filter((i: any) => i.key.startsWith("frames/")).map((i: any) => [i.key, i.warnings]),
      [
        ["frames/article.html", []],
        ["frames/base.html", []],
      ],
    );
    write(dir, "pages/_/about.json", JSON.stringify({ title: "About", frame: "article" }));
    const push = await t.svc(["push", dir, "--env", "staging", "--strict"]);
    assert.equal(push.code, 0, push.stdout + push.stderr);
    assert.doesNotMatch(push.stdout + push.stderr, /warning/);
    assert.match((await t.page("/about/")).text, /<main><h1>About<\/h1><\/main>/);
  });

  it("--strict with a warning: exit 2 before anything is written, each warning with file:line:column; without it the push warns on stderr", async () => {
    // The layout typo: `<!-- svc/slot -->` for `<!-- svc/slot /-->`.
    write(dir, "frames/base.html", LAYOUT.replace('<!-- svc/slot {"name": "main"} /-->', "<!-- svc/slot -->"));
    const state = read(dir, ".svc/state.json");
    const writes = t.writes();
    const strict = await t.svc(["push", dir, "--env", "staging", "--strict"]);
    assert.equal(strict.code, 2, strict.stdout + strict.stderr);
    assert.match(strict.stdout, /warning unclosed_block: frames\/base\.html:1:\d+: /);
    assert.match(strict.stderr, /^strict: \d+ warnings? in frames\/base\.html.*nothing was written/m);
    assert.equal(t.writes() - writes, 1, "the check only (it writes nothing)");
    assert.equal(read(dir, ".svc/state.json"), state, "no state written");
    assert.equal((await t.api("GET", "/frames/base")).body.frame.html, LAYOUT);
    const doc = parseOne(await t.svc(["push", dir, "--env", "staging", "--strict", "--json"]));
    assert.equal(doc.exit, 2);
    assert.equal(doc.error.code, "strict");
    assert.ok(doc.warnings.some((w: any) => w.key === "frames/base.html" && w.line === 1 && w.column > 1));

    writeFileSync(join(dir, "svc.json"), JSON.stringify({ ...JSON.parse(read(dir, "svc.json")), strict: true }));
    assert.equal((await t.svc(["push", dir, "--env", "staging"])).code, 2, '"strict": true in svc.json');
    writeFileSync(join(dir, "svc.json"), JSON.stringify({ ...JSON.parse(read(dir, "svc.json")), strict: false }));

    const loud = await t.svc(["push", dir, "--env", "staging"]);
    assert.equal(loud.code, 0, loud.stderr);
    assert.match(loud.stderr, /warning unclosed_block: frames\/base\.html:1:\d+: /);
    assert.match(loud.stderr, /svc push --strict refuses/);
    write(dir, "frames/base.html", LAYOUT);
    assert.equal((await t.svc(["push", dir, "--env", "staging"])).code, 0);
  });

  it("changed: lines name only addresses that answer 200; the home page's own path is a redirect from → to", async () => {
    write(dir, "pages/_/home.json", JSON.stringify({ title: "Home", frame: "article" }));
    assert.equal((await t.svc(["push", dir, "--env", "staging"])).code, 0);
    const settings = JSON.parse(read(dir, "settings.json"));
    write(dir, "settings.json", JSON.stringify({ ...settings, home_page: "/home" }));
    assert.equal((await t.svc(["push", dir, "--env", "staging"])).code, 0);
    write(dir, "frames/base.html", LAYOUT.replace("<main>", '<main class="wide">'));
    const push = await t.svc(["push", dir, "--env", "staging"]);
    assert.equal(push.code, 0, push.stderr);
    const plain = [...push.stdout.matchAll(/^changed: (\S+)$/gm)].map((m) => m[1]);
    const redirects = [...push.stdout.matchAll(/^changed: (\S+) → (\S+)$/gm)].map((m) => [m[1], m[2]]);
    assert.ok(plain.length > 0, push.stdout);
    for (const url of plain) assert.equal((await t.page(new URL(url).pathname)).status, 200, url);
    assert.ok(
      plain.some((url) => url.endsWith("/about/")),
      push.stdout,
    );
    assert.ok(!plain.some((url) => url.endsWith("/home/")), `/home/ redirects: ${push.stdout}`);
    assert.deepEqual(
      redirects.filter(([from]) => from.endsWith("/home/")).map(([, to]) => new URL(to).pathname),
      ["/"],
    );
  });

  it("production: refused without --yes when the folder last synced with staging (the plan shown, nothing written); with --yes its settings are laid over settings.json and its alias added", async () => {
    const state = read(dir, ".svc/state.json");
    const writes = t.writes();
    const refused = await t.svc(["push", dir, "--env", "production", "--force"]);
    assert.equal(refused.code, 1, refused.stdout + refused.stderr);
    assert.match(refused.stderr, /^confirm: production asks for confirmation: this folder last synced with staging/m);
    assert.match(refused.stderr, /--yes/);
    assert.match(refused.stdout, /^create {7}frames\/base\.html/m, "the plan against production");
    assert.equal(t.writes(), writes, "nothing written");
    assert.equal(read(dir, ".svc/state.json"), state);

    const pushed = await t.svc(["push", dir, "--env", "production", "--force", "--yes"]);
    assert.equal(pushed.code, 0, pushed.stdout + pushed.stderr);
    const live = (await t.api("GET", "/api/site/2/settings")).body.settings;
    assert.equal(live.tagline, "Live and well", "the environment's setting");
    assert.equal(live.name, JSON.parse(read(dir, "settings.json")).name, "the rest from settings.json");
    assert.notEqual(JSON.parse(read(dir, "settings.json")).tagline, "Live and well", "the file is not changed");
    const domains = (await t.api("GET", "/api/sites/2/domains")).body.domains.map((d: any) => d.domain);
    assert.deepEqual(domains.sort(), ["prod.example.org", "www.prod.example.org"]);
    assert.match(pushed.stdout, /^alias {8}www\.prod\.example\.org/m);

    const again = await t.svc(["push", dir, "--env", "production"]);
    assert.equal(again.code, 0, again.stdout + again.stderr);
    assert.match(
      again.stdout,
      /\(0 writes sent\)/,
      "settings with the override are in sync; last synced with production",
    );
    const status = await t.svc(["status", dir, "--env", "production"]);
    assert.equal(status.code, 0);
    assert.match(status.stdout, /in sync/);
    const pull = await t.svc(["pull", dir, "--env", "production"]);
    assert.equal(pull.code, 0, pull.stderr);
    assert.notEqual(JSON.parse(read(dir, "settings.json")).tagline, "Live and well", "a pull keeps the file's own");
    const staging = await t.svc(["push", dir, "--env", "staging"]);
    assert.equal(staging.code, 0, "staging asks no confirmation");
  });
});
