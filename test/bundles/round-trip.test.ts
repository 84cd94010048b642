// A site exported from one instance and imported into an empty one (docs/bundles.md, "Round
// trip"): two built services, each with its own database and data directory. Every address of the
// old site — each page in each language from the API's list (drafts, scheduled and trashed pages
// too: they answer the same 404), the home pages, list pages, feeds, the sitemap, robots.txt,
// redirects, and every address on the site's origin those name (stylesheets, media and variants) —
// answers the new site with the same status, type and bytes apart from the domain; drafts stay
// drafts.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { must } from "../cli/folder-helpers.ts";
import { serve, type Served } from "../cli/harness.ts";
import { addressesIn, isText, publicAnswer, type PublicAnswer } from "./crawl.ts";
import { buildRichSite } from "./rich-site.ts";

const OLD = "origin.localhost";
const NEW = "copy.localhost";
/** Both services print the same port, so the origins differ by their domain alone. */
const ENV = { SVC_PUBLIC_PORT: "8080", SVC_PUBLIC_RATE_LIMIT_PER_MIN: "10000000" };
const ORIGIN = `http://${OLD}:8080`;

const portOf = (t: Served) => Number(new URL(t.url).port);

/**
 * An answer as compared. Besides the domain, one thing differs, and is blanked in both: a printed
 * form's time token, signed afresh for every answer (it holds the site's and the page's ids and
 * the time the page was served, src/forms/token.ts), so it differs between any two answers of the
 * same page, even on one instance. Everything else of the new site's answer is the old one's once
 * its domain is the old one's — feeds' Atom ids too, which keep the old site's key
 * (docs/bundles.md, "Round trip").
 */
function comparable(answer: PublicAnswer, domain: string) {
  const text = (value: string) =>
    value.replaceAll(domain, OLD).replace(/(name="_svc_token" value=")[^"]*"/g, '$1<token>"');
  return {
    status: answer.status,
    type: answer.type,
    location: text(answer.location),
    body: isText(answer.type) ? text(answer.body.toString("utf8")) : answer.body.toString("base64"),
  };
}

async function pagesOf(t: Served, site: number): Promise<any[]> {
  const listed = (await must(t, site, "GET", "/pages?status=any&per_page=500")).pages as any[];
  const trashed = (await must(t, site, "GET", "/pages?status=trash&per_page=500")).pages as any[];
  const ids = new Set(listed.map((page) => page.id));
  return [...listed, ...trashed.filter((page) => !ids.has(page.id))];
}

/** Where to start: every page's address (with its list pages and feed), the homes, the site's files, redirects, a missing page. */
async function seeds(t: Served, site: number): Promise<string[]> {
  const out = ["/", "/de/", "/sitemap.xml", "/robots.txt", "/no-such-page/", "/de/keine-seite/"];
  for (const page of await pagesOf(t, site)) {
    const path = new URL(page.url).pathname;
    out.push(path, `${path}feed.xml`, `${path}page/2/`, `${path}page/3/`);
  }
  for (const redirect of (await must(t, site, "GET", "/seo/redirects")).redirects) out.push(redirect.from);
  return out;
}

describe("bundles: round trip between two instances", () => {
  let a: Served;
  let b: Served;
  let site: number;
  before(async () => {
    [a, b] = await Promise.all([serve(ENV), serve(ENV)]);
    site = await buildRichSite(a, OLD);
    // The new instance holds a site and pages already, so the copy's ids are not the old ones.
    const other = Number(
      (await must(b, 0, "POST", "/api/sites", { name: "Other", domain: "other.localhost" })).site.id,
    );
    await must(b, other, "POST", "/pages", { title: "Other", slug: "other", content: "<p>o</p>" });
  });
  after(async () => {
    await a?.stop();
    await b?.stop();
  });

  it("every address of the new site answers as the old one's, apart from its domain; drafts stay drafts", async () => {
    const exported = await fetch(`${a.url}/api/sites/${site}/export`, {
      headers: { authorization: `Bearer ${a.token}` },
    });
    assert.equal(exported.status, 200);
    const bytes = Buffer.from(await exported.arrayBuffer());
    const imported = await fetch(`${b.url}/api/sites/import?domain=${NEW}`, {
      method: "POST",
      headers: { authorization: `Bearer ${b.token}`, "content-type": "application/gzip" },
      body: bytes,
    });
    const answer = await imported.json();
    assert.equal(imported.status, 201, JSON.stringify(answer));
    assert.deepEqual(answer.conflicts, []);
    const copy = answer.site_id as number;
    assert.notEqual(copy, site);

    const facts = (pages: any[]) =>
      pages.map((p) => [p.lang, p.path, p.status, p.title, p.date, p.seo, p.fields]).sort();
    const oldPages = await pagesOf(a, site);
    const newPages = await pagesOf(b, copy);
    assert.deepEqual(
      facts(newPages),
      facts(oldPages.filter((page) => page.status !== "trash")),
      "every page but the trashed ones, with its status (drafts stay drafts), date, SEO and fields",
    );
    for (const status of ["draft", "future", "trash"])
      assert.ok(
        oldPages.some((page) => page.status === status),
        `the old site has a ${status} page`,
      );

    const seen = new Set<string>();
    const queue = await seeds(a, site);
    let compared = 0;
    const kinds = new Set<string>();
    while (queue.length > 0) {
      const path = queue.shift()!;
      if (seen.has(path)) continue;
      seen.add(path);
      const old = await publicAnswer(portOf(a), OLD, path);
      const now = await publicAnswer(portOf(b), NEW, path);
      assert.deepEqual(comparable(now, NEW), comparable(old, OLD), path);
      compared++;
      kinds.add(`${old.status} ${old.type.split(";")[0]}`);
      if (isText(old.type)) queue.push(...addressesIn(old.body.toString("utf8"), `${ORIGIN}${path}`, ORIGIN));
    }
    // What the crawl reached: pages, a 404, redirects, feeds, the sitemap, CSS, images, the PDF.
    for (const kind of [
      "200 text/html",
      "404 text/html",
      "301 ",
      "200 application/atom+xml",
      "200 application/xml",
      "200 text/css",
      "200 image/webp",
      "200 image/png",
      "200 application/pdf",
    ])
      assert.ok(
        [...kinds].some((seenKind) => seenKind.startsWith(kind)),
        `${kind} among ${[...kinds].join(", ")}`,
      );
    assert.ok(compared > 80, `${compared} addresses compared`);

    // The same bundle again is no change at all.
    const again = await fetch(`${b.url}/api/sites/${copy}/import?dry_run=1`, {
      method: "POST",
      headers: { authorization: `Bearer ${b.token}`, "content-type": "application/gzip" },
      body: bytes,
    });
    const plan = await again.json();
    assert.equal(again.status, 200);
    assert.deepEqual([plan.creates, plan.updates, plan.conflicts], [[], [], []]);
  });
});
