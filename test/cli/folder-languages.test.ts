// languages.json and strings/<lang>.json: pull writes them, a push into an empty site makes its
// languages (default and order kept) and texts, a second push sends nothing, status sees a change.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { read, serve, tempDir, write, type Served } from "./harness.ts";
import { must, newSite, svcSite } from "./folder-helpers.ts";

describe("svc and languages, strings", () => {
  let t: Served;
  let source: number;
  const dir = tempDir("svc-folder-languages-");
  before(async () => {
    t = await serve();
    source = (await newSite(t, "Source")).id;
    await must(t, source, "POST", "/languages", { code: "de", name: "Deutsch" });
    await must(t, source, "POST", "/languages", { code: "en", name: "English", default: true });
    await must(t, source, "PUT", "/strings", { lang: "en", strings: { "nav.more": "Read more" } });
    await must(t, source, "PUT", "/strings", { lang: "de", strings: { "nav.more": "Weiterlesen" } });
  });
  after(async () => {
    await t.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("pull writes languages.json (order, default) and a strings file per language", async () => {
    const run = await svcSite(t, source, ["pull", dir]);
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(JSON.parse(read(dir, "languages.json")), {
      default: "en",
      languages: [
        { code: "de", name: "Deutsch" },
        { code: "en", name: "English" },
      ],
    });
    assert.deepEqual(JSON.parse(read(dir, "strings/en.json")), { "nav.more": "Read more" });
    assert.deepEqual(JSON.parse(read(dir, "strings/de.json")), { "nav.more": "Weiterlesen" });
  });

  it("a push into an empty site makes its languages and texts; a second push sends nothing", async () => {
    const target = (await newSite(t, "Target")).id;
    const push = await svcSite(t, target, ["push", dir, "--force"]);
    assert.equal(push.code, 0, push.stdout + push.stderr);
    assert.match(push.stdout, /^create\s+languages\.json/m);
    const languages = await must(t, target, "GET", "/languages");
    assert.equal(languages.default_lang, "en");
    assert.deepEqual(
      languages.languages.map((l: { code: string }) => l.code),
      ["de", "en"],
    );
    assert.deepEqual((await must(t, target, "GET", "/strings?lang=de")).strings, { de: { "nav.more": "Weiterlesen" } });
    const before = t.writes();
    const again = await svcSite(t, target, ["push", dir]);
    assert.equal(again.code, 0, again.stderr);
    assert.equal(t.writes(), before, again.stdout);
    assert.match((await svcSite(t, target, ["status", dir])).stdout, /in sync/);
  });

  it("status sees a text changed on the server; a text and a language changed here are pushed", async () => {
    await must(t, source, "PATCH", "/strings", { lang: "de", strings: { "nav.back": "Zurück" } });
    const status = await svcSite(t, source, ["status", dir]);
    assert.match(status.stdout, /^server\s+strings\/de\.json/m);
    assert.equal((await svcSite(t, source, ["pull", dir])).code, 0);
    assert.equal(JSON.parse(read(dir, "strings/de.json"))["nav.back"], "Zurück");
    write(dir, "strings/en.json", JSON.stringify({ "nav.more": "More" }));
    write(
      dir,
      "languages.json",
      JSON.stringify({
        default: "de",
        languages: [
          { code: "de", name: "Deutsch" },
          { code: "en", name: "English" },
          { code: "fr", name: "Français" },
        ],
      }),
    );
    const push = await svcSite(t, source, ["push", dir]);
    assert.equal(push.code, 0, push.stdout + push.stderr);
    const languages = await must(t, source, "GET", "/languages");
    assert.equal(languages.default_lang, "de");
    assert.deepEqual(
      languages.languages.map((l: { code: string }) => l.code),
      ["de", "en", "fr"],
    );
    assert.deepEqual((await must(t, source, "GET", "/strings?lang=en")).strings.en, { "nav.more": "More" });
    assert.ok(!existsSync(join(dir, "strings/fr.json")), "a language without texts has no file");
  });
});
