// Effect table, redirects of a query string, in one hop, and many at once (docs/publishing.md,
// pattern in effects-helpers.ts): each write reaches the public site on the next request, over real
// sockets, through the process that did not write it when there are two.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { call } from "../cluster/helpers.ts";
import { effects, gone, ok, redirected, served, suite } from "./effects-helpers.ts";

describe(suite("seo redirects"), () => {
  const fx = effects();

  /** A site of its own with a home page and a page `rx-target`; answers its id and host. */
  async function site(name: string): Promise<{ site: number; host: string }> {
    const host = `${name}.localhost`;
    const id = await fx.site(`Site ${name}`, host);
    await fx.frame("plain", "<!DOCTYPE html><html><body><p>plain</p></body></html>", id);
    const home = await fx.page("rx-home", "plain", {}, id);
    ok(await fx.api("PATCH", "/settings", { home_page: home }, id), "home page");
    await fx.page("rx-target", "plain", {}, id);
    return { site: id, host };
  }

  it("POST /seo/redirects from /?page_id=12: that query answers the redirect at once, / and other queries the home page (from memory); deleted, the home page again", async () => {
    const { site: id, host } = await site("rx-query");
    await fx.primed("/", host);
    await fx.primed("/?page_id=12", host);
    const made = ok(
      await fx.api("POST", "/seo/redirects", { from: "/?page_id=12", to: "/rx-target/" }, id),
      "query redirect",
      201,
    ).redirect;
    for (const round of [1, 2]) {
      redirected(await fx.visit("/?page_id=12", host), `the query, round ${round}`, "/rx-target/");
      served(await fx.visit("/?page_id=13", host), `another query, round ${round}`);
      served(await fx.visit("/?utm_source=x", host), `a tracking query, round ${round}`);
      served(await fx.visit("/", host), `no query, round ${round}`);
    }
    ok(await fx.api("DELETE", `/seo/redirects/${made.id}`, undefined, id), "DELETE");
    served(await fx.visit("/?page_id=12", host), "deleted: the home page");
  });

  it("POST /seo/redirects from /company-info.html: every spelling of it answers the target in one hop", async () => {
    const { site: id, host } = await site("rx-html");
    gone(await fx.visit("/company-info.html", host), "before", "no_page");
    ok(await fx.api("POST", "/seo/redirects", { from: "/company-info.html", to: "/rx-target/" }, id), "html", 201);
    for (const path of ["/company-info.html", "/company-info.html", "/company-info.html/", "/Company-Info.html"])
      redirected(await fx.visit(path, host), path, "/rx-target/");
  });

  it("POST /seo/redirects with a list, and with a CSV body: every address answers its redirect on the next request; one refused line writes nothing", async () => {
    const { site: id, host } = await site("rx-lists");
    for (const path of ["/rx-l-1/", "/?p=7", "/rx-l-csv/"]) await fx.visit(path, host);
    const listed = ok(
      await fx.api(
        "POST",
        "/seo/redirects",
        {
          redirects: [
            { from: "/rx-l-1/", to: "/rx-target/" },
            { from: "/?p=7", to: "/rx-target/", status: 308 },
          ],
        },
        id,
      ),
      "list",
      201,
    );
    assert.equal(listed.created, 2);
    redirected(await fx.visit("/rx-l-1/", host), "first of the list", "/rx-target/");
    redirected(await fx.visit("/?p=7", host), "second of the list", "/rx-target/", 308);

    const csv = (text: string) =>
      call(fx.cluster.processes[0].port, "POST", `/api/site/${id}/seo/redirects`, {
        token: fx.cluster.token,
        payload: Buffer.from(text, "utf8"),
        headers: { "content-type": "text/csv" },
      });
    const refused = await csv("from,to\n/rx-l-csv/,/rx-target/\n/rx-target/,/\n");
    assert.deepEqual([refused.status, (refused.body as { error: string }).error], [400, "bad_items"]);
    gone(await fx.visit("/rx-l-csv/", host), "nothing of the refused list", "no_page");
    const posted = await csv("from,to,status\n/rx-l-csv/,/rx-target/,302\n");
    assert.equal(posted.status, 201, posted.text);
    redirected(await fx.visit("/rx-l-csv/", host), "from the CSV", "/rx-target/", 302);
    const exported = await call(fx.cluster.processes[0].port, "GET", `/api/site/${id}/seo/redirects`, {
      token: fx.cluster.token,
      headers: { accept: "text/csv" },
    });
    assert.equal(
      exported.text,
      "from,to,status\r\n/?p=7,/rx-target/,308\r\n/rx-l-1/,/rx-target/,301\r\n/rx-l-csv/,/rx-target/,302\r\n",
    );
  });
});
