// The words a search looks for (src/search/query-words.ts) and the FTS5 query built from them
// (src/search/sqlite-search.ts): whatever a visitor types, the query is words only — it runs in
// FTS5 without an error and never reaches past its site's scope — and a long or stop-word query
// has none.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import SQLite from "better-sqlite3";
import { MAX_QUERY_LENGTH, searchWords } from "../../src/search/query-words.ts";
import { matchExpression, scopeToken } from "../../src/search/sqlite-search.ts";
import { tsqueryOf } from "../../src/search/postgres-search.ts";

describe("search words", () => {
  it("folds accents and case, drops stop words and repeats, keeps the order typed", () => {
    assert.deepEqual(searchWords("The Café of CAFE über", "en"), ["cafe", "uber"]);
    assert.deepEqual(searchWords("der Bäcker und die Brötchen", "de"), ["backer", "brotchen"]);
    assert.deepEqual(searchWords("e-mail, hôtel", "fr"), ["e", "mail", "hotel"]);
    assert.deepEqual(searchWords("the and of", "en"), []);
    assert.deepEqual(searchWords("x".repeat(MAX_QUERY_LENGTH + 1), "en"), []);
    assert.equal(searchWords("x".repeat(MAX_QUERY_LENGTH), "en").length, 1);
  });

  it("any input makes an FTS5 query that runs and finds nothing of another site", () => {
    const db = new SQLite(":memory:");
    db.exec(
      "create virtual table page_search using fts5(scope, title, summary, tags, body, tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3')",
    );
    const insert = db.prepare(
      "insert into page_search (rowid, scope, title, summary, tags, body) values (?, ?, ?, ?, ?, ?)",
    );
    insert.run(1, scopeToken(1, "en"), "Mine", "", "", "a shared word and more");
    insert.run(2, scopeToken(2, "en"), "Theirs", "", "", "a shared word and more s1l656e");
    const find = db.prepare("select rowid from page_search where page_search match ?");
    fc.assert(
      fc.property(fc.string({ maxLength: 80, unit: "grapheme" }), (q) => {
        const words = searchWords(`${q} shared`, "en");
        const found = find.all(matchExpression(1, ["en", ""], words)) as Array<{ rowid: number }>;
        assert.ok(found.every((row) => row.rowid === 1));
        assert.ok(
          tsqueryOf(words)
            .split(" & ")
            .every((lexeme) => /^'[\p{L}\p{N}]+'(:\*)?$/u.test(lexeme)),
        );
      }),
      { numRuns: 500 },
    );
    db.close();
  });
});
