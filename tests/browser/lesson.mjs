// lesson.mjs - the lesson page (make wasm) in a real browser, opened from
// file:// (run by test_lesson.c).
//
//   node tests/browser/lesson.mjs --page build/nqueens.html --cli build/nqueens
//        --oeis tests/data/oeis.tsv --chromium PATH --out DIR --group G
//
// G:
//   counts-1280, counts-360  at that width: every engine the page lists
//             (which must be every engine `nqueens engines` lists) counts
//             N = 1..14 (brute N = 1..8: N^N candidates) and every row
//             agrees with OEIS; fast's table is `nqueens count 1-14`'s,
//             the time column aside; "count N = 1 to 16 with fast" too
//   events    at N = 6 and 8, every engine that reports its steps: the
//             walk the page gets from its worker has the steps of
//             `nqueens trace N --engine E` (their lines, --one-based as the
//             page's box says, both ways), the summary and the count; the
//             panels at ~30 steps read true as teach.mjs checks them
//             (panels.mjs); the compared engine's walk as well
//   play      your turn at N = 8 and 5: a tap on an attacked square is
//             refused and names every attacking queen and its line; the
//             shaded squares are exactly the attacked ones; a whole
//             solution says so and names its class (its place among the
//             classes, computed here from `nqueens solve 8`) and its 8
//             images; "let the engine finish" gives `nqueens complete`'s
//             count and a completion that keeps the queens
//   layout    at 360 x 740 (a phone) and 1280 x 900: no sideways scroll in
//             any part; the page's height the same over 500 steps of play;
//             on the phone the step line in the first screen (bitmap N = 8
//             at step 470); screenshots of each part into DIR
//   latency   while `count 16` runs in the worker (with an engine slow
//             enough to be still counting), a click on a tab is answered
//             in under 100 ms (from the input to the next frame), nine
//             times of ten and the tenth under 250 ms
//   scalar    ?module=scalar (a browser without WebAssembly SIMD): the
//             scalar module counts N = 1..14 with fast
//   lang      the browser set to Japanese (navigator.languages), and an
//             English browser given lang=ja: in every part (a walk at a
//             step beside a second, a count done, a refused tap) no run
//             of 3 English words left outside code, the series' terms
//             there; an English browser: no Japanese; the switch both
//             ways; lang=fr said in the page
//   keys      Space on a focused box ticks it and on a focused button
//             presses it, neither plays; after a mouse click Space plays;
//             Enter presses; the speed slider takes its own keys (End,
//             Home, arrows: 10 presses a tenfold speed) and the walk does
//             not move; the list of keys in both languages
//   kit       a queen's lines drawn when placed and pointed at; a gloss
//             shown in every part; link parameters: an unknown engine
//             and N out of range said
//             (English and Japanese), nothing silently chosen;
//             #play&n=4; an unknown parameter said; the tab title; the 8
//             images of a solution disjoint at N = 12 and 16 at 360 and
//             1280 px; the whole N = 8 board in a phone's first screen;
//             at 1024 x 768 the walk's board in the first screen, large
//             type; printed: no buttons, the shading kept
//   estimate  count 21 with fast refused with the estimate `nqueens
//             estimate 21 --threads 1` makes in the same module under
//             node (their 80% intervals overlap)
// Prints "ok ..." per check, "FAIL ..." per failed one; exits 1 if any
// failed.  Any console error or exception in the page fails the check.
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { ENTER, END, HOME, RIGHT, SPACE, click, evaluate, frames, load, options, press, run, runChecks, screenshot,
  setViewport } from "./cdp.mjs";
import { browserLanguages, checkEnglish, checkJapanese } from "./lang.mjs";
import { READ, TEACHING, checkShown, pickSteps, walkOf } from "./panels.mjs";

const GROUPS = ["counts-1280", "counts-360", "events", "play", "layout", "latency", "scalar", "lang", "keys", "kit", "estimate"];
const WALK_CAP = 200000;  // the page's step cap (lesson.js), the traces' --limit here
const sleep = ms => new Promise(r => setTimeout(r, ms));

// ---- what the page must say, from outside the page ----

function readOeis(file) {
  const total = [], unique = [];
  for (const line of readFileSync(file, "utf8").split("\n")) {
    const m = /^(\d+)\t(\d+)\t(\d+)/.exec(line);
    if (m) { total[+m[1]] = m[2]; unique[+m[1]] = m[3]; }
  }
  return { total, unique };
}

// The 8 symmetries of the square on a placement p (p[r] = column of row
// r), written here from their definition, not taken from the library.
function images(p) {
  const n = p.length, inv = [];
  p.forEach((c, r) => { inv[c] = r; });
  const m = n - 1, out = [];
  out.push(p.slice());
  out.push(p.map((_, r) => m - inv[r]));         // quarter turn clockwise
  out.push(p.map((_, r) => m - p[m - r]));        // half turn
  out.push(p.map((_, r) => inv[m - r]));          // quarter turn anticlockwise
  out.push(p.map(c => m - c));                    // left-right
  out.push(p.map((_, r) => p[m - r]));            // top-bottom
  out.push(p.map((_, r) => inv[r]));              // transpose
  out.push(p.map((_, r) => m - inv[m - r]));      // anti-transpose
  return out;
}
const lexLess = (a, b) => { for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] < b[i]; return false; };
const smallestOf = p => images(p).reduce((best, x) => lexLess(x, best) ? x : best);

function attacks(r1, c1, r2, c2) {
  const why = [];
  if (r1 === r2) why.push("row");
  if (c1 === c2) why.push("column");
  if (r1 - c1 === r2 - c2) why.push("diagonal");
  if (r1 + c1 === r2 + c2) why.push("anti-diagonal");
  return why;
}

// ---- driving the page as a learner does ----

class Lesson {
  constructor(ctx) { Object.assign(this, ctx); }
  ev(expr, ms) { return evaluate(this.b, this.tab, expr, ms); }
  async open(query = "", hash = "") {
    await load(this.b, this.tab, this.url + "?" + (query || "t=" + Date.now()) + hash);
    for (let i = 0; i < 200; i++) {
      if (await this.ev("document.body.dataset.ready === '1'")) return;
      await sleep(50);
    }
    throw new Error("the page never said it was ready (its engines not listed)");
  }
  part(name) { return this.ev(`document.getElementById('tab-${name}').click(), true`); }
  // A form control set as a user sets it: its value, then its change event.
  choose(id, value) {
    return this.ev(`(() => { const e = document.getElementById(${JSON.stringify(id)});
      if (e.type === "checkbox") e.checked = ${JSON.stringify(value)}; else e.value = ${JSON.stringify(String(value))};
      e.dispatchEvent(new Event("change")); return e.type === "checkbox" ? e.checked : e.value; })()`);
  }
  async until(expr, ms, what) {
    const t0 = Date.now();
    for (;;) {
      const v = await this.ev(expr);
      if (v) return v;
      if (Date.now() - t0 > ms) throw new Error(what + ": not within " + ms / 1000 + " s");
      await sleep(40);
    }
  }
}

