// What an outbox row keeps (outbox.ts), as read back: its changes (`changes_json`, the Change
// vocabulary of write/change.ts as a schema) and the publish options it keeps (`options_json`). A
// row that does not read is not guessed at: reading it throws, as a row that was not JSON did.
// test/publish/outbox-columns.test.ts checks the schema against the Change type both ways, so a kind
// or field added to one and not the other fails to compile.
import { Type } from "@sinclair/typebox";
import { jsonColumn } from "../store/json-column.ts";

const Strings = Type.Array(Type.String());
/** A page reference as a setting keeps it: an id, a slug or path, or none. */
const PageRef = Type.Union([Type.Integer(), Type.String(), Type.Null()]);
const SettingKey = Type.Union([
  Type.Literal("name"),
  Type.Literal("tagline"),
  Type.Literal("theme"),
  Type.Literal("default_lang"),
  Type.Literal("home_page"),
  Type.Literal("not_found_page"),
  Type.Literal("menu_locations"),
]);

export const CHANGE = Type.Union([
  Type.Object({
    kind: Type.Literal("settings"),
    keys: Type.Optional(Type.Array(SettingKey)),
    homes: Type.Optional(Type.Object({ before: PageRef, after: PageRef })),
    locations: Type.Optional(Strings),
  }),
  Type.Object({ kind: Type.Literal("languages") }),
  Type.Object({
    kind: Type.Literal("page"),
    pageId: Type.Integer(),
    parents: Type.Optional(Type.Array(Type.Integer())),
    gone: Type.Optional(Type.Boolean()),
  }),
  Type.Object({ kind: Type.Literal("dataset"), name: Type.String() }),
  Type.Object({ kind: Type.Literal("menu"), menuId: Type.Integer(), locations: Type.Optional(Strings) }),
  Type.Object({
    kind: Type.Literal("frame"),
    frameId: Type.String(),
    slug: Type.String(),
    output: Type.Optional(Type.Boolean()),
  }),
  Type.Object({ kind: Type.Literal("media"), mediaId: Type.Integer(), refs: Strings }),
  Type.Object({ kind: Type.Literal("style"), theme: Type.String(), names: Strings }),
  Type.Object({ kind: Type.Literal("all") }),
  Type.Object({ kind: Type.Literal("pages") }),
  Type.Object({
    kind: Type.Literal("site"),
    name: Type.Optional(Type.Boolean()),
    domain: Type.Optional(Type.Boolean()),
  }),
  Type.Object({ kind: Type.Literal("redirects"), addresses: Strings }),
  Type.Object({
    kind: Type.Literal("seo"),
    head: Type.Optional(Type.Boolean()),
    robots: Type.Optional(Type.Boolean()),
  }),
  Type.Object({ kind: Type.Literal("sidebar"), name: Type.String() }),
  Type.Object({ kind: Type.Literal("form"), name: Type.String() }),
  Type.Object({ kind: Type.Literal("strings"), keys: Strings }),
  Type.Object({ kind: Type.Literal("flush"), addresses: Type.Union([Strings, Type.Literal("all")]) }),
]);

export const OUTBOX_CHANGES = jsonColumn("publish_outbox.changes_json", Type.Array(CHANGE));

/** The options a row keeps: what changes how the engine publishes (outbox.ts `Kept`). */
export const OUTBOX_OPTIONS = jsonColumn(
  "publish_outbox.options_json",
  Type.Object({ bake: Type.Optional(Type.Boolean()), limit: Type.Optional(Type.Number()) }),
);
