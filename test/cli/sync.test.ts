// svc pull, push and status as a user runs them (dist/cli.js as a process) against the built
// service over a socket: the folder a pull writes, an edit pushed to the public page, a second push
// sending no write (counted in the service's request log), a server-side edit refused as a
// conflict with nothing written, objects only on the server kept unless --delete, status exit
// codes, --json documents.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { CLI, parseOne, read, serve, tempDir, write, type Served } from "./harness.ts";

const LAYOUT =
  '<!doctype html><html><head><title>Site</title></head><body><h1>Welcome</h1><!-- svc/menu {"location": "header"} /--></body></html>';

async function seed(t: Served): Promise<void> {
  const calls: Array<[string, string, unknown]> = [
    ["POST", "/frames", { slug: "layout", html: LAYOUT }],
    ["POST", "/frames", { slug: "card", html: "<div class=card>card</div>" }],
    [
      "POST",
      "/pages",
      { title: "About", slug: "about", frame: "layout", content: "<p>About us</p>", fields: { team: 3 } },
    ],
    ["POST", "/pages", { title: "Team", parent: "/about", slug: "team", frame: "layout" }],
    [
      "POST",
      "/menus",
      {
        name: "Main",
        location: "header",
        items: [
          { page: "/about", children: [{ page: "/about/team", title: "Our team" }] },
          { url: "/contact", title: "Contact" },
        ],
      },
    ],
    ["PUT", "/data/team", { items: [{ name: "Ada" }, { name: "Grace" }] }],
    ["PUT", "/styles/main", { css: "body { color: #333 }" }],
  ];
  for (const [method, path, body] of calls) {
    const answer = await t.api(method, path, body);
    assert.ok(answer.status < 300, `${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
  }
}

describe("svc pull, push, status (the built CLI against the built service)", () => {
  let t: Served;
  let dir: string;
  before(async () => {
    t = await serve();
    await seed(t);
    dir = tempDir("svc-cli-site-");
  });
  after(async () => {
    await t.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("pull writes the folder layout and .svc/state.json with the sha256 of every object", async () => {
    const run = await t.svc(["pull", dir]);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(read(dir, "frames/layout.html"), LAYOUT, "byte for byte");
    assert.equal(read(dir, "styles/main.css"), "body { color: #333 }");
    const about = JSON.parse(read(dir, "pages/_/about.json"));
    assert.deepEqual(Object.keys(about), [
      "title",
      "status",
      "date",
      "frame",
      "menu_order",
      "tags",
      "feed",
      "content_format",
      "translations",
      "seo",
      "fields",
      "content",
    ]);
    assert.equal(about.frame, "layout");
    assert.deepEqual(about.fields, { team: 3 });
    assert.ok(existsSync(join(dir, "pages/_/about/team.json")), "a child page under its parent's path");
    const menu = JSON.parse(read(dir, "menus/main.json"));
    assert.deepEqual(menu.locations, [{ location: "header", lang: null }]);
    assert.deepEqual(menu.items, [
      { page: "/about", children: [{ page: "/about/team", title: "Our team" }] },
      { url: "/contact", title: "Contact" },
    ]);
    assert.deepEqual(JSON.parse(read(dir, "data/team.json")), [{ name: "Ada" }, { name: "Grace" }]);
    assert.equal(JSON.parse(read(dir, "settings.json")).name, "Main site");
    assert.ok(!existsSync(join(dir, "media")), "no media folder without media");
    const state = JSON.parse(read(dir, ".svc/state.json"));
    const target = state.targets[`${t.url} site 1`];
    assert.ok(target, Object.keys(state.targets).join());
    const frames = (await t.api("GET", "/frames")).body.frames as Array<{ slug: string; sha256: string }>;
    for (const frame of frames) assert.equal(target.objects[`frames/${frame.slug}.html`].sha256, frame.sha256);
    assert.equal(
      Object.keys(target.objects).length,
      9,
      "2 frames, 2 pages, a menu, a data set, a stylesheet, the settings, the SEO defaults",
    );
    const status = await t.svc(["status", dir]);
    assert.equal(status.code, 0, status.stderr);
    assert.match(status.stdout, /in sync/);
  });

  it("an edited frame pushed changes the public page, and a second push sends no write at all", async () => {
    write(dir, "frames/layout.html", LAYOUT.replace("Welcome", "Welcome, edited"));
    const before = t.writes();
    const push = await t.svc(["push", dir]);
    assert.equal(push.code, 0, push.stderr);
    assert.match(push.stdout, /^update\s+frames\/layout\.html/m);
    assert.match(push.stdout, /changed: http:\/\/[^\s]+\/about\//);
    assert.equal(t.writes() - before, 2, "POST /frames/check (writes nothing) and one PUT");
    assert.match((await t.page("/about/")).text, /Welcome, edited/);
    const again = t.writes();
    const second = await t.svc(["push", dir]);
    assert.equal(second.code, 0, second.stderr);
    assert.match(second.stdout, /0 writes sent/);
    assert.equal(t.writes(), again, "the second push sent no write");
  });

  it("--dry-run prints the plan and each changed frame's analysis warnings, and writes nothing (not even the state)", async () => {
    write(dir, "frames/card.html", "<div class=card><!-- svc/gallery /--></div>");
    write(dir, "frames/new-box.html", "<div>box</div>");
    const state = read(dir, ".svc/state.json");
    const before = t.writes();
    const run = await t.svc(["push", dir, "--dry-run"]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^update\s+frames\/card\.html/m);
    assert.match(run.stdout, /warning unknown_insert: frames\/card\.html/);
    assert.match(run.stdout, /^create\s+frames\/new-box\.html/m);
    assert.match(run.stdout, /dry run, nothing written/);
    assert.equal(read(dir, ".svc/state.json"), state);
    const frame = (await t.api("GET", "/frames/card")).body.frame;
    assert.equal(frame.html, "<div class=card>card</div>");
    assert.equal((await t.api("GET", "/frames/new-box")).status, 404);
    assert.equal(t.writes() - before, 1, "one POST /frames/check for both frames, which writes nothing");
    const json = await t.svc(["push", dir, "--dry-run", "--json"]);
    const doc = parseOne(json);
    assert.equal(doc.dry_run, true);
    assert.deepEqual(
      doc.items.find((i: any) => i.key === "frames/card.html").warnings.map((w: any) => w.code),
      ["unknown_insert"],
    );
    const pushed = await t.svc(["push", dir]);
    assert.equal(pushed.code, 0, pushed.stderr);
  });

  it("an object changed on the server and here is a conflict: named, exit 1, nothing written", async () => {
    assert.equal(
      (await t.api("PUT", "/frames/card", { html: "<div class=card>edited on the server</div>" })).status,
      200,
    );
    write(dir, "frames/card.html", "<div class=card>edited here</div>");
    write(dir, "styles/main.css", "body { color: #000 }");
    const state = read(dir, ".svc/state.json");
    const status = await t.svc(["status", dir]);
    assert.equal(status.code, 1, status.stdout + status.stderr);
    assert.match(status.stdout, /^conflict\s+frames\/card\.html/m);
    const before = t.writes();
    const run = await t.svc(["push", dir]);
    assert.equal(run.code, 1);
    assert.match(run.stdout, /^conflict\s+frames\/card\.html/m);
    assert.match(run.stderr, /^conflict: .*frames\/card\.html/m);
    assert.equal(t.writes(), before, "nothing written, not even the stylesheet that had no conflict");
    assert.equal((await t.api("GET", "/styles/main")).body.style.css, "body { color: #333 }");
    assert.equal(read(dir, ".svc/state.json"), state);
    const json = parseOne(await t.svc(["push", dir, "--json"]));
    assert.equal(json.ok, false);
    assert.equal(json.error.code, "conflict");
    assert.deepEqual(
      json.conflicts.map((c: any) => c.key),
      ["frames/card.html"],
    );
    const forced = await t.svc(["push", dir, "--force"]);
    assert.equal(forced.code, 0, forced.stderr);
    assert.equal((await t.api("GET", "/frames/card")).body.frame.html, "<div class=card>edited here</div>");
  });

  it("a change on the server alone is left there by push and taken by pull", async () => {
    assert.equal(
      (await t.api("PUT", "/data/team", { items: [{ name: "Ada" }, { name: "Grace" }, { name: "Hedy" }] })).status,
      200,
    );
    const push = await t.svc(["push", dir]);
    assert.equal(push.code, 0, push.stderr);
    assert.match(push.stdout, /^skip\s+data\/team\.json/m);
    assert.equal((await t.api("GET", "/data/team")).body.items.length, 3);
    const pull = await t.svc(["pull", dir]);
    assert.equal(pull.code, 0, pull.stderr);
    assert.equal(JSON.parse(read(dir, "data/team.json")).length, 3);
  });

  it("an object only on the server is kept unless --delete; --dry-run --delete shows would-delete", async () => {
    assert.equal((await t.api("POST", "/frames", { slug: "server-only", html: "<p>made elsewhere</p>" })).status, 201);
    rmSync(join(dir, "frames/new-box.html"));
    const kept = await t.svc(["push", dir]);
    assert.equal(kept.code, 0, kept.stderr);
    assert.match(
      kept.stdout,
      /^keep\s+frames\/server-only\.html\s+\(only on the server; push --delete deletes it there\)/m,
    );
    assert.match(kept.stdout, /^keep\s+frames\/new-box\.html\s+\(deleted here/m);
    assert.equal((await t.api("GET", "/frames/server-only")).status, 200);
    assert.equal((await t.api("GET", "/frames/new-box")).status, 200);
    const dry = await t.svc(["push", dir, "--delete", "--dry-run"]);
    assert.equal(dry.code, 0, dry.stderr);
    assert.match(dry.stdout, /^would-delete\s+frames\/server-only\.html/m);
    assert.match(dry.stdout, /^would-delete\s+frames\/new-box\.html/m);
    assert.equal((await t.api("GET", "/frames/server-only")).status, 200);
    const deleted = await t.svc(["push", dir, "--delete", "--only", "frames"]);
    assert.equal(deleted.code, 0, deleted.stderr);
    assert.match(deleted.stdout, /^delete\s+frames\/server-only\.html/m);
    assert.equal((await t.api("GET", "/frames/server-only")).status, 404);
    assert.equal((await t.api("GET", "/frames/new-box")).status, 404);
  });

  it("pages, menus, data sets, stylesheets and settings created and changed in the folder reach the site", async () => {
    write(
      dir,
      "pages/_/about/jobs.json",
      JSON.stringify({ title: "Jobs", frame: "layout", content: "<p>We hire</p>" }),
    );
    const menu = JSON.parse(read(dir, "menus/main.json"));
    menu.items.push({ page: "/about/jobs" });
    write(dir, "menus/main.json", JSON.stringify(menu, null, 2));
    write(dir, "data/people.json", JSON.stringify([{ name: "Lin" }]));
    write(dir, "styles/extra.css", "a { color: red }");
    const settings = JSON.parse(read(dir, "settings.json"));
    write(dir, "settings.json", JSON.stringify({ ...settings, tagline: "Made with svc" }));
    const push = await t.svc(["push", dir, "--json"]);
    assert.equal(push.code, 0, push.stderr);
    const doc = parseOne(push);
    const actions = Object.fromEntries(
      doc.items.filter((i: any) => i.action !== "unchanged").map((i: any) => [i.key, i.action]),
    );
    assert.deepEqual(actions, {
      "styles/extra.css": "create",
      "pages/_/about/jobs.json": "create",
      "menus/main.json": "update",
      "data/people.json": "create",
      "settings.json": "update",
    });
    const jobs = (await t.api("GET", `/pages/${encodeURIComponent("/about/jobs")}`)).body.page;
    assert.equal(jobs.title, "Jobs");
    assert.match((await t.page("/about/jobs/")).text, /Jobs|about\/jobs/);
    const items = (await t.api("GET", "/menus/main")).body.items as Array<{ page: number | null }>;
    assert.ok(items.some((item) => item.page === jobs.id));
    assert.deepEqual((await t.api("GET", "/data/people")).body.items, [{ name: "Lin" }]);
    assert.equal((await t.api("GET", "/settings")).body.settings.tagline, "Made with svc");
    const again = t.writes();
    const second = await t.svc(["push", dir]);
    assert.equal(second.code, 0, second.stderr);
    assert.equal(t.writes(), again, "nothing to send the second time");
    const status = await t.svc(["status", dir, "--json"]);
    assert.equal(status.code, 0);
    assert.deepEqual(parseOne(status).items, []);
  });

  it("a frame file moved with its content renames the frame (PATCH), pages keep standing on it", async () => {
    const html = read(dir, "frames/card.html");
    rmSync(join(dir, "frames/card.html"));
    write(dir, "frames/card__big.html", html);
    const run = await t.svc(["push", dir]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^rename\s+frames\/card\.html -> frames\/card__big\.html/m);
    assert.equal((await t.api("GET", "/frames/card__big")).body.frame.html, html);
    assert.equal((await t.api("GET", "/frames/card")).status, 404);
  });

  it("status: exit 0 with changes on one side, 1 when an object changed on both; --json parses", async () => {
    write(dir, "frames/layout.html", LAYOUT.replace("Welcome", "Local only"));
    const local = await t.svc(["status", dir, "--json"]);
    assert.equal(local.code, 0);
    assert.deepEqual(parseOne(local).items, [
      { key: "frames/layout.html", kind: "frames", local: "modified", server: null, conflict: false },
    ]);
    assert.equal((await t.api("PUT", "/frames/layout", { html: LAYOUT.replace("Welcome", "Server too") })).status, 200);
    const both = await t.svc(["status", dir]);
    assert.equal(both.code, 1);
    assert.match(both.stdout, /^conflict\s+frames\/layout\.html\s+\(here: modified, server: modified\)/m);
  });
});

describe("svc watch", () => {
  it("pushes a saved file, prints the changed addresses, and keeps going after a refusal", {
    timeout: 60_000,
  }, async () => {
    const t = await serve();
    const dir = tempDir("svc-cli-watch-");
    try {
      await seed(t);
      assert.equal((await t.svc(["pull", dir])).code, 0);
      const child = spawn(process.execPath, [CLI, "watch", dir, "--json", "--debounce", "100"], {
        env: { ...process.env, SVC_URL: t.url, SVC_TOKEN: t.token, HOME: t.home },
      });
      const lines: any[] = [];
      let buffer = "";
      let seen = 0; // lines before this index were matched already
      const waitFor = (test: (doc: any) => boolean) =>
        new Promise<any>((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error(`no such line in ${JSON.stringify(lines)}`)), 20_000);
          const check = () => {
            const index = lines.findIndex((doc, i) => i >= seen && test(doc));
            const found = index === -1 ? undefined : lines[index];
            if (found) seen = index + 1;
            if (found) {
              clearTimeout(timer);
              resolve(found);
            } else setTimeout(check, 50);
          };
          check();
        });
      child.stdout.on("data", (chunk) => {
        buffer += chunk;
        for (let cut = buffer.indexOf("\n"); cut !== -1; cut = buffer.indexOf("\n")) {
          lines.push(JSON.parse(buffer.slice(0, cut)));
          buffer = buffer.slice(cut + 1);
        }
      });
      await waitFor((doc) => doc.event === "watching");
      write(dir, "frames/card.html", "<div>watched <!-- svc/gallery /--></div>");
      const pushed = await waitFor(
        (doc) => doc.event === "push" && doc.items.some((i: any) => i.key === "frames/card.html"),
      );
      assert.equal(pushed.items.find((i: any) => i.key === "frames/card.html").action, "update");
      assert.deepEqual(
        pushed.items.find((i: any) => i.key === "frames/card.html").warnings.map((w: any) => w.code),
        ["unknown_insert"],
      );
      assert.equal((await t.api("GET", "/frames/card")).body.frame.html, "<div>watched <!-- svc/gallery /--></div>");
      write(dir, "frames/layout.html", LAYOUT.replace("Welcome", "Watched"));
      const layout = await waitFor(
        (doc) => doc.event === "push" && doc.items.some((i: any) => i.key === "frames/layout.html"),
      );
      assert.ok(
        layout.urls.some((url: string) => url.endsWith("/about/")),
        JSON.stringify(layout.urls),
      );
      write(dir, "frames/broken.html", '<!-- svc/frame {"name": "broken"} /-->');
      const refused = await waitFor((doc) => doc.event === "error");
      assert.equal(refused.error.code, "frame_cycle");
      write(dir, "frames/card.html", "<div>still watching</div>");
      await waitFor(
        (doc) => doc.event === "push" && doc.items.some((i: any) => i.key === "frames/card.html" && i.done),
      );
      assert.equal((await t.api("GET", "/frames/card")).body.frame.html, "<div>still watching</div>");
      const exited = once(child, "exit");
      child.kill("SIGINT");
      assert.deepEqual(await exited, [0, null], "Ctrl-C ends the watch with exit 0");
    } finally {
      await t.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