// ---- counts ----

function tableRows(text) {
  const rows = new Map();
  for (const line of text.split("\n")) {
    const m = /^\s*(\d+):\s+(\d+)\s+(\d+)\s+\d\d:\d\d:\d\d\.\d\d\d$/.exec(line);
    if (m) rows.set(+m[1], [m[2], m[3]]);
  }
  return rows;
}

async function countIn(pg, engine, lo, hi) {
  await pg.choose("countengine", engine);
  await pg.choose("countlo", lo);
  await pg.choose("counthi", hi);
  await pg.ev("document.getElementById('countgo').click(), true");
  await pg.until("document.getElementById('countstop').disabled && /^(done|the count failed|stopped|not counted)/.test(" +
                 "document.getElementById('countstate').textContent)", 110000, engine + " count " + lo + "-" + hi);
  return pg.ev("[document.getElementById('countstate').textContent, document.getElementById('counttable').textContent]");
}

function checkRows(ctx, engine, rows, lo, hi) {
  for (let n = lo; n <= hi; n++) {
    const r = rows.get(n);
    if (!r) throw new Error(engine + ": no row for N = " + n);
    if (r[0] !== ctx.oeis.total[n] || r[1] !== ctx.oeis.unique[n])
      throw new Error(engine + " N = " + n + ": " + r.join(" ") + ", OEIS " + ctx.oeis.total[n] + " " + ctx.oeis.unique[n]);
  }
  if (rows.size !== hi - lo + 1) throw new Error(engine + ": " + rows.size + " rows for N = " + lo + ".." + hi);
}

// The CLI's table less its time column, line by line.
const untimed = text => text.split("\n").filter(Boolean).map(l => l.replace(/\s+\d\d:\d\d:\d\d\.\d\d\d$/, "").replace(/\s+hh:mm:ss\.ms$/, ""));

async function groupCounts(ctx, width) {
  const pg = new Lesson(ctx);
  await setViewport(ctx.b, ctx.tab, width, width < 600 ? 740 : 900, width < 600);
  await pg.open("", "#count");
  await ctx.unit(`the engines listed at ${width} px`, async () => {
    const listed = await pg.ev("[...document.getElementById('countengine').options].map(o => o.value)");
    const cli = run(ctx.cli, ["engines"]).split("\n").slice(1).map(l => l.split(/\s+/)[0]).filter(Boolean);
    if (listed.join(" ") !== cli.join(" ")) throw new Error("the page lists " + listed + "; nqueens engines lists " + cli);
    return listed.length + " engines, as nqueens engines lists them";
  });
  const engines = await pg.ev("[...document.getElementById('countengine').options].map(o => o.value)");
  for (const e of engines) {
    const hi = e === "brute" ? 8 : 14;
    await ctx.unit(`${e} counts N = 1..${hi} at ${width} px`, async () => {
      const [state, table] = await countIn(pg, e, 1, hi);
      if (!state.startsWith("done")) throw new Error("the page says '" + state + "'");
      checkRows(ctx, e, tableRows(table), 1, hi);
      if (e === "fast") {
        const cli = untimed(run(ctx.cli, ["count", "1-" + hi, "--engine", "fast"]));
        if (untimed(table).join("\n") !== cli.join("\n"))
          throw new Error("the table is not the one nqueens count prints:\n" + table);
      }
      return "every row OEIS's (" + state + ")";
    });
  }
  await ctx.unit(`a count that would take long is refused first, and counted when asked at ${width} px`, async () => {
    const [state] = await countIn(pg, "brute", 1, 12);
    if (!/^not counted: count 12 with engine brute would take over .* here/.test(state))
      throw new Error("brute N = 1..12 (days), and the page says '" + state + "'");
    if (await pg.ev("document.getElementById('countforce').hidden")) throw new Error("no 'count anyway'");
    await pg.ev("document.getElementById('countforce').click(), true");
    await pg.until("/^counting N = /.test(document.getElementById('countstate').textContent)", 20000, "the count anyway");
    await pg.ev("document.getElementById('countstop').click(), true");
    for (const [lo, hi, why] of [["9", "5", "from 9 is past to 5"], ["", "5", "whole numbers"], ["1", "99", "from 1 to 22"]]) {
      await pg.choose("countengine", "carry");
      await pg.ev(`(document.getElementById('countlo').value = ${JSON.stringify(lo)},
        document.getElementById('counthi').value = ${JSON.stringify(hi)}, document.getElementById('countgo').click(), true)`);
      const said = await pg.ev("document.getElementById('countstate').textContent");
      if (!said.startsWith("not counted") || !said.includes(why)) throw new Error(`from '${lo}' to '${hi}': '${said}'`);
    }
    return state;
  });
  await ctx.unit(`one click counts N = 1..16 with fast at ${width} px`, async () => {
    await pg.ev("document.getElementById('countfast').click(), true");
    await pg.until("document.getElementById('countstop').disabled && /^done/.test(document.getElementById('countstate').textContent)",
                   60000, "count 1-16");
    const [table, checks] = await pg.ev("[document.getElementById('counttable').textContent, document.getElementById('countchecks').textContent]");
    checkRows(ctx, "fast", tableRows(table), 1, 16);
    if (!/agrees with OEIS/.test(checks)) throw new Error("the page's own check says: " + checks);
    return "16 rows, OEIS's";
  });
}

// ---- the walk's events against the command line's trace ----

// The step lines of `nqueens trace` (its title and summary apart).
function traceOf(ctx, engine, n, oneBased) {
  const args = ["trace", String(n), "--engine", engine, "--limit", String(WALK_CAP)];
  if (oneBased) args.push("--one-based");
  const lines = run(ctx.cli, args).split("\n").filter(Boolean);
  return { steps: lines.slice(1, -1), summary: lines[lines.length - 1] };
}

async function walkIn(pg, engine, n, compare, oneBased) {
  await pg.choose("onebased", oneBased);
  await pg.choose("walkcompare", compare || "");
  await pg.choose("walkengine", engine);
  await pg.choose("walkn", n);
  await pg.until("WALKS.length && WALKS.every(w => w.ended)", 60000, `the walk of ${engine} N=${n}`);
}

