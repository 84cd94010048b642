// builds a filled large DB at /tmp/bx/large (kept) via the current fill
import { fillLarge } from "./fill.ts";
await fillLarge("/tmp/bx/large", (m) => console.error(m));
