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
//             ones .ruled), the masks named down, down-right and down-left
//             holding the squares the queens above attack that way (the
//             text's and #state's); on a reject every attacking queen in
//             data-attackers and marked .attacker, the reasons in words in
//             #reason; #reason a sentence at every step, naming a dead end
//             and why a queen may stand; .queen cells; a .codeline.current
//             in #code; row and
//             column labels from 0; #line holds the text's line.  Again at
//             N = 5 (and bitmap N = 8) with --one-based: labels from 1, #line
//             as the --one-based text prints it, data-* still from 0
//   layout    no sideways scroll: 360x740 (a phone) for bitmap and flags at
//             N = 8 and bitmap --compare flags at N = 8; 1280x900 for
//             bitmap and flags at N = 16; every board cell inside the window
//   compare   every ordered pair of teaching engines at N = 5: board2 shows
//             the second walk's step at the same moment of the search (the
//             test's own order of moments: data-paired "same") or, where it
//             never comes to that moment, its last step before it
//             ("before"), at Home both at 0 ("start"); #pos2 names that
//             step and what it does; window.nqPaired agrees at every step
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
//   pairing   the moments rise step by step in every engine's walk at
//             N = 4..9; backtrack, flags and bitmap paired with each other
//             at N = 6 and 8: at every step the step beside has found as
//             many solutions and made as many nodes; pairs with brute,
//             mirror (odd N) and symmetry at the moment the test computes
//   numbering with and without --one-based: every row and column named in
//             words counted as the board's labels are, the masks' cells as
//             its columns, the flags' cells by the program's index from 0
//             (said so)
//   keys      Space plays and pauses on a clicked button and on the layout
//             box (pressing and ticking neither), not in the step field;
//             Enter presses the focused button
//   phone     at 360x740: the document's height the same over 500 steps
//             (several engines, --compare, --one-based), the step's line in
//             the first screen under a one-row sticky bar, a pinch zooming
//             the tree and not the page, the footer's words for a phone
//             (and a desktop's at 1280)
//   words     each engine's word where a page first says it glossed: a
//             focusable .term described by #gloss, shown on hover, focus and
//             tap; the default speed 1 to 2 steps a second; brute force's
//             note on its N^N candidates and first solution
//   live      pages driven as the lesson page drives them (NQ_LIVE, walks
//             handed over a chunk at a time): the same pairing and boards
//             as the command line's page, "coming" while the second walk
//             has not got there
// --engine keeps, in steps and compare, the pages whose (first) engine is
// one of those named.
//
// Every expected value is replayed from the text trace (nqueens trace N
// --engine E --limit 50000, the page's own cap), never read from the page
// (but in live, which sets the lesson page beside the command line's page).
// Any console error or exception in the page fails the check it came in.
// Prints "ok ..." per check passed, "FAIL ..." per check failed; exits 1
// if any failed.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { browserLanguages, checkEnglish, checkJapanese } from "./lang.mjs";
import { END, ENTER, HOME, LEFT, PAGEDOWN, PAGEUP, RIGHT, SPACE, click, evaluate, frames, load, options,
         press, run, runChecks, screenshot, setViewport } from "./cdp.mjs";
import { MASKS, TEACHING, READ, attackerKey, attackersOf, checkShown, checkText, collapse, expected, firstOf, maskCols, masksOf, pageRead, parseAttackers, pickSteps, sameSet, unfocus, walkOf } from "./panels.mjs";

const GROUPS = ["steps", "layout", "compare", "play", "controls", "tree", "shots", "explain",
                "pairing", "numbering", "keys", "phone", "words", "live"];
const CAP = "50000";            // the page's step cap, and the text traces' --limit here
const DESKTOP = [1300, 1000];   // the window between checks
const PLAY_MS = 15000;          // a whole N = 8 walk at top speed, page time

// ---- the command line's pages, opened at a step ----

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

// ---- the moment of the search a step stands for ----

// Where step s stands in the search's one order, as this test reads the
// walk (every engine here goes depth first, a row's columns in
// increasing order): a list compared item by item, a shorter list first
// where one starts the other.  The board's columns, then -2 for a refused
// square (before where its subtree would be), -1 for entering the board,
// N inside it (a solution or a tested candidate), N + 1 for leaving it.
function momentOf(s, n) {
  if (s.kind === "start") return [];
  if (s.kind === "place") return [...s.board, -1];
  if (s.kind === "reject") return [...s.board, s.col, -2];
  if (s.kind === "remove") return [...s.board, s.col, n + 1];
  return [...s.board, n];
}

