// The admin's sign-in screen in headless Chromium (docs/admin.md), on the service as `npm start`
// runs it (dist/main.js, serving the admin `npm run build` put in dist/admin/), at its own host
// (admin.localhost, which Chromium resolves to this machine): found by label and role, no script
// or style refused by its Content-Security-Policy, its JavaScript small, and a refused sign-in
// showing the API's own message in the alert.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { generateToken } from "../../src/tokens.ts";
import { launchChromium, withBrowser } from "../support/browser.ts";
import type { TestDatabase } from "../support/database.ts";
import { freePort } from "../support/ports.ts";
import { serviceDatabase, startService, type Running } from "../support/process.ts";

const LOGIN = "editor-in-chief";
const PASSWORD = "correct horse battery";

describe("the admin's sign-in screen in a real browser", withBrowser, () => {
  let service: Running;
  let database: TestDatabase;
  let dataDir: string;
  let browser: Browser;
  let admin: string;
  const token = generateToken();

  before(async () => {
    const db = await serviceDatabase();
    database = db.database;
    dataDir = mkdtempSync(join(tmpdir(), "svc-admin-e2e-"));
    const port = await freePort();
    service = await startService({ ...db.env, SVC_DATA_DIR: dataDir, SVC_ADMIN_TOKEN: token, PORT: String(port) });
    admin = `http://admin.localhost:${port}/admin/`;
    const made = await fetch(service.url("/api/users"), {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ login: LOGIN, password: PASSWORD }),
    });
    const madeText = await made.text();
    assert.equal(made.status, 201, madeText);
    // After sign-in the admin opens the Pages screen of the user's first site: give them one.
    const { user } = JSON.parse(madeText) as { user: { id: number } };
    const role = await fetch(service.url(`/api/site/1/users/${user.id}`), {
      method: "PUT",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ role: "editor" }),
    });
    assert.equal(role.status, 200, await role.text());
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
    await service?.stop();
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** A POST as the admin's page makes it: to 127.0.0.1 with the admin's Host (Node resolves no *.localhost). */
  function postOnAdminHost(path: string, body: unknown): Promise<{ status: number; body: unknown }> {
    return new Promise((resolve, reject) => {
      const sent = request(
        {
          host: "127.0.0.1",
          port: service.port,
          path,
          method: "POST",
          headers: { host: new URL(admin).host, "content-type": "application/json" },
        },
        (response) => {
          let text = "";
          response.setEncoding("utf8");
          response.on("data", (chunk) => (text += chunk));
          response.on("end", () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) }));
        },
      );
      sent.on("error", reject);
      sent.end(JSON.stringify(body));
    });
  }

  /** A page on the admin, with what its CSP refused and the compressed bytes of JavaScript it loaded. */
  async function openAdmin(locale = "en-US"): Promise<{ page: Page; refused: string[]; scriptBytes: () => number }> {
    const page = await browser.newPage({ locale });
    const refused: string[] = [];
    page.on("console", (message) => {
      if (/Content Security Policy/i.test(message.text())) refused.push(message.text());
    });
    let bytes = 0;
    page.on("response", (response) => {
      if (!response.url().endsWith(".js")) return;
      const length = Number(response.headers()["content-length"]);
      assert.ok(response.headers()["content-encoding"], `${response.url()} is sent compressed`);
      bytes += length;
    });
    const answer = await page.goto(admin);
    assert.equal(answer?.status(), 200);
    return { page, refused, scriptBytes: () => bytes };
  }

  it("shows the fields Login and Password (a password field) and the button Sign in, and only its own scripts and styles run", async () => {
    const { page, refused, scriptBytes } = await openAdmin();
    try {
      const login = page.getByLabel("Login", { exact: true });
      const password = page.getByLabel("Password", { exact: true });
      await login.waitFor();
      assert.equal(await login.getAttribute("type"), null, "a text field");
      assert.equal(await password.getAttribute("type"), "password");
      assert.equal(await page.getByRole("button", { name: "Sign in", exact: true }).count(), 1);
      assert.equal(await page.evaluate(() => document.documentElement.lang), "en");
      assert.ok(scriptBytes() > 0 && scriptBytes() < 300 * 1024, `${scriptBytes()} bytes of JavaScript, compressed`);
      assert.deepEqual(refused, [], "nothing refused by the Content-Security-Policy");
    } finally {
      await page.close();
    }
  });

  it("a wrong password shows the API's message in the alert; the right one (Enter) opens the Pages screen", async () => {
    const { page, refused } = await openAdmin();
    try {
      const expected = await postOnAdminHost("/api/login", { login: LOGIN, password: "wrong password", session: true });
      assert.equal(expected.status, 401);
      const message = (expected.body as { message: string }).message;

      await page.getByLabel("Login", { exact: true }).fill(LOGIN);
      await page.getByLabel("Password", { exact: true }).fill("wrong password");
      await page.getByRole("button", { name: "Sign in", exact: true }).click();
      const alert = page.getByRole("alert");
      await alert.filter({ hasText: message }).waitFor();
      assert.equal((await alert.textContent())?.trim(), message);

      await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
      await page.getByLabel("Password", { exact: true }).press("Enter");
      const heading = page.getByRole("heading", { level: 1, name: "Pages" });
      await heading.waitFor();
      assert.equal(await page.getByRole("main").count(), 1);
      assert.deepEqual(refused, []);
    } finally {
      await page.close();
    }
  });

  it("speaks German to a browser that prefers it: the document's language and the labels", async () => {
    const { page } = await openAdmin("de-DE");
    try {
      await page.getByLabel("Passwort", { exact: true }).waitFor();
      assert.equal(await page.evaluate(() => document.documentElement.lang), "de");
      assert.equal(await page.getByLabel("Anmeldename", { exact: true }).count(), 1);
      assert.equal(await page.getByRole("button", { name: "Anmelden", exact: true }).count(), 1);
    } finally {
      await page.close();
    }
  });
});
