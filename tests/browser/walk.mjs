// walk.mjs - the trace page in a real browser (run by test_trace_html.c).
//
//   node tests/browser/walk.mjs --cli build/nqueens --chromium PATH
//        --engine E --out DIR
//
// For N = 4..6 it makes the engine's text trace and its page (nqueens
// trace N [--format html]), opens the page in headless Chromium and checks
// that the board shown (the element #board's data-queens) is the board
// the text trace leaves after step K: the expected boards are replayed
// here from the text lines, not read from the page.  It opens the page at
// several #step=K, presses the step keys (Right K times, Left, End, Home,
// space to play and again to pause), opens a --compare page (both boards
// checked, the seeds' style toggled), and fails on any console error or
// exception.  Screenshots (N=6, and the --compare page) go to DIR.
//
// Chromium is driven over the DevTools protocol on a pipe (cdp.mjs), so
// no npm package and no WebSocket client is needed.  Prints "ok ..."
// lines; exits 1 at the first failure.
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { END, HOME, LEFT, RIGHT, SPACE, evaluate, load, openTab, options, press, run,
         screenshot, withBrowser } from "./cdp.mjs";

// The board after each step of a text trace: boards[K] is the list of
// columns of the queens after step K (boards[0] the empty board).
function boardsOf(text) {
  const boards = [[]];
  let q = [];
  for (const line of text.split("\n")) {
    const m = /^\s*(\d+)\s+(place|reject|remove|solution|fail)\s+(.*)$/.exec(line);
    if (!m) continue;
    const kind = m[2], rest = m[3];
    const sq = /row (\d+) col (\d+)/.exec(rest);
    if (kind === "place") q = q.slice(0, +sq[1]).concat([+sq[2]]);
    else if (kind === "reject" || kind === "remove") q = q.slice(0, +sq[1]);
    else q = /#\d+:((?: \d+)+)/.exec(rest)[1].trim().split(" ").map(Number);
    if (boards.length !== +m[1]) throw new Error("step " + m[1] + " out of order");
    boards.push(q);
  }
  return boards;
}

// What the board element says: [data-step, data-queens].
function shown(b, tab) {
  return evaluate(b, tab,
    "(() => { const e = document.getElementById('board'); return e ? [e.dataset.step, e.dataset.queens] : null; })()");
}

// The board shown must be the text trace's after step k.
async function expectStep(b, tab, boards, k, how) {
  const got = await shown(b, tab), want = boards[k].join(",");
  if (!got || got[0] !== String(k) || got[1] !== want)
    throw new Error(how + ": the board shows step " + (got && got[0]) + " queens '" +
      (got && got[1]) + "'; the text trace has step " + k + " queens '" + want + "'");
}

// The steps to open by #step=K: the middle, the end and the first
// solution (the start is opened plainly, and the first steps are stepped
// to by key).
function stepsToOpen(boards, text) {
  const last = boards.length - 1, ks = new Set([Math.floor(last / 2), last]);
  const sol = /^\s*(\d+)\s+solution/m.exec(text);
  if (sol && +sol[1] <= last) ks.add(+sol[1]);
  return [...ks].filter(k => k >= 0 && k <= last).sort((x, y) => x - y);
}

