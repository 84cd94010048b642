// The baseline: a bare node:http server answering one recorded answer (status, headers, body)
// to every request, in its own process. The bench records the answer from the service first,
// so both send the same bytes and the same headers.
//   node bench/bare-server.mjs <answer.json> [port]   (answer: {status, headers, body_base64})
// Listens on 127.0.0.1 (the port given, else any free one) and prints "listening <port>".
import { createServer } from "node:http";
import { readFileSync } from "node:fs";

const answer = JSON.parse(readFileSync(process.argv[2], "utf8"));
const body = Buffer.from(answer.body_base64, "base64");
const headers = answer.headers;

const server = createServer((request, response) => {
  // Drain the request the way a real server would before answering.
  request.resume();
  response.writeHead(answer.status, headers);
  response.end(body);
});
// The same keep-alive window as Fastify's default, so connections behave alike.
server.keepAliveTimeout = 72_000;
server.listen(Number(process.argv[3] ?? 0), "127.0.0.1", () => {
  process.stdout.write(`listening ${server.address().port}\n`);
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
