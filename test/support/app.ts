// A real app on a fresh SQLite file in a temporary folder, bootstrapped like a first start,
// driven through Fastify's inject. `call` returns status, headers and the parsed JSON body.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import { buildApp, type BuildOptions } from "../../src/app.ts";
import { wirePublishing, type AppDeps, type PublishingOptions } from "../../src/app-deps.ts";
import { loadConfig, type Config } from "../../src/config.ts";
import { systemClock } from "../../src/clock.ts";
import { limitsFor, type Limits } from "../../src/http/limits.ts";
import { openStore, type Store } from "../../src/store/database.ts";
import { bootstrapNetwork } from "../../src/network/bootstrap.ts";
import { openBlobStore } from "../../src/blobs/open.ts";
import { generateToken } from "../../src/tokens.ts";
import { freshDatabase, type TestDatabase } from "./database.ts";
import { recordAnswers } from "./openapi-check.ts";

export interface CallOptions {
  token?: string | null;
  body?: unknown;
  /** A raw payload sent as is (for malformed JSON and size tests, and file uploads). */
  payload?: string | Buffer;
  headers?: Record<string, string>;
  ip?: string;
  query?: Record<string, string>;
}

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: any;
  text: string;
}

export interface TestApp {
  app: FastifyInstance;
  deps: AppDeps;
  store: Store;
  config: Config;
  adminToken: string;
  dataDir: string;
  call(method: string, url: string, options?: CallOptions): Promise<Answer>;
  /** Deletes the outbox rows the writes so far paid now, not a moment later (a write of its own). */
  settled(): Promise<void>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  env?: Record<string, string>;
  limits?: Limits;
  build?: BuildOptions;
  publishing?: PublishingOptions;
  /** A database prepared by the test (e.g. reached through a proxy); default: a fresh one. */
  database?: TestDatabase;
  /** Runs before the app is ready, e.g. to add a route that throws. */
  beforeReady?: (app: FastifyInstance) => void;
  /** false: do not check the answers against the OpenAPI document (openapi-check.ts); default true. */
  checkAnswers?: boolean;
}

export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = mkdtempSync(join(tmpdir(), "svc-test-"));
  const database = options.database ?? (await freshDatabase());
  const adminToken = generateToken();
  const config = loadConfig({
    ...(database.url ? { DATABASE_URL: database.url } : {}),
    SVC_DATA_DIR: dataDir,
    SVC_ADMIN_TOKEN: adminToken,
    SVC_RATE_LIMIT_PER_MIN: "1000000",
    SVC_PUBLIC_RATE_LIMIT_PER_MIN: "1000000",
    ...options.env,
  });
  const store = await openStore({ dataDir, databaseUrl: config.databaseUrl, db: config.db });
  await bootstrapNetwork(store.db, { publicHost: config.publicHost, adminToken, dataDir, now: systemClock() });
  const limits = options.limits ?? limitsFor(store, config);
  const publishing = wirePublishing(store.db, systemClock, config, {
    renderWorkers: config.renderWorkers,
    ...options.publishing,
  });
  const blobs = await openBlobStore(config);
  const deps: AppDeps = {
    config,
    store,
    clock: systemClock,
    limits,
    publisher: publishing.engine,
    publicSite: publishing.publicSite,
    blobs,
    cpu: publishing.cpu,
  };
  const app = await buildApp(deps, options.build);
  const answers = options.checkAnswers === false ? null : recordAnswers(app);
  options.beforeReady?.(app);
  await app.ready();

  async function call(method: string, url: string, o: CallOptions = {}): Promise<Answer> {
    const headers: Record<string, string> = { ...o.headers };
    const token = o.token === undefined ? adminToken : o.token;
    if (token !== null) headers.authorization = `Bearer ${token}`;
    let payload: string | Buffer | undefined = o.payload;
    if (o.body !== undefined) payload = JSON.stringify(o.body);
    if (payload !== undefined && !headers["content-type"]) headers["content-type"] = "application/json";
    const response = await app.inject({
      method: method as any,
      url,
      headers,
      payload,
      query: o.query,
      remoteAddress: o.ip ?? "127.0.0.1",
    });
    let body: unknown;
    try {
      body = JSON.parse(response.body);
    } catch {
      body = undefined;
    }
    return { status: response.statusCode, headers: response.headers, body, text: response.body };
  }

  return {
    app,
    deps,
    store,
    config,
    adminToken,
    dataDir,
    call,
    settled: () => publishing.engine.settled(),
    async close() {
      const problems = answers?.check() ?? [];
      await app.close();
      await publishing.engine.close();
      await blobs.close();
      await store.close();
      await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
      if (problems.length > 0) {
        throw new Error(
          `${problems.length} answer(s) not as the OpenAPI document describes them:\n${problems.slice(0, 20).join("\n")}`,
        );
      }
    },
  };
}

/** Creates a user with a token through the API; returns its id and token. */
export async function makeUser(
  t: TestApp,
  login: string,
  extra: Record<string, unknown> = {},
): Promise<{ id: number; token: string }> {
  const created = await t.call("POST", "/api/users", { body: { login, ...extra } });
  if (created.status !== 201) throw new Error(`user ${login}: ${created.status} ${created.text}`);
  const id = created.body.user.id as number;
  const issued = await t.call("POST", `/api/users/${id}/tokens`, { body: { label: "test" } });
  if (issued.status !== 201) throw new Error(`token for ${login}: ${issued.status} ${issued.text}`);
  return { id, token: issued.body.token as string };
}

/** Creates a site through the API; returns its id. */
export async function makeSite(t: TestApp, name: string, domain: string): Promise<number> {
  const created = await t.call("POST", "/api/sites", { body: { name, domain } });
  if (created.status !== 201) throw new Error(`site ${name}: ${created.status} ${created.text}`);
  return created.body.site.id as number;
}

/** A site with the languages en and de and an editor, and calls on it as the editor or the administrator. */
export interface EditedSite {
  t: TestApp;
  site: number;
  /** `/api/site/{site}`. */
  S: string;
  editor: { id: number; token: string };
  /** A call on the site with the editor's token. */
  as(method: string, path: string, body?: unknown): Promise<Answer>;
  /** A call on the site with the admin token. */
  admin(method: string, path: string, body?: unknown): Promise<Answer>;
}

/** Starts an app with an EditedSite (docs/roles.md: what an editor may do). */
export async function startEditedSite(name: string, domain: string, editorLogin: string): Promise<EditedSite> {
  const t = await startTestApp();
  const site = await makeSite(t, name, domain);
  const S = `/api/site/${site}`;
  const admin = (method: string, path: string, body?: unknown) =>
    t.call(method, `${S}${path}`, body !== undefined ? { body } : {});
  for (const code of ["en", "de"]) {
    const made = await admin("POST", "/languages", { code });
    if (made.status !== 201) throw new Error(`language ${code}: ${made.status} ${made.text}`);
  }
  const editor = await makeUser(t, editorLogin);
  const role = await admin("PUT", `/users/${editor.id}`, { role: "editor" });
  if (role.status !== 200) throw new Error(`editor role: ${role.status} ${role.text}`);
  const as = (method: string, path: string, body?: unknown) =>
    t.call(method, `${S}${path}`, { token: editor.token, ...(body !== undefined ? { body } : {}) });
  return { t, site, S, editor, as, admin };
}
