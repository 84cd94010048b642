// Process entry (`npm start`: `node dist/main.js`). Turns on V8's compile cache, then loads the
// service (server.ts). The cache keeps the compiled code of every module loaded after it is on
// (in the OS temp directory, `node-compile-cache`), so a later start skips compiling them; it must
// be on before the service's imports are loaded, which is why they come in by a dynamic import.
// NODE_DISABLE_COMPILE_CACHE=1 turns it off.
process.getBuiltinModule("node:module").enableCompileCache();
await import("./server.ts");