function compareMoments(a, b) {
  for (let i = 0; i < a.length && i < b.length; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
}

// Walk w's moments, checked to rise step by step (the order the pairing
// rests on); w.moments[K] is step K's.
function momentsOf(w) {
  if (w.moments) return w.moments;
  const m = w.steps.map(s => momentOf(s, w.n));
  for (let k = 1; k < m.length; k++)
    if (compareMoments(m[k - 1], m[k]) >= 0)
      throw new Error(`${w.what}: step ${k} (${w.steps[k].line}) does not come after step ${k - 1} in the search's order`);
  return (w.moments = m);
}

// The steps of walk w2 to show beside each step k of walk w1: the one at
// the same moment ("same"), or w2's last step before that moment
// ("before"); both walks' moments rise, so one pass pairs them all.
function pairedSteps(w1, w2) {
  const m1 = momentsOf(w1), m2 = momentsOf(w2), out = [];
  let j = 0;
  for (let k = 0; k <= w1.L; k++) {
    while (j < w2.L && compareMoments(m2[j + 1], m1[k]) <= 0) j++;
    out.push({ j, how: k === 0 ? "start" : compareMoments(m2[j], m1[k]) === 0 ? "same" : "before" });
  }
  return out;
}

// What the page says step j of walk w is ("taking back the queen at row 5
// column 0"), counted from `base`.
function momentWords(w, j, base = 0) {
  const s = w.steps[j], at = `row ${s.row + base} column ${s.col + base}`;
  if (s.kind === "start") return "the start";
  if (s.kind === "place") return "placing a queen at " + at;
  if (s.kind === "reject") return "refusing " + at;
  if (s.kind === "remove") return "taking back the queen at " + at;
  const count = w.steps.slice(1, j + 1).filter(x => x.kind === s.kind).length;
  return s.kind === "solution" ? "finding solution #" + count : "testing candidate #" + count;
}

// --compare e2 at N: at a dozen steps and more (some where e2 has the same
// moment, some where it never comes to it), board2 shows e2's step at the
// same moment of the search, or its last step before it, its queens as
// e2's text trace has them, data-paired "same", "before" or "start", and
// #pos2 names that step and what it does; window.nqPaired agrees at
// every step of the walk.
async function compareUnit(ctx, e1, e2, n = 5) {
  const w1 = ctx.walk(e1, n, false, false), w2 = ctx.walk(e2, n, false, false);
  const pg = new Page(ctx, ctx.pageOf([String(n), "--engine", e1, "--compare", e2], `teach-${e1}-${n}-compare-${e2}`));
  const want = pairedSteps(w1, w2);
  const ks = new Set([0, w1.L]);
  for (let i = 1; i < 12; i++) ks.add(Math.round(i * w1.L / 12));
  for (const how of ["same", "before"]) {
    const list = want.map((p, k) => [p, k]).filter(([p]) => p.how === how).map(([, k]) => k);
    if (list.length) for (const k of [list[0], list[list.length >> 1], list[list.length - 1]]) ks.add(k);
  }
  const count = { same: 0, before: 0, start: 0 };
  const check = (k, g1, g2, how) => {
    const at = `${how} (${e1} step ${k}: ${w1.steps[k].line || "start"})`, p = want[k];
    const want1 = w1.steps[k].board.join(",");
    if (!g1 || g1.step !== String(k) || g1.queens !== want1)
      throw new Error(`${at}: board shows step ${g1 && g1.step} queens '${g1 && g1.queens}', not step ${k} '${want1}'`);
    if (!g2) throw new Error(`${at}: no #board2`);
    if (g2.step !== String(p.j) || g2.paired !== p.how)
      throw new Error(`${at}: board2 shows ${e2}'s step ${g2.step} (data-paired '${g2.paired}'); the same moment of the ` +
        `search is its step ${p.j} (${w2.steps[p.j].line || "start"}, "${p.how}")`);
    const b2 = w2.steps[p.j].board.join(",");
    if (g2.queens !== b2) throw new Error(`${at}: board2 shows ${e2}'s step ${p.j} with queens '${g2.queens}'; its text trace has '${b2}'`);
    const words = momentWords(w2, p.j);
    if (k && !(collapse(g2.pos).includes(`step ${p.j} of ${w2.L}`) && g2.pos.includes(words)))
      throw new Error(`${at}: #pos2 '${collapse(g2.pos)}' does not name ${e2}'s step ${p.j} of ${w2.L}, '${words}'`);
    count[p.how]++;
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
  const all = await pairedAll(ctx, w1.L);
  const bad = want.findIndex((p, k) => all[k][0] !== p.j || all[k][1] !== p.how);
  if (bad >= 0)
    throw new Error(`window.nqPaired(${bad}) is ${e2}'s step ${all[bad][0]} ("${all[bad][1]}"); the same moment of the search ` +
      `is its step ${want[bad].j} ("${want[bad].how}")`);
  return `${sorted.length + 2} steps shown: ${count.same} at the same moment, ${count.before} at ${e2}'s last step before it; ` +
    `nqPaired right at all ${w1.L + 1} (${pg.how()})`;
}

// window.nqPaired(k) for every step k = 0..L of the page shown: [j, how].
async function pairedAll(ctx, L) {
  const all = await evaluate(ctx.b, ctx.tab, `typeof window.nqPaired !== "function" ? null :
    Array.from({ length: ${L + 1} }, (_, k) => { const p = window.nqPaired(k); return [p.j, p.how]; })`);
  if (!all) throw new Error("no window.nqPaired");
  return all;
}

async function groupCompare(ctx) {
  for (const e1 of TEACHING) {
    if (!ctx.engines.includes(e1)) continue;
    for (const e2 of TEACHING)
      if (e2 !== e1) await ctx.unit(`compare ${e1} N=5 --compare ${e2}`, () => compareUnit(ctx, e1, e2));
  }
}

// Engines that walk the same tree, paired at N = 6 and 8: at every step
// the step shown beside has found as many solutions and made as many
// nodes (counted from the text traces); the others (brute force, mirror
// and symmetry, which prune or add whole subtrees; odd N for mirror's
// middle column) at the moment the test computes; every engine's moments
// rise step by step at N = 4..9.
async function pairingUnit(ctx, e1, e2, n) {
  const w1 = ctx.walk(e1, n, false, false), w2 = ctx.walk(e2, n, false, false);
  await load(ctx.b, ctx.tab, pathToFileURL(ctx.pageOf([String(n), "--engine", e1, "--compare", e2],
    `teach-${e1}-${n}-compare-${e2}`)).href + "?pairing#step=0");
  const all = await pairedAll(ctx, w1.L), sameTree = SAME_TREE.includes(e1) && SAME_TREE.includes(e2);
  const so = w => { const c = { sols: [0], nodes: [1] };
    w.steps.slice(1).forEach((s, i) => { c.sols.push(c.sols[i] + (s.kind === "solution")); c.nodes.push(c.nodes[i] + (s.kind === "place")); });
    return c; };
  const c1 = so(w1), c2 = so(w2), want = pairedSteps(w1, w2);
  for (let k = 0; k <= w1.L; k++) {
    const [j, how] = all[k], at = `${e1} step ${k} (${w1.steps[k].line || "start"}) beside ${e2}'s step ${j} (${(w2.steps[j] || {}).line || "start"})`;
    if (sameTree && (c1.sols[k] !== c2.sols[j] || c1.nodes[k] !== c2.nodes[j]))
      throw new Error(`${at}: ${c1.sols[k]} solutions and ${c1.nodes[k]} nodes so far beside ${c2.sols[j]} and ${c2.nodes[j]}`);
    const p = want[k];
    if (p.j !== j || p.how !== how) throw new Error(`${at} ("${how}"): the same moment is its step ${p.j} ("${p.how}")`);
  }
  return sameTree ? `all ${w1.L + 1} steps beside a step with the same solutions and nodes so far` :
    `all ${w1.L + 1} steps beside the same moment, or the last step before it`;
}

const SAME_TREE = ["backtrack", "flags", "bitmap"];

async function groupPairing(ctx) {
  await ctx.unit("moments rise step by step, every engine N=4..9", async () => {
    for (const e of TEACHING) for (let n = 4; n <= 9; n++) momentsOf(ctx.walk(e, n, false, false));
    return `${TEACHING.length * 6} walks`;
  });
  for (const n of [6, 8])
    for (const e1 of SAME_TREE) for (const e2 of SAME_TREE)
      if (e1 !== e2) await ctx.unit(`pairing ${e1} N=${n} --compare ${e2}`, () => pairingUnit(ctx, e1, e2, n));
  for (const [e1, e2, n] of [["bitmap", "mirror", 7], ["mirror", "bitmap", 7], ["symmetry", "bitmap", 8],
                             ["bitmap", "symmetry", 6], ["brute", "backtrack", 5], ["backtrack", "brute", 5],
                             ["mirror", "symmetry", 9]])
    await ctx.unit(`pairing ${e1} N=${n} --compare ${e2}`, () => pairingUnit(ctx, e1, e2, n));
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

// ---- counting from 0 or 1 ----

// --one-based (and not): every row and column the page names in words
// (#reason, #state, #pos, #explain) is counted as the board's labels
// are, the bit taken and the column given up among them; the masks'
// cells are numbered as the board's columns; the flags' cells by the
// program's own index, from 0, and the heading says so.
async function numberingUnit(ctx, engine, n, oneBased) {
  const w = ctx.walk(engine, n, false, false), base = oneBased ? 1 : 0;
  const pg = new Page(ctx, ctx.page(engine, n, oneBased ? ["--one-based"] : []));
  const ks = pickSteps(w, 12);
  const range = len => Array.from({ length: len }, (_, i) => String(i + base)).join(" ");
  await pg.open(null);
  for (const k of ks) {
    await pg.show(k);
    const got = await evaluate(ctx.b, ctx.tab, `(() => { const st = document.getElementById("state");
      return { head: st.querySelector("h3").textContent,
               rows: [...st.querySelectorAll(".bits")].map(r => [r.querySelector(".name").textContent,
                 [...r.querySelectorAll("small")].map(x => x.textContent).join(" ")]),
               text: ["reason", "state", "pos", "explain"].map(id => document.getElementById(id).textContent).join(" | ") }; })()`);
    const s = w.steps[k], at = `${w.what}${oneBased ? " --one-based" : ""} step ${k} (${s.line || "start"})`;
    for (const m of got.text.matchAll(/\b(row|column) (\d+)/g))
      if (+m[2] < base || +m[2] > n - 1 + base)
        throw new Error(`${at}: '${m[0]}' in '${collapse(got.text)}', outside ${base}..${n - 1 + base}`);
    if (MASKS.has(engine)) {
      for (const [name, labels] of got.rows)
        if (labels !== range(n)) throw new Error(`${at}: the mask row '${name}' numbers its cells '${labels}', not '${range(n)}'`);
      const said = s.kind === "place" ? `bit taken: column ${s.col + base}` : s.kind === "remove" ? `column ${s.col + base} given up` : null;
      if (said && !got.text.includes(said)) throw new Error(`${at}: #state does not say '${said}': '${collapse(got.text)}'`);
    }
    if (engine === "flags") {
      const want = [n, 2 * n - 1, 2 * n - 1].map(len => Array.from({ length: len }, (_, i) => String(i)).join(" "));
      if (got.rows.map(r => r[1]).join("|") !== want.join("|"))
        throw new Error(`${at}: the arrays' cells are numbered '${got.rows.map(r => r[1]).join("|")}', not by the program's index from 0`);
      if (!/program's own index, from 0/.test(got.head) || (oneBased && !got.head.includes("FA[i] is column i+1")))
        throw new Error(`${at}: the arrays' heading '${got.head}' does not say how their cells are numbered`);
    }
    if ((s.kind === "place" || s.kind === "reject") && !got.text.includes(`row ${s.row + base} column ${s.col + base}`) &&
        !got.text.includes(`column ${s.col + base}, the lowest square still to try in row ${s.row + base}`))
      throw new Error(`${at}: the words do not name row ${s.row + base} column ${s.col + base}: '${collapse(got.text)}'`);
  }
  return `${ks.length} steps: rows and columns counted from ${base} in words and cells`;
}

async function groupNumbering(ctx) {
  for (const [e, n] of [["bitmap", 8], ["mirror", 7], ["flags", 6], ["backtrack", 6], ["brute", 5]])
    for (const oneBased of [true, false])
      await ctx.unit(`numbering ${e} N=${n}${oneBased ? " --one-based" : ""}`, () => numberingUnit(ctx, e, n, oneBased));
}

// ---- the keys ----

// Whether the page is playing: #play's name says what it would do.
function playing(ctx) {
  return evaluate(ctx.b, ctx.tab, `document.getElementById("play").getAttribute("aria-label") === "Pause"`);
}

// Space and Enter as people expect: after a mouse click on a button (it
// gives the focus back) Space plays and pauses; a button reached by the
// keyboard is pressed by Space and by Enter, never plays; the layout box
// is ticked by Space, never plays; the step field takes the key; the
// speed slider takes Home, End and the arrows and the walk stays.
async function keysUnit(ctx) {
  const { b, tab } = ctx, w = ctx.walk("backtrack", 6), pg = new Page(ctx, ctx.page("backtrack", 6, []));
  const step = async () => Number((await pg.read()).step);
  await pg.open(10);
  const r = await evaluate(b, tab, `(() => { const e = document.getElementById("forward").getBoundingClientRect();
    return { x: e.left + e.width / 2, y: e.top + e.height / 2 }; })()`);
  await click(b, tab, r.x, r.y);
  if (await step() !== 11) throw new Error(`#step=10, #forward clicked: the board shows step ${await step()}`);
  await press(b, tab, ...SPACE);
  if (!await playing(ctx)) throw new Error(`Space after a click on #forward did not play: the board shows step ${await step()}`);
  await press(b, tab, ...SPACE);
  if (await playing(ctx)) throw new Error("Space again did not pause");
  const k = await step();
  await evaluate(b, tab, `document.getElementById("forward").focus()`);
  await press(b, tab, ...SPACE);
  if (await step() !== Math.min(w.L, k + 1) || await playing(ctx))
    throw new Error(`paused at ${k}, Space on a focused #forward: step ${await step()}, playing ${await playing(ctx)}`);
  await press(b, tab, ...ENTER);
  if (await step() !== Math.min(w.L, k + 2)) throw new Error(`Enter on #forward: the board shows step ${await step()}`);
  if (await playing(ctx)) throw new Error("Enter on #forward played");
  const box = () => evaluate(b, tab, `(() => { const e = document.getElementById("seedstyle"); e.focus(); return e.checked; })()`);
  const ticked = await box();
  await press(b, tab, ...SPACE);
  const after = await evaluate(b, tab, `document.getElementById("seedstyle").checked`);
  if (await playing(ctx) || after === ticked) throw new Error(`Space on the layout box: playing ${await playing(ctx)}, ` +
    `the box ${ticked} -> ${after} (it must tick the box and not play)`);
  await evaluate(b, tab, `document.getElementById("stepno").focus()`);
  await press(b, tab, ...SPACE);
  if (await playing(ctx)) throw new Error("Space in the step field played");
  const at = await step();
  await evaluate(b, tab, `document.getElementById("speed").focus()`);
  for (const key of [END, HOME, RIGHT, PAGEUP]) await press(b, tab, ...key);
  if (await step() !== at) throw new Error(`keys on the speed slider moved the walk from ${at} to ${await step()}`);
  return "Space played and paused after a click; pressed the focused button and ticked the box without playing; " +
    "not in the step field; Enter pressed the button; the slider kept its keys";
}

async function groupKeys(ctx) {
  await ctx.unit("keys: Space and Enter act on the focused control, play only when none takes them", () => keysUnit(ctx));
}

// ---- a phone ----

// The page at 360 x 740 (a phone): `what` run there, the window set back.
async function onPhone(ctx, fn) {
  await setViewport(ctx.b, ctx.tab, 360, 740, true);
  try { return await fn(); } finally { await setViewport(ctx.b, ctx.tab, ...DESKTOP, false); }
}

// 500 steps on from `from`, as playing takes them (one go() a step, here
// by the Right key's handler): the document's height and width after
// each; none may change, nor the width pass the window's.
async function steadyUnit(ctx, args, from) {
  return onPhone(ctx, async () => {
    await load(ctx.b, ctx.tab, pathToFileURL(ctx.pageOf(args)).href + "?steady#step=" + from);
    const m = await evaluate(ctx.b, ctx.tab, `(() => {
      const d = document.documentElement, hs = new Set(), ws = new Set(), b = document.getElementById("board");
      for (let i = 0; i < 500; i++) {
        document.dispatchEvent(new KeyboardEvent("keydown", { key: "ArrowRight", bubbles: true }));
        hs.add(d.scrollHeight); ws.add(d.scrollWidth);
      }
      return { hs: [...hs].sort((x, y) => x - y), ws: [...ws], step: b.dataset.step, iw: innerWidth };
    })()`);
    if (m.hs.length !== 1) throw new Error(`from step ${from} to ${m.step} the page's height took ${m.hs.length} values, ` +
      `${m.hs[0]} to ${m.hs[m.hs.length - 1]} px`);
    if (m.ws.length !== 1 || m.ws[0] > m.iw) throw new Error(`the page's width took the values ${m.ws.join(", ")} in a ${m.iw} px window`);
    return `${m.hs[0]} px high at every step from ${from} to ${m.step}`;
  });
}

// #step=470 on a phone: the step's line wholly in the first screen, below
// a sticky bar of one row.
async function firstScreenUnit(ctx, args, k) {
  return onPhone(ctx, async () => {
    await load(ctx.b, ctx.tab, pathToFileURL(ctx.pageOf(args)).href + "?screen#step=" + k);
    await frames(ctx.b, ctx.tab);
    const m = await evaluate(ctx.b, ctx.tab, `(() => { const r = id => document.getElementById(id).getBoundingClientRect();
      return { line: [r("line").top, r("line").bottom], bar: [r("bar").top, r("bar").bottom], vh: innerHeight,
               step: document.getElementById("board").dataset.step }; })()`);
    if (m.step !== String(k)) throw new Error(`the board shows step ${m.step}`);
    if (m.bar[1] - m.bar[0] > 60) throw new Error(`the sticky bar is ${m.bar[1] - m.bar[0]} px high on a phone`);
    if (m.line[1] > m.vh || m.line[0] < m.bar[1])
      throw new Error(`the step's line is at ${m.line[0]}..${m.line[1]} px, not between the bar (${m.bar[1]}) and the fold (${m.vh})`);
    return `the line at ${Math.round(m.line[0])}..${Math.round(m.line[1])} px of ${m.vh}, a ${Math.round(m.bar[1] - m.bar[0])} px bar`;
  });
}

// Two fingers spreading on the tree zoom the tree (window.nqTreeView's
// scale), not the page (visualViewport.scale); one finger sideways pans.
async function pinchUnit(ctx) {
  return onPhone(ctx, async () => {
    const { b, tab } = ctx;
    await load(b, tab, pathToFileURL(ctx.page("bitmap", 8, [])).href + "?pinch#step=470");
    const r = await evaluate(b, tab, `(() => { const t = document.getElementById("tree"); t.scrollIntoView({ block: "center" });
      const r = t.getBoundingClientRect(); return { x: r.left + r.width / 2, y: r.top + r.height / 2 }; })()`);
    await frames(b, tab);
    const view = () => evaluate(b, tab, `({ v: typeof nqTreeView === "function" ? nqTreeView(0) : null, scale: visualViewport.scale })`);
    const touch = (type, pts) => b.send("Input.dispatchTouchEvent", { type, touchPoints: pts }, tab.sessionId);
    const at = (id, dx) => ({ x: r.x + dx, y: r.y, id });
    const v0 = await view();
    if (!v0.v) throw new Error("no window.nqTreeView");
    await touch("touchStart", [at(0, -20), at(1, 20)]);
    for (let i = 1; i <= 8; i++) await touch("touchMove", [at(0, -20 - 6 * i), at(1, 20 + 6 * i)]);
    await touch("touchEnd", []);
    await frames(b, tab);
    const v1 = await view();
    if (v1.scale !== 1) throw new Error(`a pinch on the tree zoomed the page (scale ${v1.scale})`);
    if (!(v1.v.sx > v0.v.sx * 1.5)) throw new Error(`a pinch on the tree left its scale at ${v1.v.sx} (was ${v0.v.sx})`);
    await touch("touchStart", [at(0, 0)]);
    for (let i = 1; i <= 6; i++) await touch("touchMove", [at(0, -10 * i)]);
    await touch("touchEnd", []);
    const v2 = await view();
    if (!(v2.v.ox < v1.v.ox - 30)) throw new Error(`a drag of 60 px left on the tree moved it from ${v1.v.ox} to ${v2.v.ox}`);
    return `scale ${v0.v.sx} -> ${v1.v.sx.toFixed(1)}, the page's 1; a drag panned it ${(v1.v.ox - v2.v.ox).toFixed(0)} px`;
  });
}

// The footer's words: a phone's (tap, pinch, drag; no keys, no wheel) on
// a phone, a desktop's (keys, the wheel) on a desktop.
async function footerUnit(ctx) {
  const url = pathToFileURL(ctx.page("bitmap", 6, [])).href + "?footer";
  const read = async () => { await load(ctx.b, ctx.tab, url); return evaluate(ctx.b, ctx.tab, "document.querySelector('footer').innerText"); };
  const phone = await onPhone(ctx, read), desk = await read();
  for (const word of ["tap", "pinch", "drag"]) if (!new RegExp("\\b" + word, "i").test(phone))
    throw new Error(`the footer on a phone lacks '${word}': '${collapse(phone)}'`);
  if (/\bkeys?\b|wheel|Page Up/i.test(phone)) throw new Error(`the footer on a phone speaks of keys or a wheel: '${collapse(phone)}'`);
  if (!/\bKeys\b/.test(desk) || !/wheel/.test(desk) || /pinch|\btap\b/i.test(desk))
    throw new Error(`the footer on a desktop: '${collapse(desk)}'`);
  return "a phone's words on a phone, a desktop's on a desktop";
}

async function groupPhone(ctx) {
  for (const [args, from] of [[["8", "--engine", "bitmap"], 0], [["8", "--engine", "flags"], 5300],
                              [["8", "--engine", "backtrack"], 0], [["7", "--engine", "mirror"], 0],
                              [["8", "--engine", "symmetry"], 0], [["6", "--engine", "brute"], 0],
                              [["8", "--engine", "bitmap", "--compare", "flags"], 0],
                              [["8", "--engine", "flags", "--compare", "bitmap"], 5300],
                              [["5", "--engine", "bitmap", "--one-based"], 0]])
    await ctx.unit(`phone: steady height, trace ${args.join(" ")} from step ${from}`, () => steadyUnit(ctx, args, from));
  await ctx.unit("phone: the line in the first screen, trace 8 --engine bitmap #step=470",
    () => firstScreenUnit(ctx, ["8", "--engine", "bitmap"], 470));
  await ctx.unit("phone: pinch on the tree", () => pinchUnit(ctx));
  await ctx.unit("phone and desktop: the footer's words", () => footerUnit(ctx));
}

// ---- the words ----

// The engines' words a page uses, each with its spellings, and the pages
// (and a step) where each is said: the first time the page says one, it
// is glossed.
const JARGON = [
  [["8", "--engine", "bitmap"], 470, [["down"], ["down-right"], ["down-left"], ["free"], ["to try"],
    ["bit = free & \u2212free", "bit = free & -free"], ["unique"], ["smallest of their class", "smallest of its class"],
    ["dead end", "dead ends"]]],
  [["8", "--engine", "flags"], 5540, [["FA"], ["FB"], ["FC"], ["anti-diagonal", "anti-diagonals"], ["diagonal", "diagonals"],
    ["unique"], ["dead end", "dead ends"]]],
  [["8", "--engine", "symmetry"], 300, [["smallest of its class", "smallest of their class"], ["weights", "weight", "weigh"],
    ["ruled out"], ["unique"]]],
  [["7", "--engine", "mirror"], 200, [["mirror image"], ["ruled out"]]],
  [["5", "--engine", "brute"], 700, [["candidates", "candidate", "complete placements"]]],
];

// In the page: the first of the spellings the page shows (in the
// document's order, visible text only), and whether it is a glossed
// word: its element's place and attributes.
function firstSaid(words) {
  const esc = x => x.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const re = new RegExp("(?<![\\w-])(?:" + words.map(esc).join("|") + ")(?![\\w-])");
  const tw = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let t; (t = tw.nextNode());) {
    const p = t.parentElement;
    if (!p || p.closest("script, style, #gloss") || !p.getClientRects().length || !re.test(t.data)) continue;
    const e = p.closest(".term"), r = p.getBoundingClientRect();
    return { text: t.data, where: (p.closest("[id]") || p).id, term: !!e && e.textContent === re.exec(t.data)[0],
             tabindex: e && e.getAttribute("tabindex"), describedby: e && e.getAttribute("aria-describedby") };
  }
  return null;
}

// The gloss as shown: its text, whether it shows, inside the window.
const GLOSS_SHOWN = `(() => { const g = document.getElementById("gloss"); if (!g) return null;
  const r = g.getBoundingClientRect();
  return { shown: !g.hidden && r.width > 0, text: g.textContent, inside: r.left >= 0 && r.right <= innerWidth && r.top >= 0 &&
           r.bottom <= innerHeight, sw: document.documentElement.scrollWidth, iw: innerWidth }; })()`;

// Each word of `groups` where the page first says it: a .term, focusable,
// described by #gloss, which shows its meaning (inside the window) on
// hover and on focus, and hides again; on a phone, on a tap.
async function glossUnit(ctx, args, k, groups) {
  const { b, tab } = ctx, url = pathToFileURL(ctx.pageOf(args)).href;
  const find = words => evaluate(b, tab, `(${firstSaid})(${JSON.stringify(words)})`);
  const centre = words => evaluate(b, tab, `(() => { const f = (${firstSaid})(${JSON.stringify(words)});
    const e = [...document.querySelectorAll(".term")].find(x => ${JSON.stringify(words)}.includes(x.textContent) && x.getClientRects().length);
    if (!e) return null; e.scrollIntoView({ block: "center" }); const r = e.getClientRects()[0]; /* a word may wrap */
    return { x: r.left + r.width / 2, y: r.top + r.height / 2 }; })()`);
  const shown = () => evaluate(b, tab, GLOSS_SHOWN);
  await load(b, tab, url + "?words#step=" + k);
  for (const words of groups) {
    const f = await find(words), at = `trace ${args.join(" ")} #step=${k}: '${words[0]}'`;
    if (!f) throw new Error(`${at} is not on the page`);
    if (!f.term || f.tabindex !== "0" || f.describedby !== "gloss")
      throw new Error(`${at} is first said in #${f.where} ('${collapse(f.text)}') without a gloss that a tap or the keyboard reaches`);
    const c = await centre(words);
    await frames(b, tab);
    await b.send("Input.dispatchMouseEvent", { type: "mouseMoved", x: c.x, y: c.y }, tab.sessionId);
    let g = await shown();
    if (!g || !g.shown || g.text.length < 20 || !g.inside) throw new Error(`${at}: hovering shows ${JSON.stringify(g)}`);
    await b.send("Input.dispatchMouseEvent", { type: "mouseMoved", x: 1, y: 1 }, tab.sessionId);
    if ((await shown()).shown) throw new Error(`${at}: the gloss stays after the pointer leaves`);
    await evaluate(b, tab, `[...document.querySelectorAll(".term")].find(x => ${JSON.stringify(words)}.includes(x.textContent) && x.getClientRects().length).focus()`);
    if (!(await shown()).shown) throw new Error(`${at}: focusing it shows no gloss`);
    await evaluate(b, tab, "document.activeElement.blur()");
    if ((await shown()).shown) throw new Error(`${at}: the gloss stays after the focus leaves`);
  }
  return onPhone(ctx, async () => {
    await load(b, tab, url + "?tap#step=" + k);
    for (const words of groups) {
      const c = await centre(words);
      await frames(b, tab);
      await b.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: [{ x: c.x, y: c.y }] }, tab.sessionId);
      await b.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] }, tab.sessionId);
      const g = await shown();
      if (!g.shown || !g.inside || g.sw > g.iw) throw new Error(`'${words[0]}' tapped on a phone: ${JSON.stringify(g)}`);
    }
    return `${groups.length} words glossed where first said: hover, focus, tap`;
  });
}

