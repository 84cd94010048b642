// Helpers that build site content through the API and read the public site.
import assert from "node:assert/strict";
import type { TestApp } from "./app.ts";

export const S = "/api/site/1";

export async function page(t: TestApp, body: Record<string, unknown>, site = S): Promise<any> {
  const r = await t.call("POST", `${site}/pages`, { body });
  assert.ok(r.status === 200 || r.status === 201, `page: ${r.status} ${r.text}`);
  return r.body.page;
}

export async function frame(t: TestApp, slug: string, html: string, site = S): Promise<any> {
  const r = await t.call("POST", `${site}/frames`, { body: { slug, html } });
  assert.equal(r.status, 201, `frame ${slug}: ${r.text}`);
  return r.body;
}

export async function assign(t: TestApp, frameSlug: string, pageRef: string | number, site = S): Promise<any> {
  const r = await t.call("POST", `${site}/frames/${frameSlug}/assign`, { body: { page: pageRef } });
  assert.equal(r.status, 200, `assign ${frameSlug} → ${pageRef}: ${r.text}`);
  return r.body;
}

export interface PublicAnswer {
  status: number;
  printed: string | undefined;
  etag: string | undefined;
  type: string | undefined;
  body: string;
}

export async function visit(
  t: TestApp,
  path: string,
  host = "localhost:8080",
  headers: Record<string, string> = {},
): Promise<PublicAnswer> {
  const r = await t.app.inject({ method: "GET", url: path, headers: { host, ...headers } });
  return {
    status: r.statusCode,
    printed: r.headers["x-svc-printed"] as string | undefined,
    etag: r.headers.etag as string | undefined,
    type: r.headers["content-type"] as string | undefined,
    body: r.body,
  };
}

/** A bind written the way users write it: single-quoted JSON. */
export function bind(target: string, token: string): string {
  return `data-op-bind='{"${target}": "${token}"}'`;
}
