// A stylesheet as the API answers it (docs/styles.md, "The API"): `bytes` and `sha256` are those of
// the CSS as uploaded; `url` the current address of its bundle (null while it has none: its bundle
// could not be made since it was written, docs/styles.md).
import type { SheetHead } from "./queries.ts";
import type { CurrentCopy } from "./copies.ts";

export interface StyleRecord {
  name: string;
  theme: string;
  bytes: number;
  sha256: string;
  url: string | null;
  updated_at_gmt: string;
}

export function styleRecord(theme: string, sheet: SheetHead, copy: CurrentCopy | undefined): StyleRecord {
  return {
    name: sheet.name,
    theme,
    bytes: sheet.bytes,
    sha256: sheet.sha256,
    url: copy?.url ?? null,
    updated_at_gmt: sheet.updated_at_gmt,
  };
}
