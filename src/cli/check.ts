// The markup warnings of a push, judged against the site as it will stand after the whole push
// (docs/cli.md, "Warnings"): every frame the push creates, updates or renames is sent at once to
// `POST /frames/check` with the data sets it creates, so a frame and the layout it uses, both new,
// see each other. Stylesheets are judged by their own dry runs (execute.ts `dryRun`), which need
// nothing else of the push. Asked before the first write: a dry run prints the warnings, --strict
// refuses on any, a push prints them loud.
import { data, type Rec } from "./api.ts";
import { knownAfterPush, madeByPush } from "./check-known.ts";
import { CliError } from "./errors.ts";
import { dryRun, type Views } from "./execute.ts";
import { refOfKey } from "./layout.ts";
import type { Warning } from "./output.ts";
import type { PlanItem } from "./plan.ts";
import { text, warningsOf, type WriteContext } from "./write-types.ts";

/** What one check call takes (the API's limit, and well under its body limit). */
const MAX_FRAMES = 500;
const MAX_BYTES = 8 * 1024 * 1024;

const SENDS = new Set(["create", "update", "rename"]);

interface Sent {
  key: string;
  slug: string;
  html: string;
}

function framesSent(plan: readonly PlanItem[], views: Views): Sent[] {
  const out: Sent[] = [];
  for (const item of plan) {
    if (item.kind !== "frames" || !SENDS.has(item.action)) continue;
    const local = views.local.get(item.key);
    const ref = refOfKey(item.key);
    if (!local || "error" in ref || ref.kind !== "frames") continue;
    out.push({ key: item.key, slug: ref.slug, html: text(local) });
  }
  return out;
}

/** Data sets the push creates: a frame reading one is no unknown_source. */
function dataCreated(plan: readonly PlanItem[]): string[] {
  const names = new Set<string>();
  for (const item of plan) {
    const ref = refOfKey(item.key);
    if (item.action === "create" && !("error" in ref) && ref.kind === "data") names.add(ref.name);
  }
  return [...names];
}

/** Batches within the call's limits; frames of one batch see each other (most pushes are one batch). */
function batchesOf(sent: Sent[]): Sent[][] {
  const out: Sent[][] = [];
  let current: Sent[] = [];
  let bytes = 0;
  for (const frame of sent) {
    const size = Buffer.byteLength(frame.html) + frame.slug.length + 32;
    if (current.length && (current.length >= MAX_FRAMES || bytes + size > MAX_BYTES)) {
      out.push(current);
      current = [];
      bytes = 0;
    }
    current.push(frame);
    bytes += size;
  }
  if (current.length) out.push(current);
  return out;
}

/** A refusal as the warning of the files it names (all of them when it names none). */
function refusedWarnings(error: unknown, batch: Sent[]): Map<string, Warning[]> {
  const refusal = error instanceof CliError ? error : new CliError(1, String(error));
  const details = (refusal.details as { code?: string; details?: Rec }) ?? {};
  const inner = details.details ?? {};
  const named = [inner.frame, inner.slug, String(inner.field ?? "").replace(/^frames\./, "")].map((v) =>
    typeof v === "string" ? v.toLowerCase() : "",
  );
  const hit = batch.filter((frame) => named.includes(frame.slug));
  const warning: Warning = {
    code: String(details.code ?? "refused"),
    message: refusal.line.replace(/^[^:]+:\s*/, ""),
    refused: true,
  };
  return new Map((hit.length ? hit : batch).map((frame) => [frame.key, [warning]]));
}

/** The warnings of every frame the push sends, judged together; `refuse`: a refusal of the check is thrown. */
export async function checkFrames(
  ctx: WriteContext,
  plan: readonly PlanItem[],
  views: Views,
  refuse: boolean,
): Promise<Map<string, Warning[]>> {
  const sent = framesSent(plan, views);
  const found = new Map<string, Warning[]>();
  if (sent.length === 0) return found;
  const pushed = new Set(sent.map((frame) => frame.slug));
  const datasets = dataCreated(plan);
  const known = knownAfterPush(plan, views);
  for (const batch of batchesOf(sent)) {
    let answer: Rec;
    try {
      answer = await data(
        ctx.api,
        ctx.api.site.POST("/frames/check", {
          body: {
            frames: batch.map(({ slug, html }) => ({ slug, html })),
            ...(datasets.length ? { data: datasets } : {}),
          },
        }),
      );
    } catch (error) {
      if (refuse) throw error;
      for (const [key, warnings] of refusedWarnings(error, batch)) found.set(key, warnings);
      continue;
    }
    const frames = Array.isArray(answer.frames) ? (answer.frames as Rec[]) : [];
    batch.forEach((frame, index) => {
      // A frame of another batch is pushed too: it is not missing; nor is what the push makes.
      const warnings = warningsOf(frames[index]).filter(
        (w) => !(w.code === "frame_ref_missing" && pushed.has(String(w.slug))) && !madeByPush(w, known),
      );
      found.set(frame.key, warnings);
    });
  }
  return found;
}

/** The warnings of a whole push before its first write: frames together, stylesheets by their dry runs. */
export async function judgeMarkup(
  ctx: WriteContext,
  plan: PlanItem[],
  views: Views,
  options: { refuse: boolean; styles: boolean },
  progress: (done: number, total: number) => void,
): Promise<Map<string, Warning[]>> {
  const found = await checkFrames(ctx, plan, views, options.refuse);
  if (!options.styles) return found;
  const others = plan.filter((item) => item.kind !== "frames");
  for (const [key, warnings] of await dryRun(ctx, others, views, progress)) found.set(key, warnings);
  return found;
}
