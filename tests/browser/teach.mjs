// teach.mjs - issue 37's checks of the trace page in a real browser: that
// the page teaches what the engine does (run by test_trace_html.c).
//
//   node tests/browser/teach.mjs --cli build/nqueens --chromium PATH --out DIR
//        [--case GROUP[,GROUP...]] [--engine E[,E...]]
//
// GROUP (all by default, in this order):
//   steps     every teaching engine at N = 4..6, bitmap and flags at N = 8:
//             at ~40 steps (every kind; 3 opened by loading #step=K, the
//             rest by changing #step=K in the address) and 10 presses of
//             Right/Left: the board's data-step, -queens, -kind, -chosen,
//             the mask engines' data-candidates (board and #state) as the
//             text's "to try" (those squares marked .candidate, "ruled out"
//             ones .ruled); on a reject every attacking queen in
//             data-attackers and marked .attacker, the reasons in words in
//             #reason; .queen cells; a .codeline.current in #code; row and
//             column labels from 0; #line holds the text's line.  Again at
//             N = 5 (and bitmap N = 8) with --one-based: labels from 1, #line
//             as the --one-based text prints it, data-* still from 0
//   layout    no sideways scroll: 360x740 (a phone) for bitmap and flags at
//             N = 8 and bitmap --compare flags at N = 8; 1280x900 for
//             bitmap and flags at N = 16; every board cell inside the window
//   compare   every ordered pair of teaching engines at N = 5: board2 shows
//             the same board (data-paired "same") or, where the second walk
//             never had it, its longest leading part ("prefix"); at End both
//             at their own last step ("end"), at Home both at 0 ("start")
//   play      bitmap and flags at N = 8 at the top speed play to the end in
//             under 15 s of page time
//   controls  PageDown/PageUp +-100 steps, #prevsol/#nextsol, #speedval
//             "N steps/s" up to window.nqSpeedMax >= 2000, controls named
//   tree      window.nqTreePoint(0, j) of an earlier placement is on the
//             tree, a later one is not drawn yet; a click there shows step j
//   shots     PNGs at 360 and 1280 px wide (bitmap N = 8 at a mid step, and
//             bitmap --compare flags) into DIR
//   explain   at a whole walk's end, #explain gives OEIS's total and unique
//             (and what mirror's and symmetry's found boards stand for),
//             #counts opens with `nqueens tree`'s totals, the legend names
//             the colours; --style seed's block scrolls in a short panel
// --engine keeps, in steps and compare, the pages whose (first) engine is
// one of those named.
//
// Every expected value is replayed from the text trace (nqueens trace N
// --engine E --limit 50000, the page's own cap), never read from the page.
// Any console error or exception in the page fails the check it came in.
// Prints "ok ..." per check passed, "FAIL ..." per check failed; exits 1
// if any failed.
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { END, HOME, LEFT, PAGEDOWN, PAGEUP, RIGHT, click, evaluate, frames, load, noErrors,
         openTab, options, press, run, screenshot, setViewport, withBrowser } from "./cdp.mjs";

const TEACHING = ["brute", "backtrack", "flags", "bitmap", "mirror", "symmetry"];
const MASKS = new Set(["bitmap", "mirror", "symmetry"]);
const GROUPS = ["steps", "layout", "compare", "play", "controls", "tree", "shots", "explain"];
const CAP = "50000";            // the page's step cap, and the text traces' --limit here
const DESKTOP = [1300, 1000];   // the window between checks
const PLAY_MS = 15000;          // a whole N = 8 walk at top speed, page time

// ---- the text trace, replayed ----

// The columns marked 1 in a mask as the trace prints it (column 0 first).
function maskCols(m) {
  const cols = [];
  for (let c = 0; c < m.length; c++) if (m[c] === "1") cols.push(c);
  return cols;
}

// A walk from its text trace: steps[K] for K = 0..L, each with its kind,
// row and col (-1 where none), the board after it (a column a row, row 0
// first), path (the step that placed each of those queens), the masks
// "to try", "ruled out" and "free" where the line has them, and its line.
function walkOf(text, engine, n, what) {
  const steps = [{ k: 0, kind: "start", row: -1, col: -1, board: [], path: [],
                   toTry: null, ruled: null, free: null, line: null, rest: "" }];
  let q = [], path = [];
  for (const raw of text.split("\n")) {
    const m = /^\s*(\d+)\s+(place|reject|remove|solution|fail)\b\s*(.*)$/.exec(raw);
    if (!m) continue;
    const k = +m[1], kind = m[2], rest = m[3];
    if (k !== steps.length) throw new Error(what + ": text step " + k + " out of order");
    const s = { k, kind, row: -1, col: -1, toTry: null, ruled: null, free: null,
                line: raw.trim(), rest };
    if (kind === "solution" || kind === "fail") {
      const b = /#\d+:((?: \d+)+)/.exec(rest);
      if (!b) throw new Error(what + ": step " + k + ": no board in '" + raw.trim() + "'");
      q = b[1].trim().split(/\s+/).map(Number);
    } else {
      const sq = /row (\d+) col (\d+)/.exec(rest);
      if (!sq) throw new Error(what + ": step " + k + ": no square in '" + raw.trim() + "'");
      s.row = +sq[1]; s.col = +sq[2];
      if (kind === "place") {
        q = q.slice(0, s.row).concat([s.col]);
        path = path.slice(0, s.row).concat([k]);
      } else {
        q = q.slice(0, s.row);
        path = path.slice(0, s.row);
      }
    }
    let t;
    if ((t = /to try ([01]+)/.exec(rest))) s.toTry = maskCols(t[1]);
    if ((t = /ruled out ([01]+)/.exec(rest))) s.ruled = maskCols(t[1]);
    if ((t = /free ([01]+)/.exec(rest))) s.free = maskCols(t[1]);
    s.board = q; s.path = path;
    steps.push(s);
  }
  if (steps.length < 2) throw new Error(what + ": no steps in the text trace");
  const L = steps.length - 1;
  return { engine, n, what, steps, L,
           sols: steps.filter(s => s.kind === "solution").map(s => s.k),
           boards: new Set(steps.map(s => s.board.join(","))) };
}

