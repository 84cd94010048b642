// Remembers every route's path pattern and methods, so an unknown method on a known path
// answers 405 method_not_allowed instead of a bare 404. It also keeps the request schemas each
// route declared, so a test can compile every one (http/validation.ts compiles them on first use).
import type { RouteOptions } from "fastify";
import { checksParameters, knownParameters } from "./query-parameters.ts";

interface Known {
  /** Made when first asked for (a 404 or 405), not at start-up, where it was ~280 RegExps. */
  pattern: RegExp | null;
  methods: Set<string>;
}

function toRegExp(url: string): RegExp {
  const source = url
    .split("/")
    .map((part) => (part.startsWith(":") ? "[^/]+" : part === "*" ? ".*" : part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
    .join("/");
  return new RegExp(`^${source}/?$`);
}

export class RoutesIndex {
  private readonly known = new Map<string, Known>();
  private readonly requestSchemas: Array<{ route: string; part: string; schema: unknown }> = [];
  private readonly hiddenRoutes = new Set<string>();
  /** Each route's options as registered (the site addressing is set on them after `add`), by "METHOD url". */
  private readonly options = new Map<string, RouteOptions>();

  add(route: RouteOptions): void {
    if (route.url === "*" || route.url === "/*") return;
    const entry = this.known.get(route.url) ?? { pattern: null, methods: new Set<string>() };
    for (const method of [route.method].flat()) entry.methods.add(String(method).toUpperCase());
    this.known.set(route.url, entry);
    for (const method of [route.method].flat()) this.options.set(`${String(method).toUpperCase()} ${route.url}`, route);
    if ((route.schema as { hide?: boolean } | undefined)?.hide)
      for (const method of [route.method].flat()) this.hiddenRoutes.add(`${String(method).toUpperCase()} ${route.url}`);
    for (const part of ["body", "querystring", "params", "headers"] as const) {
      const schema = route.schema?.[part];
      if (schema) this.requestSchemas.push({ route: `${[route.method].flat().join(",")} ${route.url}`, part, schema });
    }
  }

  /** Every request schema a route declared: [route, part, schema]. */
  schemas(): ReadonlyArray<{ route: string; part: string; schema: unknown }> {
    return this.requestSchemas;
  }

  /** Every route as [url pattern, methods], for the OpenAPI completeness check. */
  list(): Array<[string, string[]]> {
    return [...this.known.entries()].map(([url, entry]) => [url, [...entry.methods].sort()]);
  }

  /** Whether a route is left out of the OpenAPI description (`schema.hide`: removed calls, the reference page). */
  hidden(method: string, url: string): boolean {
    return this.hiddenRoutes.has(`${method.toUpperCase()} ${url}`);
  }

  /**
   * The query parameters a route knows (query-parameters.ts): its schema's and, on a legacy
   * address, the site selectors; null for a route the check leaves alone (not under /api/, hidden).
   */
  queryParameters(method: string, url: string): Set<string> | null {
    const route = this.options.get(`${method.toUpperCase()} ${url}`);
    return route && checksParameters(route) ? knownParameters(route) : null;
  }

  /** Methods allowed on a concrete path, empty when no route matches it. */
  methodsFor(path: string): string[] {
    const out = new Set<string>();
    for (const [url, entry] of this.known) {
      entry.pattern ??= toRegExp(url);
      if (entry.pattern.test(path)) for (const method of entry.methods) out.add(method);
    }
    return [...out].sort();
  }
}
