// Property tests for the pure part of paged lists (src/http/pagination.ts): reading ?per_page
// and ?page, and the Link header a page of a list sends.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { ServiceError } from "../../src/errors.ts";
import {
  PAGE_MAX,
  PER_PAGE_DEFAULT,
  PER_PAGE_MAX,
  pagingHeaders,
  parsePaging,
  type Paging,
} from "../../src/http/pagination.ts";

/** The refusal parsePaging throws, or null when it answers. */
function refusal(query: Record<string, unknown>): ServiceError | null {
  try {
    parsePaging(query);
    return null;
  } catch (error) {
    assert.ok(error instanceof ServiceError, `not a ServiceError: ${String(error)}`);
    return error;
  }
}

const inRange = (max: number) => fc.integer({ min: 1, max });
/** Text that is not a plain decimal integer: words, signs, decimals, exponents, blanks. */
const notAnInteger = fc.oneof(
  fc.string().filter((s) => !/^[0-9]+$/.test(s)),
  fc.constantFrom("", " ", "1.5", "2.0", "1e2", "-1", "+1", " 5", "5 ", "0x10", "Infinity", "NaN", "١٢"),
);
const notAString = fc.oneof(
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.constantFrom("1", "2"), { minLength: 2, maxLength: 3 }),
  fc.object(),
);

describe("parsing ?per_page and ?page", () => {
  it("without either parameter the list starts at page 1 with 100 per page", () => {
    assert.deepEqual(parsePaging({}), { page: 1, perPage: PER_PAGE_DEFAULT, offset: 0, limit: PER_PAGE_DEFAULT });
    assert.deepEqual(parsePaging(undefined), parsePaging({}));
    assert.equal(PER_PAGE_DEFAULT, 100);
    assert.equal(PER_PAGE_MAX, 500);
  });

  it("any per_page from 1 to 500 and any page from 1 are read as written (leading zeros too); the window skips the pages before", () => {
    fc.assert(
      fc.property(inRange(PER_PAGE_MAX), inRange(PAGE_MAX), fc.nat({ max: 3 }), (perPage, page, zeros) => {
        const paging = parsePaging({ per_page: "0".repeat(zeros) + String(perPage), page: String(page), lang: "en" });
        assert.deepEqual(paging, { page, perPage, offset: (page - 1) * perPage, limit: perPage });
        assert.ok(Number.isSafeInteger(paging.offset));
      }),
    );
  });

  const refusals: Array<{ parameter: "per_page" | "page"; rule: string; max: number; other: Record<string, string> }> =
    [
      { parameter: "per_page", rule: "out of 1..500", max: PER_PAGE_MAX, other: { page: "1" } },
      { parameter: "page", rule: "below 1 or above 1,000,000,000", max: PAGE_MAX, other: { per_page: "10" } },
    ];
  for (const { parameter, rule, max, other } of refusals) {
    it(`${parameter} ${rule}, or anything but decimal digits, is invalid_parameter naming ${parameter}`, () => {
      const outOfRange = fc
        .oneof(fc.constant(0), fc.integer({ min: max + 1, max: Number.MAX_SAFE_INTEGER }), fc.constant("9".repeat(400)))
        .map(String);
      fc.assert(
        fc.property(fc.oneof(outOfRange, notAnInteger, notAString), (value) => {
          const error = refusal({ ...other, [parameter]: value });
          assert.ok(error, `${parameter} ${JSON.stringify(value)} was accepted`);
          assert.equal(error.code, "invalid_parameter");
          assert.deepEqual([error.details.parameter, error.details.min, error.details.max], [parameter, 1, max]);
        }),
      );
    });
  }
});

describe("the Link header of a page", () => {
  const paging = (page: number, perPage: number): Paging => ({
    page,
    perPage,
    offset: (page - 1) * perPage,
    limit: perPage,
  });
  const links = (link: string | null) =>
    Object.fromEntries(
      (link ?? "")
        .split(", ")
        .filter(Boolean)
        .map((part) => {
          const match = /^<([^>]*)>; rel="(prev|next)"$/.exec(part);
          assert.ok(match, `malformed link ${part}`);
          return [match[2], match[1]];
        }),
    );

  it("next exists exactly before the last page, prev exactly after the first; prev past the end is the last page", () => {
    fc.assert(
      fc.property(fc.nat({ max: 5000 }), inRange(PER_PAGE_MAX), inRange(50), (total, perPage, page) => {
        const { totalPages, link } = pagingHeaders("/api/pages", "http://h", paging(page, perPage), total);
        assert.equal(totalPages, Math.ceil(total / perPage));
        const rel = links(link);
        assert.equal(rel.next !== undefined, page < totalPages);
        assert.equal(rel.prev !== undefined, page > 1);
        if (rel.next) assert.equal(new URL(rel.next).searchParams.get("page"), String(page + 1));
        if (rel.prev)
          assert.equal(new URL(rel.prev).searchParams.get("page"), String(Math.min(page - 1, Math.max(totalPages, 1))));
      }),
    );
  });

  it("links keep the path and every other query parameter, and carry exactly one page", () => {
    const key = fc.stringMatching(/^[a-z_]{1,8}$/).filter((k) => k !== "page");
    fc.assert(
      fc.property(
        fc.constantFrom("/api/site/3/pages", "/api/pages", "/api/site/12/frames", "/api/users"),
        fc.dictionary(key, fc.string({ maxLength: 12 }), { maxKeys: 4 }),
        fc.option(inRange(9), { nil: undefined }),
        (path, params, current) => {
          const query = new URLSearchParams(params);
          if (current !== undefined) query.set("page", String(current));
          const address = `${path}?${query}`;
          const page = current ?? 1;
          const rel = links(pagingHeaders(address, "http://example.test:8080", paging(page, 2), 30).link);
          for (const href of Object.values(rel)) {
            const url = new URL(href);
            assert.equal(url.origin, "http://example.test:8080");
            assert.equal(url.pathname, path);
            assert.equal(url.searchParams.getAll("page").length, 1);
            url.searchParams.delete("page");
            assert.deepEqual(Object.fromEntries(url.searchParams), { ...params });
          }
        },
      ),
    );
  });

  it("without an origin the links are path-relative", () => {
    const { link } = pagingHeaders("/api/pages?blog_id=2&page=2", null, paging(2, 1), 3);
    assert.equal(link, '</api/pages?blog_id=2&page=1>; rel="prev", </api/pages?blog_id=2&page=3>; rel="next"');
  });
});