function sameSteps(what, got, want) {
  if (got.length !== want.length) throw new Error(what + ": " + got.length + " steps in the page, " + want.length + " in the trace");
  for (let i = 0; i < want.length; i++)
    if (got[i] !== want[i])
      throw new Error(what + ": step " + (i + 1) + " is\n  " + got[i] + "\nin the page, and\n  " + want[i] + "\nin the trace");
}

// The viewer's panels at ~30 steps of the walk shown (the steps
// teach.mjs picks: every kind, the rejects with most attackers, ...), read
// and checked as teach.mjs checks the command line's pages: the board, the
// attackers marked and named, the masks, the sentence, the code line, the
// labels counted as the page counts, the step's line.
async function panelsRead(ctx, pg, engine, n, oneBased) {
  const trace = args => run(ctx.cli, ["trace", String(n), "--engine", engine, "--limit", String(WALK_CAP), ...args]);
  const w = walkOf(trace([]), engine, n, `${engine} N=${n} (the lesson page)`);
  const lines = oneBased ? walkOf(trace(["--one-based"]), engine, n, `${engine} N=${n} --one-based`) : w;
  const ks = pickSteps(w, 30);
  for (const k of ks) {
    const got = await pg.ev(`new Promise(res => { go(${k}); ${READ(0, "res")} })`);
    checkShown(w, k, got, "go(" + k + ")", { base: oneBased ? 1 : 0, lines });
  }
  return ks.length;
}

async function groupEvents(ctx) {
  const pg = new Lesson(ctx);
  await pg.open("", "#watch");
  for (const n of [6, 8])
    for (const e of TEACHING) {
      const oneBased = n === 6;
      await ctx.unit(`${e} N=${n}${oneBased ? " counted from 1" : ""}: the live walk is the trace's`, async () => {
        await walkIn(pg, e, n, "", oneBased);
        const t = traceOf(ctx, e, n, oneBased);
        const got = await pg.ev("WALKS[0].steps.map(s => s[6])");
        sameSteps(e, got, t.steps);
        const w = await pg.ev("({summary: WALKS[0].summary, capped: WALKS[0].capped, total: WALKS[0].total})");
        const capped = t.steps.length === WALK_CAP;
        if (!!w.capped !== capped) throw new Error("capped " + w.capped + " but the trace has " + t.steps.length + " steps");
        if (!capped && w.summary !== t.summary) throw new Error("summary '" + w.summary + "', trace '" + t.summary + "'");
        if (!capped && w.total !== ctx.oeis.total[n]) throw new Error("the walk's count " + w.total + ", OEIS " + ctx.oeis.total[n]);
        const panels = await panelsRead(ctx, pg, e, n, oneBased);
        return got.length + " steps" + (capped ? " (the cap)" : ", its summary and count") + "; the panels at " +
          panels + " steps as teach.mjs reads them";
      });
    }
  await ctx.unit("a teacher's link opens the walk it names at its step", async () => {
    await pg.open("", "#watch&n=8&engine=bitmap&compare=flags&step=470&from=0");
    await pg.until("WALKS.length === 2 && WALKS.every(w => w.ended)", 60000, "the linked walk");
    const got = await pg.ev(`[WALKS[0].engine, WALKS[1].engine, WALKS[0].n, document.getElementById("board").dataset.step,
      document.getElementById("onebased").checked]`);
    if (got.join(" ") !== "bitmap flags 8 470 false") throw new Error("the link opened " + got.join(" "));
    await pg.ev("go(471), true");
    await pg.until("/&step=471/.test(location.hash)", 3000, "the address following the step");
    return "bitmap beside flags, N = 8, step 470; the address follows the steps";
  });
  await ctx.unit("flags beside bitmap at N = 8: both walks are the traces'", async () => {
    await walkIn(pg, "flags", 8, "bitmap", false);
    const [a, c] = await pg.ev("[WALKS[0].steps.map(s => s[6]), WALKS[1].steps.map(s => s[6])]");
    sameSteps("flags", a, traceOf(ctx, "flags", 8, false).steps);
    sameSteps("bitmap", c, traceOf(ctx, "bitmap", 8, false).steps);
    const paired = await pg.ev("(go(5540), document.getElementById('board2').dataset.step)");
    if (!paired) throw new Error("the compared walk shows no step");
    return a.length + " + " + c.length + " steps";
  });
}

// ---- your turn ----

const cellSel = (r, c) => `#playboard button[data-r="${r}"][data-c="${c}"]`;

async function tapAt(pg, r, c) {
  await pg.ev(`document.querySelector('${cellSel(r, c)}').click(), true`);
  return pg.ev("[document.getElementById('playsay').textContent, document.getElementById('playboard').dataset.queens]");
}

async function newBoard(pg, n) {
  await pg.choose("onebased", false);
  await pg.choose("playn", n);
}

// What the board shades: every square some queen attacks, nothing else.
async function checkShading(pg, queens, n) {
  const shaded = new Set(await pg.ev("[...document.querySelectorAll('#playboard button.attacked')].map(b => b.dataset.r + ':' + b.dataset.c)"));
  for (let r = 0; r < n; r++)
    for (let c = 0; c < n; c++) {
      const hit = queens.some(([qr, qc]) => !(qr === r && qc === c) && attacks(qr, qc, r, c).length);
      const queen = queens.some(([qr, qc]) => qr === r && qc === c);
      if (!queen && hit !== shaded.has(r + ":" + c))
        throw new Error(`row ${r} column ${c}: ${hit ? "attacked but not shaded" : "shaded but not attacked"}`);
    }
}