// The default speed reads: 1 to 2 steps a second.
async function speedUnit(ctx) {
  await load(ctx.b, ctx.tab, pathToFileURL(ctx.page("bitmap", 6, [])).href + "?speed");
  const v = stepsPerSecond(await evaluate(ctx.b, ctx.tab, `document.getElementById("speedval").textContent`));
  if (v === null || v < 1 || v > 2) throw new Error(`the page opens at ${v} steps a second, not 1 to 2`);
  return `${v} steps/s`;
}

// brute force capped before its first solution: the note says how many
// of the N^N candidates it tested (its text trace's count), its first
// solution (backtrack's first, the same order) and that candidate's
// number, and the largest smaller board where the cap reaches a solution
// (brute's own text traces); at N = 6 capped at 1000 steps, the step of
// its first solution as its text trace has it.
async function bruteNoteUnit(ctx) {
  const fmt = x => x.toLocaleString("en-US"), note = async (args, name) => {
    await load(ctx.b, ctx.tab, pathToFileURL(ctx.pageOf(args, name)).href + "?note");
    return collapse(await evaluate(ctx.b, ctx.tab, `document.getElementById("note").textContent`));
  };
  const n = 8, w = ctx.walk("brute", n, false, false), tested = w.steps.filter(s => s.kind === "fail").length;
  const first = /solution\s+#1:((?: \d+)+)/.exec(run(ctx.cli, ["trace", String(n), "--engine", "backtrack"]))[1].trim().split(" ").map(Number);
  const rank = first.reduce((r, c) => r * BigInt(n) + BigInt(c), 0n) + 1n;
  let m = n - 1;
  while (m > 0 && !/\bsolution\b/.test(run(ctx.cli, ["trace", String(m), "--engine", "brute", "--limit", CAP]))) m--;
  const said = await note([String(n), "--engine", "brute"], "teach-brute-8");
  for (const want of [`tested ${fmt(tested)} of the ${fmt(BigInt(n) ** BigInt(n))} (${n}^${n}) candidates`, "none is a solution",
                      `first solution, ${first.join(" ")}, is candidate ${fmt(rank)}`, `boards up to N = ${m}`])
    if (!said.includes(want)) throw new Error(`brute N=${n}: #note lacks '${want}': '${said}'`);
  const six = /^\s*(\d+)\s+solution/m.exec(run(ctx.cli, ["trace", "6", "--engine", "brute", "--limit", CAP]));
  const said6 = await note(["6", "--engine", "brute", "--limit", "1000"], "teach-brute-6-limit-1000");
  if (!six || !said6.includes(`reaches at step ${fmt(+six[1])}`))
    throw new Error(`brute N=6 --limit 1000: #note does not say its first solution comes at step ${six && six[1]}: '${said6}'`);
  return `tested ${tested} of ${n}^${n}, first solution candidate ${rank}, boards up to N = ${m}; N=6 at step ${six[1]}`;
}

