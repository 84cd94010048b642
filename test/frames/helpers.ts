// Short calls for the frame tests: everything goes through the real HTTP app.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import type { Answer, TestApp } from "../support/app.ts";

export const SITE = "/api/site/1";
export const FRAMES = `${SITE}/frames`;
export const GMT = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/;

export const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");
export const enc = encodeURIComponent;

/** A `svc/frame` insert naming a frame by `key` (name, ref, frame, slug, id). */
export const embed = (value: string, key = "name") => `<!-- svc/frame {"${key}": "${value}"} /-->`;

/** Asserts a handler error envelope with this status and code; returns the body. */
export function refused(r: Answer, status: number, code: string): any {
  assert.equal(r.status, status, `expected ${status} ${code}, got ${r.status} ${r.text.slice(0, 400)}`);
  assert.equal(r.body.success, false);
  assert.equal(r.body.error, code);
  assert.equal(typeof r.body.message, "string");
  return r.body;
}

/** POST /frames; throws unless 201. Returns the body. */
export async function createFrame(
  t: TestApp,
  slug: string,
  html: string,
  extra: Record<string, unknown> = {},
  site = SITE,
): Promise<any> {
  const r = await t.call("POST", `${site}/frames`, { body: { slug, html, ...extra } });
  if (r.status !== 201) throw new Error(`frame ${slug}: ${r.status} ${r.text}`);
  return r.body;
}

export async function getFrame(t: TestApp, ref: string): Promise<any> {
  const r = await t.call("GET", `${FRAMES}/${enc(ref)}`);
  if (r.status !== 200) throw new Error(`GET frame ${ref}: ${r.status} ${r.text}`);
  return r.body.frame;
}

/** POST /pages; returns the page record. */
export async function createPage(t: TestApp, body: Record<string, unknown>): Promise<any> {
  const r = await t.call("POST", `${SITE}/pages`, { body });
  if (r.status !== 200 && r.status !== 201) throw new Error(`page ${JSON.stringify(body)}: ${r.status} ${r.text}`);
  return r.body.page;
}

export async function assign(
  t: TestApp,
  frame: string,
  page: unknown,
  extra: Record<string, unknown> = {},
): Promise<any> {
  const r = await t.call("POST", `${FRAMES}/${enc(frame)}/assign`, { body: { page, ...extra } });
  if (r.status !== 200) throw new Error(`assign ${frame} → ${page}: ${r.status} ${r.text}`);
  return r.body;
}

/** The public page at `path` on the main site. */
export async function publicPage(
  t: TestApp,
  path: string,
): Promise<{ status: number; body: string; printed: unknown }> {
  const r = await t.app.inject({ method: "GET", url: path, headers: { host: "localhost" } });
  return { status: r.statusCode, body: r.body, printed: r.headers["x-svc-printed"] };
}

export const codes = (warnings: Array<{ code: string }>) => warnings.map((w) => w.code);
