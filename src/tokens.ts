// The shape of an API token: `op_` and 64 characters of [A-Za-z0-9]; only its hash is stored.
import { hash, randomBytes } from "node:crypto";

const TOKEN = /^op_[A-Za-z0-9]{64}$/;
const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

export function isWellFormedToken(value: string): boolean {
  return TOKEN.test(value);
}

/** A fresh token; rejection sampling keeps every character uniformly likely. */
export function generateToken(): string {
  let out = "op_";
  while (out.length < 67) {
    for (const byte of randomBytes(96)) {
      if (byte < 248 && out.length < 67) out += ALPHABET[byte % 62];
    }
  }
  return out;
}

/** Only this hash is stored; the secret itself never reaches the database or the logs. */
export function hashToken(token: string): string {
  // One-shot hash: no Hash object per API call.
  return hash("sha256", token, "hex");
}
