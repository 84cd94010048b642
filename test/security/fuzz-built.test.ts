// The fuzz test (fuzz.test.ts, fuzz-suites.ts) against the build, dist/main.js, what `npm start`
// runs: the bundle made by scripts/build.mjs, with the dependencies it patches
// (scripts/dependency-patches.mjs; or without them, built with SVC_BUILD_PATCHES=0), sent the same
// requests over HTTP. Every route and method must answer every caller there as well: a request
// counts as reached unless no route took it (http/bodies.ts answerUnrouted), which a router that
// fails to find a route would show (a bundle whose find-my-way missed one static segment failed
// here for every route under it; the caller without a token is told 401 first, so it is the other
// three callers that show it). FUZZ_SEED, FUZZ_RUNS and FUZZ_TRACE as in fuzz.test.ts.
import { fuzzSuites } from "./fuzz-suites.ts";
import { builtTarget } from "./fuzz-target.ts";

fuzzSuites(builtTarget, "built");
