import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { once } from "node:events";
import http from "node:http";
import type { LookupAddress } from "node:dns";
import type { AddressInfo } from "node:net";
import { ADDRESS_NOT_ALLOWED, guardedLookup, type ResolveHost } from "../../src/webhooks/address-check.ts";

const resolvesTo =
  (...addresses: string[]): ResolveHost =>
  async () =>
    addresses;

function lookupOnce(
  lookup: ReturnType<typeof guardedLookup>,
  hostname: string,
  options: { all?: boolean; family?: number },
): Promise<{ error: NodeJS.ErrnoException | null; address: string | LookupAddress[]; family?: number }> {
  return new Promise((resolve) => {
    lookup(hostname, options, (error, address, family) => resolve({ error, address, family }));
  });
}

describe("guardedLookup", () => {
  it("answers every address with all, the first without, and the family asked for", async () => {
    const lookup = guardedLookup(false, resolvesTo("2606:4700::1111", "93.184.215.14"));
    const all = await lookupOnce(lookup, "hooks.example.com", { all: true });
    assert.equal(all.error, null);
    assert.deepEqual(all.address, [
      { address: "2606:4700::1111", family: 6 },
      { address: "93.184.215.14", family: 4 },
    ]);
    assert.deepEqual(await lookupOnce(lookup, "hooks.example.com", {}), {
      error: null,
      address: "2606:4700::1111",
      family: 6,
    });
    assert.deepEqual(await lookupOnce(lookup, "hooks.example.com", { family: 4 }), {
      error: null,
      address: "93.184.215.14",
      family: 4,
    });
    const none = await lookupOnce(guardedLookup(false, resolvesTo("93.184.215.14")), "v4.example.com", { family: 6 });
    assert.equal(none.error?.code, "ENOTFOUND");
  });

  it("refuses a name when any of its addresses is not public, in either form", async () => {
    for (const addresses of [["127.0.0.1"], ["93.184.215.14", "169.254.169.254"], ["::ffff:10.0.0.1"]]) {
      for (const all of [true, false]) {
        const { error } = await lookupOnce(guardedLookup(false, resolvesTo(...addresses)), "rebind.example.com", {
          all,
        });
        assert.equal(error?.code, ADDRESS_NOT_ALLOWED, addresses.join());
      }
    }
  });

  it("refuses localhost and the other private names without resolving them", async () => {
    const resolve: ResolveHost = async (host) => assert.fail(`${host} was resolved`);
    for (const name of ["localhost", "localhost.", "a.localhost", "metadata.google.internal"]) {
      const { error } = await lookupOnce(guardedLookup(false, resolve), name, { all: true });
      assert.equal(error?.code, ADDRESS_NOT_ALLOWED, name);
    }
  });

  it("passes a resolver's error on as it is", async () => {
    const failing: ResolveHost = async () => {
      throw Object.assign(new Error("getaddrinfo EAI_AGAIN"), { code: "EAI_AGAIN", syscall: "getaddrinfo" });
    };
    const { error } = await lookupOnce(guardedLookup(false, failing), "hooks.example.com", { all: true });
    assert.equal(error?.code, "EAI_AGAIN");
  });

  it("answers private addresses when they are allowed", async () => {
    const { error, address } = await lookupOnce(guardedLookup(true, resolvesTo("127.0.0.1")), "localhost", {});
    assert.equal(error, null);
    assert.equal(address, "127.0.0.1");
  });
});

describe("guardedLookup in a request", () => {
  let server: http.Server;
  let port: number;
  let requests = 0;
  // Whether Node asked for every address (all: true) or one, request by request.
  const formsAsked: boolean[] = [];

  before(async () => {
    server = http.createServer((_request, response) => {
      requests++;
      response.end("reached");
    });
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    port = (server.address() as AddressInfo).port;
  });
  after(() => server.close());

  const get = (allowPrivate: boolean, autoSelectFamily: boolean) =>
    new Promise<string>((resolve) => {
      const guarded = guardedLookup(allowPrivate, resolvesTo("127.0.0.1"));
      // autoSelectFamily reaches net.connect through the request's options; @types/node lists it
      // on net's options only.
      const options: http.RequestOptions & { autoSelectFamily: boolean } = {
        host: "rebind.example.com",
        port,
        autoSelectFamily,
        agent: false,
        lookup: (hostname, lookupOptions, callback) => {
          formsAsked.push(lookupOptions.all === true);
          guarded(hostname, lookupOptions, callback);
        },
      };
      const request = http.get(options);
      request.on("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
      request.on("response", (response) => {
        response.resume();
        response.on("end", () => resolve(String(response.statusCode)));
      });
    });

  it("a name resolved to 127.0.0.1 is never connected to, whichever form Node asks for", async () => {
    formsAsked.length = 0;
    for (const autoSelectFamily of [true, false]) {
      assert.equal(await get(false, autoSelectFamily), ADDRESS_NOT_ALLOWED);
    }
    assert.deepEqual(formsAsked, [true, false]);
    assert.equal(requests, 0);
  });

  it("with private addresses allowed, the same name reaches the server in either form", async () => {
    formsAsked.length = 0;
    for (const autoSelectFamily of [true, false]) {
      assert.equal(await get(true, autoSelectFamily), "200");
    }
    assert.deepEqual(formsAsked, [true, false]);
    assert.equal(requests, 2);
  });
});
