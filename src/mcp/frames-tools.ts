// The frames group (docs/mcp.md): list, read, check and write a frame's markup (docs/frames.md).
import { refusal, succeeded } from "./answers.ts";
import { leastOf, queryOf, REF, segment, without, type Tool } from "./tool.ts";

const FRAME = (ref: unknown) => `/frames/${segment(ref)}`;

/**
 * put_frame: creates the frame (POST /frames) or replaces its markup (PUT /frames/{slug}). With
 * `expected_sha256`, the frame's current sha256 must be it, as `If-Match` must name its ETag: else
 * 412 precondition_failed with the current sha256, nothing written. The replace then sends the ETag
 * read with it, so a write that came between is refused 412 too.
 */
const putFrame: Tool["run"] = async ({ rest }, input) => {
  const body = without(input, "slug", "expected_sha256");
  const expected = input.expected_sha256;
  const current = await rest({ method: "GET", path: FRAME(input.slug) });
  if (current.status === 404 && expected === undefined)
    return rest({ method: "POST", path: "/frames", body: { ...body, slug: input.slug } });
  if (!succeeded(current)) return current;
  const { sha256 } = current.body.frame as { sha256: string };
  const etag = String(current.headers.etag ?? "");
  if (typeof expected === "string" && expected !== sha256)
    return refusal(
      "precondition_failed",
      { sha256, etag },
      "The frame changed since you read it: expected_sha256 is not its sha256. Nothing was written; read it again (get_frame).",
    );
  return rest({ method: "PUT", path: FRAME(input.slug), body, headers: { "if-match": etag } });
};

export const FRAME_TOOLS: Tool[] = [
  {
    name: "list_frames",
    group: "frames",
    writes: false,
    least: leastOf("GET", "/frames"),
    description: "The site's frames (templates) with their slugs, kinds and warnings.",
    input: { query: ["get", "/frames"] },
    run: ({ rest }, input) => rest({ method: "GET", path: "/frames", query: queryOf(input) }),
  },
  {
    name: "get_frame",
    group: "frames",
    writes: false,
    least: leastOf("GET", "/frames/:ref"),
    description: "One frame: its markup, sha256 (for put_frame's expected_sha256), analysis and pages.",
    input: { own: { ref: REF }, required: ["ref"] },
    run: ({ rest }, input) => rest({ method: "GET", path: FRAME(input.ref) }),
  },
  {
    name: "check_frame",
    group: "frames",
    writes: false,
    least: leastOf("POST", "/frames/check"),
    description:
      "Analyse a frame's markup as if written, writing nothing: its warnings by code, or the refusal a write would get. Read svc://docs/markup for the grammar.",
    input: { body: ["post", "/frames/check"], items: "frames" },
    run: ({ rest }, input) =>
      rest({ method: "POST", path: "/frames/check", body: { frames: [{ slug: input.slug, html: input.html }] } }),
  },
  {
    name: "put_frame",
    group: "frames",
    writes: true,
    least: leastOf("PUT", "/frames/:ref"),
    description:
      "Create a frame or replace its markup; pages using it are rebuilt. expected_sha256 (from get_frame) refuses the write (412) if the frame changed since.",
    input: {
      body: ["post", "/frames"],
      omit: ["markup", "content", "dry_run"],
      own: { expected_sha256: { type: "string", description: "the sha256 get_frame answered" } },
      required: ["slug", "html"],
    },
    run: putFrame,
  },
];
