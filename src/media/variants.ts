// Responsive variants of raster images (docs/media.md, "Serving and variants"): WebP at
// each width of VARIANT_WIDTHS not wider than the original (media/addresses.ts lists them), made
// with sharp on the first request of each and kept in the blob store as a file derived from the
// original's blob (`w<width>.webp`), so an upload costs only the storing of its bytes and a
// variant nobody asks for is never made.
//
// - One make per variant in a process: concurrent first requests share one promise. Several
//   processes may each make it once; the put is whole-or-nothing, so the last one simply wins
//   (same sharp, same bytes).
// - Bounded and fair (docs/media.md, "Fair between sites"): makes run in a few slots (the machine's
//   cores − 1, at least 1) shared by the sites in turn (fair-slots.ts), so one site's burst delays
//   only its own variants; sharp refuses an input over MAX_VARIANT_SOURCE_PIXELS (limitInputPixels:
//   a decompression bomb) and gives up after MAKE_TIMEOUT_SECONDS, and only the original's blob is
//   read (at most SVC_MEDIA_MAX_BYTES).
// - Counted (docs/media.md, "Counted"): a variant is kept only once its bytes are charged to the
//   media_bytes of the site whose request made it (the keeper, variant-charges.ts). One that does
//   not fit is served from memory this once and not kept: made again, in that site's own turn,
//   on its next request.
// - An image sharp cannot read (corrupt, truncated, too large) has no variants: the outcome says
//   `failed`, the route answers 404, and the failure is remembered for FAILURE_KEPT_MS, so asking
//   again costs nothing (a make that timed out on a busy machine is tried again after that).
//   The original is served as stored.
// - An animated GIF (or WebP) gives a still WebP of its first frame (sharp reads page 0 only).
// - EXIF orientation is applied (autoOrient), so a variant stands as the original is shown.
import { availableParallelism } from "node:os";
import type { Readable } from "node:stream";
import type { Sharp, SharpOptions } from "sharp";
import type { BlobStore } from "../blobs/blob-store.ts";
import { MAX_VARIANT_SOURCE_PIXELS } from "./addresses.ts";
import type { CpuPermits } from "../cpu-permits.ts";
import { FairSlots } from "./fair-slots.ts";

/** The name a variant of `width` is stored under beside its original's blob. */
export function derivedName(width: number): string {
  return `w${width}.webp`;
}

export const MAKE_TIMEOUT_SECONDS = 30;
/** Failures remembered (oldest forgotten first): enough for every variant of a thousand bad files. */
const FAILURES_KEPT = 5_000;
const FAILURE_KEPT_MS = 10 * 60_000;

export interface VariantLimits {
  /** Makes running at once in this process, every site together. */
  makesAtOnce: number;
  maxInputPixels: number;
  timeoutSeconds: number;
}

/** libvips spreads one make over the cores already; a core is left for requests. */
export const DEFAULT_VARIANT_LIMITS: VariantLimits = {
  makesAtOnce: Math.max(1, availableParallelism() - 1),
  maxInputPixels: MAX_VARIANT_SOURCE_PIXELS,
  timeoutSeconds: MAKE_TIMEOUT_SECONDS,
};

/** A variant asked for: the site whose request asks (its turn, its quota), the file's row and blob, the size. */
export interface VariantJob {
  siteId: number;
  mediaId: number;
  sha256: string;
  width: number;
  height: number;
}

/** Charges a made variant's bytes to its site and answers whether it may be kept (variant-charges.ts). */
export type VariantKeeper = (job: VariantJob, bytes: number) => Promise<boolean>;

/**
 * A stored variant's size; with `data` when it was made but not kept (past the site's media_bytes,
 * or its file changed meanwhile): those bytes are the answer, this once. `failed` when the image
 * cannot be made into one; `gone` when its original's blob is absent.
 */
export type VariantOutcome = { bytes: number; data?: Buffer } | { failed: Error } | "gone";

type SharpFactory = ((options?: SharpOptions) => Sharp) & { concurrency(threads: number): number };
let sharpLoaded: Promise<SharpFactory> | null = null;

/**
 * sharp (and libvips) is loaded on the first make, not at start: most processes never make one.
 * One libvips thread per image operation: the slots bound how many are made at once (cores − 1),
 * and libvips's default, a thread per core for each, let one site's variants take every core
 * from the service's thread (bench fairness: another site's uncached page 2.1–2.2 times as slow).
 */
