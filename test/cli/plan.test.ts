// The push, pull and status plans (src/cli/plan.ts) as pure functions, property-tested with
// fast-check over folders, servers and baselines drawn from a few keys and a few contents, so
// that equal content, renames and every kind of divergence come up often.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { KINDS, type Kind } from "../../src/cli/layout.ts";
import {
  baselineAfter,
  baselineAfterPull,
  planPull,
  planPush,
  siteStatus,
  WRITES,
  type PlanInput,
  type Side,
  type Written,
} from "../../src/cli/plan.ts";
import type { StateEntry } from "../../src/cli/state.ts";

const KEYS = [
  "frames/a.html",
  "frames/b.html",
  "frames/c.html",
  "styles/main.css",
  "pages/en/about.json",
  "pages/en/about/team.json",
  "menus/main.json",
  "data/team.json",
  "settings.json",
  "media/logo.png",
];
const HASH = fc.constantFrom("h1", "h2", "h3");
const ALL = new Set<Kind>(KINDS);

const side = fc.record({ hash: HASH });
const entry = fc.record({ sha256: HASH, server_sha256: HASH });
const mapOf = <T>(value: fc.Arbitrary<T>) =>
  fc
    .dictionary(fc.constantFrom(...KEYS), value, { maxKeys: KEYS.length })
    .map((record) => new Map(Object.entries(record)));

const world = fc.record({
  local: mapOf(side),
  server: mapOf(side),
  base: mapOf(entry),
  delete: fc.boolean(),
  force: fc.boolean(),
  kinds: fc.subarray([...KINDS], { minLength: 1 }).map((kinds) => new Set<Kind>(kinds)),
});

function input(w: {
  local: Map<string, Side>;
  server: Map<string, Side>;
  base: Map<string, StateEntry>;
  delete: boolean;
  force: boolean;
  kinds: Set<Kind>;
}): PlanInput {
  return {
    local: w.local,
    server: w.server,
    base: w.base,
    options: { delete: w.delete, force: w.force, kinds: w.kinds },
  };
}

/** The server after a push carried out the plan (writes store the folder's content as it is). */
function applyPush(
  plan: ReturnType<typeof planPush>,
  i: PlanInput,
): { server: Map<string, Side>; written: Map<string, Written> } {
  const server = new Map(i.server);
  const written = new Map<string, Written>();
  for (const item of plan) {
    const l = i.local.get(item.key);
    if (item.action === "create" || item.action === "update" || item.action === "rename") {
      if (item.from) server.delete(item.from);
      server.set(item.key, { hash: l!.hash });
      written.set(item.key, { server_sha256: l!.hash });
    } else if (item.action === "delete") {
      server.delete(item.key);
      written.set(item.key, { server_sha256: "" });
    }
  }
  return { server, written };
}

const kindOf = (key: string) => (key === "settings.json" ? "settings" : key.split("/")[0]) as Kind;

