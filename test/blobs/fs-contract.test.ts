// The blob-store contract (contract.ts) on the file-system store (src/blobs/fs-store.ts), in a
// directory of its own; "stored" is every file under it, temporaries included. The store's own
// tests (layout, stale temporaries) are in fs-store.test.ts.
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FsBlobStore } from "../../src/blobs/fs-store.ts";
import { blobStoreContract } from "./contract.ts";

blobStoreContract(
  "file system",
  async () => {
    const root = mkdtempSync(join(tmpdir(), "svc-blobs-contract-"));
    const store = await FsBlobStore.open(root);
    return {
      store,
      stored: async () =>
        readdirSync(root, { recursive: true, withFileTypes: true })
          .filter((entry) => !entry.isDirectory())
          .map((entry) => join(entry.parentPath, entry.name))
          .sort(),
      close: async () => {
        await store.close();
        rmSync(root, { recursive: true, force: true });
      },
    };
  },
  { largeBytes: 3 * 1024 * 1024 },
);
