// errors.test.mjs - bad input: a TypeError or RangeError in the command
// line's words (NQ_CLI's, where it says the same thing).
import {test} from "node:test";
import assert from "node:assert/strict";
import {spawnSync} from "node:child_process";
import {count, solutions, trace} from "nqueens";

const cli = process.env.NQ_CLI;

/* The command line's error for args, without "nqueens: ". */
function cliSays(args) {
  const r = spawnSync(cli, args, {encoding: "utf8"});
  assert.equal(r.status, 2, `nqueens ${args.join(" ")}`);
  return r.stderr.trim().split("\n")[0].replace(/^nqueens[ a-z]*: /, "");
}

async function drain(iterable) {
  for await (const x of iterable);
}

const cases = [
  ["count 0", () => count(0), ["count", "0"]],
  ["count 33", () => count(33), ["count", "33"]],
  ["count -3", () => count(-3), ["count", "-3"]],
  ["count 8 --engine nope", () => count(8, {engine: "nope"}), ["count", "8", "--engine", "nope"]],
  ["count 23 --engine carry", () => count(23, {engine: "carry"}), ["count", "23", "--engine", "carry"]],
  ["solve 6 --engine mirror", () => drain(solutions(6, {engine: "mirror"})),
   ["solve", "6", "--engine", "mirror"]],
  ["solve 40", () => drain(solutions(40)), ["solve", "40"]],
  ["trace 6 --engine fast", () => drain(trace(6, {engine: "fast"})), ["trace", "6", "--engine", "fast"]],
  ["trace 6 --style nope", () => drain(trace(6, {style: "nope"})), ["trace", "6", "--style", "nope"]],
];
for (const [name, call, args] of cases)
  test(`RangeError as \`nqueens ${name}\` says`, {skip: !cli && "no NQ_CLI"}, async () => {
    const words = cliSays(args);
    await assert.rejects(call(), e => {
      assert.ok(e instanceof RangeError, `${e.constructor.name}: ${e.message}`);
      assert.equal(e.message, words);
      return true;
    });
  });

test("TypeError for arguments of the wrong type", async () => {
  await assert.rejects(count(8.5), {name: "TypeError",
                                    message: "N must be a whole number from 1 to 32, not '8.5'"});
  await assert.rejects(count("8"), TypeError);
  await assert.rejects(count(), TypeError);
  await assert.rejects(count(8, {engine: 7}), TypeError);
  await assert.rejects(count(8, {colour: "red"}), TypeError);
  await assert.rejects(count(8, null), TypeError);
  await assert.rejects(count(8, {maxSeconds: "long"}), TypeError);
  await assert.rejects(drain(solutions(null)), TypeError);
  await assert.rejects(drain(trace(6, {limit: "ten"})), TypeError);
});

test("RangeError for threads other than 1 and a limit below 1", async () => {
  await assert.rejects(count(8, {threads: 4}), RangeError);
  await assert.rejects(drain(trace(6, {limit: 0})), {name: "RangeError",
                                                     message: "--limit takes a whole number from 1, not '0'"});
});
