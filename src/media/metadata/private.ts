// Private by default (docs/media.md, "Private by default"): the bytes of an
// uploaded JPEG, PNG, WebP or AVIF as they are stored, without the metadata that says where, by
// whom and with what a photo was taken. Each format is rewritten losslessly, at the level of its
// container (segments, chunks, boxes): the pixels are never decoded or encoded again, so nothing
// is lost and the work is a copy. ICC profiles and the orientation stay.
import { ByteReader } from "./byte-reader.ts";
import { avifWithoutMetadata } from "./avif.ts";
import { jpegWithoutMetadata } from "./jpeg.ts";
import { pngWithoutMetadata } from "./png.ts";
import { webpWithoutMetadata } from "./webp.ts";

/** What each type's metadata is removed by: streamed, or read whole first. */
const STRIPPERS: Record<
  string,
  ((reader: ByteReader) => AsyncGenerator<Buffer>) | { whole: (file: Buffer) => Buffer }
> = {
  "image/jpeg": jpegWithoutMetadata,
  "image/png": pngWithoutMetadata,
  "image/webp": { whole: webpWithoutMetadata },
  "image/avif": { whole: avifWithoutMetadata },
};

/** `bytes` (a file of type `mime`) without its personal metadata; other types as they are. */
export function withoutPersonalMetadata(mime: string, bytes: AsyncIterable<Uint8Array>): AsyncIterable<Uint8Array> {
  const stripper = STRIPPERS[mime];
  if (stripper === undefined) return bytes;
  const reader = new ByteReader(bytes[Symbol.asyncIterator]());
  if (typeof stripper === "function") return stripper(reader);
  return (async function* () {
    yield stripper.whole(await reader.all());
  })();
}
