// An environment's domains (svc.json `domain`, `domains`; docs/cli.md, "Environments"), pushed
// through the network calls of docs/domains.md once the folder's writes are done: the primary
// domain set with `PATCH /api/sites/{id} {domain}`, each alias it lacks added with `POST
// /api/sites/{id}/domains`. Aliases only on the server are kept (nothing is deleted silently).
// Those calls are a super-administrator's: with any other token the domains are not pushed and
// a warning says so; the rest of the push is not refused for it.
import { data, type Api, type Rec } from "./api.ts";
import { CliError } from "./errors.ts";
import type { Environment } from "./environment.ts";

export interface DomainPlan {
  /** The primary domain to set, and the one it replaces. */
  primary: { to: string; from: string } | null;
  /** Aliases to add. */
  add: string[];
  /** Why the domains are not pushed (the token may not), or null. */
  refused: string | null;
}

function wants(environment: Environment | null): boolean {
  return !!environment && (environment.domain !== null || environment.domains.length > 0);
}

/** What the push would change of the site's domains; null when svc.json names none. */
export async function planDomains(api: Api, environment: Environment | null): Promise<DomainPlan | null> {
  if (!environment || !wants(environment)) return null;
  const id = api.target.site;
  let answer: Rec;
  try {
    answer = await data(api, api.client.GET("/api/sites/{id}/domains", { params: { path: { id: String(id) } } }));
  } catch (error) {
    const code = error instanceof CliError ? (error.details as { code?: string }).code : undefined;
    if (code !== "insufficient_role") throw error;
    return {
      primary: null,
      add: [],
      refused: `svc.json ${environment.name} names the site's domains, but this token may not change them (super-administrators only, docs/domains.md): they were left as they are`,
    };
  }
  const domains = Array.isArray(answer.domains) ? (answer.domains as Array<{ domain: string; primary: boolean }>) : [];
  const primary = domains.find((d) => d.primary)?.domain ?? "";
  const held = new Set(domains.map((d) => d.domain));
  const to = environment.domain;
  return {
    primary: to !== null && to !== primary ? { to, from: primary } : null,
    add: environment.domains.filter((domain) => !held.has(domain) && domain !== to),
    refused: null,
  };
}

/** The plan's lines: `domain www.example.org (primary; was …)`, `alias example.org (added)`. */
export function domainLines(plan: DomainPlan | null, dryRun: boolean): string[] {
  if (!plan || plan.refused) return [];
  const verb = dryRun ? "would-set" : "domain";
  return [
    ...(plan.primary ? [`${verb.padEnd(12)} ${plan.primary.to}  (primary domain; was ${plan.primary.from})`] : []),
    ...plan.add.map((alias) => `${(dryRun ? "would-add" : "alias").padEnd(12)} ${alias}  (alias)`),
  ];
}

/** Carries out the plan; answers the writes sent. */
export async function pushDomains(api: Api, plan: DomainPlan | null): Promise<number> {
  if (!plan || plan.refused) return 0;
  const id = String(api.target.site);
  let writes = 0;
  if (plan.primary) {
    await data(
      api,
      api.client.PATCH("/api/sites/{id}", { params: { path: { id } }, body: { domain: plan.primary.to } }),
    );
    writes++;
  }
  for (const domain of plan.add) {
    await data(api, api.client.POST("/api/sites/{id}/domains", { params: { path: { id } }, body: { domain } }));
    writes++;
  }
  return writes;
}