// The page in Japanese: the browser set to Japanese, and an English
// browser given &lang=ja, for walks of every kind (a refusal beside
// masks, flags, brute force capped before its first solution, mirror and
// symmetry's weights, the iterative form) at steps within them: no run
// of 3 English words outside code (the step's line is the command line's
// own, in a pre), the engines' series names there; in English no
// Japanese but the switch's name.
async function langUnit(ctx) {
  const cases = [[["8", "--engine", "bitmap", "--compare", "flags"], 40], [["6", "--engine", "brute", "--limit", "1000"], 900],
    [["8", "--engine", "symmetry", "--compare", "mirror"], 300], [["6", "--engine", "backtrack", "--iterative", "--one-based"], 77]];
  const read = [];
  for (const [args, k] of cases) {
    const url = pathToFileURL(ctx.pageOf(args)).href;
    for (const [langs, hash] of [[["ja-JP", "ja"], ""], [["en-US"], "&lang=ja"]]) {
      await browserLanguages(ctx.b, ctx.tab, langs);
      await load(ctx.b, ctx.tab, url + "?" + langs[0] + "#step=" + k + hash);
      await frames(ctx.b, ctx.tab);
      const e = args[2], terms = {bitmap: ["\u30d3\u30c3\u30c8\u30de\u30c3\u30d7", "\u914d\u7f6e\u30d5\u30e9\u30b0"],
        symmetry: ["\u5bfe\u79f0\u89e3\u9664\u6cd5", "\u30df\u30e9\u30fc"], backtrack: ["\u30d0\u30c3\u30af\u30c8\u30e9\u30c3\u30af"],
        brute: ["\u7dcf\u5f53\u305f\u308a"]}[e];
      read.push(await checkJapanese(ctx.b, ctx.tab, `trace ${args.join(" ")} #step=${k}${hash} (${langs[0]})`, terms));
    }
    await browserLanguages(ctx.b, ctx.tab, ["en-US"]);
    await load(ctx.b, ctx.tab, url + "?en#step=" + k);
    await frames(ctx.b, ctx.tab);
    await checkEnglish(ctx.b, ctx.tab, `trace ${args.join(" ")} in English`);
  }
  return `${cases.length} pages, each in Japanese (${read.join(", ")} texts) and in English`;
}