// Every queen of `board` (rows above r) that attacks square (r, c), with
// the lines it attacks along: diagonal = the same r-c, anti-diagonal = the
// same r+c.
function attackersOf(board, r, c) {
  const out = [];
  board.forEach((qc, qr) => {
    if (qr >= r) return;
    const why = [];
    if (qc === c) why.push("column");
    if (qr - qc === r - c) why.push("diagonal");
    if (qr + qc === r + c) why.push("anti-diagonal");
    if (why.length) out.push({ r: qr, c: qc, why });
  });
  return out;
}

// The text trace itself as this test reads it: the attack computation
// above agrees with the reasons the text prints (flags: each array;
// backtrack: the queen it names), and the mask engines' lines carry
// "to try" with the column taken its lowest bit (issue 37's C side).
function checkText(w) {
  for (const s of w.steps.slice(1)) {
    const at = w.what + " text step " + s.k;
    if (s.kind === "reject") {
      const att = attackersOf(s.board, s.row, s.col);
      if (!att.length) throw new Error(at + ": a reject with no queen attacking row " + s.row + " col " + s.col);
      const words = new Set(att.flatMap(a => a.why));
      if (w.engine === "flags") {
        const said = new Set();
        if (/column taken/.test(s.rest)) said.add("column");
        if (/row-col/.test(s.rest)) said.add("diagonal");
        if (/row\+col/.test(s.rest)) said.add("anti-diagonal");
        if ([...said].sort().join() !== [...words].sort().join())
          throw new Error(at + ": the text says " + [...said] + ", this test computes " + [...words]);
      }
      const named = /attacked by the queen at row (\d+) col (\d+) \(same (column|diagonal)\)/.exec(s.rest);
      if (w.engine === "backtrack") {
        if (!named) throw new Error(at + ": no attacking queen named in '" + s.line + "'");
        const a = att.find(x => x.r === +named[1] && x.c === +named[2]);
        if (!a || (named[3] === "column") !== a.why.includes("column"))
          throw new Error(at + ": the text names row " + named[1] + " col " + named[2] + " (" + named[3] +
            "), not among the attackers this test computes");
      }
    }
    if (MASKS.has(w.engine) && s.kind === "place") {
      if (!s.toTry) throw new Error(at + ": no 'to try' in '" + s.line + "' (a build without issue 37's C side?)");
      if (s.toTry[0] !== s.col) throw new Error(at + ": 'to try' " + s.toTry + " but the column taken is " + s.col);
    }
    if (MASKS.has(w.engine) && s.kind === "remove" && s.toTry && s.toTry.some(c => c <= s.col))
      throw new Error(at + ": 'to try' " + s.toTry + " after giving up column " + s.col);
  }
}

// What the board of walk w must say at step k.
function expected(w, k) {
  const s = w.steps[k];
  return {
    step: String(k), queens: s.board.join(","), kind: s.kind,
    chosen: ["place", "reject", "remove"].includes(s.kind) ? String(s.col) : "",
    candidates: MASKS.has(w.engine) && s.toTry ? s.toTry.join(",") : "",
    attackers: s.kind === "reject" ? attackersOf(s.board, s.row, s.col) : [],
  };
}

// ---- the page, read ----

// Runs in the page: what walk i (0, 1) shows.
function pageRead(i) {
  const sfx = i ? String(i + 1) : "";
  const $ = id => document.getElementById(id);
  const board = $("board" + sfx), st = $("state" + sfx), code = $("code" + sfx);
  if (!board) return null;
  const cells = [...board.querySelectorAll(".cell")];
  const having = name => cells.filter(c => c.classList.contains(name)).map(c => c.dataset.r + ":" + c.dataset.c);
  // the labels beside this board: the nearest ancestor that has any
  let scope = board;
  while (scope && !scope.querySelector(".rowlabel, .collabel")) scope = scope.parentElement;
  const labels = sel => scope ? [...scope.querySelectorAll(sel)].filter(e => !(st && st.contains(e)))
    .map(e => e.textContent.trim()) : [];
  const text = id => ($(id + sfx) ? $(id + sfx).textContent : null);
  const d = board.dataset;
  return {
    step: d.step, queens: d.queens, kind: d.kind, chosen: d.chosen, candidates: d.candidates,
    attackers: d.attackers, paired: d.paired,
    stateChosen: st ? st.dataset.chosen : null, stateCandidates: st ? st.dataset.candidates : null,
    cells: cells.length, queenCells: having("queen"), attackerCells: having("attacker"),
    candidateCells: having("candidate"), ruledCells: having("ruled"),
    rowlabels: labels(".rowlabel"), collabels: labels(".collabel"),
    current: code ? code.querySelectorAll(".codeline.current").length : -1,
    reason: text("reason"), line: text("line"),
  };
}

let loadsEver = 0;  // each load's own ?load=K: a new URL, so it is loaded, not scrolled

// A page of this test, shown at any step: by loading it (#step=K in the
// address) or, once loaded, by changing #step=K (hashchange; if the page
// ignores that, by loading it again each time).
class Page {
  constructor(ctx, file) {
    this.b = ctx.b; this.tab = ctx.tab;
    this.url = pathToFileURL(file).href;
    this.loaded = false; this.hash = true; this.loads = 0;
  }
  async open(k) {
    this.loads++;
    await load(this.b, this.tab, this.url + "?load=" + ++loadsEver + (k === null ? "" : "#step=" + k));
    this.loaded = true;
  }
  async show(k) {
    await this.go(k, -1);
  }
  // Shows step k and returns what walk `i` shows then (-1: nothing; 2:
  // both walks, as [walk 0, walk 1]), read after the page's next frame.
  async go(k, i = 0) {
    if (this.loaded && this.hash) {
      const r = await evaluate(this.b, this.tab, `new Promise(res => {
        location.hash = "#step=${k}";
        const t0 = performance.now();
        const f = () => {
          const e = document.getElementById("board");
          if (e && e.dataset.step === "${k}") ${READ(i, "res")}
          else if (performance.now() - t0 > 1500) res("not there");
          else setTimeout(f, 4);
        };
        f();
      })`);
      if (r !== "not there") return r;
      this.hash = false;
    }
    await this.open(k);
    return i < 0 ? null : this.read(i);
  }
  // What walk i shows (2: both), after the page's next frame.
  read(i = 0) {
    return evaluate(this.b, this.tab, `new Promise(res => ${READ(i, "res")})`);
  }
  how() {
    return this.loads + " loads" + (this.hash ? "" : ", each #step=K by loading: the page ignored a changed #step=K");
  }
}

