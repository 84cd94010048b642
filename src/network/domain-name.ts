// The one normalisation of a domain the API takes (docs/domains.md): POST /api/sites,
// PATCH /api/sites/{id}, and the alias calls. Trimmed, lower-cased, an international name made
// punycode (node:url `domainToASCII`, UTS #46 as browsers do: `bücher.example` →
// `xn--bcher-kva.example`, `ＡＢＣ.com` → `abc.com`). A name is refused, with a reason, when it is
// empty, holds a space, a port or a path, an empty label (`a..b`, `.a`, `a.`), a label starting
// or ending with a hyphen, a character other than letters, digits and hyphens, a label over 63
// characters or more than 253 in all. Pure: no I/O; never throws; its output normalises to itself.
import { domainToASCII } from "node:url";

export type DomainRefusal =
  | "empty"
  | "space"
  | "port_or_path"
  | "empty_label"
  | "hyphen"
  | "characters"
  | "label_too_long"
  | "too_long";

export type NormalisedDomain = { domain: string } | { refused: DomainRefusal };

export const MAX_DOMAIN = 253;
const MAX_LABEL = 63;
/** Longer input is refused before any work: no name that long normalises under 253 characters. */
const MAX_INPUT = 1024;

const NON_ASCII = /[^\x00-\x7f]/;
const WHITESPACE = /\s/u;
const PORT_OR_PATH = /[:/?#\\]/;
/** Label separators after NFKC: `.` and the ideographic full stop (UTS #46 maps it to `.`). */
const DOTS = /[.\u3002]/;
const LABEL = /^[a-z0-9-]+$/;

function labelsRefusal(labels: string[]): DomainRefusal | null {
  for (const label of labels) {
    if (label === "") return "empty_label";
    if (label.startsWith("-") || label.endsWith("-")) return "hyphen";
  }
  return null;
}

/** A domain as stored, or why it is refused. */
export function normaliseDomain(raw: string): NormalisedDomain {
  const trimmed = raw.trim();
  if (trimmed === "") return { refused: "empty" };
  if (trimmed.length > MAX_INPUT) return { refused: "too_long" };
  const lower = trimmed.toLowerCase();
  // Checked on the compatibility form too: a full-width `／` or `：` is a path or port once mapped.
  const mapped = lower.normalize("NFKC");
  if (WHITESPACE.test(lower) || WHITESPACE.test(mapped)) return { refused: "space" };
  if (PORT_OR_PATH.test(lower) || PORT_OR_PATH.test(mapped)) return { refused: "port_or_path" };
  // Before punycode, which would hide a hyphen at the edge of an international label (`-ü` → `xn----eha`).
  const shape = labelsRefusal(mapped.split(DOTS));
  if (shape) return { refused: shape };

  let ascii = lower;
  if (NON_ASCII.test(lower)) {
    // '' when UTS #46 refuses the name. ASCII input is never passed in: the URL host parser would
    // read `1.2.3` as an IPv4 address (`1.2.0.3`) and decode `%41` as `a`.
    ascii = domainToASCII(lower);
    if (ascii === "" || ascii.split(".").length !== mapped.split(DOTS).length) return { refused: "characters" };
  }
  const labels = ascii.split(".");
  const refusal = labelsRefusal(labels);
  if (refusal) return { refused: refusal };
  for (const label of labels) {
    if (!LABEL.test(label)) return { refused: "characters" };
    if (label.length > MAX_LABEL) return { refused: "label_too_long" };
  }
  if (ascii.length > MAX_DOMAIN) return { refused: "too_long" };
  return { domain: ascii };
}
