import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startService, memoryOf, sleep } from "./lib.ts";
const s = await startService(mkdtempSync(join(tmpdir(), "rss-")));
await sleep(500);
console.log(memoryOf(s.pid));
await s.stop();