async function groupPlay(ctx) {
  const pg = new Lesson(ctx);
  await pg.open("", "#play");
  await ctx.unit("an attacked square is refused, every attacker named with its line", async () => {
    await newBoard(pg, 8);
    const queens = [[0, 0], [2, 5], [4, 1]];
    let board;
    for (const [r, c] of queens) [, board] = await tapAt(pg, r, c);
    if (board !== "0,-1,5,-1,1,-1,-1,-1") throw new Error("three free squares tapped, and the board is " + board);
    await checkShading(pg, queens, 8);
    let checked = 0;
    for (let r = 0; r < 8; r++)
      for (let c = 0; c < 8; c++) {
        const by = queens.filter(([qr, qc]) => !(qr === r && qc === c) && attacks(qr, qc, r, c).length);
        if (by.length < 2 && !(r === 1 && c === 0)) continue;
        const [said, after] = await tapAt(pg, r, c);
        if (after !== board) throw new Error(`a tap on row ${r} column ${c} changed the board to ${after}`);
        if (!/^Not there/.test(said)) throw new Error(`row ${r} column ${c} is attacked; the page says: ${said}`);
        for (const [qr, qc] of by) {
          const words = attacks(qr, qc, r, c).map(w => w === "diagonal" ? "diagonal (row \u2212 column)" :
            w === "anti-diagonal" ? "anti-diagonal (row + column)" : w);
          const want = `the queen at row ${qr} column ${qc} shares its ${words.join(" and its ")}`;
          if (!said.toLowerCase().includes(want)) throw new Error(`row ${r} column ${c}: '${said}' lacks '${want}'`);
        }
        const named = (said.match(/the queen at/gi) || []).length;
        if (named !== by.length) throw new Error(`row ${r} column ${c}: ${named} queens named, ${by.length} attack it`);
        checked++;
      }
    return checked + " attacked squares refused, each naming all its attackers";
  });
  const solutions = run(ctx.cli, ["solve", "8"]).split("\n").filter(Boolean).map(l => l.split(" ").map(Number));
  const classes = [...new Set(solutions.map(s => smallestOf(s).join(",")))].sort((a, b) =>
    lexLess(a.split(",").map(Number), b.split(",").map(Number)) ? -1 : 1);
  for (const pick of [0, 37, 91]) {
    const sol = solutions[pick];
    await ctx.unit(`solution ${sol.join(" ")} (N = 8): said, its class and its 8 images`, async () => {
      await newBoard(pg, 8);
      for (let r = 0; r < 8; r++) await tapAt(pg, r, sol[r]);
      const said = await pg.ev("document.getElementById('playsay').textContent");
      if (!/solution/i.test(said)) throw new Error("a whole solution, and the page says: " + said);
      await pg.until("!document.getElementById('playclass').hidden", 20000, "the class");
      const got = await pg.ev(`({text: document.getElementById('playclasstext').textContent,
        place: document.getElementById('playclass').dataset.place, classes: document.getElementById('playclass').dataset.classes,
        images: [...document.querySelectorAll('#playimages figure')].map(f => f.dataset.cols)})`);
      const place = classes.indexOf(smallestOf(sol).join(",")) + 1;
      if (got.place !== String(place) || got.classes !== String(classes.length))
        throw new Error(`class ${got.place} of ${got.classes}; from nqueens solve 8 it is ${place} of ${classes.length}`);
      if (!got.text.includes("class " + place + " of the " + classes.length)) throw new Error("the text: " + got.text);
      const want = images(sol).map(x => x.join(","));
      if (got.images.join(" ") !== want.join(" ")) throw new Error("images " + got.images.join(" ") + ", want " + want.join(" "));
      return `class ${place} of ${classes.length}, 8 images`;
    });
  }
  await ctx.unit("let the engine finish: nqueens complete's count and a completion that keeps the queens", async () => {
    for (const [n, given] of [[8, [[0, 1], [1, 3]]], [8, [[0, 0], [1, 2]]], [5, []], [3, []], [8, [[2, 2]]]]) {
      await newBoard(pg, n);
      for (const [r, c] of given) await tapAt(pg, r, c);
      await pg.ev("document.getElementById('playfinish').click(), true");
      await pg.until("document.getElementById('playfinish').textContent.startsWith('let')", 60000, "the completion");
      const said = await pg.ev("document.getElementById('playsay').textContent");
      const cli = run(ctx.cli, ["complete", String(n), "--given", given.map(x => x.join(":")).join(",") || "",
                                "--json"]);
      const total = JSON.parse(cli.trim().split("\n").pop()).total;
      const m = /^([\d,]+) solutions?( keeps?| on the empty board)/.exec(said) ||
        (/^No solution keeps|has no solution at all/.test(said) ? [null, "0"] : null);
      if (!m || m[1].replace(/,/g, "") !== String(total))
        throw new Error(`N = ${n} given ${JSON.stringify(given)}: the page says '${said}'; nqueens complete counts ${total}`);
      if (String(total) !== "0") {
        const ghost = await pg.ev("[...document.querySelectorAll('#playboard .ghost')].map(b => [+b.dataset.r, +b.dataset.c])");
        const board = new Array(n).fill(-1);
        for (const [r, c] of given.concat(ghost)) board[r] = c;
        if (board.includes(-1)) throw new Error("the engine's queens leave a row empty: " + board);
        for (let a = 0; a < n; a++) for (let b = a + 1; b < n; b++)
          if (attacks(a, board[a], b, board[b]).length) throw new Error("the completion " + board + " is no solution");
      }
    }
    return "5 boards, each count nqueens complete's";
  });
}

// ---- layout ----

async function groupLayout(ctx) {
  const pg = new Lesson(ctx);
  for (const [w, h, mobile] of [[360, 740, true], [1280, 900, false]]) {
    await setViewport(ctx.b, ctx.tab, w, h, mobile, mobile ? 2 : 1);
    await pg.open("", "#play");
    for (const part of ["play", "watch", "count"])
      await ctx.unit(`${part} at ${w} px: no sideways scroll`, async () => {
        await pg.part(part);
        if (part === "watch") await walkIn(pg, "bitmap", 8, mobile ? "" : "flags", true);
        if (part === "play") { await newBoard(pg, 8); for (const [r, c] of [[0, 0], [1, 2], [2, 4]]) await tapAt(pg, r, c); }
        await frames(ctx.b, ctx.tab);
        const over = await pg.ev("document.documentElement.scrollWidth - document.documentElement.clientWidth");
        if (over > 0) throw new Error(over + " px wider than the window");
        await screenshot(ctx.b, ctx.tab, join(ctx.out, `lesson-${part}-${w}.png`));
        return "scrollWidth within the window; lesson-" + part + "-" + w + ".png";
      });
    if (mobile)
      await ctx.unit("the step line in the first screen at 360 x 740", async () => {
        await pg.part("watch");
        await walkIn(pg, "bitmap", 8, "", true);
        const r = await pg.ev(`(scrollTo(0, 0), go(470), (() => { const b = document.querySelector("pre.line").getBoundingClientRect();
          return [Math.round(b.top), Math.round(b.bottom), innerHeight]; })())`);
        if (r[1] > r[2]) throw new Error(`the step line is at ${r[0]}-${r[1]} px, below the first screen (${r[2]} px)`);
        return `at ${r[0]}-${r[1]} px of ${r[2]}`;
      });
    await ctx.unit(`the page's height over 500 steps of play at ${w} px`, async () => {
      await pg.part("watch");
      const heights = await pg.ev(`new Promise(res => {
        const hs = new Set(); go(0);
        let k = 0;
        const f = () => { go(++k); hs.add(document.documentElement.scrollHeight);
          if (k < 500) requestAnimationFrame(f); else res([...hs]); };
        requestAnimationFrame(f); })`, 60000);
      if (heights.length !== 1) throw new Error("the height took " + heights.length + " values: " + heights.sort().join(", "));
      return "one height, " + heights[0] + " px";
    });
  }
}

