// The outbox's columns as read back (src/publish/outbox-columns.ts): the schema of its changes is
// the Change type of write/change.ts, both ways (checked by the compiler below, run by tsc), so every
// change a write owes reads back; a row that does not read throws rather than being guessed at.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import type { Static } from "@sinclair/typebox";
import { type CHANGE, OUTBOX_CHANGES, OUTBOX_OPTIONS } from "../../src/publish/outbox-columns.ts";
import { CorruptJson } from "../../src/store/json-column.ts";
import type { Change } from "../../src/write/change.ts";

/** A type with its readonly arrays writable, as a schema's values are. */
type Writable<T> = T extends readonly (infer U)[]
  ? Writable<U>[]
  : T extends object
    ? { -readonly [K in keyof T]: Writable<T[K]> }
    : T;
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
// Fails to compile when a kind or field is in the Change type and not the schema, or the other way.
const schemaIsChange: Same<Static<typeof CHANGE>, Writable<Change>> = true;

/** One change of every kind, every optional field given. */
const EVERY_KIND: Change[] = [
  { kind: "settings", keys: ["name", "tagline", "theme", "default_lang", "home_page", "not_found_page"] },
  { kind: "languages" },
  { kind: "page", pageId: 4, parents: [1, 2], gone: true },
  { kind: "dataset", name: "team" },
  { kind: "menu", menuId: 3, locations: ["main"] },
  { kind: "frame", frameId: "00000000000000aa", slug: "home", output: false },
  { kind: "media", mediaId: 9, refs: ["9", "hero"] },
  { kind: "style", theme: "default", names: ["main"] },
  { kind: "all" },
  { kind: "pages" },
  { kind: "site", name: true, domain: false },
  { kind: "redirects", addresses: ["/old/"] },
  { kind: "seo", head: true, robots: false },
  { kind: "sidebar", name: "docs" },
  { kind: "strings", keys: ["hello"] },
  { kind: "flush", addresses: "all" },
  { kind: "flush", addresses: ["/"] },
];

describe("the outbox's columns read back", () => {
  it("every kind of change a write owes reads back as written", () => {
    assert.equal(schemaIsChange, true);
    assert.deepEqual(OUTBOX_CHANGES.read(JSON.stringify(EVERY_KIND)), EVERY_KIND);
    assert.deepEqual(OUTBOX_OPTIONS.read('{"bake":false,"limit":25}'), { bake: false, limit: 25 });
  });

  it("a row that does not read throws CorruptJson naming its column", () => {
    for (const text of ['[{"kind":"later"}]', '[{"kind":"page"}]', "{}", "{bad"]) {
      assert.throws(
        () => OUTBOX_CHANGES.read(text),
        (error: unknown) => error instanceof CorruptJson && error.column === "publish_outbox.changes_json",
        text,
      );
    }
    assert.throws(() => OUTBOX_OPTIONS.read('{"bake":"no"}'), CorruptJson);
  });
});
