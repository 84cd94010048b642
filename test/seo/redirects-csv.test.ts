// Redirects as CSV (src/seo/redirects-csv.ts, docs/seo.md "Redirects as CSV"): what GET
// /seo/redirects writes, POST /seo/redirects reads back as the same redirects, whatever their
// addresses hold (commas, quotes, line ends, `?&=`, any other character), in any number.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { REDIRECT_STATUSES } from "../../src/redirects/redirects.ts";
import { redirectsCsv, redirectsFromCsv } from "../../src/seo/redirects-csv.ts";

/** A field as the service writes one: never with whitespace at either end (both are trimmed). */
const field = fc
  .string({
    unit: fc.oneof(
      fc.constantFrom(",", '"', "\n", "\r", "\r\n", "?", "&", "=", "/", "%", " "),
      fc.string({ unit: "binary", minLength: 1, maxLength: 1 }),
    ),
  })
  .map((text) => text.trim());

const redirect = fc
  .record({ from: field, to: field, status: fc.constantFrom(...REDIRECT_STATUSES) })
  .map((record) => ({ ...record }));

describe("redirects as CSV", () => {
  it("written, then read, give back the same redirects", () => {
    fc.assert(
      fc.property(fc.array(redirect, { maxLength: 30 }), (redirects) => {
        assert.deepEqual(redirectsFromCsv(redirectsCsv(redirects)), redirects);
      }),
      { numRuns: 300 },
    );
  });

  it("RFC 4180: a header row, CRLF line ends, a field quoted only when it holds a comma, a quote or a line end", () => {
    assert.equal(
      redirectsCsv([
        { from: "/a/", to: "/b/", status: 301 },
        { from: '/say-"hi"/', to: "/x,y/", status: 302 },
        { from: "/multi\nline/", to: "https://example.org/?a=1&b=2", status: 308 },
      ]),
      'from,to,status\r\n/a/,/b/,301\r\n"/say-""hi""/","/x,y/",302\r\n"/multi\nline/",https://example.org/?a=1&b=2,308\r\n',
    );
    assert.equal(redirectsCsv([]), "from,to,status\r\n");
  });
});
