// The baseline of media_upload_5mb: a bare node:http server that does the essential work of an
// upload and nothing else. It streams each request's body to a temporary file while hashing it
// (sha256), flushes the file to disk and renames it under its hash — the durable write the blob
// store makes (src/blobs/fs-store.ts) — and answers 201 with a small JSON body.
//   node bench/bare-upload.mjs <directory> [port]
// Listens on 127.0.0.1 (the port given, else any free one) and prints "listening <port>".
import { createServer } from "node:http";
import { createHash, randomUUID } from "node:crypto";
import { mkdirSync } from "node:fs";
import { open, rename } from "node:fs/promises";
import { join } from "node:path";

const dir = process.argv[2];
mkdirSync(dir, { recursive: true });

async function store(request) {
  const temporary = join(dir, `${randomUUID()}.part`);
  const handle = await open(temporary, "wx");
  const hash = createHash("sha256");
  let bytes = 0;
  try {
    for await (const chunk of request) {
      hash.update(chunk);
      bytes += chunk.length;
      await handle.write(chunk);
    }
    await handle.sync();
  } finally {
    await handle.close();
  }
  const sha256 = hash.digest("hex");
  await rename(temporary, join(dir, sha256));
  return { sha256, bytes };
}

const server = createServer((request, response) => {
  store(request).then(
    (written) => {
      response.writeHead(201, { "content-type": "application/json; charset=utf-8" });
      response.end(JSON.stringify({ success: true, media: written }));
    },
    (error) => {
      response.writeHead(500);
      response.end(String(error));
    },
  );
});
server.keepAliveTimeout = 72_000;
server.listen(Number(process.argv[3] ?? 0), "127.0.0.1", () => {
  process.stdout.write(`listening ${server.address().port}\n`);
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
