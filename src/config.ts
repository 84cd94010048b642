// Environment → typed configuration, validated once at start (the variables: docs/deploy.md).
// A bad value is reported as one line naming the variable; server.ts prints it and exits.
import { existsSync } from "node:fs";
import { isIP } from "node:net";
import { availableParallelism } from "node:os";
import { resolve } from "node:path";
import { isWellFormedToken } from "./tokens.ts";

/** The scheme of a public address. */
export type Scheme = "http" | "https";

/**
 * How the public reaches the sites, as their printed addresses say (site/addresses.ts): the scheme
 * of a domain that sets none of its own, and the port the addresses of that scheme carry.
 */
export interface PublicFront {
  /** SVC_PUBLIC_SCHEME: `http` (default) or `https` (a TLS proxy in front, docs/deploy.md). */
  publicScheme: Scheme;
  /** The port public addresses of `publicScheme` carry (`home_url`, page urls): SVC_PUBLIC_PORT,
   * default PORT for http and 443 for https. Behind a reverse proxy it is the proxy's port, the
   * same for every process. */
  port: number;
}

export interface Config extends PublicFront {
  host: string;
  /** The port this process listens on: PORT. */
  listenPort: number;
  dataDir: string;
  databaseUrl: string | null;
  adminToken: string | null;
  publicHost: string;
  /** The admin's own host (SVC_ADMIN_HOST, default admin.localhost): the admin, the API and /healthz, no site's pages. */
  adminHost: string;
  /** Where people open the admin: `http://{adminHost}:{port}/admin/` (SVC_ADMIN_URL overrides, e.g. behind HTTPS). */
  adminUrl: string;
  rateLimitPerMin: number;
  authFailuresPerMin: number;
  /** Failed password sign-ins of one login, from any address, in 15 minutes before that login's
   * password sign-in is refused (SVC_AUTH_FAILURES_PER_LOGIN). */
  authFailuresPerLogin: number;
  /** Public-site requests per minute per client address (SVC_PUBLIC_RATE_LIMIT_PER_MIN). */
  publicRateLimitPerMin: number;
  /**
   * The reverse proxies whose X-Forwarded-For, -Proto and -Host are believed (SVC_TRUST_PROXY): the
   * addresses and CIDR ranges listed, every address for `true`, none for `false` (http/forwarded.ts).
   */
  trustProxy: TrustedProxies;
  /** Strict-Transport-Security's max-age on HTTPS answers, in seconds (SVC_HSTS_MAX_AGE); 0: none. */
  hstsMaxAge: number;
  /** PostgreSQL connections: pool size, statement timeout and TLS. */
  db: DbOptions;
  /** S3-compatible storage of media bytes (SVC_MEDIA_S3_*); null keeps them under SVC_DATA_DIR/media. */
  mediaS3: MediaS3Options | null;
  /** The largest media file an upload may send, in bytes (SVC_MEDIA_MAX_BYTES). */
  mediaMaxBytes: number;
  /** The largest site bundle an import may send, gzipped and unpacked alike, in bytes (SVC_BUNDLE_MAX_BYTES; docs/bundles.md). */
  bundleMaxBytes: number;
  /** The origin API clients reach this service at, for the OpenAPI document's `servers`
   * (SVC_API_URL; default `http://HOST:PORT`, a wildcard HOST read as the loopback address). */
  apiUrl: string;
  /** Time limits on receiving a request and the cap on connections per client address. */
  connections: ConnectionLimits;
  /** Render worker threads (SVC_RENDER_WORKERS; default cores − 1, at least 1): publish/render-pool.ts. */
  renderWorkers: number;
  /** How often, and past what age, outbox rows a dead process left are published (SVC_OUTBOX_SWEEP_MS): publish/outbox.ts. */
  outboxSweepMs: number;
  /** How often a process looks for scheduled pages whose date has come (SVC_SCHEDULE_MS): pages/scheduler.ts. */
  scheduleMs: number;
  /** Revisions kept per object (SVC_REVISIONS_KEEP); older ones are pruned in the background. */
  revisionsKeep: number;
  /** Days a deleted object stays in the trash with its history (SVC_TRASH_DAYS). */
  trashDays: number;
  /** Worker time one write's stylesheet work may take, in ms (SVC_CSS_TIME_LIMIT_MS; docs/styles.md). */
  cssTimeLimitMs: number;
  /** Days events and webhook deliveries are kept (SVC_EVENTS_DAYS; docs/events.md). */
  eventsDays: number;
  /**
   * Webhooks may be sent to loopback and private addresses (SVC_WEBHOOKS_ALLOW_PRIVATE=1): for
   * tests and closed networks only (docs/webhooks.md, "Addresses").
   */
  webhooksAllowPrivate: boolean;
  /** Where forms' notification e-mails are sent (SVC_SMTP_URL, `smtp://` or `smtps://`); null: none are sent, they wait (docs/forms.md, "Notifications"). */
  smtpUrl: string | null;
  /** The sender of those e-mails (SVC_MAIL_FROM; default `noreply@` the main site's host). */
  mailFrom: string;
  /** Days form submissions are kept (SVC_FORM_SUBMISSIONS_DAYS; docs/forms.md, "Submissions"). */
  formSubmissionsDays: number;
}

