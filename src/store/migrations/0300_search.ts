// The site search index (docs/search.md): one entry per page a visitor can find (published, every
// ancestor published, on a frame, not `noindex`), kept by the write pipeline in each page write's
// transaction (src/search/). The entries of the pages that exist when it runs are made at the
// next start (search/catch-up.ts), since a page's text is rendered from its content in code.
//
// SQLite: an FTS5 table whose rowid is the page's id, folding accents (`remove_diacritics 2`), with
// prefix indexes for the last word's prefix match; `scope` holds one token naming the site and the
// language, so a search reads only its own site's postings. A trigger drops a page's entry with the
// page, whatever deleted it (a site's deletion cascades to its pages; FTS5 tables have no keys).
// `page_search_terms` lists the index's words (an fts5vocab table, nothing stored): a search reads
// a last word's prefix as the words it stands for. `page_search_heads` indexes the titles and the
// summaries and tags alone (`meta`), so where a page holds the words is told without walking or
// reading the texts (search/sqlite-candidates.ts).
// PostgreSQL: a table with the document as a `tsvector` made with the page language's text-search
// configuration, a GIN index over it, and keys that go with the page and the site.
import { sql } from "kysely";
import type { Build } from "./build.ts";

export const up: Build = async (db, dialect) => {
  if (dialect === "postgres") {
    await sql`
      create table page_search (
        page_id integer primary key references pages(id) on delete cascade,
        site_id integer not null references sites(id) on delete cascade,
        lang text not null,
        title text not null,
        summary text not null,
        tags text not null,
        body text not null,
        document tsvector not null
      )
    `.execute(db);
    await sql`create index page_search_document on page_search using gin (document)`.execute(db);
    await sql`create index page_search_site on page_search (site_id, lang)`.execute(db);
    return;
  }
  await sql`
    create virtual table page_search using fts5(
      scope, title, summary, tags, body,
      tokenize = 'unicode61 remove_diacritics 2',
      prefix = '2 3'
    )
  `.execute(db);
  await sql`create virtual table page_search_terms using fts5vocab(page_search, row)`.execute(db);
  await sql`
    create virtual table page_search_heads using fts5(
      scope, title, meta,
      tokenize = 'unicode61 remove_diacritics 2',
      prefix = '2 3'
    )
  `.execute(db);
  await sql`
    create trigger page_search_page_gone after delete on pages
    begin
      delete from page_search where rowid = old.id;
      delete from page_search_heads where rowid = old.id;
    end
  `.execute(db);
};
