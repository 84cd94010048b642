// The two forms of an upload's body (docs/media.md, "Uploads"): the raw bytes with their Content-Type
// and `?filename=`, or multipart/form-data with one file part named `file` and the optional text
// fields `alt` and `title`. Either way the file is read as it arrives (busboy parses multipart
// as a stream), never held whole in memory. Knows Node's streams, not the web framework.
import type { Readable } from "node:stream";
import { fail } from "../errors.ts";
import type { UploadSource } from "./intake.ts";

/** The text fields an upload may carry beside its file. */
export interface UploadFields {
  alt?: string;
  title?: string;
}

export interface UploadBody {
  source: UploadSource;
  /** The text fields, once the whole body is read (multipart fields may follow the file). */
  fields(): Promise<UploadFields>;
  /** Unknown fields and ignored parts, for warnings. */
  ignored(): string[];
  /** Stops parsing a body that was refused before its end. */
  abandon(): void;
}

/** The request as uploads read it. */
export interface UploadRequest {
  headers: Record<string, string | string[] | undefined>;
  body: Readable;
  /** `?filename=` (a raw upload's name; a multipart part's own name comes first). */
  filename: string | null;
  /** `?keep_metadata=1`: the file is stored with its metadata. */
  keepMetadata: boolean;
}

const FIELD_NAMES = new Set(["alt", "title"]);
/** Small on purpose: fields are held in memory, and the body's size is the file's. */
const LIMITS = { fields: 8, fieldSize: 16 * 1024, parts: 12, headerPairs: 50 };

function header(headers: UploadRequest["headers"], name: string): string | null {
  const value = headers[name];
  return (Array.isArray(value) ? value[0] : value) ?? null;
}

export function isMultipart(headers: UploadRequest["headers"]): boolean {
  return /^multipart\/form-data\s*(;|$)/i.test(header(headers, "content-type") ?? "");
}

/** A raw upload: the body is the file. */
function rawUpload(request: UploadRequest): UploadBody {
  const length = header(request.headers, "content-length");
  return {
    source: {
      filename: request.filename,
      contentType: header(request.headers, "content-type"),
      // Not destroyed when reading stops early: the refusal is still to be answered on its socket.
      bytes: request.body.iterator({ destroyOnReturn: false }),
      declaredBytes: length !== null && /^\d+$/.test(length) ? Number(length) : null,
      keepMetadata: request.keepMetadata,
    },
    fields: async () => ({}),
    ignored: () => [],
    abandon: () => undefined,
  };
}

/** The refusal of a multipart body the parser cannot read to its end. */
function unreadable(error: unknown) {
  return fail(
    "invalid_body",
    { reason: "multipart" },
    `The multipart body cannot be read: ${error instanceof Error ? error.message : String(error)}; nothing was stored.`,
  );
}

/** A multipart upload: resolves once the `file` part begins; its fields keep coming while it is read. */
async function multipartUpload(request: UploadRequest, maxBytes: number): Promise<UploadBody> {
  const { default: busboy } = await import("busboy");
  let parser: ReturnType<typeof busboy>;
  try {
    // The file's limit one past the service's, so the store sees it passed and refuses it.
    parser = busboy({
      headers: request.headers as Record<string, string>,
      defParamCharset: "utf8",
      limits: { ...LIMITS, fileSize: maxBytes + 1 },
    });
  } catch (error) {
    throw unreadable(error);
  }
  const fields: UploadFields = {};
  const ignored: string[] = [];
  let fieldError: Error | null = null;
  // A body that ends before its closing boundary, or is cut off, fails the parser: a refusal of
  // the body (400 invalid_body), never an error of the service.
  const finished = new Promise<void>((resolve, reject) => {
    parser.on("close", resolve);
    parser.on("error", reject);
  }).catch((error: unknown) => {
    throw unreadable(error);
  });
  finished.catch(() => undefined); // observed by fields() or by the file's wait below
  parser.on("field", (name, value, info) => {
    if (!FIELD_NAMES.has(name)) ignored.push(name);
    else if (info.valueTruncated)
      fieldError = fail(
        "invalid_field",
        { field: name, max_bytes: LIMITS.fieldSize },
        `${name} is longer than ${LIMITS.fieldSize} bytes.`,
      );
    else if (value.includes("\u0000"))
      // As a JSON body's (http/json-body.ts): U+0000 cannot be stored in PostgreSQL text.
      fieldError = fail(
        "invalid_field",
        { field: name, reason: "nul_character" },
        `${name} contains U+0000, which cannot be stored.`,
      );
    else fields[name as keyof UploadFields] = value;
  });
  for (const limit of ["partsLimit", "fieldsLimit"] as const) {
    parser.on(
      limit,
      () =>
        (fieldError = fail(
          "invalid_field",
          { field: "body", max_parts: LIMITS.parts, max_fields: LIMITS.fields },
          `An upload has at most ${LIMITS.parts} parts and ${LIMITS.fields} text fields.`,
        )),
    );
  }
  request.body.on("error", (error) => parser.destroy(error));
  const abandon = () => {
    request.body.unpipe(parser);
    parser.destroy();
  };

  // busboy fails a part's stream when the body ends inside it, and when the parser is
  // destroyed: at once, before its reader has started (a zero-byte part at the end of a cut
  // body), or after its reader stopped (a refusal). An 'error' event nobody listens to ends the
  // process, so every part's stream is listened to from its first moment; the file's reader
  // still sees the failure (a failed stream's iterator throws it).
  // And a part that begins in the same chunk after a malformed part header is handed out after
  // the parser failed, and never ended by it: its reader would wait forever. So every part still
  // open when the parser fails is failed with it.
  const open = new Set<Readable>();
  let failure: Error | null = null;
  parser.on("error", (error: Error) => {
    failure = error;
    for (const stream of open) stream.destroy(error);
  });
  let fileSeen = false;
  const file = new Promise<UploadSource>((resolve, reject) => {
    parser.on("file", (name, stream, info) => {
      stream.on("error", () => undefined);
      if (failure !== null) stream.destroy(failure);
      else {
        open.add(stream);
        stream.once("close", () => open.delete(stream));
      }
      if (name !== "file" || fileSeen) {
        ignored.push(name);
        stream.resume(); // another file part: read past, kept nowhere
        return;
      }
      fileSeen = true;
      resolve({
        filename: info.filename ?? request.filename,
        contentType: info.mimeType,
        bytes: stream.iterator({ destroyOnReturn: false }),
        declaredBytes: null,
        keepMetadata: request.keepMetadata,
      });
    });
    finished.then(
      () =>
        reject(
          fail(
            "invalid_field",
            { field: "file", reason: "missing" },
            "A multipart upload needs one file part named file.",
          ),
        ),
      reject,
    );
  });
  request.body.pipe(parser);
  let source: UploadSource;
  try {
    source = await file;
  } catch (error) {
    abandon();
    throw error;
  }
  return {
    source,
    async fields() {
      await finished;
      if (fieldError) throw fieldError;
      return fields;
    },
    ignored: () => ignored,
    abandon,
  };
}

/** The upload a request carries, by its Content-Type. */
export async function uploadBody(request: UploadRequest, maxBytes: number): Promise<UploadBody> {
  return isMultipart(request.headers) ? multipartUpload(request, maxBytes) : rawUpload(request);
}