/** Whom X-Forwarded-* headers are believed from: every peer, none, or the addresses and ranges listed. */
export type TrustedProxies = boolean | readonly string[];

/** SVC_CSS_TIME_LIMIT_MS when unset: lightningcss parses and bundles a real stylesheet in milliseconds. */
export const DEFAULT_CSS_TIME_LIMIT_MS = 2000;

/** Slow and greedy clients (src/http/connections.ts, docs/security.md "Slow clients"). */
export interface ConnectionLimits {
  /** Headers must arrive within this (SVC_HEADERS_TIMEOUT_MS, default 20 s). */
  headersTimeoutMs: number;
  /** A whole request within this of its start (SVC_REQUEST_TIMEOUT_MS, default 120 s). */
  requestTimeoutMs: number;
  /** A media upload within this (SVC_UPLOAD_TIMEOUT_MS, default 600 s). */
  uploadTimeoutMs: number;
  /** A body idle between two reads this long is cut (SVC_BODY_IDLE_TIMEOUT_MS, default 30 s). */
  bodyIdleTimeoutMs: number;
  /** Open connections per client address, IPv6 by /64 (SVC_MAX_CONNECTIONS_PER_ADDRESS, default 64;
   * 0 when SVC_TRUST_PROXY is on, where every connection is the proxy's); 0: no cap. */
  maxPerAddress: number;
}

export interface DbOptions {
  poolMax: number;
  statementTimeoutMs: number;
  connectTimeoutMs: number;
  /** `disable`, `require` (encrypted, any certificate) or `verify-full` (certificate and host checked). */
  ssl: "disable" | "require" | "verify-full";
  /** PEM file of the CA that signed the server's certificate (verify-full). */
  sslCaFile: string | null;
}

/** Where media blobs go on S3-compatible storage. Credentials are the AWS SDK's default chain
 * (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN, profiles, instance roles). */
export interface MediaS3Options {
  /** The service's URL (MinIO, R2, …); null means AWS S3's own endpoint for the region. */
  endpoint: string | null;
  bucket: string;
  region: string;
  /** Address the bucket in the path (`endpoint/bucket/key`) rather than the host name. */
  forcePathStyle: boolean;
}

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    problem: string,
  ) {
    super(`${variable}: ${problem}`);
  }
}

