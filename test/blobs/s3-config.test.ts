// Configuration of S3 media storage (src/config.ts, SVC_MEDIA_S3_*): the bucket chooses S3, and a
// wrong or missing companion stops start-up with one line naming the variable.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ConfigError, loadConfig } from "../../src/config.ts";
import { runToExit } from "../support/process.ts";

describe("S3 media storage configuration", () => {
  it("no S3 variable keeps media on the file system", () => {
    assert.equal(loadConfig({}).mediaS3, null);
  });

  it("a bucket and a region choose S3; path style follows the endpoint unless set", () => {
    assert.deepEqual(loadConfig({ SVC_MEDIA_S3_BUCKET: "media", SVC_MEDIA_S3_REGION: "eu-west-1" }).mediaS3, {
      endpoint: null,
      bucket: "media",
      region: "eu-west-1",
      forcePathStyle: false,
    });
    const selfHosted = {
      SVC_MEDIA_S3_BUCKET: "media",
      SVC_MEDIA_S3_REGION: "us-east-1",
      SVC_MEDIA_S3_ENDPOINT: "http://minio.internal:9000",
    };
    assert.deepEqual(loadConfig(selfHosted).mediaS3, {
      endpoint: "http://minio.internal:9000",
      bucket: "media",
      region: "us-east-1",
      forcePathStyle: true,
    });
    assert.equal(loadConfig({ ...selfHosted, SVC_MEDIA_S3_FORCE_PATH_STYLE: "false" }).mediaS3?.forcePathStyle, false);
    assert.equal(
      loadConfig({ SVC_MEDIA_S3_BUCKET: "media", SVC_MEDIA_S3_REGION: "auto", SVC_MEDIA_S3_FORCE_PATH_STYLE: "1" })
        .mediaS3?.forcePathStyle,
      true,
    );
  });

  const refusals: Array<[string, Record<string, string>]> = [
    ["SVC_MEDIA_S3_REGION", { SVC_MEDIA_S3_BUCKET: "media" }],
    [
      "SVC_MEDIA_S3_ENDPOINT",
      { SVC_MEDIA_S3_BUCKET: "media", SVC_MEDIA_S3_REGION: "us-east-1", SVC_MEDIA_S3_ENDPOINT: "minio.internal:9000" },
    ],
    [
      "SVC_MEDIA_S3_ENDPOINT",
      { SVC_MEDIA_S3_BUCKET: "media", SVC_MEDIA_S3_REGION: "us-east-1", SVC_MEDIA_S3_ENDPOINT: "ftp://minio.internal" },
    ],
    [
      "SVC_MEDIA_S3_ENDPOINT",
      { SVC_MEDIA_S3_BUCKET: "media", SVC_MEDIA_S3_REGION: "us-east-1", SVC_MEDIA_S3_ENDPOINT: "http://" },
    ],
    ["SVC_MEDIA_S3_BUCKET", { SVC_MEDIA_S3_BUCKET: "my/bucket", SVC_MEDIA_S3_REGION: "us-east-1" }],
    ["SVC_MEDIA_S3_BUCKET", { SVC_MEDIA_S3_ENDPOINT: "http://minio.internal:9000" }],
    ["SVC_MEDIA_S3_BUCKET", { SVC_MEDIA_S3_REGION: "us-east-1" }],
    [
      "SVC_MEDIA_S3_FORCE_PATH_STYLE",
      { SVC_MEDIA_S3_BUCKET: "media", SVC_MEDIA_S3_REGION: "us-east-1", SVC_MEDIA_S3_FORCE_PATH_STYLE: "yes" },
    ],
  ];
  for (const [variable, env] of refusals) {
    it(`refuses ${JSON.stringify(env)}, naming ${variable}`, () => {
      assert.throws(
        () => loadConfig(env),
        (error: unknown) => error instanceof ConfigError && error.variable === variable,
      );
    });
  }

  it("the service refuses to start with a bucket and no region, in one line naming the variable", async () => {
    const run = await runToExit({
      SVC_DATA_DIR: mkdtempSync(join(tmpdir(), "svc-s3-config-")),
      SVC_MEDIA_S3_BUCKET: "media",
    });
    assert.notEqual(run.code, 0);
    const lines = run.stderr.trim().split("\n");
    assert.equal(lines.length, 1, run.stderr);
    assert.match(lines[0], /\bSVC_MEDIA_S3_REGION\b/);
  });
});
