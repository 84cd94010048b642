// A request's logger is made only when it writes a line (src/http/request-logger.ts): at `warn`
// an ordinary call writes nothing, and an error a handler throws is still written once, bound to
// the request's id as Fastify's own child logger binds it.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { Writable } from "node:stream";
import { startTestApp, type TestApp } from "../support/app.ts";
import { RequestLogger } from "../../src/http/request-logger.ts";

describe("each request's logger, made when it writes", () => {
  const lines: Array<Record<string, unknown>> = [];
  let t: TestApp;

  before(async () => {
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(JSON.parse(String(chunk)));
        done();
      },
    });
    t = await startTestApp({
      build: { logger: { level: "warn", stream } },
      beforeReady(app) {
        app.get("/test/throws", { schema: { hide: true } }, async () => {
          throw new Error("a handler's own mistake");
        });
      },
      checkAnswers: false,
    });
  });
  after(() => t.close());

  it("at warn, an ordinary API call writes no line", async () => {
    lines.splice(0);
    assert.equal((await t.call("GET", "/api/profile")).status, 200);
    assert.deepEqual(lines, []);
  });

  it("an unexpected error is written once at error, with the request's id as reqId", async () => {
    lines.splice(0);
    const answer = await t.call("GET", "/test/throws");
    assert.equal(answer.status, 500);
    const errors = lines.filter((line) => line.msg === "unexpected error");
    assert.equal(errors.length, 1, JSON.stringify(lines));
    assert.equal(errors[0].level, 50);
    assert.equal(errors[0].reqId, answer.headers["x-request-id"]);
  });

  it("a level the parent logger does not write makes no child; one it writes makes exactly one", () => {
    const made: Array<Record<string, unknown>> = [];
    const written: string[] = [];
    const child = {
      level: "info",
      info: (message: string) => written.push(`info ${message}`),
      error: (message: string) => written.push(`error ${message}`),
    };
    const parent = {
      level: "warn",
      isLevelEnabled: (level: string) => ["warn", "error", "fatal"].includes(level),
      child(bindings: Record<string, unknown>) {
        made.push(bindings);
        return child;
      },
    } as unknown as ConstructorParameters<typeof RequestLogger>[0];
    const logger = new RequestLogger(parent, { reqId: "r-1" });
    logger.info("not written");
    logger.debug("not written");
    assert.deepEqual(made, []);
    assert.equal(logger.level, "warn");
    logger.error("written");
    logger.error("again");
    assert.deepEqual(made, [{ reqId: "r-1" }]);
    assert.deepEqual(written, ["error written", "error again"]);
  });
});
