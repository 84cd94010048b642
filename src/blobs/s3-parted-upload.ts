// One object written to S3 from a stream of unknown length, in memory of bounded size: the bytes
// are gathered into parts of `partBytes`; a stream that ends within the first part is sent with
// one PutObject, a longer one becomes a multipart upload. One part travels while the next is
// gathered, so an upload holds at most two parts (plus one chunk of the source) in memory, and a
// source that is faster than the storage is slowed to its pace (write() waits).
//
// S3 takes at most 10,000 parts, so parts double in size every 1,000: 8 MiB parts carry the
// first 8 GB, and 10,000 parts about 8 TB, while an upload of ordinary size never holds more than
// two of the smallest.
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  PutObjectCommand,
  UploadPartCommand,
  type CompletedPart,
  type S3Client,
} from "@aws-sdk/client-s3";

/** S3 refuses a part smaller than this, the last one excepted. */
export const MIN_PART_BYTES = 5 * 1024 * 1024;
/** S3 accepts at most this many parts in one multipart upload. */
const MAX_PARTS = 10_000;
const PARTS_OF_ONE_SIZE = 1000;

export class PartedUpload {
  private gathered: Uint8Array[] = [];
  private gatheredBytes = 0;
  private uploadId: string | undefined;
  private readonly parts: CompletedPart[] = [];
  private partsStarted = 0;
  private completed = false;
  /** The part on its way, if any; it has a rejection handler, so a failure waits to be awaited. */
  private inFlight: Promise<void> | undefined;

  constructor(
    private readonly client: S3Client,
    private readonly bucket: string,
    readonly key: string,
    private readonly partBytes: number,
  ) {
    if (partBytes < MIN_PART_BYTES) throw new RangeError(`a part must hold at least ${MIN_PART_BYTES} bytes`);
  }

  async write(chunk: Uint8Array): Promise<void> {
    this.gathered.push(chunk);
    this.gatheredBytes += chunk.byteLength;
    while (this.gatheredBytes >= this.nextPartBytes()) await this.sendPart(this.take(this.nextPartBytes()));
  }

  /** Makes the object whole under its key. */
  async finish(): Promise<void> {
    if (this.uploadId === undefined) {
      const body = this.take(this.gatheredBytes);
      await this.client.send(
        new PutObjectCommand({ Bucket: this.bucket, Key: this.key, Body: body, ContentLength: body.byteLength }),
      );
      return;
    }
    if (this.gatheredBytes > 0) await this.sendPart(this.take(this.gatheredBytes));
    await this.inFlight;
    await this.client.send(
      new CompleteMultipartUploadCommand({
        Bucket: this.bucket,
        Key: this.key,
        UploadId: this.uploadId,
        MultipartUpload: { Parts: this.parts },
      }),
    );
    this.completed = true;
  }

  /**
   * Leaves nothing behind, whether the upload failed or its object was copied where it belongs:
   * aborts the multipart upload (the storage drops its parts) and removes
   * the object in case a completion went through although its answer was lost. Best effort: the
   * caller is already failing with the error that matters; what a failure here leaves is swept by
   * the bucket's lifecycle rules (docs/media.md, "Storage").
   */
  async discard(): Promise<void> {
    await this.inFlight?.catch(() => {});
    if (this.uploadId !== undefined && !this.completed) {
      await this.client
        .send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: this.key, UploadId: this.uploadId }))
        .catch(() => {});
    }
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.key })).catch(() => {});
  }

  private async sendPart(body: Buffer): Promise<void> {
    await this.inFlight;
    this.uploadId ??= (
      await this.client.send(new CreateMultipartUploadCommand({ Bucket: this.bucket, Key: this.key }))
    ).UploadId;
    const partNumber = ++this.partsStarted;
    if (partNumber > MAX_PARTS) throw new RangeError(`more than ${MAX_PARTS} parts`);
    const sending = this.client
      .send(
        new UploadPartCommand({
          Bucket: this.bucket,
          Key: this.key,
          UploadId: this.uploadId,
          PartNumber: partNumber,
          Body: body,
          ContentLength: body.byteLength,
        }),
      )
      .then((answer) => {
        this.parts[partNumber - 1] = { PartNumber: partNumber, ETag: answer.ETag };
      });
    sending.catch(() => {});
    this.inFlight = sending;
  }

  private nextPartBytes(): number {
    return this.partBytes * 2 ** Math.floor(this.partsStarted / PARTS_OF_ONE_SIZE);
  }

  /** The first `bytes` gathered, as one buffer; the rest stays gathered (copied, so the part can go). */
  private take(bytes: number): Buffer {
    const all = Buffer.concat(this.gathered, this.gatheredBytes);
    const rest = all.subarray(bytes);
    this.gathered = rest.byteLength > 0 ? [Buffer.from(rest)] : [];
    this.gatheredBytes = rest.byteLength;
    return all.subarray(0, bytes);
  }
}
