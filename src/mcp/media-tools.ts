// The media group (docs/mcp.md): upload a file sent as base64, list the files (docs/media.md).
import { refusal, succeeded } from "./answers.ts";
import { leastOf, queryOf, type Tool } from "./tool.ts";

/**
 * upload_media: the bytes go to POST /media as an upload would send them (its type detected from
 * them, its limit the same), then `alt` through PATCH /media/{id}; the answer is the media record.
 */
const uploadMedia: Tool["run"] = async ({ rest }, input) => {
  if (typeof input.base64 !== "string" || !/^[A-Za-z0-9+/\s]*={0,2}\s*$/.test(input.base64))
    return refusal(
      "invalid_field",
      { field: "base64", reason: "not_base64" },
      "base64 must be the file's bytes in base64.",
    );
  const data = Buffer.from(input.base64, "base64");
  const uploaded = await rest({
    method: "POST",
    path: "/media",
    query: { filename: typeof input.filename === "string" ? input.filename : undefined },
    bytes: { data, type: "application/octet-stream" },
  });
  if (!succeeded(uploaded) || input.alt === undefined) return uploaded;
  const patched = await rest({
    method: "PATCH",
    path: `/media/${(uploaded.body.media as { id: number }).id}`,
    body: { alt: input.alt },
  });
  return succeeded(patched) ? { ...patched, status: uploaded.status } : patched;
};

export const MEDIA_TOOLS: Tool[] = [
  {
    name: "upload_media",
    group: "media",
    writes: true,
    least: leastOf("POST", "/media"),
    description: "Upload a file (image, video, audio, font, document) given as base64, up to the site's media limit.",
    input: {
      own: {
        filename: { type: "string", description: "the file's name, e.g. logo.png" },
        base64: { type: "string", description: "the file's bytes in base64" },
        alt: { type: "string", description: "the alternative text of an image" },
      },
      required: ["filename", "base64"],
    },
    run: uploadMedia,
  },
  {
    name: "list_media",
    group: "media",
    writes: false,
    least: leastOf("GET", "/media"),
    description: "The site's media files, newest first, with their addresses; filtered by type or search.",
    input: { query: ["get", "/media"] },
    run: ({ rest }, input) => rest({ method: "GET", path: "/media", query: queryOf(input) }),
  },
];
