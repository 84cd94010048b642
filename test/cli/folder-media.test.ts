// A media file's alt and title texts in a file beside it (media/<file>.json): pull writes it, a
// push into an empty site uploads the file and sets its texts, a second push sends nothing,
// status sees a change; a language's text removed from the file is removed there.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { read, serve, tempDir, write, type Served } from "./harness.ts";
import { must, newSite, svcSite, upload } from "./folder-helpers.ts";

const SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><rect width="4" height="4"/></svg>';

describe("svc and media texts", () => {
  let t: Served;
  let source: number;
  const dir = tempDir("svc-folder-media-");
  before(async () => {
    t = await serve();
    source = (await newSite(t, "Source")).id;
    await must(t, source, "POST", "/languages", { code: "en" });
    await must(t, source, "POST", "/languages", { code: "de" });
    await upload(t, source, "team-photo.svg", "image/svg+xml", SVG);
    await upload(t, source, "plain.svg", "image/svg+xml", SVG.replace("4", "5"));
    await must(t, source, "PATCH", "/media/team-photo", {
      alt: { en: "The team", de: "Das Team" },
      title: { en: "Team" },
    });
  });
  after(async () => {
    await t.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("pull writes the texts beside the file, and no texts file for a file without texts", async () => {
    const run = await svcSite(t, source, ["pull", dir]);
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(JSON.parse(read(dir, "media/team-photo.svg.json")), {
      alt: { de: "Das Team", en: "The team" },
      title: { en: "Team" },
    });
    assert.ok(existsSync(join(dir, "media/plain.svg")));
    assert.ok(!existsSync(join(dir, "media/plain.svg.json")));
  });

  it("a push into an empty site uploads the file and sets its texts; a second push sends nothing", async () => {
    const target = (await newSite(t, "Target")).id;
    const push = await svcSite(t, target, ["push", dir, "--force"]);
    assert.equal(push.code, 0, push.stdout + push.stderr);
    const media = (await must(t, target, "GET", "/media/team-photo")).media;
    assert.deepEqual(media.alt, { de: "Das Team", en: "The team" });
    assert.deepEqual(media.title, { en: "Team" });
    const before = t.writes();
    const again = await svcSite(t, target, ["push", dir]);
    assert.equal(again.code, 0, again.stderr);
    assert.equal(t.writes(), before, again.stdout);
    assert.match((await svcSite(t, target, ["status", dir])).stdout, /in sync/);
  });

  it("status sees a text changed on the server; a language's text removed here is removed there", async () => {
    await must(t, source, "PATCH", "/media/plain", { alt: { en: "Plain" } });
    assert.match((await svcSite(t, source, ["status", dir])).stdout, /^server\s+media\/plain\.svg\.json/m);
    assert.equal((await svcSite(t, source, ["pull", dir])).code, 0);
    assert.deepEqual(JSON.parse(read(dir, "media/plain.svg.json")).alt, { en: "Plain" });
    write(dir, "media/team-photo.svg.json", JSON.stringify({ alt: { en: "The team" }, title: { en: "Team" } }));
    const push = await svcSite(t, source, ["push", dir]);
    assert.equal(push.code, 0, push.stdout + push.stderr);
    assert.deepEqual((await must(t, source, "GET", "/media/team-photo")).media.alt, { en: "The team" });
  });
});
