// solutions.test.mjs - solutions(): valid boards, as many as the count.
import {test} from "node:test";
import assert from "node:assert/strict";
import {count, solutions} from "nqueens";

// Checked here, not by the library: one queen a row, none attacking.
function valid(cols, n, base) {
  if (cols.length !== n) return false;
  for (let r = 0; r < n; r++) {
    if (!Number.isInteger(cols[r]) || cols[r] < base || cols[r] >= n + base) return false;
    for (let q = 0; q < r; q++)
      if (cols[q] === cols[r] || Math.abs(cols[q] - cols[r]) === r - q) return false;
  }
  return true;
}

async function listed(n, options = {}) {
  const boards = [];
  for await (const cols of solutions(n, options)) {
    assert.ok(valid(cols, n, options.oneBased ? 1 : 0), `N=${n}: ${cols}`);
    boards.push(cols.join(","));
  }
  assert.equal(new Set(boards).size, boards.length, `N=${n}: a board twice`);
  return boards;
}

test("solutions N = 1..10 with each listing engine: valid, distinct, as many as count()", async () => {
  for (const engine of ["backtrack", "flags", "bitmap", "brute"])
    for (let n = 1; n <= (engine === "brute" ? 7 : 10); n++) {
      const got = await listed(n, {engine});
      const {total} = await count(n, {engine: "fast"});
      assert.equal(BigInt(got.length), total, `${engine} N=${n}`);
    }
});

test("solutions oneBased: the zero-based boards plus one", async () => {
  const zero = await listed(8), one = await listed(8, {oneBased: true});
  assert.deepEqual(one, zero.map(b => b.split(",").map(c => +c + 1).join(",")));
});

test("solutions unique: one per class, as many as count()'s unique", async () => {
  assert.equal((await listed(10, {unique: true})).length, 92);
});

test("solutions limit, and a loop left early ends the walk", async () => {
  assert.equal((await listed(12, {limit: 5})).length, 5);
  const started = Date.now();
  let k = 0;
  for await (const cols of solutions(27)) if (++k === 3) break;
  assert.equal(k, 3);
  assert.ok(Date.now() - started < 10000, "the walk went on after the loop ended");
});