describe("push plan", () => {
  it("names every object of the kinds considered once, in write order, and nothing else", () => {
    fc.assert(
      fc.property(world, (w) => {
        const plan = planPush(input(w));
        const named = plan.flatMap((item) => (item.from ? [item.key, item.from] : [item.key]));
        assert.equal(new Set(named).size, named.length, "no object twice");
        const expected = new Set([...w.local.keys(), ...w.server.keys()].filter((key) => w.kinds.has(kindOf(key))));
        for (const key of named) assert.ok(w.kinds.has(kindOf(key)), `${key} is of a kind considered`);
        for (const key of expected) assert.ok(named.includes(key), `${key} is in the plan`);
        const ranks = plan.map((item) => KINDS.indexOf(item.kind));
        assert.deepEqual(
          ranks,
          [...ranks].sort((a, b) => a - b),
        );
      }),
      { numRuns: 2000 },
    );
  });

  it("never deletes without --delete, and only what is on the server and not in the folder", () => {
    fc.assert(
      fc.property(world, (w) => {
        for (const item of planPush(input(w))) {
          if (item.action !== "delete") continue;
          assert.ok(w.delete, "--delete was given");
          assert.ok(w.server.has(item.key) && !w.local.has(item.key));
        }
      }),
      { numRuns: 2000 },
    );
  });

  it("equal content is unchanged; a conflict is an object changed on the server since the last sync and changed here; --force leaves none", () => {
    fc.assert(
      fc.property(world, (w) => {
        for (const item of planPush(input(w))) {
          const l = w.local.get(item.key);
          const s = w.server.get(item.key);
          const b = w.base.get(item.key);
          if (l && s && l.hash === s.hash) assert.equal(item.action, "unchanged");
          if (item.action !== "conflict") continue;
          assert.ok(!w.force, "--force leaves no conflict");
          const serverChanged = !b || !s || s.hash !== b.server_sha256;
          const localChanged = !b || !l || l.hash !== b.sha256;
          assert.ok(serverChanged && localChanged, `${item.key}: ${JSON.stringify({ l, s, b })}`);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it("an object unchanged here is never sent over the server's version", () => {
    fc.assert(
      fc.property(world, (w) => {
        for (const item of planPush(input(w))) {
          const l = w.local.get(item.key);
          const b = w.base.get(item.key);
          if ((item.action === "update" || item.action === "create") && l && b && l.hash === b.sha256)
            assert.fail(`${item.key} sent though unchanged here`);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it("a second push after a complete one sends no write and finds no conflict", () => {
    fc.assert(
      fc.property(world, (w) => {
        const first = input(w);
        const plan = planPush(first);
        if (plan.some((item) => item.action === "conflict")) return; // nothing written then
        const { server, written } = applyPush(plan, first);
        const base = new Map([...baselineAfter(first, plan, written)].map(([key, value]) => [key, value] as const));
        const second = planPush({ ...first, server, base });
        const writes = second.filter((item) => WRITES.has(item.action));
        assert.deepEqual(writes, [], "no write");
        assert.ok(!second.some((item) => item.action === "conflict"));
      }),
      { numRuns: 3000 },
    );
  });

  it("right after a pull, every object is unchanged", () => {
    fc.assert(
      fc.property(mapOf(side), (server) => {
        const base = new Map([...server].map(([key, s]) => [key, { sha256: s.hash, server_sha256: s.hash }]));
        const plan = planPush({
          local: new Map(server),
          server,
          base,
          options: { delete: true, force: false, kinds: ALL },
        });
        assert.ok(plan.every((item) => item.action === "unchanged"));
        assert.deepEqual(siteStatus({ local: new Map(server), server, base, kinds: ALL }), []);
      }),
    );
  });

  it("a file moved with its content is a rename of the object (frames, pages, menus, media)", () => {
    const base = new Map([["frames/a.html", { sha256: "h1", server_sha256: "h1", id: "abc" }]]);
    const plan = planPush({
      local: new Map([["frames/b.html", { hash: "h1" }]]),
      server: new Map([["frames/a.html", { hash: "h1", id: "abc" }]]),
      base,
      options: { delete: false, force: false, kinds: ALL },
    });
    assert.deepEqual(plan, [{ key: "frames/b.html", kind: "frames", action: "rename", from: "frames/a.html" }]);
  });

  it("the cases by name", () => {
    const options = { delete: false, force: false, kinds: ALL };
    const b = { sha256: "h1", server_sha256: "h1" };
    const one = (l?: string, s?: string, base?: StateEntry, o = options) =>
      planPush({
        local: new Map(l ? [["frames/a.html", { hash: l }]] : []),
        server: new Map(s ? [["frames/a.html", { hash: s }]] : []),
        base: new Map(base ? [["frames/a.html", base]] : []),
        options: o,
      })[0]?.action;
    assert.equal(one("h2", "h1", b), "update");
    assert.equal(one("h1", "h2", b), "skip");
    assert.equal(one("h2", "h3", b), "conflict");
    assert.equal(one("h2", "h3", b, { ...options, force: true }), "update");
    assert.equal(one("h2", "h3"), "conflict", "never synced and different");
    assert.equal(one("h2", "h2"), "unchanged");
    assert.equal(one("h2"), "create");
    assert.equal(one(undefined, "h1"), "keep");
    assert.equal(one(undefined, "h1", undefined, { ...options, delete: true }), "delete");
    assert.equal(one(undefined, "h1", b), "keep", "deleted here, without --delete");
    assert.equal(one(undefined, "h1", b, { ...options, delete: true }), "delete");
    assert.equal(one(undefined, "h2", b, { ...options, delete: true }), "conflict", "deleted here, changed there");
    assert.equal(one("h1", undefined, b), "skip", "deleted there, unchanged here");
    assert.equal(one("h2", undefined, b), "conflict", "deleted there, changed here");
  });
});

describe("status", () => {
  it("a conflict is an object changed on both sides to different content; in-sync objects are left out", () => {
    fc.assert(
      fc.property(world, (w) => {
        for (const item of siteStatus({ ...w, kinds: w.kinds })) {
          const l = w.local.get(item.key);
          const s = w.server.get(item.key);
          assert.ok(!(l && s && l.hash === s.hash), "equal content is in sync");
          assert.ok(item.local !== null || item.server !== null);
          assert.equal(
            item.conflict,
            item.local !== null && item.server !== null && !(item.local === "deleted" && item.server === "deleted"),
          );
        }
      }),
      { numRuns: 2000 },
    );
  });

  it("every push conflict with both sides present is a status conflict", () => {
    fc.assert(
      fc.property(world, (w) => {
        const status = new Map(siteStatus({ ...w }).map((item) => [item.key, item]));
        for (const item of planPush(input(w))) {
          if (item.action === "conflict" && w.local.has(item.key) && w.server.has(item.key))
            assert.ok(status.get(item.key)?.conflict, item.key);
        }
      }),
      { numRuns: 2000 },
    );
  });
});

describe("pull plan", () => {
  it("keeps the folder's changes, takes the server's, and after it the folder is in sync with the server wherever it wrote", () => {
    fc.assert(
      fc.property(world, (w) => {
        const i = { local: w.local, server: w.server, base: w.base };
        const plan = planPull({ ...i, kinds: w.kinds, force: w.force });
        if (plan.some((item) => item.action === "conflict")) {
          assert.ok(!w.force);
          return;
        }
        const local = new Map(w.local);
        for (const item of plan) {
          if (item.action === "create" || item.action === "update")
            local.set(item.key, { hash: w.server.get(item.key)!.hash });
          if (item.action === "delete") local.delete(item.key);
          if (item.action === "keep" || item.action === "unchanged")
            assert.deepEqual(local.get(item.key), w.local.get(item.key));
        }
        const base = baselineAfterPull(i, plan);
        const again = planPull({ local, server: w.server, base, kinds: w.kinds, force: false });
        assert.ok(
          again.every((item) => item.action === "unchanged" || item.action === "keep"),
          JSON.stringify(again),
        );
        const push = planPush({
          local,
          server: w.server,
          base,
          options: { delete: false, force: false, kinds: w.kinds },
        });
        assert.ok(!push.some((item) => item.action === "conflict" || item.action === "skip"), JSON.stringify(push));
      }),
      { numRuns: 3000 },
    );
  });
});
