// The one normalisation of the domains the API takes (src/network/domain-name.ts): examples, and
// fast-check properties: it never throws, its output is a host name or a refusal, and a
// normalised domain normalises to itself.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { normaliseDomain } from "../../src/network/domain-name.ts";
import { isHostname } from "../../src/config.ts";

describe("normaliseDomain", () => {
  it("trims, lower-cases and makes international names punycode", () => {
    const cases: Array<[string, string]> = [
      ["localhost", "localhost"],
      ["blog.localhost", "blog.localhost"],
      ["  Example.COM\t", "example.com"],
      ["bücher.example", "xn--bcher-kva.example"],
      ["BÜCHER.example", "xn--bcher-kva.example"],
      ["xn--bcher-kva.example", "xn--bcher-kva.example"],
      ["faß.de", "xn--fa-hia.de"],
      ["ＡＢＣ．com", "abc.com"],
      ["a。b", "a.b"],
      ["127.0.0.1", "127.0.0.1"],
      ["1.2.3", "1.2.3"],
      ["ab--cd.example", "ab--cd.example"],
      [`${"a".repeat(63)}.example`, `${"a".repeat(63)}.example`],
    ];
    for (const [input, expected] of cases) assert.deepEqual(normaliseDomain(input), { domain: expected }, input);
  });

  it("refuses malformed names, saying why", () => {
    const cases: Array<[string, string]> = [
      ["", "empty"],
      ["   ", "empty"],
      ["not a host", "space"],
      ["a\u3000b.example", "space"],
      ["example.com:8080", "port_or_path"],
      ["example.com/path", "port_or_path"],
      ["http://example.com", "port_or_path"],
      ["example.com?x", "port_or_path"],
      ["a／b.example", "port_or_path"],
      ["[::1]", "port_or_path"],
      ["a..b", "empty_label"],
      [".example.com", "empty_label"],
      ["example.com.", "empty_label"],
      ["-a.example", "hyphen"],
      ["a-.example", "hyphen"],
      ["-ü.example", "hyphen"],
      ["a_b.example", "characters"],
      ["%41.example", "characters"],
      ["a@b.example", "characters"],
      [`${"a".repeat(64)}.example`, "label_too_long"],
      [Array.from({ length: 64 }, () => "abc").join("."), "too_long"],
      ["x".repeat(5000), "too_long"],
    ];
    for (const [input, reason] of cases)
      assert.deepEqual(normaliseDomain(input), { refused: reason }, JSON.stringify(input));
  });

  /** Names built from pieces that test each rule: letters in both cases, IDN, dots, hyphens, ports, spaces. */
  const piece = fc.constantFrom(
    "a",
    "B",
    "z9",
    "ü",
    "Ä",
    "ß",
    "\u00ad",
    "日本",
    "ｘ",
    "-",
    "--",
    ".",
    "。",
    "．",
    " ",
    ":80",
    "/",
    "_",
    "%",
    "xn--",
    "xn--bcher-kva",
    "0x10",
    "1",
    "\u200d",
    "İ",
    "\u0301",
  );
  const built = fc.array(piece, { maxLength: 12 }).map((parts) => parts.join(""));
  const anyText = fc.oneof(
    built,
    fc.string({ maxLength: 40 }),
    fc.string({ unit: "grapheme", maxLength: 20 }),
    fc.string({ unit: "binary", maxLength: 20 }),
  );

  it("never throws; answers a host name that normalises to itself, or a refusal", () => {
    fc.assert(
      fc.property(anyText, (input) => {
        const result = normaliseDomain(input);
        if ("refused" in result) return;
        assert.ok(
          isHostname(result.domain),
          `${JSON.stringify(input)} → ${JSON.stringify(result.domain)} is a host name`,
        );
        assert.deepEqual(normaliseDomain(result.domain), result, "idempotent");
      }),
      { numRuns: 5000 },
    );
  });

  it("a valid lower-case ASCII name is kept as it is, whatever case, around spaces", () => {
    const label = fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,20}[a-z0-9])?$/);
    fc.assert(
      fc.property(fc.array(label, { minLength: 1, maxLength: 5 }), (labels) => {
        const name = labels.join(".");
        assert.deepEqual(normaliseDomain(` ${name.toUpperCase()} `), { domain: name });
      }),
    );
  });
});
