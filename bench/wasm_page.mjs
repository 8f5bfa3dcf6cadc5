// wasm_page.mjs - the last part of `make bench-wasm`: fast in the lesson
// page itself (build/nqueens.html in headless Chromium, the count in the
// page's worker, as a learner's "count" runs it), against the native
// build's fast, taking turns in rounds: the SIMD module against the
// native kernel of WebAssembly SIMD's width (sse4 on x86-64, neon on
// aarch64), the scalar module against the native scalar kernel.
//
//   node bench/wasm_page.mjs --page build/nqueens.html --cli build/nqueens
//        --chromium PATH --oeis tests/data/oeis.tsv [--n 16] [--rounds 5]
//
// A time is the count's own, the table's hh:mm:ss.ms column in the page
// (the clock read around the count inside the module, as count --json's
// "seconds" natively); the ratio is page over native, the median of the
// rounds'.  Both modules are timed (?module=simd and ?module=scalar).
// Every total is checked against OEIS; exits 1 on a wrong one.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { evaluate, load, openTab, options, run, withBrowser } from "../tests/browser/cdp.mjs";

const o = options(process.argv.slice(2), ["page", "cli", "chromium", "oeis"], "wasm_page.mjs");
const n = Number(o.n || 16), rounds = Number(o.rounds || 5);
const sleep = ms => new Promise(r => setTimeout(r, ms));
const median = a => [...a].sort((x, y) => x - y)[a.length >> 1];
const total = readFileSync(o.oeis, "utf8").split("\n").map(l => l.split("\t")).find(f => f[0] === String(n))[1];

const version = run(o.cli, ["--version"]);
const k128 = ["sse4", "neon"].find(k => new RegExp("kernels: .*\\b" + k + "\\b").test(version));
if (!k128) { console.log("wasm_page.mjs: the native build has no 128-bit kernel (sse4, neon)"); process.exit(2); }

function native(kernel) {
  const j = JSON.parse(run(o.cli, ["count", String(n), "-e", "fast", "-t", "1", "--kernel", kernel, "--json"]));
  if (String(j.total) !== total) throw new Error(`native total ${j.total}, OEIS ${total}`);
  return j.seconds;
}

// One count of N in the page's count part; the seconds its table says.
async function inPage(b, tab) {
  await evaluate(b, tab, `(() => { const s = (id, v) => { const e = document.getElementById(id); e.value = v;
    e.dispatchEvent(new Event("change")); }; s("countengine", "fast"); s("countlo", "${n}"); s("counthi", "${n}");
    document.getElementById("countgo").click(); return true; })()`);
  for (let i = 0; i < 6000 && !(await evaluate(b, tab, "document.getElementById('countstop').disabled")); i++) await sleep(20);
  const row = new RegExp("^\\s*" + n + ":\\s+(\\d+)\\s+\\d+\\s+(\\d\\d):(\\d\\d):(\\d\\d)\\.(\\d\\d\\d)$", "m")
    .exec(await evaluate(b, tab, "document.getElementById('counttable').textContent"));
  if (!row || row[1] !== total) throw new Error(`the page's row for N = ${n}: ${row ? row[1] : "none"}, OEIS ${total}`);
  return +row[2] * 3600 + +row[3] * 60 + +row[4] + +row[5] / 1000;
}

let failed = false;
await withBrowser(o.chromium, async b => {
  const tab = await openTab(b, 1280, 900);
  console.log(`| fast, N = ${n}, one thread | page (s) | native kernel | native (s) | page / native |`);
  console.log("|---|---|---|---|---|");
  for (const [mod, kernel] of [["simd", k128], ["scalar", "scalar"]]) {
    await load(b, tab, pathToFileURL(resolve(o.page)).href + "?module=" + mod + "#count");
    for (let i = 0; i < 200 && !(await evaluate(b, tab, "document.body.dataset.ready === '1'")); i++) await sleep(50);
    const said = await evaluate(b, tab, "document.getElementById('lessonmodule').textContent");
    const page = [], nat = [], ratio = [];
    await inPage(b, tab); // the first count compiles and warms the worker's module
    for (let r = 0; r < rounds; r++) {
      const a = await inPage(b, tab), c = native(kernel);
      page.push(a); nat.push(c); ratio.push(a / c);
    }
    console.log(`| ${said} | ${median(page).toFixed(3)} | ${kernel} | ${median(nat).toFixed(3)} | ${median(ratio).toFixed(2)} |`);
  }
}).catch(e => { failed = true; console.log("wasm_page.mjs: " + e.message); });
process.exit(failed ? 1 : 0);
