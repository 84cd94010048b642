// Content codings (RFC 9110 §12.5.3): which of the precompressed forms of a file an Accept-Encoding
// header takes. Shared by the files served in brotli, gzip and plain forms: stylesheet bundles
// (styles/serve.ts) and the admin's assets (admin/files.ts).

export type Coding = "br" | "gzip" | "identity";

/**
 * The encoding sent for an Accept-Encoding header (RFC 9110 §12.5.3): br when allowed (q > 0,
 * itself or through `*`) and valued at least as gzip, else gzip when allowed, else none.
 */
export function codingFor(header: string | undefined): Coding {
  if (header === undefined || header.trim() === "") return "identity";
  const weights = new Map<string, number>();
  for (const entry of header.split(",")) {
    const [token, ...params] = entry.split(";");
    const coding = token!.trim().toLowerCase();
    if (coding === "") continue;
    let q = 1;
    for (const param of params) {
      const [key, value] = param.split("=");
      if (key?.trim().toLowerCase() === "q") q = Number(value?.trim());
    }
    weights.set(coding, Number.isFinite(q) ? q : 0);
  }
  const weight = (coding: string) => weights.get(coding) ?? weights.get("*") ?? 0;
  const br = weight("br");
  const gzip = Math.max(weight("gzip"), weights.get("x-gzip") ?? 0);
  if (br > 0 && br >= gzip) return "br";
  return gzip > 0 ? "gzip" : "identity";
}
