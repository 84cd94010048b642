// Sitemaps, feeds and robots.txt hold absolute addresses only (the formats want them): the site's
// own are written on the base URL (docs/cli.md, "svc export-static"). The addresses to follow are
// read with htmlparser2 in XML mode: a sitemap's <loc>s (a sitemap index names its parts there)
// and <link href>s.
import { Parser } from "htmlparser2";
import { ownAddress, type Linking } from "./links.ts";

export interface XmlLinks {
  text: string;
  links: string[];
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Every absolute address on one of the site's own hosts, made absolute on the base URL. */
export function rebaseAbsolute(text: string, linking: Linking): string {
  const hosts = [...linking.hosts].map(escapeRegExp).join("|");
  const own = new RegExp(`https?://(?:${hosts})(?=[/"'<\\s]|$)`, "gi");
  return text.replace(own, linking.base);
}

/** The site's own paths an XML document names in <loc> and <link href>. */
function xmlLinks(xml: string, linking: Linking): string[] {
  const links = new Set<string>();
  let inLoc = false;
  let loc = "";
  const add = (value: string) => {
    const own = ownAddress(value, linking);
    if (own) links.add(own.path);
  };
  const parser = new Parser(
    {
      onopentag(name, attribs) {
        const local = name.split(":").pop();
        if (local === "loc") [inLoc, loc] = [true, ""];
        if (local === "link" && attribs.href) add(attribs.href);
      },
      ontext(text) {
        if (inLoc) loc += text;
      },
      onclosetag(name) {
        if (name.split(":").pop() !== "loc") return;
        inLoc = false;
        add(loc);
      },
    },
    { xmlMode: true, decodeEntities: true },
  );
  parser.write(xml);
  parser.end();
  return [...links];
}

export function rewriteXml(xml: string, linking: Linking): XmlLinks {
  return { text: rebaseAbsolute(xml, linking), links: xmlLinks(xml, linking) };
}
