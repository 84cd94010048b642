// The blob store the configuration names: the file system under SVC_DATA_DIR/media unless
// S3-compatible storage is configured (docs/media.md, "Storage").
import { join } from "node:path";
import type { Config } from "../config.ts";
import type { BlobStore } from "./blob-store.ts";
import { FsBlobStore } from "./fs-store.ts";
import { MEDIA_FOLDER } from "./fs-layout.ts";

export async function openBlobStore(config: Config): Promise<BlobStore> {
  if (config.mediaS3 !== null) {
    // Loaded only here: a process on the file system never loads the AWS SDK (a start reads less;
    // the build keeps the SDK out of the bundle, scripts/build.mjs).
    const { openS3BlobStore } = await import("./s3-store.ts");
    return openS3BlobStore(config.mediaS3);
  }
  return FsBlobStore.open(join(config.dataDir, MEDIA_FOLDER));
}