type Env = Record<string, string | undefined>;

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  if (!/^\d+$/.test(raw.trim())) throw new ConfigError(name, `must be a whole number, got "${raw}"`);
  const value = Number(raw.trim());
  if (value < min || value > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${value}`);
  return value;
}

function flag(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase() || String(fallback);
  if (!["true", "false", "1", "0"].includes(raw)) throw new ConfigError(name, "must be true or false");
  return raw === "true" || raw === "1";
}

// Setting the bucket chooses S3. The other S3 variables without it are refused rather than
// ignored: a process that quietly stored media on its own disk would hide them from the others.
function mediaS3Options(env: Env): MediaS3Options | null {
  const bucket = env.SVC_MEDIA_S3_BUCKET?.trim() || null;
  const endpoint = env.SVC_MEDIA_S3_ENDPOINT?.trim() || null;
  const region = env.SVC_MEDIA_S3_REGION?.trim() || null;
  if (bucket === null) {
    for (const name of ["SVC_MEDIA_S3_ENDPOINT", "SVC_MEDIA_S3_REGION", "SVC_MEDIA_S3_FORCE_PATH_STYLE"]) {
      if (env[name]?.trim()) throw new ConfigError("SVC_MEDIA_S3_BUCKET", `must be set when ${name} is`);
    }
    return null;
  }
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{1,254}$/.test(bucket))
    throw new ConfigError("SVC_MEDIA_S3_BUCKET", `is not a bucket name: "${bucket}"`);
  if (region === null)
    throw new ConfigError(
      "SVC_MEDIA_S3_REGION",
      "must be set when SVC_MEDIA_S3_BUCKET is (us-east-1 for most self-hosted servers, auto for R2)",
    );
  if (endpoint !== null && !isHttpUrl(endpoint))
    throw new ConfigError("SVC_MEDIA_S3_ENDPOINT", `must be an http:// or https:// URL, got "${endpoint}"`);
  // Self-hosted servers rarely have a host name per bucket; AWS S3 wants one.
  return { endpoint, bucket, region, forcePathStyle: flag(env, "SVC_MEDIA_S3_FORCE_PATH_STYLE", endpoint !== null) };
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (
      (url.protocol === "http:" || url.protocol === "https:") &&
      url.hostname !== "" &&
      url.search === "" &&
      url.hash === ""
    );
  } catch {
    return false;
  }
}

// The URL holds the SMTP password: no message quotes it.
function smtpUrlOf(env: Env): string | null {
  const raw = env.SVC_SMTP_URL?.trim() || null;
  if (raw === null) return null;
  let url: URL | null = null;
  try {
    url = new URL(raw);
  } catch {
    // reported below
  }
  if (url === null || (url.protocol !== "smtp:" && url.protocol !== "smtps:") || url.hostname === "")
    throw new ConfigError("SVC_SMTP_URL", "must be an smtp:// or smtps:// URL (smtp://user:password@host:587)");
  return raw;
}

// An address, or a name and an address in angle brackets: `Site <noreply@example.com>`.
const MAIL_FROM = /^(?:[^<>\r\n]*<[^\s@<>]+@[^\s@<>]+>|[^\s@<>]+@[^\s@<>]+)$/;

function mailFromOf(env: Env, publicHost: string): string {
  const from = env.SVC_MAIL_FROM?.trim() || `noreply@${publicHost}`;
  if (!MAIL_FROM.test(from))
    throw new ConfigError("SVC_MAIL_FROM", `must be an e-mail address or "Name <address>", got "${from}"`);
  return from;
}

/** `http://HOST:PORT`; a wildcard address (0.0.0.0, ::) is reached on the loopback address. */
function listenOrigin(host: string, port: number): string {
  const reachable = host === "0.0.0.0" ? "127.0.0.1" : host === "::" || host === "[::]" ? "::1" : host;
  return `http://${reachable.includes(":") && !reachable.startsWith("[") ? `[${reachable}]` : reachable}:${port}`;
}

/** Proxy-addr's names for ranges, as Fastify's `trustProxy` takes them. */
const NAMED_RANGES = new Set(["loopback", "linklocal", "uniquelocal"]);

/**
 * SVC_TRUST_PROXY: `true`/`1` (every peer: only when nothing but the proxy reaches the port),
 * `false`/`0`/unset, or a comma list of addresses and CIDR ranges (`127.0.0.1, 10.0.0.0/8, ::1`)
 * and proxy-addr's names (`loopback`, `linklocal`, `uniquelocal`).
 */
function trustedProxies(env: Env): TrustedProxies {
  const raw = env.SVC_TRUST_PROXY?.trim() ?? "";
  if (["", "false", "0"].includes(raw.toLowerCase())) return false;
  if (["true", "1"].includes(raw.toLowerCase())) return true;
  const entries = raw.split(",").map((entry) => entry.trim().toLowerCase());
  for (const entry of entries) {
    if (!NAMED_RANGES.has(entry) && !isAddressOrRange(entry))
      throw new ConfigError(
        "SVC_TRUST_PROXY",
        `must be true, false or a comma list of addresses and CIDR ranges, got "${entry}"`,
      );
  }
  return entries;
}

