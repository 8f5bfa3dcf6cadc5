// engines.test.mjs - engines() against `nqueens engines --json` (NQ_CLI).
import {test} from "node:test";
import assert from "node:assert/strict";
import {execFileSync} from "node:child_process";
import {readFileSync} from "node:fs";
import {createRequire} from "node:module";
import {engines, flavour} from "nqueens";

const cli = process.env.NQ_CLI;

test("engines(): the command line's engines, in its order", {skip: !cli && "no NQ_CLI"}, async () => {
  const want = execFileSync(cli, ["engines", "--json"], {encoding: "utf8"})
    .trim().split("\n").map(l => JSON.parse(l));
  const got = await engines();
  assert.deepEqual(got.map(e => e.name), want.map(e => e.engine));
  for (const [i, e] of got.entries())
    assert.deepEqual(e, {name: want[i].engine, maxN: want[i].max_n, lists: want[i].lists,
                         units: want[i].units, events: want[i].events, summary: want[i].summary});
});

test("the package's version is the command line's", {skip: !cli && "no NQ_CLI"}, () => {
  const require = createRequire(import.meta.url);
  const pkg = JSON.parse(readFileSync(require.resolve("nqueens/package.json"), "utf8"));
  const first = execFileSync(cli, ["--version"], {encoding: "utf8"}).split("\n")[0];
  assert.equal(first, `nqueens ${pkg.version}`);
});

test("flavour(): simd where WebAssembly SIMD validates (node 16.4 on)", () => {
  assert.equal(flavour(), "simd");
});
