// A new site's settings and SEO defaults give way to a folder's first push, and only then
// (src/cli/new-site.ts, docs/cli.md "Decisions"); what the push makes known is not warned about by
// the whole push's check (src/cli/check-known.ts, docs/cli.md "Warnings"). Pure.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { knownAfterPush, madeByPush } from "../../src/cli/check-known.ts";
import type { Views } from "../../src/cli/execute.ts";
import { KINDS, type Kind } from "../../src/cli/layout.ts";
import type { LocalObject } from "../../src/cli/local.ts";
import { NEW_SITE_NOTE, newSiteStatus, yieldNewSite } from "../../src/cli/new-site.ts";
import type { PlanItem, StatusItem } from "../../src/cli/plan.ts";

const ALL = new Set<Kind>(KINDS);
const plan: PlanItem[] = [
  { key: "frames/base.html", kind: "frames", action: "create" },
  { key: "seo.json", kind: "seo", action: "conflict", note: "differs from the server, never synced with it" },
  { key: "settings.json", kind: "settings", action: "conflict", note: "differs from the server, never synced with it" },
];
const fresh = new Map([
  ["settings.json", {}],
  ["seo.json", {}],
]);

describe("a new site's settings and SEO defaults", () => {
  it("give way on a site holding nothing else, never synced, every kind read", () => {
    const out = yieldNewSite(plan, fresh, new Map(), ALL);
    assert.deepEqual(
      out.map((i) => [i.key, i.action, i.note ?? null]),
      [
        ["frames/base.html", "create", null],
        ["seo.json", "update", NEW_SITE_NOTE],
        ["settings.json", "update", NEW_SITE_NOTE],
      ],
    );
  });

  it("stay conflicts on a site with anything else, a folder synced with it before, or a push of some kinds", () => {
    const withPage = new Map([...fresh, ["pages/_/soon.json", {}]]);
    const synced = new Map([["frames/x.html", { sha256: "a", server_sha256: "a" }]]);
    for (const out of [
      yieldNewSite(plan, withPage, new Map(), ALL),
      yieldNewSite(plan, fresh, synced, ALL),
      yieldNewSite(plan, fresh, new Map(), new Set<Kind>(["settings", "seo"])),
    ])
      assert.deepEqual(out, plan);
  });
});

describe("svc status of a folder never synced with a new site", () => {
  const items: StatusItem[] = [
    { key: "seo.json", kind: "seo", local: "added", server: "added", conflict: true },
    { key: "settings.json", kind: "settings", local: "added", server: "added", conflict: true },
  ];
  it("shows its settings and SEO defaults changed here only, as the push sends them", () => {
    assert.deepEqual(
      newSiteStatus(items, fresh, new Map(), ALL).map((i) => [i.key, i.local, i.server, i.conflict]),
      [
        ["seo.json", "added", null, false],
        ["settings.json", "added", null, false],
      ],
    );
  });
  it("keeps them conflicts where the push would", () => {
    assert.deepEqual(newSiteStatus(items, new Map([...fresh, ["menus/main.json", {}]]), new Map(), ALL), items);
  });
});

describe("what the push makes known to its check", () => {
  const local = (key: string, value: unknown) => [key, { key, value } as unknown as LocalObject] as const;
  const views: Views = {
    local: new Map([
      local("strings/en.json", { "nav.main": "Main" }),
      local("strings/de.json", { "nav.main": "Haupt" }),
      local("settings.json", { menu_locations: ["header", "footer"] }),
      local("sidebars/guide.de.json", { items: [] }),
    ]),
    remote: new Map(),
    base: new Map(),
  };
  const sent: PlanItem[] = [
    { key: "strings/en.json", kind: "strings", action: "create" },
    { key: "strings/de.json", kind: "strings", action: "unchanged" },
    { key: "settings.json", kind: "settings", action: "update" },
    { key: "sidebars/guide.de.json", kind: "sidebars", action: "create" },
  ];

  it("leaves out unknown_string and unknown_source for what it sends, keeps the rest", () => {
    const known = knownAfterPush(sent, views);
    const w = (code: string, extra: Record<string, string>) => ({ code, message: "", ...extra });
    assert.equal(madeByPush(w("unknown_string", { key: "nav.main" }), known), true);
    assert.equal(madeByPush(w("unknown_string", { key: "nav.other" }), known), false);
    assert.equal(madeByPush(w("unknown_source", { source: "menu.footer" }), known), true);
    assert.equal(madeByPush(w("unknown_source", { source: "menu.social" }), known), false);
    assert.equal(madeByPush(w("unknown_source", { source: "sidebar.guide" }), known), true);
    assert.equal(madeByPush(w("unknown_source", { source: "data.team" }), known), false);
    assert.equal(madeByPush(w("unfilled_slot", { key: "nav.main" }), known), false);
  });

  it("knows nothing of files the push does not send", () => {
    const known = knownAfterPush(
      sent.map((i) => ({ ...i, action: "unchanged" })),
      views,
    );
    assert.deepEqual([known.strings.size, known.sources.size], [0, 0]);
  });
});
