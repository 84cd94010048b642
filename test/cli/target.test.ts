// Where a command goes and with which token (src/cli/target.ts, credentials.ts): flags over
// svc.json (--env) over SVC_URL/SVC_SITE, site 1 by default, SVC_TOKEN over the saved token, a
// token never read from or written into the project folder, the credentials file 0600.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CliError } from "../../src/cli/errors.ts";
import { credentialsPath, isInside, readCredentials, saveToken, urlKey } from "../../src/cli/credentials.ts";
import { resolveAuthed, resolveTarget } from "../../src/cli/target.ts";
import { tempDir } from "./harness.ts";

function withFolder<T>(svcJson: unknown, work: (dir: string) => T): T {
  const dir = tempDir("svc-cli-target-");
  try {
    if (svcJson !== undefined)
      writeFileSync(join(dir, "svc.json"), typeof svcJson === "string" ? svcJson : JSON.stringify(svcJson));
    return work(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function refusal(work: () => unknown): CliError {
  try {
    work();
  } catch (error) {
    assert.ok(error instanceof CliError, String(error));
    return error;
  }
  assert.fail("no refusal");
}

const ENVS = {
  environments: {
    staging: { url: "https://staging.example.org", site: 3 },
    production: { url: "https://example.org/" },
  },
};

describe("the target of a command", () => {
  it("SVC_URL and SVC_SITE, site 1 by default", () => {
    withFolder(undefined, (dir) => {
      assert.deepEqual(resolveTarget({}, dir, { SVC_URL: "http://127.0.0.1:8080/" }), {
        url: "http://127.0.0.1:8080",
        site: 1,
        from: "SVC_URL",
      });
      assert.equal(resolveTarget({}, dir, { SVC_URL: "http://x.test", SVC_SITE: "7" }).site, 7);
    });
  });

  it("--env takes url and site from svc.json instead of the environment; --url and --site override both", () => {
    withFolder(ENVS, (dir) => {
      const env = { SVC_URL: "http://ignored.test", SVC_SITE: "9" };
      assert.deepEqual(resolveTarget({ env: "staging" }, dir, env), {
        url: "https://staging.example.org",
        site: 3,
        from: "svc.json staging",
      });
      assert.deepEqual(resolveTarget({ env: "production" }, dir, env), {
        url: "https://example.org",
        site: 1,
        from: "svc.json production",
      });
      assert.deepEqual(resolveTarget({ env: "staging", site: "4" }, dir, env), {
        url: "https://staging.example.org",
        site: 4,
        from: "svc.json staging",
      });
      assert.deepEqual(resolveTarget({ env: "staging", url: "http://other.test" }, dir, env), {
        url: "http://other.test",
        site: 3,
        from: "--url",
      });
    });
  });

  it("refuses with exit 2: no URL, a bad URL or site, an unknown environment, no svc.json", () => {
    withFolder(ENVS, (dir) => {
      for (const [flags, env, pattern] of [
        [{}, {}, /which service\?/],
        [{ url: "ftp://x" }, {}, /--url: .*http/],
        [{}, { SVC_URL: "http://x.test", SVC_SITE: "0" }, /SVC_SITE: a site id/],
        [{ site: "two" }, { SVC_URL: "http://x.test" }, /--site: a site id/],
        [{ env: "qa" }, {}, /no environment "qa" \(it has staging, production\)/],
      ] as const) {
        const error = refusal(() => resolveTarget(flags, dir, env));
        assert.equal(error.exitCode, 2);
        assert.match(error.line, pattern);
      }
    });
    withFolder(undefined, (dir) =>
      assert.match(refusal(() => resolveTarget({ env: "staging" }, dir, {})).line, /no svc\.json/),
    );
  });

  it("a token in svc.json is refused: tokens never come from the project folder", () => {
    withFolder({ environments: { staging: { url: "https://s.test", token: "op_x" } } }, (dir) => {
      const error = refusal(() => resolveTarget({ env: "staging" }, dir, {}));
      assert.equal(error.exitCode, 2);
      assert.match(error.line, /holds a token/);
    });
  });

  it("SVC_TOKEN first, else the token svc login saved for the URL, else exit 2", () => {
    withFolder(undefined, (dir) => {
      const home = tempDir("svc-cli-home-");
      try {
        const env = { SVC_URL: "http://127.0.0.1:8080", HOME: home };
        assert.equal(refusal(() => resolveAuthed({}, dir, env)).exitCode, 2);
        saveToken(credentialsPath(env), "http://127.0.0.1:8080/", { token: "op_saved", saved_at: "now" }, dir);
        assert.equal(resolveAuthed({}, dir, env).token, "op_saved");
        assert.equal(resolveAuthed({}, dir, { ...env, SVC_TOKEN: "op_env" }).token, "op_env");
        assert.equal(
          refusal(() => resolveAuthed({ url: "http://127.0.0.1:9090" }, dir, env)).exitCode,
          2,
          "a token is saved per URL",
        );
      } finally {
        rmSync(home, { recursive: true, force: true });
      }
    });
  });
});

describe("the credentials file", () => {
  it("lives in ~/.config/svc (or $XDG_CONFIG_HOME/svc), mode 0600 in a 0700 folder, one token per URL", () => {
    const home = tempDir("svc-cli-home-");
    const project = tempDir("svc-cli-project-");
    try {
      assert.equal(credentialsPath({ HOME: home }), join(home, ".config/svc/credentials.json"));
      assert.equal(credentialsPath({ HOME: home, XDG_CONFIG_HOME: "/xdg" }), "/xdg/svc/credentials.json");
      const path = credentialsPath({ HOME: home });
      saveToken(path, "https://A.example.org/", { token: "op_a", saved_at: "t" }, project);
      saveToken(path, "https://b.example.org", { token: "op_b", saved_at: "t" }, project);
      assert.equal(statSync(path).mode & 0o777, 0o600);
      assert.equal(statSync(join(home, ".config/svc")).mode & 0o777, 0o700);
      assert.deepEqual(Object.keys(readCredentials(path).tokens).sort(), [
        "https://a.example.org",
        "https://b.example.org",
      ]);
      assert.equal(urlKey("HTTPS://A.example.org/"), "https://a.example.org");
      saveToken(path, "https://a.example.org", null, project);
      assert.deepEqual(Object.keys(readCredentials(path).tokens), ["https://b.example.org"]);
    } finally {
      rmSync(home, { recursive: true, force: true });
      rmSync(project, { recursive: true, force: true });
    }
  });

  it("is never written inside the project folder", () => {
    const project = tempDir("svc-cli-project-");
    try {
      mkdirSync(join(project, "home"));
      const path = credentialsPath({ HOME: join(project, "home") });
      assert.ok(isInside(path, project));
      const error = refusal(() => saveToken(path, "http://x.test", { token: "op_x", saved_at: "t" }, project));
      assert.match(error.line, /credentials_in_project/);
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  });
});
