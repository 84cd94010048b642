// axe-core in a page the browser tests drive: the WCAG A and AA violations it finds on the page as
// it stands, run through DevTools (page.evaluate), so no inline script is needed and the admin's
// Content-Security-Policy stays as it is.
import axe from "axe-core";
import type { Page } from "playwright-core";

export async function violations(page: Page): Promise<string[]> {
  await page.evaluate(axe.source);
  return page.evaluate(async () => {
    const result = await (window as unknown as { axe: typeof axe }).axe.run(document, {
      runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] },
    });
    return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  });
}
