// The `styles` group of `npm run bench` (bench/README.md, "Styles"): public serving of a stylesheet
// bundle at its hashed address, against a bare node:http server sending the same answer in the same
// run (bench/README.md, "Styles").
import { join } from "node:path";
import {
  compare,
  cpuMsOf,
  http,
  load,
  round,
  ADMIN_TOKEN,
  startBare,
  type LoadOptions,
  type Result,
  type Service,
} from "./lib.ts";

const S = "/api/site/1";
const QUICK = process.env.BENCH_QUICK === "1";
const SERVE_LOAD = { connections: 8, duration: QUICK ? 1 : 2, warmup: 1, rounds: QUICK ? 1 : 5 };
export const SERVE_TARGET = 0.8;

export interface StylesHooks {
  log(message: string): void;
  record(result: Result): void;
  note(text: string): void;
}

/** About `bytes` of ordinary theme CSS: rules of selectors, colours, spacing, media queries. */
function themeCss(bytes: number): string {
  const rules: string[] = [];
  for (let i = 0; rules.join("\n").length < bytes; i++) {
    const colour = `#${((i * 2654435761) >>> 8).toString(16).padStart(6, "0").slice(0, 6)}`;
    rules.push(
      `.block-${i} .title, .block-${i} > a:hover {\n  color: ${colour};\n  margin: ${i % 13}px ${i % 7}em;\n  padding: 0 ${i % 5}rem;\n  transition: color .2s ease-in-out;\n}`,
    );
    if (i % 20 === 0)
      rules.push(
        `@media (min-width: ${600 + i}px) {\n  .block-${i} { display: flex; gap: ${i % 9}px; user-select: none }\n}`,
      );
  }
  return rules.join("\n");
}

async function putStyle(service: Service, name: string, css: string): Promise<{ url: string; bytes: number }> {
  const answer = await http(service.port, "PUT", `${S}/styles/${name}`, {
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
    body: JSON.stringify({ css }),
  });
  if (answer.status !== 201 && answer.status !== 200)
    throw new Error(`PUT /styles/${name}: ${answer.status} ${answer.body.toString().slice(0, 300)}`);
  return JSON.parse(answer.body.toString()).style;
}

async function cpuPerRequest(url: string, pid: number, options: LoadOptions): Promise<number> {
  const before = cpuMsOf(pid);
  const result = await load(url, options);
  return ((cpuMsOf(pid) - before) * 1000) / result.requests;
}

/**
 * styles_serve: GET of a bundle (a 40 KB theme importing a reset) at its address, asking for
 * brotli as browsers do, against the bare server sending the recorded answer.
 */
export async function stylesGroup(service: Service, results: string, hooks: StylesHooks): Promise<void> {
  await putStyle(service, "reset", "*,*::before,*::after{box-sizing:border-box}body{margin:0}");
  const style = await putStyle(service, "theme", `@import "reset";\n${themeCss(40 * 1024)}`);
  const headers = { host: "localhost", "accept-encoding": "gzip, deflate, br, zstd" };
  const answer = await http(service.port, "GET", style.url, { headers });
  if (answer.status !== 200 || answer.headers["content-encoding"] !== "br")
    throw new Error(`${style.url}: ${answer.status}, ${String(answer.headers["content-encoding"])}`);
  const plain = await http(service.port, "GET", style.url, { headers: { host: "localhost" } });
  const bare = await startBare(answer, join(results, "answer-styles-serve.json"));
  try {
    const urls = [`http://127.0.0.1:${service.port}${style.url}`, `http://127.0.0.1:${bare.port}${style.url}`] as const;
    const { service: s, bare: b, ratio } = await compare(urls[0], urls[1], { ...SERVE_LOAD, headers });
    hooks.record({
      name: "styles_serve",
      value: round(s.rps, 0),
      unit: "req/s",
      baseline: round(b.rps, 0),
      ratio: round(ratio, 3),
      target: `>= ${SERVE_TARGET}`,
      pass: ratio >= SERVE_TARGET,
    });
    const cpu = [
      await cpuPerRequest(urls[0], service.pid, { ...SERVE_LOAD, headers }),
      await cpuPerRequest(urls[1], bare.pid, { ...SERVE_LOAD, headers }),
    ];
    hooks.note(
      `styles_serve: ${style.bytes} bytes uploaded, ${plain.body.length} served minified, ${answer.body.length} as brotli; p99 ${s.p99} ms (bare ${b.p99} ms); ` +
        `CPU ${round(cpu[0]!, 0)} µs a request (bare ${round(cpu[1]!, 0)} µs)`,
    );
  } finally {
    await bare.stop();
  }
}
