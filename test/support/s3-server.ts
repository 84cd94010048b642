// An S3-protocol server for tests, started in the test's own process: fauxqs (an npm package that
// answers the S3 REST API, objects kept in memory), listening on 127.0.0.1 only (its startFauxqs
// listens on every interface, so the app is built and listened here). It checks what AWS checks
// where this service relies on it (bucket names, the 5 MiB least part of a multipart upload,
// NoSuchKey and NotFound answers, ranges); it does not check signatures, so any credentials pass.
// A request whose Host is `<bucket>.<name>` is read as virtual-hosted style, like S3.
import { CreateBucketCommand } from "@aws-sdk/client-s3";
import { buildApp } from "fauxqs";
import type { MediaS3Options } from "../../src/config.ts";
import { s3ClientFor } from "../../src/blobs/s3-store.ts";

export interface TestS3Server {
  /** The service's configuration for a bucket on this server. */
  options: MediaS3Options;
  /** The variables that configure the service process for it (credentials included). */
  env: Record<string, string>;
  credentials: { accessKeyId: string; secretAccessKey: string };
  stop(): Promise<void>;
}

const credentials = { accessKeyId: "test-media-key", secretAccessKey: "test-media-secret" };

export async function startS3Server(bucket = "svc-media-test"): Promise<TestS3Server> {
  const app = buildApp({ logger: false });
  await app.listen({ port: 0, host: "127.0.0.1" });
  const { port } = app.server.address() as { port: number };
  const options: MediaS3Options = {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    region: "us-east-1",
    forcePathStyle: true,
  };
  const client = s3ClientFor(options, { credentials });
  await client.send(new CreateBucketCommand({ Bucket: bucket }));
  client.destroy();
  return {
    options,
    env: {
      SVC_MEDIA_S3_ENDPOINT: options.endpoint!,
      SVC_MEDIA_S3_BUCKET: bucket,
      SVC_MEDIA_S3_REGION: options.region,
      AWS_ACCESS_KEY_ID: credentials.accessKeyId,
      AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey,
    },
    credentials,
    stop: () => app.close(),
  };
}