function loadSharp(): Promise<SharpFactory> {
  sharpLoaded ??= import("sharp").then((module) => {
    const sharp = module.default as unknown as SharpFactory;
    sharp.concurrency(1);
    return sharp;
  });
  return sharpLoaded;
}

/** The source stream broke (the store, not the image): not remembered as the image's failure. */
class SourceBroke extends Error {}

export class VariantMaker {
  private readonly making = new Map<string, Promise<VariantOutcome>>();
  private readonly failures = new Map<string, { error: Error; until: number }>();
  private readonly slots: FairSlots;

  constructor(
    private readonly blobs: BlobStore,
    private readonly keep: VariantKeeper,
    private readonly limits: VariantLimits = DEFAULT_VARIANT_LIMITS,
    /** Told once of each image that cannot be made into a variant (the log). */
    private readonly reportFailure: (sha256: string, width: number, error: Error) => void = () => {},
    /** The process's cores for work off its thread, shared with the render workers (cpu-permits.ts). */
    permits?: CpuPermits,
  ) {
    this.slots = new FairSlots(limits.makesAtOnce, permits);
  }

  /** Makes of the site waiting for their turn. */
  waiting(siteId: number): number {
    return this.slots.waiting(siteId);
  }

  /**
   * The variant of the blob `sha256` at `width` × `height` (as variantsOf lists it), made and
   * stored first when it is not stored yet, in the turn of the site asking.
   */
  async variant(job: VariantJob): Promise<VariantOutcome> {
    const { sha256, width } = job;
    const key = `${sha256}/${width}`;
    const failed = this.failures.get(key);
    if (failed && failed.until > Date.now()) return { failed: failed.error };
    const pending = this.making.get(key);
    if (pending) return pending;
    const stored = await this.blobs.size(sha256, derivedName(width));
    if (stored !== undefined) return { bytes: stored };
    let made = this.making.get(key);
    if (!made) {
      made = this.make(key, job).finally(() => this.making.delete(key));
      this.making.set(key, made);
    }
    return made;
  }

  private async make(key: string, job: VariantJob): Promise<VariantOutcome> {
    const { siteId, sha256, width, height } = job;
    await this.slots.acquire(siteId);
    try {
      // Another process (or a make that ended while this one waited) may have stored it.
      const stored = await this.blobs.size(sha256, derivedName(width));
      if (stored !== undefined) return { bytes: stored };
      const source = await this.blobs.read(sha256);
      if (source === undefined) return "gone";
      let data: Buffer;
      try {
        data = await this.encode(source, width, height);
      } catch (error) {
        if (error instanceof SourceBroke) throw error.cause;
        const failed = error instanceof Error ? error : new Error(String(error));
        this.remember(key, failed);
        this.reportFailure(sha256, width, failed);
        return { failed };
      }
      if (!(await this.keep(job, data.length))) return { bytes: data.length, data };
      // Charged first: a put that fails leaves the charge to the next make of it, which finds
      // it and stores the same bytes.
      await this.blobs.putDerived(sha256, derivedName(width), data);
      return { bytes: data.length };
    } finally {
      this.slots.release();
    }
  }

  private async encode(source: Readable, width: number, height: number): Promise<Buffer> {
    const sharp = await loadSharp();
    const pipeline = sharp({ limitInputPixels: this.limits.maxInputPixels, failOn: "error" })
      .timeout({ seconds: this.limits.timeoutSeconds })
      .autoOrient()
      // Exactly the listed size; `cover` crops at most a rounding pixel rather than stretch.
      .resize(width, height, { fit: "cover" })
      .webp();
    let broke: unknown;
    source.once("error", (error) => {
      broke = error;
      pipeline.destroy(error);
    });
    source.pipe(pipeline);
    try {
      return await pipeline.toBuffer();
    } catch (error) {
      if (broke !== undefined) throw new SourceBroke("the blob could not be read", { cause: broke });
      throw error;
    } finally {
      source.destroy();
    }
  }

  private remember(key: string, error: Error): void {
    this.failures.delete(key);
    if (this.failures.size >= FAILURES_KEPT) this.failures.delete(this.failures.keys().next().value!);
    this.failures.set(key, { error, until: Date.now() + FAILURE_KEPT_MS });
  }
}
