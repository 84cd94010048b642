// What the admin's browser tests share (test/e2e/admin-*-browser.test.ts): users who sign in with a
// password and hold a role on the main site, the app on a socket at the admin's host, and a page of
// the admin signed in as one of them.
import assert from "node:assert/strict";
import type { Browser, BrowserContextOptions, Page } from "playwright-core";
import { makeUser, type TestApp } from "./app.ts";

export const ADMIN_PASSWORD = "correct horse battery";

/** A user who signs in with ADMIN_PASSWORD and holds `role` on the main site. */
export async function adminUser(
  t: TestApp,
  login: string,
  role: "administrator" | "editor",
): Promise<{ id: number; token: string }> {
  const user = await makeUser(t, login, { password: ADMIN_PASSWORD });
  assert.equal((await t.call("PUT", `/api/site/1/users/${user.id}`, { body: { role } })).status, 200);
  return user;
}

/** The app listening on a socket: its port and the admin's address there (admin.localhost). */
export async function listening(t: TestApp): Promise<{ port: number; admin: string }> {
  await t.app.listen({ host: "127.0.0.1", port: 0 });
  const port = (t.app.server.address() as { port: number }).port;
  return { port, admin: `http://admin.localhost:${port}/admin/` };
}

/**
 * A page of the admin at 1280 px, signed in as `login`, its Pages screen open; `options` set what
 * else its browser context has (a `timezoneId`, say).
 */
export async function signedIn(
  browser: Browser,
  admin: string,
  login: string,
  options: BrowserContextOptions = {},
): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, ...options });
  await page.goto(admin);
  await page.getByLabel("Login", { exact: true }).fill(login);
  await page.getByLabel("Password", { exact: true }).fill(ADMIN_PASSWORD);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await page.getByRole("heading", { level: 1, name: "Pages" }).waitFor();
  return page;
}
