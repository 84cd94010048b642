// SVC_TRUST_PROXY and what a request says of itself through a proxy (src/http/forwarded.ts): the
// variable's forms, and the answers written before Fastify reading the client address, scheme and
// host exactly as Fastify's `request.ip`, `request.protocol` and `request.host` do under the same
// trust, for every peer and header combination below.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import Fastify from "fastify";
import { ConfigError, loadConfig } from "../../src/config.ts";
import { clientAddress, proxyTrust, requestHost, requestScheme } from "../../src/http/forwarded.ts";

describe("config: SVC_TRUST_PROXY, SVC_PUBLIC_SCHEME, SVC_HSTS_MAX_AGE", () => {
  const config = (env: Record<string, string>) => loadConfig({ SVC_DATA_DIR: "/tmp/svc-unused", ...env });

  it("SVC_TRUST_PROXY: unset, false and 0 trust nobody; true and 1 everybody; a list its addresses, ranges and named ranges", () => {
    for (const off of [{}, { SVC_TRUST_PROXY: "false" }, { SVC_TRUST_PROXY: "0" }] as Record<string, string>[])
      assert.equal(config(off).trustProxy, false);
    for (const on of ["true", "1", "TRUE"]) assert.equal(config({ SVC_TRUST_PROXY: on }).trustProxy, true);
    assert.deepEqual(config({ SVC_TRUST_PROXY: " 127.0.0.1, 10.0.0.0/8 ,::1, fd00::/8, Loopback" }).trustProxy, [
      "127.0.0.1",
      "10.0.0.0/8",
      "::1",
      "fd00::/8",
      "loopback",
    ]);
    for (const bad of ["nginx", "10.0.0.0/33", "::1/129", "10.0.0.0/8/1", "1.2.3", "127.0.0.1,", "10.0.0.0/x"])
      assert.throws(() => config({ SVC_TRUST_PROXY: bad }), ConfigError, bad);
  });

  it("a proxy list caps no connections per address (every connection is the proxy's), as true does", () => {
    assert.equal(config({ SVC_TRUST_PROXY: "127.0.0.1" }).connections.maxPerAddress, 0);
    assert.equal(config({}).connections.maxPerAddress, 64);
  });

  it("SVC_PUBLIC_SCHEME: http by default, https takes SVC_PUBLIC_PORT 443 unless set; anything else refused", () => {
    const plain = config({ PORT: "8080" });
    assert.deepEqual([plain.publicScheme, plain.port], ["http", 8080]);
    const secure = config({ PORT: "8080", SVC_PUBLIC_SCHEME: "HTTPS" });
    assert.deepEqual([secure.publicScheme, secure.port], ["https", 443]);
    assert.equal(secure.adminUrl, "https://admin.localhost/admin/");
    assert.equal(config({ SVC_PUBLIC_SCHEME: "https", SVC_PUBLIC_PORT: "8443" }).port, 8443);
    assert.throws(() => config({ SVC_PUBLIC_SCHEME: "ftp" }), ConfigError);
  });

  it("SVC_HSTS_MAX_AGE: 0 (none) by default, whole seconds", () => {
    assert.equal(config({}).hstsMaxAge, 0);
    assert.equal(config({ SVC_HSTS_MAX_AGE: "63072000" }).hstsMaxAge, 63072000);
    assert.throws(() => config({ SVC_HSTS_MAX_AGE: "1y" }), ConfigError);
  });
});

describe("http/forwarded: the client address, scheme and host, as Fastify reads them under the same trust", () => {
  const peers = ["127.0.0.1", "10.1.2.3", "192.0.2.9", "::1", "::ffff:10.0.0.7", "2001:db8::1"];
  const headerSets: Record<string, string>[] = [
    {},
    { "x-forwarded-for": "198.51.100.1" },
    { "x-forwarded-for": "198.51.100.1, 10.0.0.5", "x-forwarded-proto": "https", "x-forwarded-host": "a.example" },
    { "x-forwarded-for": " 203.0.113.4 ,, 10.9.9.9 ,127.0.0.1", "x-forwarded-proto": "http, https" },
    { "x-forwarded-for": "2001:db8::7, ::1", "x-forwarded-host": "x.example, b.example:8443" },
    { "x-forwarded-proto": "https" },
  ];
  const trusts: Array<boolean | string[]> = [
    false,
    true,
    ["127.0.0.1"],
    ["10.0.0.0/8", "loopback"],
    ["uniquelocal", "::1"],
  ];

  for (const trusted of trusts) {
    it(`SVC_TRUST_PROXY=${JSON.stringify(trusted)}`, async () => {
      const trust = proxyTrust(trusted);
      const app = Fastify({ trustProxy: trust ?? false });
      app.get("/", async (request) => ({
        fastify: [request.ip, request.protocol, request.host],
        ours: [clientAddress(request.raw, trust), requestScheme(request.raw, trust), requestHost(request.raw, trust)],
      }));
      for (const remoteAddress of peers)
        for (const headers of headerSets) {
          const answer = (
            await app.inject({ method: "GET", url: "/", remoteAddress, headers: { host: "site.example", ...headers } })
          ).json();
          assert.deepEqual(answer.ours, answer.fastify, `${remoteAddress} ${JSON.stringify(headers)}`);
        }
      await app.close();
    });
  }
});
