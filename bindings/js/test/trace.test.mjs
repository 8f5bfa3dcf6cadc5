// trace.test.mjs - trace()'s steps against the command line's (NQ_CLI).
import {test} from "node:test";
import assert from "node:assert/strict";
import {execFileSync} from "node:child_process";
import {trace} from "nqueens";

const cli = process.env.NQ_CLI;
const teaching = ["brute", "backtrack", "flags", "bitmap", "mirror", "symmetry"];

/* `nqueens trace ARGS --json`'s steps, without their "type". */
function cliSteps(args) {
  const out = execFileSync(cli, ["trace", ...args, "--json"], {encoding: "utf8",
                                                                 maxBuffer: 1 << 30});
  return out.trim().split("\n").map(l => JSON.parse(l)).filter(o => o.type === "step")
    .map(({type, ...step}) => step);
}

async function steps(n, options) {
  const all = [];
  for await (const s of trace(n, options)) all.push(s);
  return all;
}

for (const engine of teaching)
  test(`trace 6 --engine ${engine}: every step the command line's`, {skip: !cli && "no NQ_CLI"},
       async () => {
    // brute's walk at 6 is 6^6 placements: its first 20000 steps
    const limit = engine === "brute" ? ["--limit", "20000"] : [];
    const want = cliSteps(["6", "--engine", engine, ...limit]);
    const got = await steps(6, {engine, ...(limit.length ? {limit: 20000} : {})});
    assert.equal(got.length, want.length);
    assert.deepEqual(got, want);
  });

test("trace oneBased, seed style and limit: as the command line's", {skip: !cli && "no NQ_CLI"},
     async () => {
  assert.deepEqual(await steps(5, {engine: "flags", oneBased: true, style: "seed", limit: 40}),
                   cliSteps(["5", "--engine", "flags", "--one-based", "--style", "seed",
                             "--limit", "40"]));
});

test("trace's steps have named fields", async () => {
  const [first] = await steps(4, {limit: 1});
  assert.deepEqual(Object.keys(first).sort(), ["col", "event", "queens", "row", "step", "text"]);
  assert.deepEqual(first, {...first, step: 1, event: "place", row: 0, col: 0, queens: [0]});
});

test("a trace left early ends its walk", async () => {
  const started = Date.now();
  let k = 0;
  for await (const s of trace(20, {engine: "backtrack"})) if (++k === 10000) break;
  assert.equal(k, 10000);
  assert.ok(Date.now() - started < 10000);
});
