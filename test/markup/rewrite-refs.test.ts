// rewriteFrameRefs: references to a renamed frame are rewritten in place inside svc/frame and
// svc/partial inserts; every other byte stays as written.
import { test } from "node:test";
import assert from "node:assert/strict";
import { rewriteFrameRefs } from "../../src/markup/index.ts";

const isOld = (v: string): boolean => v === "old" || v === "00000000000000aa";

test("a matching name value is replaced in place, spacing inside the JSON kept", () => {
  const html = `<div>\r\n<!-- svc/frame {  "name" :   "old" , "x": 1 } /-->\r\n</div>`;
  assert.deepEqual(rewriteFrameRefs(html, isOld, "new"), {
    html: `<div>\r\n<!-- svc/frame {  "name" :   "new" , "x": 1 } /-->\r\n</div>`,
    replaced: 1,
  });
});

test("an alias key (ref, frame, slug, id) without a name key is rewritten under name", () => {
  for (const key of ["ref", "frame", "slug", "id"]) {
    const html = `<!-- svc/partial {"${key}": "old", "with": {"name": "old"}} /-->`;
    assert.deepEqual(rewriteFrameRefs(html, isOld, "new"), {
      html: `<!-- svc/partial {"name": "new", "with": {"name": "old"}} /-->`,
      replaced: 1,
    });
  }
});

test("with a name key present, only matching values are replaced and keys stay unchanged", () => {
  assert.equal(
    rewriteFrameRefs(`<!-- svc/frame {"name": "keep", "ref": "old"} /-->`, isOld, "new").html,
    `<!-- svc/frame {"name": "keep", "ref": "new"} /-->`,
  );
  assert.equal(
    rewriteFrameRefs(`<!-- svc/frame {"id": "00000000000000aa", "name": "old"} /-->`, isOld, "new").html,
    `<!-- svc/frame {"id": "new", "name": "new"} /-->`,
  );
});

test("without a name key only the first matching alias becomes name; later matching aliases keep their key", () => {
  assert.deepEqual(
    rewriteFrameRefs(`<!-- svc/frame {"ref":"old","id":"00000000000000aa","slug":"other"} /-->`, isOld, "new"),
    {
      html: `<!-- svc/frame {"name":"new","id":"new","slug":"other"} /-->`,
      replaced: 2,
    },
  );
});

test("numbers are matched by their text and escaped strings by their value", () => {
  const r = rewriteFrameRefs(
    `<!-- svc/frame {"id": 12} /--><!-- svc/frame {"name": "ol\\u0064"} /-->`,
    (v) => v === "12" || v === "old",
    "n\u00e9w",
  );
  assert.deepEqual(r, {
    html: `<!-- svc/frame {"name": "n\u00e9w"} /--><!-- svc/frame {"name": "n\u00e9w"} /-->`,
    replaced: 2,
  });
});

test("only svc/frame and svc/partial inserts are touched: not other inserts, ordinary comments, scripts or attributes", () => {
  const html = [
    `<!-- svc/menu {"name": "old"} /-->`,
    `<!-- op/frame {"name": "old"} /-->`,
    `<!-- svc/frame {"name": "old"} -->`,
    `<!-- note: svc/frame {"name": "old"} /-->`,
    `<script>var s = '<!-- svc/frame {"name": "old"} /-->';</script>`,
    `<p title='<!-- svc/frame {"name": "old"} /-->'></p>`,
    `<!-- svc/frame {"name": old} /-->`,
    `<!-- svc/frame {"name": "old"} /--!>`,
  ].join("\n");
  const r = rewriteFrameRefs(html, isOld, "new");
  assert.equal(r.html, html);
  assert.equal(r.replaced, 0);
});

test("every matching insert of the markup is rewritten and counted", () => {
  const html = `\uFEFFa<!-- svc/frame {"name":"old"} /-->b<!-- svc/repeat {"source":"x"} --><!-- svc/partial {"slug":"old"} /--><!-- /svc/repeat -->c<!-- svc/frame {"name":"z"} /-->`;
  assert.deepEqual(rewriteFrameRefs(html, isOld, "new"), {
    html: `\uFEFFa<!-- svc/frame {"name":"new"} /-->b<!-- svc/repeat {"source":"x"} --><!-- svc/partial {"name":"new"} /--><!-- /svc/repeat -->c<!-- svc/frame {"name":"z"} /-->`,
    replaced: 2,
  });
});

test("markup without a match is returned as the same string", () => {
  const html = `<!-- svc/frame {"name":"z"} /-->`;
  const r = rewriteFrameRefs(html, isOld, "new");
  assert.equal(r.html, html);
  assert.equal(r.replaced, 0);
});