function isAddressOrRange(entry: string): boolean {
  const [address, bits, ...rest] = entry.split("/");
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) >= 1 && Number(bits) <= (family === 4 ? 32 : 128);
}

function scheme(env: Env): Scheme {
  const raw = env.SVC_PUBLIC_SCHEME?.trim().toLowerCase() || "http";
  if (raw !== "http" && raw !== "https")
    throw new ConfigError("SVC_PUBLIC_SCHEME", `must be http or https, got "${raw}"`);
  return raw;
}

const HOSTNAME = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;

export function isHostname(value: string): boolean {
  return value.length <= 253 && HOSTNAME.test(value);
}

function connectionLimits(env: Env, behindProxy: boolean): ConnectionLimits {
  const headersTimeoutMs = integer(env, "SVC_HEADERS_TIMEOUT_MS", 20_000, 100, 3_600_000);
  const requestTimeoutMs = integer(env, "SVC_REQUEST_TIMEOUT_MS", 120_000, 100, 86_400_000);
  if (requestTimeoutMs <= headersTimeoutMs)
    throw new ConfigError("SVC_REQUEST_TIMEOUT_MS", `must be longer than SVC_HEADERS_TIMEOUT_MS (${headersTimeoutMs})`);
  return {
    headersTimeoutMs,
    requestTimeoutMs,
    uploadTimeoutMs: integer(env, "SVC_UPLOAD_TIMEOUT_MS", 600_000, 100, 86_400_000),
    bodyIdleTimeoutMs: integer(env, "SVC_BODY_IDLE_TIMEOUT_MS", 30_000, 100, 3_600_000),
    // Behind a trusted proxy every connection comes from the proxy: the cap per client is the
    // proxy's to keep (nginx limit_conn, docs/deploy.md), unless set here on purpose.
    maxPerAddress: integer(env, "SVC_MAX_CONNECTIONS_PER_ADDRESS", behindProxy ? 0 : 64, 0, 1_000_000),
  };
}

