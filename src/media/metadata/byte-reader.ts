// Reads a stream of chunks as a file format's parser wants it: a few bytes at a time where it
// decides, whole runs passed through where it copies. Chunks are never joined except to make the
// few bytes a decision needs contiguous, so a file streams through without being held whole.
// A failure of the source (the client went away, the upload passed its limit) is thrown through.

function bufferOf(chunk: Uint8Array): Buffer {
  return Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
}

export class ByteReader {
  /** The bytes read from the source and not yet taken, contiguous. */
  private current: Buffer = Buffer.alloc(0);
  private ended = false;
  /** Bytes taken so far: the position of `current` in the file. */
  private taken = 0;

  constructor(private readonly source: AsyncIterator<Uint8Array>) {}

  /** Where the next byte taken is in the file. */
  get position(): number {
    return this.taken;
  }

  /** Makes at least `n` bytes contiguous unless the source ends first; answers whether it did. */
  async ensure(n: number): Promise<boolean> {
    while (this.current.length < n && !this.ended) {
      const next = await this.source.next();
      if (next.done) this.ended = true;
      else
        this.current =
          this.current.length === 0 ? bufferOf(next.value) : Buffer.concat([this.current, bufferOf(next.value)]);
    }
    return this.current.length >= n;
  }

  /** The contiguous bytes available now (after ensure), not taken. */
  peek(): Buffer {
    return this.current;
  }

  /** Takes the first `n` of the bytes available (n ≤ peek().length). */
  take(n: number): Buffer {
    const taken = this.current.subarray(0, n);
    this.current = this.current.subarray(n);
    this.taken += taken.length;
    return taken;
  }

  /** Exactly `n` bytes, fewer only when the source ends first. */
  async read(n: number): Promise<Buffer> {
    await this.ensure(n);
    return this.take(Math.min(n, this.current.length));
  }

  /** Passes the next `n` bytes through as they come (fewer when the source ends first). */
  async *pass(n: number): AsyncGenerator<Buffer> {
    while (n > 0 && (await this.ensure(1))) {
      const piece = this.take(Math.min(n, this.current.length));
      n -= piece.length;
      yield piece;
    }
  }

  /** Reads past the next `n` bytes, keeping none. */
  async skip(n: number): Promise<void> {
    for await (const _ of this.pass(n));
  }

  /**
   * Reads to the end, keeping nothing: what follows a file's end is dropped, but still read, so
   * the upload's limit counts it and the request's body is consumed.
   */
  async drain(): Promise<void> {
    while (await this.ensure(1)) this.take(this.current.length);
  }

  /** Everything left, as it comes. */
  async *rest(): AsyncGenerator<Buffer> {
    while (await this.ensure(1)) yield this.take(this.current.length);
  }

  /** Everything left, in one buffer (for formats that must be seen whole). */
  async all(): Promise<Buffer> {
    const pieces: Buffer[] = [];
    for await (const piece of this.rest()) pieces.push(piece);
    return Buffer.concat(pieces);
  }
}