// Focus on the page itself, so that the keys reach its handler.
function unfocus(b, tab) {
  return evaluate(b, tab, "(() => { if (document.activeElement) document.activeElement.blur(); return true; })()");
}

// JavaScript that calls `res` with what walk i shows (2: both walks; -1:
// null) after the page's next frame (or 100 ms, if frames do not come).
function READ(i, res) {
  const what = i < 0 ? "null" : i === 2 ? "[read(0), read(1)]" : `read(${i})`;
  return `{ const read = ${pageRead}; let done = false;
    const f = () => { if (!done) { done = true; ${res}(${what}); } };
    requestAnimationFrame(f); setTimeout(f, 100); }`;
}

const collapse = s => String(s).replace(/\s+/g, " ").trim();
const sameSet = (a, b) => [...a].sort().join(" ") === [...b].sort().join(" ");

// The attackers as data-attackers lists them, each "r:c:why" with why's
// lines sorted; null when not in that form.
function parseAttackers(s) {
  if (s === undefined || s === null || s === "") return [];
  const out = [];
  for (const part of s.split(";")) {
    const m = /^(\d+):(\d+):((?:column|diagonal|anti-diagonal)(?:\+(?:column|diagonal|anti-diagonal))*)$/.exec(part.trim());
    if (!m) return null;
    out.push({ r: +m[1], c: +m[2], why: m[3].split("+").sort() });
  }
  return out;
}
const attackerKey = a => a.r + ":" + a.c + ":" + [...a.why].sort().join("+");

// Walk w's board shows step k as the text trace has it, in every
// attribute and mark of the contract.  opts.base: the labels' first
// number; opts.lines: the walk whose lines #line must show (the
// --one-based text for a --one-based page); opts.labels false: not checked.
function checkShown(w, k, got, how, opts = {}) {
  const e = expected(w, k), s = w.steps[k], n = w.n;
  const at = `${w.what}, ${how}`;
  const fail = msg => { throw new Error(`${at}: ${msg}`); };
  if (!got) fail("no #board");
  if (got.step !== e.step) fail(`the board shows step '${got.step}', not step ${k}`);
  const eq = (name, g, x) => {
    if ((g ?? "") !== x) fail(`step ${k} (${s.line || "start"}): ${name} is '${g}', the text trace's is '${x}'`);
  };
  eq("board data-queens", got.queens, e.queens);
  eq("board data-kind", got.kind, e.kind);
  eq("board data-chosen", got.chosen, e.chosen);
  eq("board data-candidates", got.candidates, e.candidates);
  if (MASKS.has(w.engine)) {
    if (got.stateChosen === null) fail("no #state");
    eq("#state data-chosen", got.stateChosen, e.chosen);
    eq("#state data-candidates", got.stateCandidates, e.candidates);
  }
  // every attacker of a refused square, marked, and why in words
  const att = parseAttackers(got.attackers);
  if (att === null) fail(`step ${k}: data-attackers '${got.attackers}' is not "r:c:why;..."`);
  if (!sameSet(att.map(attackerKey), e.attackers.map(attackerKey)))
    fail(`step ${k} (${s.line}): data-attackers '${got.attackers}', but the queens attacking row ${s.row} col ${s.col} are ` +
      `'${e.attackers.map(attackerKey).join(";")}'`);
  if (att.some((a, i) => i && att[i - 1].r > a.r)) fail(`step ${k}: data-attackers '${got.attackers}' not by row`);
  if (s.kind === "reject") {
    if (!sameSet(got.attackerCells, e.attackers.map(a => a.r + ":" + a.c)))
      fail(`step ${k} (${s.line}): cells marked .attacker ${got.attackerCells.join(" ") || "none"}; ` +
        `the attackers are ${e.attackers.map(a => a.r + ":" + a.c).join(" ")}`);
    const words = new Set(e.attackers.flatMap(a => a.why)), r = got.reason ?? "";
    if (got.reason === null) fail(`step ${k}: no #reason on a reject`);
    if (words.has("column") && !/column/i.test(r)) fail(`step ${k}: #reason '${collapse(r)}' does not say column`);
    if (words.has("diagonal") && !/(?<!anti-)diagonal/i.test(r)) fail(`step ${k}: #reason '${collapse(r)}' does not say diagonal`);
    if (words.has("anti-diagonal") && !/anti-diagonal/i.test(r)) fail(`step ${k}: #reason '${collapse(r)}' does not say anti-diagonal`);
  }
  // the cells
  if (got.cells !== n * n) fail(`${got.cells} .cell elements on the board, not ${n * n}`);
  if (!sameSet(got.queenCells, s.board.map((c, r) => r + ":" + c)))
    fail(`step ${k}: cells marked .queen ${got.queenCells.join(" ") || "none"}, queens at ${s.board.map((c, r) => r + ":" + c).join(" ")}`);
  if (MASKS.has(w.engine) && s.toTry && (s.kind === "place" || s.kind === "remove")) {
    const want = s.toTry.filter(c => c !== s.col).map(c => s.row + ":" + c);
    const missing = want.filter(x => !got.candidateCells.includes(x));
    if (missing.length) fail(`step ${k} (${s.line}): squares still to try not marked .candidate: ${missing.join(" ")}`);
  }
  if (MASKS.has(w.engine) && s.kind === "place" && s.ruled) {
    const missing = s.ruled.map(c => s.row + ":" + c).filter(x => !got.ruledCells.includes(x));
    if (missing.length) fail(`step ${k} (${s.line}): squares the engine rules out not marked .ruled: ${missing.join(" ")}`);
  }
  // the code line being run
  if (got.current < 0) fail("no #code panel");
  if (got.current < 1) fail(`step ${k}: no .codeline.current in #code`);
  // coordinates as the step lines count them
  if (opts.labels !== false) {
    const base = opts.base ?? 0, want = Array.from({ length: n }, (_, i) => String(i + base));
    for (const [name, got1] of [["row", got.rowlabels], ["column", got.collabels]])
      if (!sameSet(new Set(got1), want) || got1.length < n)
        fail(`step ${k}: ${name} labels '${got1.join(" ")}', not ${base}..${n - 1 + base}`);
  }
  if (opts.lines && k > 0) {
    const line = opts.lines.steps[k].line;
    if (got.line === null) fail("no #line");
    if (!collapse(got.line).includes(collapse(line))) fail(`step ${k}: #line '${collapse(got.line)}', the text's line '${line}'`);
  }
}