// ---- latency ----

async function groupLatency(ctx) {
  const pg = new Lesson(ctx);
  await pg.open("", "#count");
  await ctx.unit("a click answered in under 100 ms while N = 16 counts in the worker", async () => {
    await pg.choose("countengine", "bitmap");
    await pg.choose("countlo", 16);
    await pg.choose("counthi", 16);
    await pg.ev("document.getElementById('countgo').click(), true");
    await pg.until("/^counting N = 16 with bitmap: [1-9]/.test(document.getElementById('countstate').textContent)",
                   20000, "the count's progress");
    // Measured in the page: from the click's own time stamp (when the
    // input came) to the first frame after its handler ran.
    await pg.ev(`(window.nqLatency = [], document.addEventListener("click", e => { const t = e.timeStamp;
      requestAnimationFrame(() => window.nqLatency.push(performance.now() - t)); }, true), true)`);
    for (let i = 0; i < 10; i++) {
      const to = i % 2 ? "count" : "play";
      const box = await pg.ev(`(() => { const r = document.getElementById('tab-${to}').getBoundingClientRect();
        return [r.left + r.width / 2, r.top + r.height / 2]; })()`);
      await click(ctx.b, ctx.tab, box[0], box[1]);
      await pg.until(`document.getElementById('tab-${to}').getAttribute('aria-selected') === 'true' && nqLatency.length === ${i + 1}`,
                     2000, "the tab");
    }
    const worst = (await pg.ev("nqLatency")).map(x => Math.round(x));
    const running = await pg.ev("!document.getElementById('countstop').disabled");
    if (!running) throw new Error("the count ended before the clicks were done: make it longer");
    await pg.ev("document.getElementById('countstop').click(), true");
    // One click of ten may meet a spike of the machine's load (other
    // programs on its two cores), never a page that waits on its worker.
    const max = Math.max(...worst), slow = worst.filter(x => x >= 100).length;
    if (slow > 1 || max >= 250) throw new Error("clicks answered in " + worst.join(", ") + " ms");
    return "10 clicks, the slowest " + max + " ms from the input to the next frame";
  });
}

// ---- the scalar module ----

async function groupScalar(ctx) {
  const pg = new Lesson(ctx);
  await pg.open("module=scalar", "#count");
  await ctx.unit("?module=scalar counts N = 1..14 with fast", async () => {
    const said = await pg.ev("document.getElementById('lessonmodule').textContent");
    if (!/without SIMD/.test(said)) throw new Error("the page says it runs " + said);
    const [state, table] = await countIn(pg, "fast", 1, 14);
    checkRows(ctx, "fast", tableRows(table), 1, 14);
    return said + ", " + state;
  });
}

// ---- the page's languages ----

// The series' terms, each in the Japanese page (glossed where first said).
const TERMS = ["\u30af\u30a4\u30fc\u30f3", "\u52b9\u304d\u7b4b", "\u30d0\u30c3\u30af\u30c8\u30e9\u30c3\u30af",
  "\u914d\u7f6e\u30d5\u30e9\u30b0", "\u30d3\u30c3\u30c8\u30de\u30c3\u30d7", "\u30df\u30e9\u30fc",
  "\u5bfe\u79f0\u89e3\u9664\u6cd5", "\u30ad\u30e3\u30ea\u30fc\u30c1\u30a7\u30fc\u30f3",
  "\u30e6\u30cb\u30fc\u30af\u89e3", "\u7dcf\u89e3"];

// Every part of the page as a learner leaves it: your turn after a
// refused tap, a walk beside a second at step 40, a count done; check(part)
// each time.
async function everyPart(ctx, pg, check) {
  const said = [];
  await pg.part("play");
  await newBoard(pg, 6);
  await tapAt(pg, 0, 1);
  await tapAt(pg, 1, 1);
  said.push(await check("play (a tap refused)"));
  await pg.ev("document.querySelector('#playsay details').open = true, true");
  said.push(await check("play (the precise form open)"));
  await pg.part("watch");
  await pg.choose("walkn", 6);
  await pg.choose("walkengine", "bitmap");
  await pg.choose("walkcompare", "flags");
  await pg.until("WALKS.length === 2 && WALKS.every(w => w.ended)", 20000, "the walks");
  await pg.ev("go(40), true");
  await frames(ctx.b, ctx.tab);
  said.push(await check("watch (step 40)"));
  await pg.part("count");
  await pg.choose("countengine", "bitmap");
  await pg.choose("countlo", 1);
  await pg.choose("counthi", 8);
  await pg.ev("document.getElementById('countgo').click(), true");
  await pg.until("document.getElementById('countstop').disabled && document.getElementById('countchecks').textContent", 30000, "the count");
  said.push(await check("count (done)"));
  return said;
}

