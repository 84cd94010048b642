// What svc prints (src/cli/output.ts): a progress bar on stderr only when it is a terminal and
// never with --json; --json keeps stdout to the JSON documents; plan lines start with their action.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { Output, planLine, statusLine } from "../../src/cli/output.ts";

function streams(tty: boolean) {
  const written = { stdout: "", stderr: "" };
  return {
    written,
    io: {
      stdout: { isTTY: tty, write: (s: string) => (written.stdout += s) },
      stderr: { isTTY: tty, write: (s: string) => (written.stderr += s) },
    },
  };
}

describe("output", () => {
  it("a progress bar on a terminal's stderr, cleared before the next line", () => {
    const { written, io } = streams(true);
    const out = new Output(false, io);
    out.progress(3, 10, "pushing");
    assert.match(written.stderr, /\r\[#{7}\.{17}\] 3\/10 pushing/);
    out.line("update       frames/a.html");
    assert.match(written.stderr, /\r\x1b\[K$/);
    assert.equal(written.stdout, "update       frames/a.html\n");
  });

  it("no bar when stderr is not a terminal, nor with --json on a terminal", () => {
    for (const [json, tty] of [
      [false, false],
      [true, true],
    ] as const) {
      const { written, io } = streams(tty);
      const out = new Output(json, io);
      out.progress(3, 10, "pushing");
      out.progress(10, 10, "pushing");
      assert.equal(written.stderr, "");
    }
  });

  it("--json: lines are not printed, the document is one line; notes go to stderr", () => {
    const { written, io } = streams(false);
    const out = new Output(true, io);
    out.line("update frames/a.html");
    out.note("waiting 3 s: rate limit");
    out.document({ ok: true, items: [1, 2] });
    assert.equal(written.stdout, '{"ok":true,"items":[1,2]}\n');
    assert.equal(written.stderr, "waiting 3 s: rate limit\n");
    assert.doesNotMatch(written.stdout, /\x1b/, "no colour codes");
  });

  it("plan and status lines", () => {
    assert.equal(
      planLine({ key: "frames/a.html", kind: "frames", action: "delete" }, true),
      "would-delete frames/a.html",
    );
    assert.equal(
      planLine({ key: "frames/b.html", kind: "frames", action: "rename", from: "frames/a.html" }, false),
      "rename       frames/a.html -> frames/b.html",
    );
    assert.equal(
      statusLine({ key: "menus/main.json", kind: "menus", local: "modified", server: "deleted", conflict: true }),
      "conflict     menus/main.json  (here: modified, server: deleted)",
    );
  });
});
