// Environment → typed configuration, validated once at start (CONTRACT §1).
// A bad value is reported as one line naming the variable; server.ts prints it and exits.
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { isWellFormedToken } from "./tokens.ts";

export interface Config {
  host: string;
  /** The port public addresses carry (`home_url`, page urls): SVC_PUBLIC_PORT, default PORT.
   * Behind a reverse proxy it is the proxy's port, the same for every process. */
  port: number;
  /** The port this process listens on: PORT. */
  listenPort: number;
  dataDir: string;
  databaseUrl: string | null;
  adminToken: string | null;
  publicHost: string;
  rateLimitPerMin: number;
  authFailuresPerMin: number;
  /** Public-site requests per minute per client address (SVC_PUBLIC_RATE_LIMIT_PER_MIN). */
  publicRateLimitPerMin: number;
  /** Trust X-Forwarded-For from a reverse proxy in front of the service. */
  trustProxy: boolean;
  /** PostgreSQL connections: pool size, statement timeout and TLS. */
  db: DbOptions;
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

export class ConfigError extends Error {
  constructor(readonly variable: string, problem: string) {
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

const HOSTNAME = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;

export function isHostname(value: string): boolean {
  return value.length <= 253 && HOSTNAME.test(value);
}

export function loadConfig(env: Env = process.env): Config {
  const host = env.HOST?.trim() || "127.0.0.1";
  const listenPort = integer(env, "PORT", 8080, 0, 65535);
  const port = integer(env, "SVC_PUBLIC_PORT", listenPort, 0, 65535);
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

  const trustRaw = env.SVC_TRUST_PROXY?.trim().toLowerCase() || "false";
  if (!["true", "false", "1", "0"].includes(trustRaw)) throw new ConfigError("SVC_TRUST_PROXY", "must be true or false");

  const ssl = (env.SVC_DB_SSL?.trim().toLowerCase() || "disable") as DbOptions["ssl"];
  if (!["disable", "require", "verify-full"].includes(ssl)) throw new ConfigError("SVC_DB_SSL", "must be disable, require or verify-full");
  const sslCaFile = env.SVC_DB_SSL_CA?.trim() || null;
  if (sslCaFile !== null && !existsSync(sslCaFile)) throw new ConfigError("SVC_DB_SSL_CA", `no such file: ${sslCaFile}`);

  return {
    host,
    port,
    listenPort,
    dataDir,
    databaseUrl,
    adminToken,
    publicHost,
    rateLimitPerMin: integer(env, "SVC_RATE_LIMIT_PER_MIN", 120, 1, 10_000_000),
    authFailuresPerMin: integer(env, "SVC_AUTH_FAILURES_PER_MIN", 20, 1, 10_000_000),
    publicRateLimitPerMin: integer(env, "SVC_PUBLIC_RATE_LIMIT_PER_MIN", 600, 1, 10_000_000),
    trustProxy: trustRaw === "true" || trustRaw === "1",
    db: {
      poolMax: integer(env, "SVC_DB_POOL_MAX", 10, 1, 1000),
      statementTimeoutMs: integer(env, "SVC_DB_STATEMENT_TIMEOUT_MS", 15_000, 0, 3_600_000),
      connectTimeoutMs: integer(env, "SVC_DB_CONNECT_TIMEOUT_MS", 5_000, 100, 600_000),
      ssl,
      sslCaFile,
    },
  };
}