async function groupLang(ctx) {
  const pg = new Lesson(ctx);
  const ja = async (where, terms) => {
    await frames(ctx.b, ctx.tab);
    return checkJapanese(ctx.b, ctx.tab, where, terms);
  };
  for (const [langs, hash, how] of [[["ja-JP", "ja"], "", "the browser in Japanese"],
                                    [["en-US", "en"], "#play&lang=ja", "an English browser, lang=ja"]]) {
    await ctx.unit(`${how}: no English prose left in any part, the series' terms there`, async () => {
      await browserLanguages(ctx.b, ctx.tab, langs);
      await pg.open("", hash);
      const lang = await pg.ev("document.documentElement.lang + ' ' + navigator.languages.join()");
      if (!lang.startsWith("ja ")) throw new Error("the page's language: " + lang);
      await pg.part("play");
      await ja("play", TERMS.slice(0, 8));
      // the two counts are the count's words
      const n = await everyPart(ctx, pg, where => ja(where, where.startsWith("count") ? TERMS.slice(8) : []));
      const refused = await pg.ev("document.getElementById('playsay').textContent");
      return `${lang}; ${n.join(", ")} texts read; the series' terms; every part Japanese (a refusal: ${refused.slice(0, 30)}...)`;
    });
  }
  await ctx.unit("the browser in English: no Japanese in any part", async () => {
    await browserLanguages(ctx.b, ctx.tab, ["en-US", "en"]);
    await pg.open("", "");
    if (await pg.ev("document.documentElement.lang") !== "en") throw new Error("the page is not in English");
    const n = await everyPart(ctx, pg, where => frames(ctx.b, ctx.tab).then(() => checkEnglish(ctx.b, ctx.tab, where)));
    return n.join(", ") + " texts read, all English";
  });
  await ctx.unit("the switch: English to Japanese and back, in every part", async () => {
    await pg.open("", "#watch&n=5&engine=backtrack");
    await pg.until("WALKS.length && WALKS[0].ended", 20000, "the walk");
    await pg.ev("go(12), true");
    await pg.ev("document.querySelector('#langs button[data-lang=ja]').click(), true");
    await ja("watch after the switch", []);
    if (await pg.ev("document.getElementById('board').dataset.step") !== "12") throw new Error("the switch moved the walk");
    if (!/lang=ja/.test(await pg.until("/lang=ja/.test(location.hash) && location.hash", 2000, "lang=ja in the address")))
      throw new Error("the address does not keep the language");
    await pg.part("count");
    await ja("count after the switch", []);
    await pg.ev("document.querySelector('#langs button[data-lang=en]').click(), true");
    await frames(ctx.b, ctx.tab);
    await checkEnglish(ctx.b, ctx.tab, "count after switching back");
    return "Japanese, then English again, the walk at step 12 throughout";
  });
  await ctx.unit("lang=fr: said in the page", async () => {
    await pg.open("", "#play&lang=fr");
    const note = await pg.ev("document.getElementById('lessonnote').hidden ? '' : document.getElementById('lessonnote').textContent");
    if (!/\u201cfr\u201d/.test(note)) throw new Error("lang=fr, and the page says: " + JSON.stringify(note));
    return note;
  });
}

// ---- keys ----

async function groupKeys(ctx) {
  const pg = new Lesson(ctx);
  const { b, tab } = ctx;
  const step = () => pg.ev("Number(document.getElementById('board').dataset.step)");
  const playing = () => pg.ev("document.getElementById('play').getAttribute('aria-label') === 'Pause'");
  await pg.open("", "#watch&n=6&engine=backtrack&step=10");
  await pg.until("WALKS.length && WALKS[0].ended && document.getElementById('board').dataset.step === '10'", 20000, "the walk at step 10");
  await ctx.unit("keys: Space and Enter act on the focused control, and play only when nothing takes them", async () => {
    await pg.ev("document.getElementById('walkiterative').focus(), true");
    await press(b, tab, ...SPACE);
    if (!await pg.ev("document.getElementById('walkiterative').checked")) throw new Error("Space on the iterative box did not tick it");
    await pg.until("WALKS.length && WALKS[0].ended && WALKS[0].iterative", 20000, "the iterative walk");
    if (await playing()) throw new Error("Space on the iterative box played the walk");
    await pg.ev("go(10), document.getElementById('seedstyle').focus(), true");
    await press(b, tab, ...SPACE);
    if (!await pg.ev("document.getElementById('seedstyle').checked") || await playing())
      throw new Error("Space on the seeds' layout box: ticked " + await pg.ev("document.getElementById('seedstyle').checked") + ", playing " + await playing());
    await pg.ev("document.getElementById('forward').focus(), true");
    await press(b, tab, ...SPACE);
    if (await step() !== 11 || await playing()) throw new Error(`Space on a focused step forward: step ${await step()}, playing ${await playing()}`);
    await press(b, tab, ...ENTER);
    if (await step() !== 12 || await playing()) throw new Error(`Enter on step forward: step ${await step()}, playing ${await playing()}`);
    await pg.ev("document.querySelector('.treebar button[data-z=in]').focus(), true");
    await press(b, tab, ...SPACE);
    if (await playing() || await step() !== 12) throw new Error("Space on the tree's zoom button played or moved the walk");
    const r = await pg.ev(`(() => { const e = document.getElementById("forward").getBoundingClientRect();
      return [e.left + e.width / 2, e.top + e.height / 2]; })()`);
    await click(b, tab, r[0], r[1]);
    if (await step() !== 13) throw new Error("a click on step forward: step " + await step());
    await press(b, tab, ...SPACE);
    if (!await playing()) throw new Error("after a mouse click on a button, Space did not play (focus on " +
      await pg.ev("document.activeElement.id || document.activeElement.tagName") + ")");
    await press(b, tab, ...SPACE);
    if (await playing()) throw new Error("Space again did not pause");
    return "box ticked, button pressed by Space and Enter, zoom pressed, no play; after a mouse click Space plays and pauses";
  });
  await ctx.unit("keys: the speed slider takes its keys, the walk stays; 10 presses a tenfold speed", async () => {
    await pg.ev("go(20), true");
    const speed = () => pg.ev("document.getElementById('speedval').textContent").then(t => parseFloat(t));
    await pg.ev("document.getElementById('speed').focus(), true");
    const v0 = await speed();
    for (let i = 0; i < 10; i++) await press(b, tab, ...RIGHT);
    const v1 = await speed();
    if (!(v1 >= 9 * v0)) throw new Error(`10 presses of \u2192 took the speed from ${v0} to ${v1} steps/s`);
    await press(b, tab, ...END);
    const top = await speed();
    await press(b, tab, ...HOME);
    const bottom = await speed();
    if (await step() !== 20) throw new Error("keys on the slider moved the walk to step " + await step());
    if (!(top >= 5000 && bottom <= 0.5)) throw new Error(`End and Home on the slider: ${top}, ${bottom} steps/s`);
    return `${v0} -> ${v1} steps/s in 10 presses; End ${top}, Home ${bottom}; the walk at step 20`;
  });
  await ctx.unit("keys: the list of keys, in English and Japanese", async () => {
    const list = () => pg.ev(`(() => { const d = document.getElementById('keys'); d.open = true;
      return d.checkVisibility() ? d.textContent : ''; })()`);
    const en = await list();
    if (!/Space/.test(en) || !/Enter/.test(en) || !/Page Up/.test(en)) throw new Error("the list of keys: " + en);
    await pg.ev("nqSetLang('ja'), true");
    const ja = await list();
    if (!/\u30b9\u30da\u30fc\u30b9/.test(ja) || !/Enter/.test(ja)) throw new Error("the Japanese list of keys: " + ja);
    await pg.ev("nqSetLang('en'), true");
    return "listed in both";
  });
}

// ---- the teacher's kit ----