async function checkPage(b, tab, page, boards, text, n, engine, out) {
  const url = pathToFileURL(page).href;
  for (const k of stepsToOpen(boards, text)) {
    await load(b, tab, url + "?open=" + k + "#step=" + k);
    await expectStep(b, tab, boards, k, "#step=" + k);
  }
  await load(b, tab, url);
  await expectStep(b, tab, boards, 0, "opened");
  const presses = Math.min(boards.length - 1, 15);
  for (let k = 1; k <= presses; k++) {
    await press(b, tab, ...RIGHT);
    await expectStep(b, tab, boards, k, k + " presses of Right");
  }
  await press(b, tab, ...LEFT);
  await expectStep(b, tab, boards, presses - 1, "Right " + presses + " times, then Left");
  if (n === 6) {
    await screenshot(b, tab, join(out, `trace-${engine}-${n}-step${presses - 1}.png`));
  }
  await press(b, tab, ...END);
  await expectStep(b, tab, boards, boards.length - 1, "End");
  await press(b, tab, ...HOME);
  await expectStep(b, tab, boards, 0, "Home");
  await press(b, tab, ...SPACE);
  await new Promise(r => setTimeout(r, 150));
  await press(b, tab, ...SPACE);
  const got = await shown(b, tab);
  if (!got || +got[0] < 1) throw new Error("space did not play the walk");
  await expectStep(b, tab, boards, +got[0], "played, then paused");
  if (tab.errors.length) throw new Error("console: " + tab.errors.join("; "));
  return stepsToOpen(boards, text).length + presses + 4;
}

// --compare: the first walk's board as its text trace has it, the second
// walk's (#board2) as the second engine's text trace has it at the step
// the page shows for it; the seeds' style toggled on without an error.
async function checkCompare(b, tab, cli, engine, other, out) {
  const n = 5, page = join(out, `trace-${engine}-${n}-compare-${other}.html`);
  writeFileSync(page, run(cli, ["trace", String(n), "--engine", engine, "--compare", other, "--format", "html"]));
  const mine = boardsOf(run(cli, ["trace", String(n), "--engine", engine, "--limit", "50000"]));
  const theirs = boardsOf(run(cli, ["trace", String(n), "--engine", other]));
  const k = Math.floor((mine.length - 1) / 2);
  await load(b, tab, pathToFileURL(page).href + "#step=" + k);
  await expectStep(b, tab, mine, k, "compared, #step=" + k);
  const [j, q] = await evaluate(b, tab,
    "(() => { document.getElementById('seedstyle').click(); const e = document.getElementById('board2'); return [e.dataset.step, e.dataset.queens]; })()");
  if (theirs[+j] === undefined || theirs[+j].join(",") !== q)
    throw new Error(`compared with ${other}: its board shows step ${j} queens '${q}'; its text trace has '${theirs[+j]}'`);
  await screenshot(b, tab, join(out, `trace-${engine}-${n}-compare-${other}.png`));
  if (tab.errors.length) throw new Error("console: " + tab.errors.join("; "));
}

async function main() {
  let o;
  try {
    o = options(process.argv.slice(2), ["cli", "chromium", "engine", "out"], "walk.mjs");
  } catch (e) {
    console.log("FAIL " + e.message);
    process.exit(1);
  }
  const out = resolve(o.out);
  mkdirSync(out, { recursive: true });
  let failed = false;
  await withBrowser(o.chromium, async b => {
    try {
      const tab = await openTab(b);
      for (let n = 4; n <= 6; n++) {
        const t0 = Date.now();
        const page = join(out, `trace-${o.engine}-${n}.html`);
        writeFileSync(page, run(o.cli, ["trace", String(n), "--engine", o.engine, "--format", "html"]));
        // as many steps as the page holds (its cap: 50,000)
        const text = run(o.cli, ["trace", String(n), "--engine", o.engine, "--limit", "50000"]);
        const boards = boardsOf(text);
        const checks = await checkPage(b, tab, page, boards, text, n, o.engine, out);
        console.log(`ok ${o.engine} N=${n}: ${checks} boards as the text trace has them (${Date.now() - t0} ms)`);
      }
      const t0 = Date.now(), other = o.engine === "bitmap" ? "backtrack" : "bitmap";
      await checkCompare(b, tab, o.cli, o.engine, other, out);
      console.log(`ok ${o.engine} N=5 --compare ${other}: both boards as their text traces have them (${Date.now() - t0} ms)`);
    } catch (e) {
      console.log("FAIL " + o.engine + ": " + e.message);
      failed = true;
    }
  });
  process.exit(failed ? 1 : 0);
}

main();
