// Responsive variants of raster images (issue 17; docs/media.md, "Serving and variants"): WebP at
// each width of VARIANT_WIDTHS not wider than the original (media/addresses.ts lists them), made
// with sharp on the first request of each and kept in the blob store as a file derived from the
// original's blob (`w<width>.webp`), so an upload costs only the storing of its bytes and a
// variant nobody asks for is never made.
//
// - One make per variant in a process: concurrent first requests share one promise. Several
//   processes may each make it once; the put is whole-or-nothing, so the last one simply wins
//   (same sharp, same bytes).
// - Bounded: one make at a time per process, sharp refuses an input over
//   MAX_VARIANT_SOURCE_PIXELS (a decompression bomb) and gives up after MAKE_TIMEOUT_SECONDS, and
//   only the original's blob is read (at most SVC_MEDIA_MAX_BYTES).
// - An image sharp cannot read (corrupt, truncated, too large) has no variants: the outcome says
//   `failed`, the route answers 404, and the failure is remembered for FAILURE_KEPT_MS, so asking
//   again costs nothing (a make that timed out on a busy machine is tried again after that).
//   The original is served as stored.
// - An animated GIF (or WebP) gives a still WebP of its first frame (sharp reads page 0 only).
// - EXIF orientation is applied (autoOrient), so a variant stands as the original is shown.
import type { Readable } from "node:stream";
import type { Sharp, SharpOptions } from "sharp";
import type { BlobStore } from "../blobs/blob-store.ts";
import { MAX_VARIANT_SOURCE_PIXELS } from "./addresses.ts";

/** The name a variant of `width` is stored under beside its original's blob. */
export function derivedName(width: number): string {
  return `w${width}.webp`;
}

export const MAKE_TIMEOUT_SECONDS = 30;
/** Failures remembered (oldest forgotten first): enough for every variant of a thousand bad files. */
const FAILURES_KEPT = 5_000;
const FAILURE_KEPT_MS = 10 * 60_000;

export interface VariantLimits {
  /** Makes running at once in this process. */
  makesAtOnce: number;
  maxInputPixels: number;
  timeoutSeconds: number;
}

export const DEFAULT_VARIANT_LIMITS: VariantLimits = { makesAtOnce: 1, maxInputPixels: MAX_VARIANT_SOURCE_PIXELS, timeoutSeconds: MAKE_TIMEOUT_SECONDS };

/** A stored variant's size; `failed` when the image cannot be made into one; `gone` when its original's blob is absent. */
export type VariantOutcome = { bytes: number } | { failed: Error } | "gone";

type SharpFactory = (options?: SharpOptions) => Sharp;
let sharpLoaded: Promise<SharpFactory> | null = null;

/** sharp (and libvips) is loaded on the first make, not at start: most processes never make one. */
function loadSharp(): Promise<SharpFactory> {
  sharpLoaded ??= import("sharp").then((module) => module.default as unknown as SharpFactory);
  return sharpLoaded;
}

/** The source stream broke (the store, not the image): not remembered as the image's failure. */
class SourceBroke extends Error {}

export class VariantMaker {
  private readonly making = new Map<string, Promise<VariantOutcome>>();
  private readonly failures = new Map<string, { error: Error; until: number }>();
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly blobs: BlobStore,
    private readonly limits: VariantLimits = DEFAULT_VARIANT_LIMITS,
    /** Told once of each image that cannot be made into a variant (the log). */
    private readonly reportFailure: (sha256: string, width: number, error: Error) => void = () => {},
  ) {}

  /**
   * The variant of the blob `sha256` at `width` × `height` (as variantsOf lists it), made and
   * stored first when it is not stored yet.
   */
  async variant(sha256: string, width: number, height: number): Promise<VariantOutcome> {
    const key = `${sha256}/${width}`;
    const failed = this.failures.get(key);
    if (failed && failed.until > Date.now()) return { failed: failed.error };
    const pending = this.making.get(key);
    if (pending) return pending;
    const stored = await this.blobs.size(sha256, derivedName(width));
    if (stored !== undefined) return { bytes: stored };
    let made = this.making.get(key);
    if (!made) {
      made = this.make(key, sha256, width, height).finally(() => this.making.delete(key));
      this.making.set(key, made);
    }
    return made;
  }

  private async make(key: string, sha256: string, width: number, height: number): Promise<VariantOutcome> {
    await this.slot();
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
      await this.blobs.putDerived(sha256, derivedName(width), data);
      return { bytes: data.length };
    } finally {
      this.release();
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

  private async slot(): Promise<void> {
    if (this.running < this.limits.makesAtOnce) {
      this.running++;
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next(); // the slot passes on: `running` stays
    else this.running--;
  }
}
