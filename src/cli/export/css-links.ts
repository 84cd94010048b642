// The addresses of a stylesheet (`url()`, `@import`): found by lightningcss's parser (its
// dependency analysis), rewritten in place in the text as served (docs/cli.md, "svc
// export-static"). lightningcss is loaded on first use: it is a native addon, and only this
// command of the CLI needs it.
import { createRequire } from "node:module";
import type * as Lightning from "lightningcss";
import { rewriteLink, ownAddress, type LinkForm, type Linking } from "./links.ts";
import { replaceInOrder } from "./spans.ts";

let loaded: typeof Lightning | null = null;

function lightning(): typeof Lightning {
  loaded ??= createRequire(import.meta.url)("lightningcss") as typeof Lightning;
  return loaded;
}

export interface CssLinks {
  text: string;
  /** The site's own paths it names (to fetch). */
  links: string[];
}

function urlsOf(css: string, attribute: boolean): string[] {
  const code = Buffer.from(css);
  try {
    const result = attribute
      ? lightning().transformStyleAttribute({ filename: "style", code, analyzeDependencies: true, errorRecovery: true })
      : lightning().transform({ filename: "style.css", code, analyzeDependencies: true, errorRecovery: true });
    return (result.dependencies ?? []).flatMap((dependency) => ("url" in dependency ? [dependency.url] : []));
  } catch {
    // A stylesheet lightningcss cannot read is left as it is.
    return [];
  }
}

/** A stylesheet (or a `style` attribute) with its own addresses rewritten for the file at `document`. */
export function rewriteCss(
  css: string,
  document: string,
  linking: Linking,
  options: { attribute?: boolean; form?: LinkForm } = {},
): CssLinks {
  const urls = urlsOf(css, options.attribute === true);
  const links: string[] = [];
  const values = urls.map((url) => {
    const own = ownAddress(url, linking);
    if (own) links.push(own.path);
    return { from: url, to: rewriteLink(url, document, linking, options.form) };
  });
  return { text: values.length > 0 ? replaceInOrder(css, values) : css, links };
}
