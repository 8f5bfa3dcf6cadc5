// counts.test.mjs - count() against OEIS, BigInt totals, the refusal.
import {test} from "node:test";
import assert from "node:assert/strict";
import {count} from "nqueens";

// OEIS A000170 (every solution) and A002562 (one per class under the
// board's symmetries), N = 1..14, copied from oeis.org.
const A000170 = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596];
const A002562 = [1, 0, 0, 1, 2, 1, 6, 12, 46, 92, 341, 1787, 9233, 45752];

test("count N = 1..14 with fast: OEIS A000170 and A002562", async () => {
  for (let n = 1; n <= 14; n++) {
    const c = await count(n);
    assert.equal(c.total, BigInt(A000170[n - 1]), `N=${n} total`);
    assert.equal(c.unique, BigInt(A002562[n - 1]), `N=${n} unique`);
    assert.equal(typeof c.seconds, "number");
    assert.equal(c.engine, "fast");
  }
});

test("count N = 1..10 with each teaching engine that counts: OEIS", async () => {
  for (const engine of ["backtrack", "flags", "bitmap", "mirror", "symmetry", "carry"])
    for (let n = 1; n <= 10; n++) {
      const c = await count(n, {engine});
      assert.equal(c.total, BigInt(A000170[n - 1]), `${engine} N=${n}`);
      assert.equal(c.unique, BigInt(A002562[n - 1]), `${engine} N=${n} unique`);
    }
});

test("a count estimated over maxSeconds is refused, with its estimate; force runs it", async () => {
  await assert.rejects(count(20, {engine: "bitmap"}), e =>
    e instanceof RangeError &&
    /^count 20 with engine bitmap would take over .* on 1 thread here; .*force: true$/.test(e.message) &&
    e.estimate.seconds > 300 && typeof e.estimate.took === "string");
  await assert.rejects(count(12, {engine: "bitmap", maxSeconds: 1e-6}), RangeError);
  const c = await count(12, {engine: "bitmap", maxSeconds: 1e-6, force: true});
  assert.equal(c.total, 14200n);
});

test("counts run side by side, each in its own worker", async () => {
  const all = await Promise.all([10, 11, 12].map(n => count(n)));
  assert.deepEqual(all.map(c => c.total), [724n, 2680n, 14200n]);
});
