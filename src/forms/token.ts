// The signed time token of a printed form (docs/forms.md): made when a page is served (public/
// fills the placeholder svc/form prints), checked when the form is sent. It holds the site, the
// page served and when, signed with the network's form key, so any process checks what any other
// made, and a submission sent sooner than 2 s after the page was served is a bot's.
// The same key salts the hash a submission keeps of its client address.
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { Db } from "../store/database.ts";

/** A human takes longer than this to fill a form. */
export const MIN_AGE_MS = 2000;
/** A page left open this long still takes its submission. */
export const MAX_AGE_MS = 7 * 24 * 3600 * 1000;

export interface TokenFacts {
  siteId: number;
  pageId: number | null;
  issuedMs: number;
}

const mac = (key: Buffer, text: string) => createHmac("sha256", key).update(text).digest("base64url").slice(0, 27);

/** The network's form key: made once, kept in the database (`form_keys`), read once per process. */
export class FormKeys {
  private key: Buffer | null = null;

  constructor(private readonly db: Db) {}

  async load(): Promise<Buffer> {
    if (this.key) return this.key;
    await this.db
      .insertInto("form_keys")
      .values({ id: "form", secret: randomBytes(32).toString("base64url") })
      .onConflict((oc) => oc.column("id").doNothing())
      .execute();
    const row = await this.db
      .selectFrom("form_keys")
      .select("secret")
      .where("id", "=", "form")
      .executeTakeFirstOrThrow();
    this.key = Buffer.from(row.secret, "base64url");
    return this.key;
  }

  /** A fresh token; null until the key is loaded (the placeholder stays, and the form's check refuses it). */
  issue(siteId: number, pageId: number | null, nowMs: number): string | null {
    if (!this.key) return null;
    const body = `${siteId}.${pageId ?? 0}.${nowMs}`;
    return `${body}.${mac(this.key, `token|${body}`)}`;
  }

  /** What a token says, when it is this network's and unchanged; null otherwise. */
  async read(token: unknown): Promise<TokenFacts | null> {
    if (typeof token !== "string" || token.length > 100) return null;
    const key = await this.load();
    const parts = token.split(".");
    if (parts.length !== 4 || !parts.slice(0, 3).every((p) => /^[0-9]{1,15}$/.test(p))) return null;
    const expected = Buffer.from(mac(key, `token|${parts.slice(0, 3).join(".")}`));
    const given = Buffer.from(parts[3]!);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    const pageId = Number(parts[1]);
    return { siteId: Number(parts[0]), pageId: pageId === 0 ? null : pageId, issuedMs: Number(parts[2]) };
  }

  /** A client address kept as a salted hash: the same address of one site hashes alike, and never back. */
  async addressHash(siteId: number, address: string): Promise<string> {
    return mac(await this.load(), `address|${siteId}|${address}`);
  }
}
