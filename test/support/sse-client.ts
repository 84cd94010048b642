// A Server-Sent Events reader over a real socket (docs/events.md, "The stream"): every block the
// answer sends (events, `retry:`, comment lines) as it arrives, parsed as the EventSource standard
// reads them. A refused call's JSON body is read whole instead.
import { request, type IncomingMessage } from "node:http";

/**
 * Whether a route's answer is an event stream, which never ends by itself: a test that calls
 * every route and waits for each answer leaves it out (test/events/stream.test.ts reads them).
 */
export const answersEndlessly = (method: string, url: string) => method === "GET" && url.endsWith("/events/stream");

export interface SseBlock {
  id?: string;
  event?: string;
  data?: string;
  retry?: string;
  comments: string[];
}

export interface SseAnswer {
  status: number;
  headers: IncomingMessage["headers"];
  /** Every block so far, in order. */
  blocks: SseBlock[];
  /** The body of an answer other than 200 (a refusal's JSON), once it has ended. */
  text: string;
  /** Resolves once the server has ended the answer (or the connection is gone). */
  ended: Promise<void>;
  /** The blocks that carry an event (`data:`). */
  events(): SseBlock[];
  /** Waits until `enough` holds of the blocks, at most `timeoutMs`. */
  until(enough: (blocks: SseBlock[]) => boolean, timeoutMs?: number): Promise<SseBlock[]>;
  /** Closes the connection from the client's side. */
  close(): void;
}

function parseBlock(text: string): SseBlock {
  const block: SseBlock = { comments: [] };
  for (const line of text.split(/\r\n|\r|\n/)) {
    if (line.startsWith(":")) {
      block.comments.push(line.slice(1).trim());
      continue;
    }
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
    if (field === "id" || field === "event" || field === "retry") block[field] = value;
    else if (field === "data") block.data = block.data === undefined ? value : `${block.data}\n${value}`;
  }
  return block;
}

export function openSse(
  port: number,
  path: string,
  headers: Record<string, string> = {},
  host = "127.0.0.1",
): Promise<SseAnswer> {
  return new Promise((resolve, reject) => {
    const req = request({ host, port, path, headers: { accept: "text/event-stream", ...headers } }, (res) => {
      const blocks: SseBlock[] = [];
      const waiters = new Set<() => void>();
      let buffered = "";
      let text = "";
      let done = false;
      res.setEncoding("utf8");
      const ended = new Promise<void>((end) => {
        const finish = () => {
          done = true;
          end();
          for (const waiter of waiters) waiter();
        };
        res.on("end", finish);
        res.on("close", finish);
        res.on("error", finish);
      });
      res.on("data", (chunk: string) => {
        if (res.statusCode !== 200) {
          text += chunk;
          return;
        }
        buffered += chunk;
        for (let at = buffered.search(/\n\n|\r\n\r\n/); at >= 0; at = buffered.search(/\n\n|\r\n\r\n/)) {
          blocks.push(parseBlock(buffered.slice(0, at)));
          buffered = buffered.slice(at + (buffered[at] === "\r" ? 4 : 2));
        }
        for (const waiter of waiters) waiter();
      });
      const answer: SseAnswer = {
        status: res.statusCode ?? 0,
        headers: res.headers,
        blocks,
        get text() {
          return text;
        },
        ended,
        events: () => blocks.filter((block) => block.data !== undefined),
        until(enough, timeoutMs = 5_000) {
          return new Promise((resolveUntil, rejectUntil) => {
            const check = () => {
              if (enough(blocks)) {
                cleanup();
                resolveUntil(blocks);
              } else if (done) {
                cleanup();
                rejectUntil(new Error(`the stream ended first; blocks: ${JSON.stringify(blocks)}`));
              }
            };
            const timer = setTimeout(() => {
              cleanup();
              rejectUntil(new Error(`not within ${timeoutMs} ms; blocks: ${JSON.stringify(blocks)}`));
            }, timeoutMs);
            const cleanup = () => {
              clearTimeout(timer);
              waiters.delete(check);
            };
            waiters.add(check);
            check();
          });
        },
        close: () => req.destroy(),
      };
      resolve(answer);
    });
    req.on("error", reject);
    req.end();
  });
}