export function loadConfig(env: Env = process.env): Config {
  const host = env.HOST?.trim() || "127.0.0.1";
  const listenPort = integer(env, "PORT", 8080, 0, 65535);
  const publicScheme = scheme(env);
  const port = integer(env, "SVC_PUBLIC_PORT", publicScheme === "https" ? 443 : listenPort, 0, 65535);
  const dataDir = resolve(env.SVC_DATA_DIR?.trim() || "./data");

  const databaseUrl = env.DATABASE_URL?.trim() || null;
  if (databaseUrl !== null && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError("DATABASE_URL", "must start with postgres:// or postgresql://");
  }

  const adminToken = env.SVC_ADMIN_TOKEN?.trim() || null;
  if (adminToken !== null && !isWellFormedToken(adminToken)) {
    throw new ConfigError("SVC_ADMIN_TOKEN", "must be op_ followed by 64 letters or digits");
  }

  const publicHost = (env.SVC_PUBLIC_HOST?.trim() || "localhost").toLowerCase();
  if (!isHostname(publicHost)) throw new ConfigError("SVC_PUBLIC_HOST", `is not a host name: "${publicHost}"`);

  const adminHost = (env.SVC_ADMIN_HOST?.trim() || "admin.localhost").toLowerCase();
  if (!isHostname(adminHost)) throw new ConfigError("SVC_ADMIN_HOST", `is not a host name: "${adminHost}"`);
  if (adminHost === publicHost)
    throw new ConfigError("SVC_ADMIN_HOST", `must differ from SVC_PUBLIC_HOST (the main site's host): "${adminHost}"`);
  const defaultPort = publicScheme === "https" ? 443 : 80;
  const adminUrl = (
    env.SVC_ADMIN_URL?.trim() || `${publicScheme}://${adminHost}${port === defaultPort ? "" : `:${port}`}/admin/`
  ).replace(/\/*$/, "/");
  if (!isHttpUrl(adminUrl))
    throw new ConfigError("SVC_ADMIN_URL", `must be an http:// or https:// URL, got "${adminUrl}"`);

  const ssl = (env.SVC_DB_SSL?.trim().toLowerCase() || "disable") as DbOptions["ssl"];
  if (!["disable", "require", "verify-full"].includes(ssl))
    throw new ConfigError("SVC_DB_SSL", "must be disable, require or verify-full");
  const sslCaFile = env.SVC_DB_SSL_CA?.trim() || null;
  if (sslCaFile !== null && !existsSync(sslCaFile))
    throw new ConfigError("SVC_DB_SSL_CA", `no such file: ${sslCaFile}`);

  const apiUrl = (env.SVC_API_URL?.trim() || listenOrigin(host, listenPort)).replace(/\/+$/, "");
  if (!isHttpUrl(apiUrl)) throw new ConfigError("SVC_API_URL", `must be an http:// or https:// URL, got "${apiUrl}"`);

  const trustProxy = trustedProxies(env);
  return {
    host,
    publicScheme,
    port,
    listenPort,
    dataDir,
    databaseUrl,
    adminToken,
    publicHost,
    adminHost,
    adminUrl,
    rateLimitPerMin: integer(env, "SVC_RATE_LIMIT_PER_MIN", 120, 1, 10_000_000),
    authFailuresPerMin: integer(env, "SVC_AUTH_FAILURES_PER_MIN", 20, 1, 10_000_000),
    authFailuresPerLogin: integer(env, "SVC_AUTH_FAILURES_PER_LOGIN", 20, 1, 10_000_000),
    publicRateLimitPerMin: integer(env, "SVC_PUBLIC_RATE_LIMIT_PER_MIN", 600, 1, 10_000_000),
    trustProxy,
    hstsMaxAge: integer(env, "SVC_HSTS_MAX_AGE", 0, 0, 1_000_000_000),
    connections: connectionLimits(env, trustProxy !== false),
    renderWorkers: integer(env, "SVC_RENDER_WORKERS", Math.max(1, availableParallelism() - 1), 1, 256),
    outboxSweepMs: integer(env, "SVC_OUTBOX_SWEEP_MS", 30_000, 100, 3_600_000),
    scheduleMs: integer(env, "SVC_SCHEDULE_MS", 10_000, 100, 60_000),
    db: {
      poolMax: integer(env, "SVC_DB_POOL_MAX", 10, 1, 1000),
      statementTimeoutMs: integer(env, "SVC_DB_STATEMENT_TIMEOUT_MS", 15_000, 0, 3_600_000),
      connectTimeoutMs: integer(env, "SVC_DB_CONNECT_TIMEOUT_MS", 5_000, 100, 600_000),
      ssl,
      sslCaFile,
    },
    mediaS3: mediaS3Options(env),
    mediaMaxBytes: integer(env, "SVC_MEDIA_MAX_BYTES", 25 * 1024 * 1024, 1, Number.MAX_SAFE_INTEGER),
    bundleMaxBytes: integer(env, "SVC_BUNDLE_MAX_BYTES", 256 * 1024 * 1024, 1, Number.MAX_SAFE_INTEGER),
    apiUrl,
    revisionsKeep: integer(env, "SVC_REVISIONS_KEEP", 100, 1, 1_000_000),
    trashDays: integer(env, "SVC_TRASH_DAYS", 30, 1, 36_500),
    cssTimeLimitMs: integer(env, "SVC_CSS_TIME_LIMIT_MS", DEFAULT_CSS_TIME_LIMIT_MS, 10, 600_000),
    eventsDays: integer(env, "SVC_EVENTS_DAYS", 90, 1, 36_500),
    webhooksAllowPrivate: flag(env, "SVC_WEBHOOKS_ALLOW_PRIVATE", false),
    smtpUrl: smtpUrlOf(env),
    mailFrom: mailFromOf(env, publicHost),
    formSubmissionsDays: integer(env, "SVC_FORM_SUBMISSIONS_DAYS", 365, 1, 36_500),
  };
}
