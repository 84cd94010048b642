// Signing as the Standard Webhooks specification says (docs/webhooks.md, "What is sent"), so a
// receiver verifies with an existing library: the secret is `whsec_` + base64 of 32 random bytes;
// a signature is `v1,` + base64 of HMAC-SHA256, keyed by the secret's bytes, of
// `<webhook-id>.<webhook-timestamp>.<body>`; several (a rotated secret's and the new one's) are
// sent space-separated in one `webhook-signature` header.
import { createHmac, randomBytes } from "node:crypto";

const PREFIX = "whsec_";

/** A new secret: `whsec_` + base64 of 32 random bytes. */
export function newSecret(): string {
  return PREFIX + randomBytes(32).toString("base64");
}

/** A message id (`webhook-id`): the same on every attempt of one delivery. */
export function newMessageId(): string {
  return `msg_${randomBytes(16).toString("hex")}`;
}

function signature(secret: string, messageId: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.slice(PREFIX.length), "base64");
  return `v1,${createHmac("sha256", key).update(`${messageId}.${timestamp}.${body}`).digest("base64")}`;
}

/** The headers of one attempt, signed with each secret (the current one first). */
export function signedHeaders(
  secrets: readonly string[],
  messageId: string,
  timestamp: number,
  body: string,
): Record<string, string> {
  return {
    "webhook-id": messageId,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": secrets.map((secret) => signature(secret, messageId, timestamp, body)).join(" "),
  };
}
