// The CSS worker process (css-pool.ts starts it; dist/css-worker.cjs in the build): runs one
// stylesheet job at a time as the service's process sends them, and answers each. It says it is
// ready once lightningcss and browserslist are loaded, so their loading counts against no job's
// time limit. It ends with its parent: when the channel closes, nothing is left to answer.
import { setPriority } from "node:os";
import { runCssJob, type CssAnswer, type CssJob } from "./css-compile.ts";

/** A job as the pool sends it, and the answer it gets back. */
export interface WorkerMessage {
  id: number;
  job: CssJob;
}

export interface WorkerReply {
  id: number;
  answer: CssAnswer;
}

const send = process.send?.bind(process);
if (!send) throw new Error("css-worker.ts runs as a child process with an IPC channel (css-pool.ts)");

// Below the service's priority: on a busy machine its thread gets the CPU before a stylesheet does.
setPriority(10);

process.on("message", (message: WorkerMessage) => {
  void runCssJob(message.job).then((answer) => send({ id: message.id, answer } satisfies WorkerReply));
});
process.on("disconnect", () => process.exit(0));
send({ ready: true });