async function groupWords(ctx) {
  await ctx.unit("words: the page in Japanese and in English", () => langUnit(ctx));
  for (const [args, k, groups] of JARGON)
    await ctx.unit(`words: trace ${args.join(" ")} #step=${k}`, () => glossUnit(ctx, args, k, groups));
  await ctx.unit("words: the default speed", () => speedUnit(ctx));
  await ctx.unit("words: brute force's page says where its first solution is", () => bruteNoteUnit(ctx));
}

// ---- the lesson page's way: walks that arrive a chunk at a time ----

// The page of `trace ARGS` made a lesson page's: NQ_LIVE set, WALKS empty,
// its walks kept aside (BAKED) for the test to hand over as a worker
// would: window.nqTrace.show() with no steps, addSteps() a chunk at a
// time, one walk after the other, endWalk().  Midway through the second
// walk, the first walk's last step is paired "coming" (the second has
// not got there yet); the trace is hidden for the second walk's last
// chunks (another of the lesson's parts shown) and, shown again, sized
// anew: its boxes not left at a hidden page's 0 px, its height the same
// over 100 steps; at the end every step pairs as on the page the command
// line writes, a score of steps (chosen by the step field) show the same
// boards and counts, and no error was said.
async function liveUnit(ctx, args) {
  const { b, tab } = ctx, baked = ctx.pageOf(args), file = baked.replace(/\.html$/, "-live.html");
  const html = readFileSync(baked, "utf8");
  const live = html.replace("let WALKS = ", "var NQ_LIVE = true;\nconst BAKED = ")
    .replace("\n/* The lesson page sets LIVE", "\nlet WALKS = [];\n/* The lesson page sets LIVE");
  if (live === html || !live.includes("let WALKS = [];")) throw new Error("the page's WALKS cannot be set aside: the template changed");
  writeFileSync(file, live);
  const two = args.includes("--compare");
  const sample = `(() => { const $ = id => document.getElementById(id), out = [];
    for (let i = 0; i <= 20; i++) {
      const k = Math.round(i * WALKS[0].steps.length / 20);
      $("stepno").value = k; $("stepno").dispatchEvent(new Event("change"));
      out.push([$("board").dataset.step, $("board").dataset.queens, $("counts").textContent,
                $("board2") ? $("board2").dataset.step : null]);
    }
    return out; })()`;
  await load(b, tab, pathToFileURL(baked).href + "?baked#step=0");
  const L = await evaluate(b, tab, "WALKS[0].steps.length"), want = two ? await pairedAll(ctx, L) : [];
  const wantShown = await evaluate(b, tab, sample);
  await load(b, tab, pathToFileURL(file).href + "?live");
  const got = await evaluate(b, tab, `(async () => {
    const tick = () => new Promise(r => setTimeout(r, 0)), chunk = 100;
    const key = k => document.dispatchEvent(new KeyboardEvent("keydown", { key: k, bubbles: true }));
    nqTrace.show(BAKED.map(({ steps, summary, total, unique, capped, ...w }) => ({ ...w, steps: [] })), 0);
    let midway = null;
    for (let i = 0; i < BAKED.length; i++) {
      const steps = BAKED[i].steps;
      for (let a = 0; a < steps.length; a += chunk) {
        nqTrace.addSteps(i, steps.slice(a, a + chunk));
        if (i === 1 && !midway && a >= steps.length / 2 && a + chunk < steps.length) {
          key("End");
          midway = { paired: document.getElementById("board2").dataset.paired, p: nqPaired(WALKS[0].steps.length), had: a + chunk };
          document.getElementById("trace").style.display = "none";
        }
        await tick();
      }
      const { steps: _, ...info } = BAKED[i];
      nqTrace.endWalk(i, { ...info, steps: [] });
    }
    document.getElementById("trace").style.display = "";
    await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
    key("Home");
    const hs = new Set(), line = Math.min(...["line", "counts", "line2", "counts2"].map(id => document.getElementById(id))
      .filter(Boolean).map(e => e.offsetHeight));
    for (let k = 0; k < 100; k++) { key("ArrowRight"); hs.add(document.documentElement.scrollHeight); }
    key("Home");
    return { midway, hash: location.hash, shown: document.getElementById("board").dataset.step, L: WALKS[0].steps.length,
             line, heights: [...hs],
             paired: WALKS[1] ? Array.from({ length: WALKS[0].steps.length + 1 }, (_, k) => { const p = nqPaired(k); return [p.j, p.how]; }) : [] };
  })()`, 60000);
  if (got.L !== L) throw new Error(`the lesson page holds ${got.L} steps, the page ${L}`);
  if (got.hash !== "" || got.shown !== "0") throw new Error(`the lesson page's address '${got.hash}', board at step ${got.shown} after Home`);
  if (got.line < 10 || got.heights.length !== 1)
    throw new Error(`shown again after hidden: the lowest of the walks' line and counts boxes ${got.line} px high, ` +
      `the page's heights over 100 steps ${got.heights.join(", ")}`);
  const shown = await evaluate(b, tab, sample), differ = wantShown.findIndex((x, i) => JSON.stringify(x) !== JSON.stringify(shown[i]));
  if (differ >= 0) throw new Error(`the lesson page shows ${JSON.stringify(shown[differ])}, the page ${JSON.stringify(wantShown[differ])}`);
  const bad = want.findIndex((p, k) => p[0] !== got.paired[k][0] || p[1] !== got.paired[k][1]);
  if (bad >= 0) throw new Error(`step ${bad} pairs with ${JSON.stringify(got.paired[bad])} on the lesson page, ${JSON.stringify(want[bad])} on the page`);
  if (two && (!got.midway || got.midway.paired !== "coming" || got.midway.p.how !== "coming"))
    throw new Error(`midway through the second walk, the first's last step: ${JSON.stringify(got.midway)} (want "coming")`);
  return `${L} steps handed over in chunks, paired as on the command line's page` + (got.midway ? `; midway "${got.midway.paired}"` : "");
}

async function groupLive(ctx) {
  for (const args of [["8", "--engine", "flags", "--compare", "bitmap"], ["7", "--engine", "mirror", "--compare", "symmetry"],
                      ["6", "--engine", "brute"]])
    await ctx.unit(`live: trace ${args.join(" ")} handed over as the lesson page does`, () => liveUnit(ctx, args));
}

const RUN = { steps: groupSteps, layout: groupLayout, compare: groupCompare, play: groupPlay,
              controls: groupControls, tree: groupTree, shots: groupShots, explain: groupExplain,
              pairing: groupPairing, numbering: groupNumbering, keys: groupKeys, phone: groupPhone, words: groupWords,
              live: groupLive };

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
  await runChecks(o.chromium, "teach.mjs", groups.join(", "), DESKTOP, async (b, tab, unit) => {
    const walks = new Map(), pages = new Map();
    const ctx = {
      b, tab, out, cli: o.cli, unit,
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
    };
    for (const g of groups) await RUN[g](ctx);
  });
}

main();
