// Helpers of the public-serving tests: images made with sharp, files put on a site, and GETs over
// a real socket that keep the bytes (Buffer) and every header.
import assert from "node:assert/strict";
import { request } from "node:http";
import sharp from "sharp";
import type { TestApp } from "../support/app.ts";
import { fileUrl, variantsOf, type Variant } from "../../src/media/addresses.ts";

export interface Fetched {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** One request over a socket to the app listening on `port`, with Host `host`. */
export function fetchRaw(
  port: number,
  path: string,
  options: { host?: string; method?: string; headers?: Record<string, string> } = {},
): Promise<Fetched> {
  return new Promise((resolve, reject) => {
    const headers = { host: options.host ?? "localhost:8080", ...options.headers };
    const req = request({ host: "127.0.0.1", port, path, method: options.method ?? "GET", headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on("error", reject);
    req.end();
  });
}

/** A PNG of `width` × `height` with noise in it, so no two rows of it are alike and it does not compress away. */
export async function noisyPng(width: number, height: number): Promise<Buffer> {
  return sharp({
    create: { width, height, channels: 3, background: "#3a6ea5", noise: { type: "gaussian", mean: 120, sigma: 40 } },
  })
    .png({ compressionLevel: 1 })
    .toBuffer();
}

export async function jpeg(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: "#c0392b" } })
    .jpeg({ quality: 80 })
    .toBuffer();
}

/** An animated GIF of three frames, each of its own colour. */
export async function animatedGif(width: number, height: number): Promise<Buffer> {
  const colours = ["#ff0000", "#00ff00", "#0000ff"];
  const frames = await Promise.all(
    colours.map((background) =>
      sharp({ create: { width, height, channels: 3, background } })
        .png()
        .toBuffer(),
    ),
  );
  return sharp(frames, { join: { animated: true } })
    .gif({ delay: 100, loop: 0 })
    .toBuffer();
}

/** A file put on a site through the API, as its record says. */
export interface Stored {
  id: number;
  url: string;
  sha256: string;
  bytes: number;
  width: number | null;
  height: number | null;
  variants: Variant[];
}

/** Uploads a file to a site: POST /media, the raw bytes with their type and `?filename=`. */
export async function storeFile(
  t: TestApp,
  siteId: number,
  data: Buffer,
  filename: string,
  mime: string,
): Promise<Stored> {
  const answer = await t.call("POST", `/api/site/${siteId}/media?filename=${encodeURIComponent(filename)}`, {
    payload: data,
    headers: { "content-type": mime },
  });
  assert.equal(answer.status, 201, `upload ${filename}: ${answer.text}`);
  const media = answer.body.media;
  assert.equal(media.url, fileUrl(media), "the record's url is the one rule's");
  assert.deepEqual(media.variants, variantsOf(media), "the record's variants are the one rule's");
  return media as Stored;
}

/** DELETE /media/{id}?force=1: the record, and its blob when no other record names it. */
export async function removeFile(t: TestApp, stored: Stored, siteId = 1): Promise<void> {
  const answer = await t.call("DELETE", `/api/site/${siteId}/media/${stored.id}?force=1`);
  assert.equal(answer.status, 200, answer.text);
}

/** A site of its own on `domain`. */
export async function addSite(t: TestApp, domain: string): Promise<number> {
  const created = await t.call("POST", "/api/sites", { body: { name: domain, domain } });
  assert.equal(created.status, 201, created.text);
  return created.body.site.id as number;
}

export function header(answer: Fetched, name: string): string | undefined {
  const value = answer.headers[name];
  return Array.isArray(value) ? value.join(", ") : value;
}
