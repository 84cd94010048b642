// Random and hostile JSON and markup thrown at every route the app declares (its routes index),
// by four callers: the super-administrator, an administrator and an editor of the fuzzed site, and
// a caller without a token. Whatever comes in, the answer is never a 5xx, and a GET /healthz right
// after it is answered within 1 s. This file runs it against the app from src/ (through Fastify's
// inject); fuzz-built.test.ts runs the same against the build, dist/main.js.
//
// Two parts, each on an app of its own (fuzz-suites.ts):
// - a sweep: every route and method, every caller, the same hostile inputs every run (bodies
//   10,000 levels deep, random JSON and route-shaped bodies from a fixed fast-check seed, hostile
//   address parameters and query strings, hostile markup, stylesheets and files where a route takes
//   them; fuzz-sweep.ts). A hook on the app records the route each answer came from, so the test
//   proves that every route and method was reached by every caller, not only drawn;
// - a property: requests drawn at random (fast-check), each by a random caller.
//
// Reproduce a failure of the property with the seed fast-check prints: FUZZ_SEED=<seed> npm test --
// test/security/fuzz.test.ts (FUZZ_RUNS=<n> runs more; the sweep uses FUZZ_SEED too, 16 by default).
// The app is stateful (a request may delete what a later one names), so failures are reported as
// they happen (endOnFailure), with method, address and answer, not shrunk. A crash of the process
// itself reports nothing: FUZZ_TRACE=<file> writes each request there before it is sent.
import { fuzzSuites } from "./fuzz-suites.ts";
import { sourceTarget } from "./fuzz-target.ts";

fuzzSuites(sourceTarget, "source");