// ---- choosing steps ----

// ~count steps spread over the walk, and each kind's first, middle and
// last, the rejects with most attackers, and for the mask engines the
// placements where "free" still holds columns given up (the bitmap's
// lesson) and removes with and without squares left to try.
function pickSteps(w, count) {
  const L = w.L, ks = new Set([0, 1, L]);
  for (let i = 1; i < count; i++) ks.add(Math.round(i * L / count));
  const byKind = new Map();
  for (const s of w.steps.slice(1)) {
    if (!byKind.has(s.kind)) byKind.set(s.kind, []);
    byKind.get(s.kind).push(s.k);
  }
  for (const list of byKind.values())
    for (const k of [list[0], list[list.length >> 1], list[list.length - 1]]) ks.add(k);
  w.steps.filter(s => s.kind === "reject")
    .map(s => [attackersOf(s.board, s.row, s.col).length, s.k])
    .sort((a, b) => b[0] - a[0] || a[1] - b[1]).slice(0, 3).forEach(([, k]) => ks.add(k));
  if (MASKS.has(w.engine)) {
    const some = (pred, m) => w.steps.filter(pred).slice(0, m).forEach(s => ks.add(s.k));
    some(s => s.kind === "place" && s.free && s.free.some(c => c < s.col), 3);
    some(s => s.kind === "remove" && s.toTry && s.toTry.length > 0, 2);
    some(s => s.kind === "remove" && s.toTry && s.toTry.length === 0, 1);
    some(s => s.kind === "place" && s.ruled && s.ruled.length > 0, 1);
  }
  return [...ks].filter(k => k >= 0 && k <= L).sort((a, b) => a - b);
}

function firstOf(w, kind) {
  const s = w.steps.find(x => x.kind === kind);
  return s ? s.k : null;
}

// ---- the groups ----

// Walk w's page at many steps, by address and by key.
async function stepsUnit(ctx, engine, n, count, oneBased) {
  const w = ctx.walk(engine, n);
  const lines = oneBased ? ctx.walk(engine, n, true) : w;
  const pg = new Page(ctx, ctx.page(engine, n, oneBased ? ["--one-based"] : []));
  const opts = { base: oneBased ? 1 : 0, lines };
  const L = w.L, ks = pickSteps(w, count);
  await pg.open(null);
  checkShown(w, 0, await pg.read(), "opened", opts);
  const reload = new Set([L, firstOf(w, "reject") ?? firstOf(w, "solution")]);
  for (const k of ks) {
    let got;
    if (reload.has(k)) { await pg.open(k); got = await pg.read(); } else got = await pg.go(k);
    checkShown(w, k, got, "#step=" + k, opts);
  }
  // by key: Right 7 times from a step before the first reject (or a
  // quarter in), then Left 3 times
  const from = Math.max(0, Math.min(L - 7, (firstOf(w, "reject") ?? (L >> 2)) - 3));
  await pg.show(from);
  await unfocus(ctx.b, ctx.tab);
  let k = from, keys = 0;
  for (let i = 0; i < 7 && k < L; i++, keys++) {
    await press(ctx.b, ctx.tab, ...RIGHT);
    checkShown(w, ++k, await pg.read(), `#step=${from} then ${i + 1} presses of Right`, opts);
  }
  for (let i = 0; i < 3 && k > 0; i++, keys++) {
    await press(ctx.b, ctx.tab, ...LEFT);
    checkShown(w, --k, await pg.read(), `then ${i + 1} presses of Left`, opts);
  }
  return `${ks.length + 1} steps opened and ${keys} keys, as the text trace has them (${pg.how()})`;
}

async function groupSteps(ctx) {
  const configs = [];
  for (const e of TEACHING) for (let n = 4; n <= 6; n++) configs.push([e, n, 40, false]);
  configs.push(["bitmap", 8, 40, false], ["flags", 8, 40, false]);
  for (const e of TEACHING) configs.push([e, 5, 8, true]);
  configs.push(["bitmap", 8, 8, true]);
  for (const [e, n, count, oneBased] of configs) {
    if (!ctx.engines.includes(e)) continue;
    await ctx.unit(`steps ${e} N=${n}${oneBased ? " --one-based" : ""}`,
      () => stepsUnit(ctx, e, n, count, oneBased));
  }
}

// No sideways scroll, and the board inside the window, at a few steps.
async function layoutUnit(ctx, pageArgs, w, width, height, mobile) {
  const pg = new Page(ctx, ctx.pageOf(pageArgs));
  await setViewport(ctx.b, ctx.tab, width, height, mobile);
  try {
    const deep = w.steps.reduce((a, s) => (s.board.length > a.board.length ? s : a), w.steps[0]).k;
    const ks = [...new Set([0, firstOf(w, "reject") ?? 1, deep, w.L >> 1, w.L])].sort((a, b) => a - b);
    for (const k of ks) {
      await pg.show(k);
      await frames(ctx.b, ctx.tab);
      const m = await evaluate(ctx.b, ctx.tab, `(() => {
        const d = document.documentElement, b = document.getElementById("board");
        const cells = [...document.querySelectorAll(".cell")].map(c => c.getBoundingClientRect());
        return { step: b && b.dataset.step, sw: d.scrollWidth, iw: innerWidth, cells: cells.length,
                 right: Math.max(...cells.map(r => r.right)), left: Math.min(...cells.map(r => r.left)) };
      })()`);
      const at = `at ${width}x${height}, step ${k}`;
      if (m.step !== String(k)) throw new Error(`${at}: the board shows step ${m.step}`);
      if (m.iw > width)
        throw new Error(`${at}: innerWidth ${m.iw} (scrollWidth ${m.sw}): the page is wider than the window, zoomed out to fit`);
      if (m.sw > m.iw) throw new Error(`${at}: document.documentElement.scrollWidth ${m.sw} > innerWidth ${m.iw}: it scrolls sideways`);
      if (!m.cells) throw new Error(`${at}: no .cell`);
      if (m.right > m.iw + 0.5 || m.left < -0.5)
        throw new Error(`${at}: board cells from x=${m.left} to x=${m.right}, outside the window (0..${m.iw})`);
    }
    return `scrollWidth <= innerWidth at ${width}x${height}${mobile ? " (mobile)" : ""}, steps ${ks.join(" ")}, board inside the window`;
  } finally {
    await setViewport(ctx.b, ctx.tab, ...DESKTOP, false);
  }
}

