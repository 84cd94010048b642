import { describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { ServiceError } from "../../src/errors.ts";
import {
  checkWebhookUrl,
  isPublicAddress,
  MAX_WEBHOOK_URL_LENGTH,
  type ResolveHost,
} from "../../src/webhooks/address-check.ts";

// Names resolve through these fakes: the machine has no DNS to the internet.
const resolvesTo =
  (...addresses: string[]): ResolveHost =>
  async () =>
    addresses;
const neverResolved: ResolveHost = async (host) => assert.fail(`${host} was resolved`);
const publicName = resolvesTo("93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c");

async function refusal(url: string, lookup?: ResolveHost, allowPrivate = false) {
  try {
    await checkWebhookUrl(url, { allowPrivate, lookup });
  } catch (error) {
    assert.ok(error instanceof ServiceError, String(error));
    return { code: error.code, details: error.details as Record<string, unknown> };
  }
  return assert.fail(`${url} was accepted`);
}

const refusedLiterals = [
  // loopback in every notation the URL parser turns into 127.0.0.1
  "http://127.0.0.1/",
  "http://127.1/",
  "http://0x7f.1/",
  "http://0x7f000001/",
  "http://2130706433/",
  "http://017700000001/",
  "http://0177.0.0.1/",
  "http://127.0.0.1./",
  "http://%31%32%37.0.0.1/",
  "https://127.255.255.254:8443/hook",
  "http://[::1]/",
  // unspecified
  "http://0.0.0.0/",
  "http://0/",
  "http://[::]/",
  // IPv4-mapped, IPv4-compatible and NAT64 forms of loopback and metadata
  "http://[::ffff:127.0.0.1]/",
  "http://[::ffff:7f00:1]/",
  "http://[0:0:0:0:0:ffff:127.0.0.1]/",
  "http://[::127.0.0.1]/",
  "http://[::ffff:169.254.169.254]/",
  "http://[::ffff:a9fe:a9fe]/",
  "http://[64:ff9b::7f00:1]/",
  "http://[64:ff9b::a9fe:a9fe]/",
  // private, unique-local, link-local and the metadata address
  "http://10.0.0.1/",
  "http://172.16.0.1/",
  "http://172.31.255.255/",
  "http://192.168.1.1/",
  "http://[fc00::1]/",
  "http://[fd12:3456:789a::1]/",
  "http://169.254.169.254/latest/meta-data/",
  "http://[fe80::1]/",
  // carrier-grade NAT, multicast, broadcast, reserved, documentation
  "http://100.64.0.1/",
  "http://100.127.255.254/",
  "http://224.0.0.1/",
  "http://[ff02::1]/",
  "http://255.255.255.255/",
  "http://240.0.0.1/",
  "http://192.0.2.1/",
  "http://198.51.100.7/",
  "http://203.0.113.9/",
  "http://[2001:db8::1]/",
];

const privateNames = [
  "localhost",
  "localhost.",
  "LOCALHOST",
  "foo.localhost",
  "foo.localhost.",
  "metadata.google.internal",
  "printer.local",
  "router.home.arpa",
];

describe("webhook URLs: addresses refused", () => {
  it("an IP literal of any non-public range, in any notation, is refused without a lookup", async () => {
    for (const url of refusedLiterals) {
      const { code, details } = await refusal(url, neverResolved);
      assert.equal(code, "webhook_url_not_allowed", url);
      assert.equal(details.field, "url");
      assert.equal(typeof details.address, "string", url);
    }
  });

  it("the address refused is named in the details", async () => {
    const { details } = await refusal("http://0x7f.1:8080/x");
    assert.deepEqual(details, {
      field: "url",
      url: "http://127.0.0.1:8080/x",
      host: "127.0.0.1",
      address: "127.0.0.1",
    });
  });

  it("localhost, .local, .internal and .home.arpa names are refused by name, whatever they resolve to", async () => {
    for (const name of privateNames) {
      for (const lookup of [publicName, undefined]) {
        const { code, details } = await refusal(`https://${name}/hook`, lookup);
        assert.equal(code, "webhook_url_not_allowed", name);
        assert.equal(details.address, null);
      }
    }
  });

  it("a name is refused when any of its addresses is not public", async () => {
    const cases: [string[], string][] = [
      [["169.254.169.254"], "169.254.169.254"],
      [["93.184.215.14", "10.1.2.3"], "10.1.2.3"],
      [["::ffff:127.0.0.1"], "::ffff:127.0.0.1"],
      [["2606:4700::1111", "fe80::1"], "fe80::1"],
      [["64:ff9b::7f00:1"], "64:ff9b::7f00:1"],
    ];
    for (const [addresses, refused] of cases) {
      const { code, details } = await refusal("https://hooks.example.com/x", resolvesTo(...addresses));
      assert.equal(code, "webhook_url_not_allowed");
      assert.equal(details.host, "hooks.example.com");
      assert.equal(details.address, refused);
    }
  });

  it("a name that does not resolve is refused as a field error, so a typo shows at once", async () => {
    const failing: ResolveHost = async () => {
      throw Object.assign(new Error("getaddrinfo ENOTFOUND"), { code: "ENOTFOUND" });
    };
    for (const lookup of [failing, resolvesTo()]) {
      const { code, details } = await refusal("https://hooks.exmaple.com/x", lookup);
      assert.equal(code, "invalid_field");
      assert.deepEqual(details, { field: "url", reason: "unresolvable", host: "hooks.exmaple.com" });
    }
  });
});

describe("webhook URLs: form", () => {
  it("a malformed URL, another scheme, credentials or an overlong URL are field errors, private allowed or not", async () => {
    const cases: [string, string][] = [
      ["not a url", "malformed"],
      ["/relative/path", "malformed"],
      ["http://", "malformed"],
      ["ftp://files.example.com/x", "scheme"],
      ["file:///etc/passwd", "scheme"],
      ["javascript:alert(1)", "scheme"],
      ["gopher://127.0.0.1:6379/_INFO", "scheme"],
      ["https://user:pass@hooks.example.com/x", "credentials"],
      ["https://user@hooks.example.com/x", "credentials"],
      [`https://hooks.example.com/${"a".repeat(MAX_WEBHOOK_URL_LENGTH)}`, "too_long"],
    ];
    for (const [url, reason] of cases) {
      for (const allowPrivate of [false, true]) {
        const { code, details } = await refusal(url, publicName, allowPrivate);
        assert.equal(code, "invalid_field", url);
        assert.deepEqual(details, { field: "url", reason }, url);
      }
    }
  });

  it("a URL of exactly the longest length is accepted", async () => {
    const prefix = "https://hooks.example.com/";
    const url = prefix + "a".repeat(MAX_WEBHOOK_URL_LENGTH - prefix.length);
    assert.equal((await checkWebhookUrl(url, { allowPrivate: false, lookup: publicName })).href, url);
  });
});

describe("webhook URLs: accepted", () => {
  it("public addresses and names whose every address is public are accepted, parsed", async () => {
    for (const url of [
      "https://8.8.8.8/hook",
      "http://1.1.1.1:8080/",
      "https://[2606:4700:4700::1111]/",
      "https://[::ffff:8.8.8.8]/",
      "https://134744072/",
      "https://hooks.example.com/in?x=1",
      "https://localhost.example.com/",
      "https://internal.example.com/",
    ]) {
      const parsed = await checkWebhookUrl(url, { allowPrivate: false, lookup: publicName });
      assert.ok(parsed instanceof URL);
    }
    const parsed = await checkWebhookUrl("HTTPS://Hooks.Example.COM/In", { allowPrivate: false, lookup: publicName });
    assert.equal(parsed.href, "https://hooks.example.com/In");
  });

  it("with private addresses allowed, anything of the right form is accepted and no name resolved", async () => {
    for (const url of [
      "http://127.0.0.1:3000/hook",
      "http://localhost/",
      "http://[::1]/",
      "http://metadata.google.internal/",
      "http://unresolvable.invalid/",
    ]) {
      assert.ok(await checkWebhookUrl(url, { allowPrivate: true, lookup: neverResolved }));
    }
  });
});

describe("isPublicAddress", () => {
  it("takes only standard notations, bracketed or not; anything else is not a public address", () => {
    assert.equal(isPublicAddress("8.8.8.8"), true);
    assert.equal(isPublicAddress("[2606:4700:4700::1111]"), true);
    assert.equal(isPublicAddress("::ffff:8.8.8.8"), true);
    for (const odd of ["", "example.com", "134744072", "0x8.8.8.8", "8.8.8", "08.8.8.8", "8.8.8.8.8", "[8.8.8.8"]) {
      assert.equal(isPublicAddress(odd), false, odd);
    }
  });

  it("a zone-scoped link-local address is not public", () => {
    assert.equal(isPublicAddress("fe80::1%eth0"), false);
  });
});

// The IPv4 ranges no webhook may reach, written out here rather than read from ipaddr.js.
const NON_PUBLIC_V4: [string, number][] = [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.31.196.0", 24],
  ["192.52.193.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["192.175.48.0", 24],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
];
const PRIVATE_V4 = NON_PUBLIC_V4.filter(([base]) =>
  ["10.0.0.0", "100.64.0.0", "127.0.0.0", "169.254.0.0", "172.16.0.0", "192.168.0.0"].includes(base),
);

const toNumber = (dotted: string) => dotted.split(".").reduce((n, octet) => n * 256 + Number(octet), 0);
const toDotted = (n: number) => [24, 16, 8, 0].map((shift) => (n >>> shift) & 255).join(".");
const inRange = (n: number, [base, bits]: [string, number]) =>
  Math.floor(n / 2 ** (32 - bits)) === Math.floor(toNumber(base) / 2 ** (32 - bits));

const addressIn = (ranges: [string, number][]) =>
  fc
    .constantFrom(...ranges)
    .chain(([base, bits]) =>
      fc.integer({ min: 0, max: 2 ** (32 - bits) - 1 }).map((offset) => toNumber(base) + offset),
    );
const publicV4 = fc
  .integer({ min: 0, max: 0xffffffff })
  .filter((n) => !NON_PUBLIC_V4.some((range) => inRange(n, range)));

// Every way a URL can spell one IPv4 address.
const notations = (n: number) => {
  const hex = (part: number) => part.toString(16);
  return [
    toDotted(n),
    String(n),
    `0x${n.toString(16)}`,
    `0${n.toString(8)}`,
    `[::ffff:${toDotted(n)}]`,
    `[::ffff:${hex(Math.floor(n / 65536))}:${hex(n % 65536)}]`,
  ];
};

const hextets = (first: fc.Arbitrary<number>) =>
  fc
    .tuple(first, fc.array(fc.integer({ min: 0, max: 0xffff }), { minLength: 7, maxLength: 7 }))
    .map(([head, rest]) => [head, ...rest].map((part) => part.toString(16)).join(":"));

describe("addresses, by property", () => {
  it("every private, loopback, link-local and carrier-grade NAT IPv4 address is refused in every notation", async () => {
    await fc.assert(
      fc.asyncProperty(addressIn(PRIVATE_V4), async (n) => {
        assert.equal(isPublicAddress(toDotted(n)), false);
        assert.equal(isPublicAddress(`::ffff:${toDotted(n)}`), false);
        for (const host of notations(n)) {
          assert.equal((await refusal(`http://${host}/`, neverResolved)).code, "webhook_url_not_allowed", host);
        }
      }),
    );
  });

  it("every IPv4 address in any non-public range is refused", () => {
    fc.assert(fc.property(addressIn(NON_PUBLIC_V4), (n) => !isPublicAddress(toDotted(n))));
  });

  it("every IPv4 address outside the non-public ranges is accepted in every notation", async () => {
    await fc.assert(
      fc.asyncProperty(publicV4, async (n) => {
        assert.equal(isPublicAddress(toDotted(n)), true);
        assert.equal(isPublicAddress(`::ffff:${toDotted(n)}`), true);
        for (const host of notations(n)) {
          const parsed = await checkWebhookUrl(`https://${host}/`, { allowPrivate: false, lookup: neverResolved });
          assert.ok(parsed instanceof URL, host);
        }
      }),
    );
  });

  it("every unique-local, link-local and multicast IPv6 address is refused; global ones are accepted", () => {
    const refused = hextets(
      fc.oneof(
        fc.integer({ min: 0xfc00, max: 0xfdff }),
        fc.integer({ min: 0xfe80, max: 0xfebf }),
        fc.integer({ min: 0xff00, max: 0xffff }),
      ),
    );
    const global = hextets(
      fc.oneof(fc.integer({ min: 0x2400, max: 0x25ff }), fc.integer({ min: 0x2a00, max: 0x2bff })),
    );
    fc.assert(fc.property(refused, (address) => !isPublicAddress(address) && !isPublicAddress(`[${address}]`)));
    fc.assert(fc.property(global, (address) => isPublicAddress(address) && isPublicAddress(`[${address}]`)));
  });
});