// The first solution of the n x n board, row by row (backtracking here).
function firstSolutionOf(n) {
  const q = [];
  const ok = (r, c) => q.every((qc, qr) => qc !== c && Math.abs(qc - c) !== r - qr);
  const go = r => { if (r === n) return true; for (let c = 0; c < n; c++) if (ok(r, c)) { q[r] = c; if (go(r + 1)) return true; } q.length = r; return false; };
  go(0);
  return q;
}

async function groupKit(ctx) {
  const pg = new Lesson(ctx);
  const note = () => pg.ev("document.getElementById('lessonnote').hidden ? '' : document.getElementById('lessonnote').textContent");
  await ctx.unit("link: an unknown engine and an N out of range are said, in English and Japanese", async () => {
    await pg.open("", "#watch&engine=fast&n=20");
    const en = await note(), form = await pg.ev("[document.getElementById('walkengine').value, document.getElementById('walkn').value]");
    if (!/\u201cfast\u201d/.test(en) || !/N = 20/.test(en)) throw new Error("engine=fast&n=20, and the page says: " + JSON.stringify(en));
    await pg.open("", "#watch&engine=fast&n=20&lang=ja");
    const ja = await note();
    if (!/\u30a8\u30f3\u30b8\u30f3\u300cfast\u300d/.test(ja) || !/N = 20/.test(ja)) throw new Error("in Japanese the page says: " + JSON.stringify(ja));
    await pg.open("", "#play&foo=1");
    const other = await note();
    if (!/\u201cfoo\u201d/.test(other)) throw new Error("foo=1, and the page says: " + JSON.stringify(other));
    await pg.open("", "#watch&n=8&engine=bitmap");
    if (await note()) throw new Error("a good link, and the page says: " + await note());
    return `said: ${en} (the form shows ${form.join(", ")}, as it says)`;
  });
  await ctx.unit("link: #play&n=4 opens your turn on a 4 x 4 board; the tab's title", async () => {
    await pg.open("", "#play&n=4");
    const got = await pg.ev("[document.body.dataset.part, document.getElementById('playn').value, document.getElementById('playboard').dataset.queens]");
    if (got.join(" ") !== "play 4 -1,-1,-1,-1") throw new Error("#play&n=4 shows " + got.join(" "));
    await pg.until("document.title === 'N = 4 \u2014 your turn \u2014 nqueens'", 2000, "the title (" + await pg.ev("document.title") + ")");
    await pg.open("", "#watch&n=5&engine=backtrack");
    await pg.until("document.title === 'N = 5 \u2014 backtrack \u2014 nqueens'", 5000, "the title (" + await pg.ev("document.title") + ")");
    return "4 x 4; titles " + await pg.ev("document.title");
  });
  await ctx.unit("a queen's lines: drawn when it is placed and when it is pointed at", async () => {
    await pg.open("", "#play");
    await newBoard(pg, 8);
    const rays = () => pg.ev("[...document.querySelectorAll('#playboard .cell.ray')].map(b => b.dataset.r + ':' + b.dataset.c).sort().join(' ')");
    const want = (qr, qc) => { const out = [];
      for (let r = 0; r < 8; r++) for (let c = 0; c < 8; c++)
        if (!(r === qr && c === qc) && attacks(qr, qc, r, c).length) out.push(r + ":" + c);
      return out.sort().join(" "); };
    await tapAt(pg, 2, 3);
    if (await rays() !== want(2, 3)) throw new Error("a queen placed at row 2 column 3: the lines drawn are " + await rays());
    await tapAt(pg, 5, 1);
    if (await rays() !== want(5, 1)) throw new Error("the second queen's lines: " + await rays());
    const box = await pg.ev(`(() => { const r = document.querySelector('${cellSel(2, 3)}').getBoundingClientRect();
      return [r.left + r.width / 2, r.top + r.height / 2]; })()`);
    await ctx.b.send("Input.dispatchMouseEvent", { type: "mouseMoved", x: box[0], y: box[1] }, ctx.tab.sessionId);
    await frames(ctx.b, ctx.tab);
    if (await rays() !== want(2, 3)) throw new Error("pointing at the first queen: the lines drawn are " + await rays());
    return want(2, 3).split(" ").length + " squares on the lines of row 2 column 3's queen";
  });
  await ctx.unit("a gloss shows in every part", async () => {
    await pg.open("", "#play");
    const said = [];
    for (const part of ["play", "watch", "count"]) {
      await pg.part(part);
      if (part === "watch") await pg.until("WALKS.length && WALKS[0].ended", 20000, "the walk");
      await frames(ctx.b, ctx.tab);
      const got = await pg.ev(`(() => { const t = [...document.querySelectorAll('.term')].find(e => e.checkVisibility());
        if (!t) return null; t.focus(); const g = document.getElementById('gloss').getBoundingClientRect();
        return [t.textContent, g.width, g.height, document.getElementById('gloss').textContent.slice(0, 40)]; })()`);
      if (!got || !(got[1] > 20 && got[2] > 10)) throw new Error(`${part}: ${got ? "'" + got[0] + "' focused, the gloss " + got[1] + " x " + got[2] : "no glossed word shown"}`);
      said.push(`${part}: '${got[0]}'`);
    }
    return said.join(", ");
  });
  for (const [w, h, mobile] of [[360, 740, true], [1280, 900, false]]) {
    await ctx.unit(`the 8 images of a solution never overlap at N = 12 and 16, ${w} px`, async () => {
      await setViewport(ctx.b, ctx.tab, w, h, mobile, 1);
      await pg.open("", "#play");
      const said = [];
      for (const n of [12, 16]) {
        await newBoard(pg, n);
        const sol = firstSolutionOf(n);
        for (let r = 0; r < n; r++) await tapAt(pg, r, sol[r]);
        await pg.until("!document.getElementById('playclass').hidden", 20000, "the images");
        const boxes = await pg.ev(`[...document.querySelectorAll('#playimages figure')].map(f => { const r = f.getBoundingClientRect();
          const m = f.querySelector('.mini').getBoundingClientRect();
          return [Math.min(r.left, m.left), r.top, Math.max(r.right, m.right), r.bottom]; })`);
        if (boxes.length !== 8) throw new Error(`N = ${n}: ${boxes.length} images`);
        for (let i = 0; i < 8; i++) for (let j = i + 1; j < 8; j++) {
          const [a, c] = [boxes[i], boxes[j]];
          if (a[0] < c[2] - 0.5 && c[0] < a[2] - 0.5 && a[1] < c[3] - 0.5 && c[1] < a[3] - 0.5)
            throw new Error(`N = ${n}: images ${i} and ${j} overlap: ${a.map(Math.round)} and ${c.map(Math.round)}`);
        }
        const wide = await pg.ev("document.documentElement.scrollWidth <= window.innerWidth");
        if (!wide) throw new Error(`N = ${n}: the page scrolls sideways`);
        said.push(`N = ${n}: 8 disjoint`);
      }
      await setViewport(ctx.b, ctx.tab, 1280, 900, false);
      return said.join(", ");
    });
  }
  await ctx.unit("a phone (360 x 740): the whole N = 8 board in the first screen", async () => {
    await setViewport(ctx.b, ctx.tab, 360, 740, true, 2);
    await pg.open("", "#play&n=8");
    await frames(ctx.b, ctx.tab);
    const r = await pg.ev(`(() => { const c = document.querySelector('${cellSel(7, 7)}').getBoundingClientRect();
      return [c.bottom, c.right, window.innerHeight, window.scrollY]; })()`);
    await setViewport(ctx.b, ctx.tab, 1280, 900, false);
    if (r[0] > r[2] || r[1] > 360) throw new Error(`row 8's last square ends at ${r[0]} px of ${r[2]} (right ${r[1]})`);
    return `the last square at ${Math.round(r[0])} of ${r[2]} px`;
  });
  await ctx.unit("a projector (1024 x 768): the walk's board in the first screen, large type", async () => {
    await setViewport(ctx.b, ctx.tab, 1024, 768, false);
    await pg.open("", "#watch&n=8&engine=bitmap&step=40");
    await pg.until("WALKS.length && WALKS[0].ended", 20000, "the walk");
    await frames(ctx.b, ctx.tab);
    const r = await pg.ev(`(() => { const b = document.getElementById('board').getBoundingClientRect();
      return [b.top, b.bottom, parseFloat(getComputedStyle(document.body).fontSize)]; })()`);
    await setViewport(ctx.b, ctx.tab, 1280, 900, false);
    if (r[1] > 768 || r[2] < 17) throw new Error(`the board at ${r[0]}-${r[1]} px of 768, type ${r[2]} px`);
    return `the board at ${Math.round(r[0])}-${Math.round(r[1])} px of 768, type ${r[2]} px`;
  });
  await ctx.unit("printed: no buttons, the board's shading kept", async () => {
    await pg.open("", "#play&n=6");
    await tapAt(pg, 0, 1);
    await ctx.b.send("Emulation.setEmulatedMedia", { media: "print" }, ctx.tab.sessionId);
    try {
      const got = await pg.ev(`(() => {
        const shown = [...document.querySelectorAll('button, select, input')].filter(e => !e.classList.contains('cell') && e.checkVisibility());
        const cell = document.querySelector('#playboard .cell.attacked');
        return [shown.map(e => e.id || e.textContent).slice(0, 5), getComputedStyle(cell).printColorAdjust,
                getComputedStyle(cell).backgroundColor, document.getElementById('playboard').checkVisibility()]; })()`);
      if (got[0].length) throw new Error("printed with controls: " + got[0].join(", "));
      if (got[1] !== "exact" || !got[3]) throw new Error(`the board printed: print-color-adjust ${got[1]}, shown ${got[3]}`);
      return `no controls; the attacked squares ${got[2]}, print-color-adjust exact`;
    } finally {
      await ctx.b.send("Emulation.setEmulatedMedia", { media: "" }, ctx.tab.sessionId);
    }
  });
}