async function groupLayout(ctx) {
  const cases = [
    [["8", "--engine", "bitmap"], ["bitmap", 8], 360, 740, true],
    [["8", "--engine", "flags"], ["flags", 8], 360, 740, true],
    [["8", "--engine", "bitmap", "--compare", "flags"], ["bitmap", 8], 360, 740, true],
    [["16", "--engine", "bitmap"], ["bitmap", 16], 1280, 900, false],
    [["16", "--engine", "flags"], ["flags", 16], 1280, 900, false],
  ];
  for (const [args, [e, n], width, height, mobile] of cases)
    await ctx.unit(`layout trace ${args.join(" ")} at ${width} px`,
      () => layoutUnit(ctx, args, ctx.walk(e, n, false, false), width, height, mobile));
}

// The longest leading part of board that walk w2 ever had.
function longestPrefix(w2, board) {
  for (let l = board.length; l > 0; l--) if (w2.boards.has(board.slice(0, l).join(","))) return l;
  return 0;
}

// --compare e2 at N = 5: board2 paired with board by the queens.
async function compareUnit(ctx, e1, e2) {
  const n = 5, w1 = ctx.walk(e1, n, false, false), w2 = ctx.walk(e2, n, false, false);
  const pg = new Page(ctx, ctx.pageOf([String(n), "--engine", e1, "--compare", e2], `teach-${e1}-${n}-compare-${e2}`));
  const ks = new Set([0, w1.L]);
  for (let i = 1; i < 12; i++) ks.add(Math.round(i * w1.L / 12));
  const never = w1.steps.filter(s => s.board.length && !w2.boards.has(s.board.join(",")));
  const had = w1.steps.filter(s => s.board.length && s.k < w1.L && w2.boards.has(s.board.join(",")));
  for (const list of [never, had])
    if (list.length) for (const s of [list[0], list[list.length >> 1]]) ks.add(s.k);
  let same = 0, prefix = 0;
  const check = (k, g1, g2, how) => {
    const at = `${how} (${e1} step ${k}: ${w1.steps[k].line || "start"})`;
    const want1 = w1.steps[k].board.join(",");
    if (!g1 || g1.step !== String(k) || g1.queens !== want1)
      throw new Error(`${at}: board shows step ${g1 && g1.step} queens '${g1 && g1.queens}', not step ${k} '${want1}'`);
    if (!g2) throw new Error(`${at}: no #board2`);
    const j = Number(g2.step);
    if (!/^\d+$/.test(g2.step ?? "") || j > w2.L) throw new Error(`${at}: board2 data-step '${g2.step}' (${e2} has ${w2.L} steps)`);
    const b2 = w2.steps[j].board.join(",");
    if (g2.queens !== b2) throw new Error(`${at}: board2 shows ${e2}'s step ${j} with queens '${g2.queens}'; its text trace has '${b2}'`);
    if (k === w1.L) {
      if (g2.paired !== "end" || j !== w2.L)
        throw new Error(`${at}: at the end board2 is at step ${j} of ${w2.L}, data-paired '${g2.paired}' (both must be at their own end, "end")`);
      return;
    }
    if (k === 0) {
      if (g2.paired !== "start" || j !== 0)
        throw new Error(`${at}: at the start board2 is at step ${j}, data-paired '${g2.paired}' (both at 0, "start")`);
      return;
    }
    if (!want1 && g2.paired === "start") {  // the empty board again, after row 0's last remove
      if (g2.queens !== "") throw new Error(`${at}: data-paired "start" with board2's queens '${g2.queens}'`);
      return;
    }
    if (g2.paired === "same") {
      if (g2.queens !== want1) throw new Error(`${at}: data-paired "same" but board2 has '${g2.queens}', board '${want1}'`);
      same++;
    } else if (g2.paired === "prefix") {
      const B = w1.steps[k].board, l = longestPrefix(w2, B);
      if (w2.boards.has(want1))
        throw new Error(`${at}: data-paired "prefix", but ${e2}'s text trace has board '${want1}' (step ` +
          `${w2.steps.find(s => s.board.join(",") === want1).k})`);
      if (g2.queens !== B.slice(0, l).join(","))
        throw new Error(`${at}: data-paired "prefix" with board2 '${g2.queens}'; the longest leading part of '${want1}' ` +
          `that ${e2} had is '${B.slice(0, l).join(",")}'`);
      prefix++;
    } else {
      throw new Error(`${at}: data-paired '${g2.paired}' (board2 at ${e2}'s step ${j}, queens '${g2.queens}')`);
    }
  };
  const sorted = [...ks].sort((a, b) => a - b);
  for (const k of sorted) {
    let got;
    if (k === w1.L) { await pg.open(k); got = await pg.read(2); } else got = await pg.go(k, 2);
    check(k, got[0], got[1], "#step=" + k);
  }
  await unfocus(ctx.b, ctx.tab);
  await press(ctx.b, ctx.tab, ...HOME);
  check(0, ...await pg.read(2), "Home");
  await press(ctx.b, ctx.tab, ...END);
  check(w1.L, ...await pg.read(2), "End");
  return `${sorted.length + 2} steps: ${same} same, ${prefix} prefix (never reached by ${e2}), ` +
    `both at their own end (${w1.L} and ${w2.L}) (${pg.how()})`;
}

async function groupCompare(ctx) {
  for (const e1 of TEACHING) {
    if (!ctx.engines.includes(e1)) continue;
    for (const e2 of TEACHING)
      if (e2 !== e1) await ctx.unit(`compare ${e1} N=5 --compare ${e2}`, () => compareUnit(ctx, e1, e2));
  }
}

// Sets #speed to its max (an input event); returns #speedval's text and
// window.nqSpeedMax.
function topSpeed(ctx) {
  return setSpeed(ctx, "max");
}
function setSpeed(ctx, which) {
  return evaluate(ctx.b, ctx.tab, `(() => {
    const s = document.getElementById("speed"), v = document.getElementById("speedval");
    if (!s) return null;
    const lo = Number(s.min || 0), hi = Number(s.max || 100);
    s.value = ${JSON.stringify(which)} === "max" ? hi : ${JSON.stringify(which)} === "min" ? lo : (lo + hi) / 2;
    for (const t of ["input", "change"]) s.dispatchEvent(new Event(t, { bubbles: true }));
    return { text: v ? v.textContent : null, max: window.nqSpeedMax };
  })()`);
}
// "N steps/s" as a number, or null.
function stepsPerSecond(text) {
  const m = /^\s*([\d][\d,.\s\u00a0\u202f]*)\s*steps\/s\s*$/.exec(text ?? "");
  return m ? Number(m[1].replace(/[,\s\u00a0\u202f]/g, "")) : null;
}

