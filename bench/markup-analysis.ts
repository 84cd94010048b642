// Markup analysis throughput against htmlparser2's bare Tokenizer over the same bytes
// (bench/README.md, scenario 4). Prints one JSON line: {name, value, unit, baseline, ratio, target,
// pass}.
import { Tokenizer, type TokenizerCallbacks } from "htmlparser2";
import { compileFrame } from "../src/markup/index.ts";
import { bigFrame } from "../test/fixtures/big-frame.ts";

const noop = (): void => {};
const bare: TokenizerCallbacks = {
  onattribdata: noop,
  onattribentity: noop,
  onattribend: noop,
  onattribname: noop,
  oncdata: noop,
  onclosetag: noop,
  oncomment: noop,
  ondeclaration: noop,
  onend: noop,
  onopentagend: noop,
  onopentagname: noop,
  onprocessinginstruction: noop,
  onselfclosingtag: noop,
  ontext: noop,
  ontextentity: noop,
};

function best(fn: () => void, runs: number): number {
  let min = Number.POSITIVE_INFINITY;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    fn();
    min = Math.min(min, performance.now() - t0);
  }
  return min;
}

export function measureMarkupAnalysis() {
  const html = bigFrame();
  const tokenize = (): void => {
    const t = new Tokenizer({}, bare);
    t.write(html);
    t.end();
  };
  const compile = (): void => {
    compileFrame(html);
  };
  for (let i = 0; i < 3; i++) {
    tokenize();
    compile();
  }
  // Interleaved best-of runs, so that other load hits both sides alike.
  let tBare = Number.POSITIVE_INFINITY;
  let tCompile = Number.POSITIVE_INFINITY;
  for (let round = 0; round < 4; round++) {
    tBare = Math.min(tBare, best(tokenize, 3));
    tCompile = Math.min(tCompile, best(compile, 3));
  }
  const mb = Buffer.byteLength(html) / 1024 / 1024;
  const value = mb / (tCompile / 1000);
  const baseline = mb / (tBare / 1000);
  const ratio = value / baseline;
  return {
    name: "markup_analysis_2mb",
    value: Number(value.toFixed(2)),
    unit: "MB/s",
    baseline: Number(baseline.toFixed(2)),
    ratio: Number(ratio.toFixed(3)),
    target: ">= 0.7",
    pass: ratio >= 0.7,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(JSON.stringify(measureMarkupAnalysis()));