// ---- the estimate ----

async function groupEstimate(ctx) {
  const pg = new Lesson(ctx);
  await pg.open("", "#count");
  await ctx.unit("count 21 with fast: refused with nqueens estimate's figure (the same module under node, one thread)", async () => {
    const mod = ctx.page.replace(/nqueens\.html$/, "wasm/simd/nqueens.js");
    if (!existsSync(mod)) throw new Error("no module at " + mod);
    const cli = JSON.parse(run("node", [mod, "estimate", "21", "--threads", "1", "--json"]).trim().split("\n").pop());
    await pg.choose("countengine", "fast");
    await pg.choose("countlo", 21);
    await pg.choose("counthi", 21);
    await pg.ev("document.getElementById('countgo').click(), true");
    await pg.until("document.getElementById('countstop').disabled", 90000, "the refusal");
    const said = await pg.ev("document.getElementById('countstate').textContent");
    const m = /would take about ([\d.,]+) (\w+) \(([\d.,]+)-([\d.,]+)\)/.exec(said);
    if (!m) throw new Error("the page says: " + said);
    const unit = { second: 1, minute: 60, hour: 3600, day: 86400, year: 365.25 * 86400 }[m[2].replace(/s$/, "")];
    const [lo, hi] = [m[3], m[4]].map(x => parseFloat(x.replace(/,/g, "")) * unit);
    // sampled twice, on a shared machine: their intervals, widened by a
    // quarter for the load, overlap
    if (hi * 1.25 < cli.seconds_low || lo > cli.seconds_high * 1.25)
      throw new Error(`the page: ${said}; nqueens estimate 21 --threads 1 in the module: ${Math.round(cli.seconds_low)}-${Math.round(cli.seconds_high)} s`);
    return `page ${Math.round(lo)}-${Math.round(hi)} s, estimate ${Math.round(cli.seconds_low)}-${Math.round(cli.seconds_high)} s`;
  });
}

const RUN = { lang: groupLang, keys: groupKeys, kit: groupKit, estimate: groupEstimate, "counts-1280": ctx => groupCounts(ctx, 1280), "counts-360": ctx => groupCounts(ctx, 360),
              events: groupEvents, play: groupPlay, layout: groupLayout, latency: groupLatency, scalar: groupScalar };

async function main() {
  let o;
  try {
    o = options(process.argv.slice(2), ["page", "cli", "oeis", "chromium", "out", "group"], "lesson.mjs");
    if (!GROUPS.includes(o.group)) throw new Error("no group '" + o.group + "' (" + GROUPS.join(", ") + ")");
    if (!existsSync(o.page)) throw new Error("no page at " + o.page + " (make wasm builds it)");
  } catch (e) {
    console.log("FAIL " + e.message);
    process.exit(1);
  }
  const out = resolve(o.out);
  mkdirSync(out, { recursive: true });
  await runChecks(o.chromium, "lesson.mjs", o.group, [1280, 900], async (b, tab, unit) => {
    const ctx = { b, tab, out, unit, cli: o.cli, page: resolve(o.page), oeis: readOeis(o.oeis), url: pathToFileURL(resolve(o.page)).href };
    await RUN[o.group](ctx);
  });
}

main();