async function playUnit(ctx, engine, n) {
  const w = ctx.walk(engine, n, false, false), pg = new Page(ctx, ctx.page(engine, n, []));
  await pg.open(null);
  const sp = await topSpeed(ctx);
  if (!sp) throw new Error("no #speed");
  if (!(sp.max >= 2000)) throw new Error(`window.nqSpeedMax is ${sp.max}, not >= 2000 steps/s`);
  await evaluate(ctx.b, ctx.tab, `(() => {
    const b = document.getElementById("board");
    window.__nqPlay = { t0: performance.now(), t1: null };
    new MutationObserver(() => {
      if (b.dataset.step === "${w.L}" && window.__nqPlay.t1 === null) window.__nqPlay.t1 = performance.now();
    }).observe(b, { attributes: true, attributeFilter: ["data-step"] });
    document.getElementById("play").click();
    return true;
  })()`);
  const wall = Date.now();
  let p;
  for (;;) {
    await new Promise(r => setTimeout(r, 250));
    p = await evaluate(ctx.b, ctx.tab, `(() => ({ step: document.getElementById("board").dataset.step,
      t: performance.now() - window.__nqPlay.t0, t1: window.__nqPlay.t1 === null ? null : window.__nqPlay.t1 - window.__nqPlay.t0 }))()`);
    if (p.t1 !== null || p.t > PLAY_MS + 500 || Date.now() - wall > PLAY_MS + 10000) break;
  }
  if (p.t1 === null)
    throw new Error(`at the top speed (#speedval '${sp.text}') it reached step ${p.step} of ${w.L} in ${(p.t / 1000).toFixed(1)} s ` +
      `of page time; the whole walk must play in ${PLAY_MS / 1000} s`);
  if (p.t1 > PLAY_MS) throw new Error(`the whole walk took ${(p.t1 / 1000).toFixed(1)} s of page time, over ${PLAY_MS / 1000} s`);
  const end = await pg.read();
  if (!end || end.step !== String(w.L) || end.queens !== w.steps[w.L].board.join(","))
    throw new Error(`played to the end: the board shows step ${end && end.step} queens '${end && end.queens}', ` +
      `the text trace's last is step ${w.L} '${w.steps[w.L].board.join(",")}'`);
  return `${w.L} steps played at ${sp.text} in ${(p.t1 / 1000).toFixed(1)} s of page time`;
}

async function groupPlay(ctx) {
  for (const e of ["bitmap", "flags"]) await ctx.unit(`play ${e} N=8`, () => playUnit(ctx, e, 8));
}

async function controlsUnit(ctx, engine, n) {
  const w = ctx.walk(engine, n), L = w.L, pg = new Page(ctx, ctx.page(engine, n, []));
  const { b, tab } = ctx;
  const opts = { labels: false };
  const key = async (k, name, want, how) => {
    await unfocus(b, tab);
    await press(b, tab, ...k);
    checkShown(w, want, await pg.read(), how + ", then " + name, opts);
  };
  const K0 = Math.min(1000, L >> 2);
  await pg.open(K0);
  await key(PAGEDOWN, "PageDown", Math.min(L, K0 + 100), "#step=" + K0);
  await key(PAGEDOWN, "PageDown", Math.min(L, K0 + 200), "#step=" + K0 + ", PageDown");
  await key(PAGEUP, "PageUp", Math.min(L, K0 + 100), "#step=" + K0 + ", PageDown twice");
  await key(PAGEUP, "PageUp", K0, "#step=" + K0 + ", PageDown twice, PageUp");
  await pg.show(L - 30);
  await key(PAGEDOWN, "PageDown", L, "#step=" + (L - 30));
  await pg.show(30);
  await key(PAGEUP, "PageUp", 0, "#step=30");
  // previous and next solution
  const S = w.sols;
  if (S.length < 4) throw new Error(`${w.what}: only ${S.length} solutions in the text trace`);
  const button = async (id, want, how) => {
    const there = await evaluate(b, tab, `(() => { const e = document.getElementById("${id}"); if (!e) return false; e.click(); return true; })()`);
    if (!there) throw new Error("no #" + id);
    checkShown(w, want, await pg.read(), how + ", then #" + id, opts);
  };
  const i = S.length >> 1, mid = (S[i - 1] + S[i]) >> 1;
  await pg.show(mid);
  await button("nextsol", S[i], `#step=${mid} (between solutions at ${S[i - 1]} and ${S[i]})`);
  await button("nextsol", S[i + 1], `#step=${mid}, #nextsol`);
  await button("prevsol", S[i], `#step=${mid}, #nextsol twice`);
  await button("prevsol", S[i - 1], `#step=${mid}, #nextsol twice, #prevsol`);
  await pg.show(0);
  await button("nextsol", S[0], "#step=0");
  await pg.show(L);
  await button("prevsol", S[S.length - 1], "#step=" + L);
  // the speed, in steps a second
  const seen = [];
  for (const which of ["min", "mid", "max"]) {
    const sp = await setSpeed(ctx, which);
    if (!sp) throw new Error("no #speed");
    const v = stepsPerSecond(sp.text);
    if (v === null) throw new Error(`#speed at its ${which}: #speedval says '${sp.text}', not "N steps/s"`);
    seen.push(v);
    if (which === "max") {
      if (!(sp.max >= 2000)) throw new Error(`window.nqSpeedMax is ${sp.max}, not >= 2000`);
      if (v !== sp.max) throw new Error(`#speed at its max: #speedval '${sp.text}', window.nqSpeedMax ${sp.max}`);
    }
  }
  if (!(seen[0] <= seen[1] && seen[1] <= seen[2] && seen[0] < seen[2]))
    throw new Error(`#speedval from the slider's min to its max: ${seen.join(", ")} steps/s`);
  // every control named for a screen reader
  const unnamed = await evaluate(b, tab, `(() => {
    const ids = ["start", "back", "play", "forward", "prevsol", "nextsol", "end", "speed", "stepno"];
    const named = e => (e.getAttribute("aria-label") || "").trim() || e.getAttribute("aria-labelledby") ||
      (e.tagName === "BUTTON" && e.textContent.trim()) || (e.labels && e.labels.length && e.labels[0].textContent.trim());
    return ids.filter(id => { const e = document.getElementById(id); return !e || !named(e); });
  })()`);
  if (unnamed.length) throw new Error("controls missing or without a name: #" + unnamed.join(" #"));
  return `PageDown/PageUp +-100, #prevsol/#nextsol at solutions ${S[i - 1]}, ${S[i]}, ${S[i + 1]}, #speedval ${seen.join(" .. ")} steps/s, controls named`;
}

async function groupControls(ctx) {
  for (const e of ["bitmap", "flags"]) await ctx.unit(`controls ${e} N=8`, () => controlsUnit(ctx, e, 8));
}

// The tree at step K: an earlier placement on the current path has a
// point on the canvas, a later one none; a click there shows its step.
async function treeUnit(ctx, engine, n) {
  const w = ctx.walk(engine, n), pg = new Page(ctx, ctx.page(engine, n, []));
  const { b, tab } = ctx;
  const s = w.steps.find(x => x.k >= w.L / 3 && x.kind === "place" && x.board.length >= Math.min(4, n - 1));
  if (!s) throw new Error(`${w.what}: no placement at depth 4 after a third of the walk`);
  const K = s.k;
  await pg.open(K);
  const point = async j => evaluate(b, tab, `(() => {
    if (typeof window.nqTreePoint !== "function") return "none";
    const p = window.nqTreePoint(0, ${j}), t = document.getElementById("tree");
    if (!p) return null;
    const r = t ? t.getBoundingClientRect() : null;
    const hit = document.elementFromPoint(p.x, p.y);
    return { x: p.x, y: p.y, rect: r && [r.left, r.top, r.right, r.bottom], inTree: !!(t && hit && (hit === t || t.contains(hit))),
             vw: innerWidth, vh: innerHeight };
  })()`);
  await evaluate(b, tab, `(() => { const t = document.getElementById("tree"); if (t) t.scrollIntoView({ block: "center" }); return !!t; })()`);
  await frames(b, tab);
  const later = w.steps.find(x => x.k > K && x.kind === "place");
  const ancestors = s.path.slice(0, -1).reverse();
  let j = null, p = null;
  for (const a of ancestors) {
    p = await point(a);
    if (p === "none") throw new Error("no window.nqTreePoint");
    if (p) { j = a; break; }
  }
  if (j === null) throw new Error(`at step ${K}: nqTreePoint(0, j) is null for every placement on the current path (${ancestors.join(" ")})`);
  const at = `at step ${K}, nqTreePoint(0, ${j}) = (${p.x}, ${p.y})`;
  if (!p.rect) throw new Error(`${at}: no #tree`);
  if (p.x < p.rect[0] || p.x > p.rect[2] || p.y < p.rect[1] || p.y > p.rect[3])
    throw new Error(`${at}: outside #tree (${p.rect.map(Math.round).join(" ")})`);
  if (p.x < 0 || p.y < 0 || p.x > p.vw || p.y > p.vh) throw new Error(`${at}: outside the window`);
  if (!p.inTree) throw new Error(`${at}: something other than the tree is on top there`);
  if (later) {
    const q = await point(later.k);
    if (q) throw new Error(`at step ${K}: nqTreePoint(0, ${later.k}) gives a point for a placement not made yet`);
  }
  await click(b, tab, p.x, p.y);
  checkShown(w, j, await pg.read(), `${at}, clicked`, {});
  // an earlier placement off the current path, if one is drawn
  await pg.show(K);
  await frames(b, tab);
  const onPath = new Set(s.path);
  const off = w.steps.filter(x => x.kind === "place" && x.k < K && !onPath.has(x.k)).slice(-30).reverse();
  let also = "";
  for (const x of off) {
    const q = await point(x.k);
    if (!q || !q.inTree) continue;
    await click(b, tab, q.x, q.y);
    checkShown(w, x.k, await pg.read(), `at step ${K}, nqTreePoint(0, ${x.k}) = (${q.x}, ${q.y}), clicked`, {});
    also = ` and off it ${x.k}`;
    break;
  }
  return `at step ${K} a click on the node of step ${j} on the path${also} shows that step; step ${later ? later.k : "-"} not drawn yet`;
}

async function groupTree(ctx) {
  for (const [e, n] of [["bitmap", 8], ["flags", 8], ["mirror", 6], ["brute", 5]])
    await ctx.unit(`tree ${e} N=${n}`, () => treeUnit(ctx, e, n));
}

async function groupShots(ctx) {
  const w = ctx.walk("bitmap", 8, false, false);
  const s = w.steps.find(x => x.k >= w.L / 2 && x.kind === "place" && x.board.length >= 5) || w.steps[w.L >> 1];
  for (const [args, name] of [[["8", "--engine", "bitmap"], "teach-bitmap-8"],
                              [["8", "--engine", "bitmap", "--compare", "flags"], "teach-bitmap-8-compare-flags"]])
    for (const [width, height, mobile] of [[360, 740, true], [1280, 900, false]])
      await ctx.unit(`shots trace ${args.join(" ")} at ${width} px`, async () => {
        const pg = new Page(ctx, ctx.pageOf(args, name));
        await setViewport(ctx.b, ctx.tab, width, height, mobile);
        try {
          await pg.open(s.k);
          await frames(ctx.b, ctx.tab);
          const file = join(ctx.out, `${name}-${width}.png`);
          await screenshot(ctx.b, ctx.tab, file, true);
          return `step ${s.k} in ${file}`;
        } finally {
          await setViewport(ctx.b, ctx.tab, ...DESKTOP, false);
        }
      });
}

// ---- what the numbers are, the legend, the seed style's panel ----

// OEIS A000170 (total) and A002562 (unique) for the boards used here.
const OEIS = { 6: ["4", "1"], 8: ["92", "12"] };

// At the walk's end: #explain states the engine's total and unique
// counts as OEIS has them (and for mirror and symmetry what the found
// boards stand for: twice their number, their weights' sum); #counts
// opens with `nqueens tree`'s totals line; the legend names the colours.
async function explainUnit(ctx, engine, n) {
  const file = ctx.page(engine, n, []);
  await load(ctx.b, ctx.tab, pathToFileURL(file).href + "?explain#step=999999999");
  const got = await evaluate(ctx.b, ctx.tab, "({explain: document.getElementById('explain').textContent, " +
    "counts: document.getElementById('counts').textContent, legend: document.querySelector('.legend').textContent})");
  const [T, U] = OEIS[n];
  if (!got.explain.includes(`counts ${T} solutions in all and ${U} unique`))
    throw new Error(`#explain does not give OEIS's ${T} and ${U}: '${got.explain}'`);
  const stands = engine === "mirror" ? `standing for ${T}` : engine === "symmetry" ? `weights adding to ${T} solutions` : null;
  if (stands && !got.explain.includes(stands)) throw new Error(`#explain lacks '${stands}': '${got.explain}'`);
  const tree = run(ctx.cli, ["tree", String(n), "--engine", engine]).trim().split("\n").pop();
  if (!got.counts.startsWith(tree)) throw new Error(`#counts '${got.counts}' is not tree's '${tree}'`);
  for (const word of ["queen", "attacked", "a solution"])
    if (!got.legend.includes(word)) throw new Error(`the legend lacks '${word}': '${got.legend}'`);
  return `total ${T}, unique ${U}, tree's '${tree}', legend`;
}

// --style seed: each step's block of lines scrolls inside a panel of
// fixed height instead of pushing the board off the screen.
async function seedPanelUnit(ctx) {
  const file = ctx.pageOf(["4", "--style", "seed"], "teach-seed-4");
  await load(ctx.b, ctx.tab, pathToFileURL(file).href + "?seed#step=1");
  const got = await evaluate(ctx.b, ctx.tab, "(() => { const e = document.getElementById('line'); " +
    "return {client: e.clientHeight, scroll: e.scrollHeight, window: innerHeight, lines: e.textContent.split('\\n').length}; })()");
  if (got.lines < 10) throw new Error(`step 1's seed block has ${got.lines} lines, expected a block`);
  if (got.client > got.window / 3) throw new Error(`the seed panel is ${got.client} px high in a ${got.window} px window`);
  if (got.scroll <= got.client) throw new Error(`the seed panel does not scroll (${got.scroll} <= ${got.client})`);
  return `a ${got.lines}-line block in a ${got.client} px panel that scrolls`;
}

async function groupExplain(ctx) {
  for (const [e, n] of [["mirror", 6], ["mirror", 8], ["symmetry", 6], ["symmetry", 8], ["bitmap", 8], ["backtrack", 6]])
    await ctx.unit(`explain ${e} N=${n}`, () => explainUnit(ctx, e, n));
  await ctx.unit("seed style panel N=4", () => seedPanelUnit(ctx));
}

const RUN = { steps: groupSteps, layout: groupLayout, compare: groupCompare, play: groupPlay,
              controls: groupControls, tree: groupTree, shots: groupShots, explain: groupExplain };

async function main() {
  let o;
  try {
    o = options(process.argv.slice(2), ["cli", "chromium", "out"], "teach.mjs");
    for (const g of (o.case || "").split(",").filter(Boolean))
      if (!GROUPS.includes(g)) throw new Error("teach.mjs: no group '" + g + "' (" + GROUPS.join(", ") + ")");
    for (const e of (o.engine || "").split(",").filter(Boolean))
      if (!TEACHING.includes(e)) throw new Error("teach.mjs: no teaching engine '" + e + "' (" + TEACHING.join(", ") + ")");
  } catch (e) {
    console.log("FAIL " + e.message);
    process.exit(1);
  }
  const groups = o.case ? o.case.split(",") : GROUPS;
  const out = resolve(o.out);
  mkdirSync(out, { recursive: true });
  const t0 = Date.now();
  let passed = 0, failed = 0;
  await withBrowser(o.chromium, async b => {
    const tab = await openTab(b, ...DESKTOP);
    const walks = new Map(), pages = new Map();
    const ctx = {
      b, tab, out, cli: o.cli,
      engines: o.engine ? o.engine.split(",") : TEACHING,
      // The text trace of engine at N, replayed (and checked: checkText).
      walk(engine, n, oneBased = false, check = true) {
        const key = [engine, n, oneBased].join(" ");
        if (!walks.has(key)) {
          const args = ["trace", String(n), "--engine", engine, "--limit", CAP];
          if (oneBased) args.push("--one-based");
          const w = walkOf(run(o.cli, args), engine, n, `${engine} N=${n}${oneBased ? " --one-based" : ""}`);
          walks.set(key, w);
        }
        const w = walks.get(key);
        if (check && !oneBased && !w.checked) { checkText(w); w.checked = true; }
        return w;
      },
      // The page of `trace ARGS --format html`, written to DIR once.
      pageOf(args, name) {
        const file = join(out, (name || "teach-" + args.join("").replace(/[^A-Za-z0-9]+/g, "-")) + ".html");
        if (!pages.has(file)) {
          writeFileSync(file, run(o.cli, ["trace", ...args, "--format", "html"]));
          pages.set(file, true);
        }
        return file;
      },
      page(engine, n, extra) {
        return this.pageOf([String(n), "--engine", engine, ...extra],
          `teach-${engine}-${n}${extra.map(x => x.replace(/^-+/, "-")).join("")}`);
      },
      async unit(name, fn) {
        const t = Date.now();
        try {
          const said = await fn();
          noErrors(tab, "in the page");
          passed++;
          console.log(`ok ${name}: ${said} (${Date.now() - t} ms)`);
        } catch (e) {
          failed++;
          tab.errors.length = 0;
          console.log(`FAIL ${name}: ${e.message}`);
          if (b.dead) throw new Error("chromium exited");
        }
      },
    };
    for (const g of groups) await RUN[g](ctx);
  }).catch(e => { failed++; console.log("FAIL teach.mjs: " + e.message); });
  const secs = ((Date.now() - t0) / 1000).toFixed(1);
  if (failed) console.log(`FAIL teach.mjs: ${failed} of ${passed + failed} checks failed (${secs} s)`);
  else console.log(`ok teach.mjs: ${passed} checks (${groups.join(", ")}) in ${secs} s`);
  process.exit(failed ? 1 : 0);
}

main();
