/*
 * lesson.js - the lesson page's own script (make wasm; mk/webpage.sh puts
 * it after the trace page's script, whose functions it uses).
 *
 * Everything the page shows is computed by the library and the command
 * line compiled to WebAssembly, in Web Workers (programs/web/worker.js
 * and web.c), so the page never freezes and any job can be stopped by
 * ending its worker:
 *   1. your turn: the learner places queens; the page refuses an attacked
 *      square, naming every queen that attacks it and along which line;
 *      a full board is a solution, whose class and 8 images the library
 *      gives; the completion search counts the solutions that keep the
 *      queens placed ("let the engine finish from here").
 *   2. watch: an engine's walk of any board, its steps from the engine's
 *      event callback, sent a chunk at a time into the trace page's
 *      viewer (window.nqTrace), with a second engine beside it.
 *   3. count: `nqueens count A-B` as the command line prints it, each
 *      row checked against OEIS.
 */
(() => {
"use strict";
const $ = id => document.getElementById(id);

/* The most steps a walk keeps (the page holds them all, to step back and
   draw the tree), and the steps a message carries. */
const WALK_CAP = 200000, WALK_CHUNK = 2000;
/* nqueens.h's NQ_CAP_EVENTS: an engine that reports its steps. */
const CAP_EVENTS = 4;
const PLAY_MAX_N = 16;

/* OEIS A000170 (total) and A002562 (unique) for N = 1..27, to check the
   counts the page shows against: decimal strings, past 2^53. */
const OEIS_TOTAL = ["1", "0", "0", "2", "10", "4", "40", "92", "352", "724", "2680", "14200", "73712",
  "365596", "2279184", "14772512", "95815104", "666090624", "4968057848", "39029188884",
  "314666222712", "2691008701644", "24233937684440", "227514171973736", "2207893435808352",
  "22317699616364044", "234907967154122528"];
const OEIS_UNIQUE = ["1", "0", "0", "1", "2", "1", "6", "12", "46", "92", "341", "1787", "9233",
  "45752", "285053", "1846955", "11977939", "83263591", "621012754", "4878666808", "39333324973",
  "336376244042", "3029242658210", "28439272956934", "275986683743434", "2789712466510289",
  "29363495934315694"];

/* ---- the modules and their workers -------------------------------- */

/* A module of one function returning a v128 constant: it validates only
   where the browser runs WebAssembly SIMD. */
const SIMD_PROBE = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0,
  10, 22, 1, 20, 0, 253, 12, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 11]);

/* The module this browser runs: SIMD where it validates (or as the
   address asks: ?module=scalar), else the scalar one. */
function flavour() {
  const asked = /[?&]module=(simd|scalar)\b/.exec(location.search);
  if (asked) return asked[1];
  try { return WebAssembly.validate(SIMD_PROBE) ? "simd" : "scalar"; } catch (e) { return "scalar"; }
}
const FLAVOUR = flavour();
let workerUrl = null;

/* Workers whose job ended by itself, ready for the next: their module is
   compiled already, and the code V8 optimised while they ran stays so (a
   second count of N = 16 runs at full speed from its start). */
const idle = [];
const IDLE_MAX = 3;

/* One job in a worker of its own: on[type](message) for each message it
   sends; job.done resolves with its exit code (null if stopped).  A job
   stopped takes its worker with it; one that ends hands it back. */
function startJob(params, on) {
  if (!workerUrl)
    workerUrl = URL.createObjectURL(new Blob([$("nq-worker").textContent, "\n",
      $("nq-module-" + FLAVOUR).textContent], {type: "text/javascript"}));
  let finish, worker;
  const job = {done: new Promise(res => { finish = res; }), finished: false};
  try {
    worker = idle.pop() || new Worker(workerUrl);
  } catch (e) {
    if (on.err) on.err({text: "no Web Worker: " + e.message});
    job.stop = () => {};
    finish(-1);
    return job;
  }
  const end = (rc, reuse) => {
    if (job.finished) return;
    job.finished = true;
    worker.onmessage = worker.onerror = null;
    if (reuse && idle.length < IDLE_MAX) idle.push(worker); else worker.terminate();
    finish(rc);
  };
  job.stop = () => end(null, false);
  worker.onmessage = e => {
    const m = e.data;
    if (m.type === "done") end(m.rc, m.rc === 0);
    else if (on[m.type]) on[m.type](m);
  };
  worker.onerror = e => {
    if (on.err) on.err({text: "the worker failed: " + (e.message || "no reason given")});
    end(-1, false);
  };
  worker.postMessage(params);
  return job;
}

function plural(k, word) { return k.toLocaleString("en") + " " + word + (k === 1 ? "" : "s"); }
function base() { return $("onebased").checked ? 1 : 0; }
function sqName(r, c) { return "row " + (r + base()) + " column " + (c + base()); }
function options(sel, items, chosen) {
  sel.textContent = "";
  for (const [value, text] of items) {
    const o = document.createElement("option");
    o.value = value; o.textContent = text; o.selected = String(value) === String(chosen);
    sel.appendChild(o);
  }
}
function range(lo, hi) { const a = []; for (let i = lo; i <= hi; i++) a.push([i, String(i)]); return a; }

/* ---- the engines, as the library lists them ------------------------ */

let ENGINES = [], KERNEL = "";

function loadEngines() {
  let why = "";
  const job = startJob({fn: "engines"}, {
    engines: m => { ENGINES = JSON.parse(m.text); },
    kernel: m => { KERNEL = m.text; },
    err: m => { why = m.text; }
  });
  return job.done.then(() => {
    if (!ENGINES.length) {
      $("lessonnote").hidden = false;
      $("lessonnote").textContent = "This browser could not start the page's engines (WebAssembly in a Web " +
        "Worker)" + (why ? ": " + why : "") + ". The lesson needs a browser from 2021 or later.";
    }
    const walkers = ENGINES.filter(e => e.caps & CAP_EVENTS).map(e => [e.name, e.name]);
    options($("walkengine"), walkers, "backtrack");
    options($("walkcompare"), [["", "(none)"]].concat(walkers), "");
    options($("countengine"), ENGINES.map(e => [e.name, e.name]), "fast");
    for (const id of ["walkengine", "walkcompare", "countengine"])
      [...$(id).options].forEach(o => { const e = ENGINES.find(x => x.name === o.value); if (e) o.title = e.summary; });
    $("lessonmodule").textContent = "WebAssembly " + (FLAVOUR === "simd" ? "with SIMD" : "without SIMD") +
      (KERNEL ? " (fast's kernel: " + KERNEL + ")" : "");
  });
}

/* ---- the parts ------------------------------------------------------ */

const PARTS = ["play", "watch", "count"];

function showPart(name, focus) {
  if (!PARTS.includes(name)) name = "play";
  for (const p of PARTS) {
    $("part-" + p).hidden = p !== name;
    $("tab-" + p).setAttribute("aria-selected", String(p === name));
    $("tab-" + p).tabIndex = p === name ? 0 : -1;
  }
  document.body.dataset.part = name;
  if (focus) $("tab-" + name).focus();
  if (name === "watch") { if (!walkGen) startWalk(firstStep); else window.dispatchEvent(new Event("resize")); }
  keepAddress();
  if (name === "play") sizePlay();
}

function tabKeys(e) {
  const i = PARTS.indexOf(e.target.id.replace("tab-", ""));
  const to = {ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: PARTS.length - 1}[e.key];
  if (to === undefined) return;
  e.preventDefault();
  showPart(PARTS[(to + PARTS.length) % PARTS.length], true);
}

/* ---- 2. watch: a walk from the worker into the trace viewer ---------- */

let walkJobs = [], walkGen = 0, firstStep = 0;

/* Walk the board and engines the form names (and the second beside the
   first), shown from step `from` once the walk has it. */
function startWalk(from = 0) {
  walkJobs.forEach(j => j.stop());
  const gen = ++walkGen, n = Number($("walkn").value), iterative = $("walkiterative").checked;
  let want = from > 0 ? from : null;
  const engines = [$("walkengine").value].concat($("walkcompare").value ? [$("walkcompare").value] : []);
  const walks = engines.map(engine => ({engine, n, iterative: iterative ? 1 : 0, oneBased: base(),
    capped: 0, limit: WALK_CAP, summary: "", steps: []}));
  window.nqTrace.show(walks, 0);
  keepAddress();
  const arrived = () => {
    if (want !== null && (walks[0].steps.length >= want || walks[0].ended)) { go(want); want = null; }
  };
  const state = () => {
    if (gen !== walkGen) return;
    const w = walks[0], more = walks.some(x => !x.ended);
    $("walkstate").textContent = more ? "the engine is walking: " + plural(w.steps.length, "step") + " so far"
      : plural(w.steps.length, "step") + (w.capped ? " (the page keeps the first " + plural(WALK_CAP, "step") + ")" : "");
  };
  walkJobs = walks.map((w, i) => startJob({fn: "walk", engine: w.engine, n, iterative, oneBased: !!base(),
                                           cap: WALK_CAP, chunk: WALK_CHUNK}, {
    steps: m => { if (gen === walkGen) { window.nqTrace.addSteps(i, JSON.parse("[" + m.text + "]")); arrived(); state(); } },
    walk: m => { if (gen === walkGen) { window.nqTrace.endWalk(i, JSON.parse(m.text)); arrived(); state(); } },
    err: m => { if (gen === walkGen) $("walkstate").textContent = w.engine + ": " + m.text; }
  }));
  state();
}

/* ---- the address: the part, and in watch the walk and its step -------- */

/* "#watch&n=8&engine=bitmap&compare=flags&step=470": a teacher's link
   opens the walk at that step (and &from=0 counts rows from 0). */
function readAddress() {
  const [part, ...pairs] = location.hash.slice(1).split("&");
  const p = {part};
  for (const kv of pairs) { const [k, v] = kv.split("="); p[k] = decodeURIComponent(v || ""); }
  return p;
}

let addressTimer = 0;

/* The address says what is shown (at most four times a second: each step
   of play would otherwise rewrite it). */
function keepAddress() {
  if (addressTimer) return;
  addressTimer = setTimeout(() => {
    addressTimer = 0;
    const part = document.body.dataset.part || "play";
    let h = "#" + part;
    if (part === "watch" && walkGen) {
      h += "&n=" + $("walkn").value + "&engine=" + $("walkengine").value +
        ($("walkcompare").value ? "&compare=" + $("walkcompare").value : "") +
        ($("walkiterative").checked ? "&iterative=1" : "") + "&step=" + at;
    }
    if (!base()) h += "&from=0";
    if (history.replaceState && h !== location.hash) history.replaceState(null, "", h);
  }, 250);
}

/* The walk a link names, set in the form before the first walk. */
function takeAddress(p) {
  if (p.from === "0") $("onebased").checked = false;
  const has = (id, v) => [...$(id).options].some(o => o.value === v);
  if (p.engine && has("walkengine", p.engine)) { $("walkengine").value = p.engine; walkMenus(); }
  if (p.n && has("walkn", p.n)) $("walkn").value = p.n;
  if (p.compare && has("walkcompare", p.compare)) $("walkcompare").value = p.compare;
  if (p.iterative === "1") $("walkiterative").checked = true;
  return /^\d+$/.test(p.step || "") ? Number(p.step) : 0;
}

function walkMenus() {
  const e = ENGINES.find(x => x.name === $("walkengine").value);
  const max = Math.min(e ? e.maxN : 16, 16), n = Number($("walkn").value) || 5;
  options($("walkn"), range(1, max), Math.min(n, max));
}

/* ---- 3. count: the command line's table, checked against OEIS -------- */

let countJob = null;

/* Count lo..hi with engine in a worker: the table a row at a time, each
   row checked against OEIS, how far it is, the time.  A count the
   command line's estimate says would take long is refused first (the
   worker says so) unless `force`: then "count anyway" offers it. */
function countRange(lo, hi, engine, force) {
  if (countJob) countJob.stop();
  const t0 = performance.now(), rows = [], problems = [];
  let table = "", refused = null;
  $("counttable").textContent = "";
  $("countchecks").textContent = "";
  $("countbar").value = 0;
  $("countstop").disabled = false;
  $("countforce").hidden = true;
  const said = text => { $("countstate").textContent = text; };
  /* engines that split a board into units say how far they are; for the
     others the row being counted and the time so far */
  let unitsSaid = 0;
  const tick = setInterval(() => {
    if (performance.now() - unitsSaid > 1000)
      said("counting N = " + (rows.length ? rows[rows.length - 1] + 1 : lo) + " with " + engine + ": " +
           ((performance.now() - t0) / 1000).toFixed(1) + " s");
  }, 200);
  said("counting with " + engine + "...");
  const job = countJob = startJob({fn: "count", engine, lo, hi, force}, {
    out: m => {
      table += m.text + "\n";
      $("counttable").textContent = table;
      const row = /^\s*(\d+):\s+(\d+)\s+(\d+)\s/.exec(m.text);
      if (!row) return;
      rows.push(+row[1]);
      const n = +row[1];
      if (n <= OEIS_TOTAL.length && (row[2] !== OEIS_TOTAL[n - 1] || row[3] !== OEIS_UNIQUE[n - 1]))
        problems.push("N = " + n + ": " + row[2] + " and " + row[3] + ", but OEIS says " + OEIS_TOTAL[n - 1] +
                      " and " + OEIS_UNIQUE[n - 1]);
      $("countbar").value = rows.length / (hi - lo + 1);
    },
    progress: m => {
      const [n, done, total] = JSON.parse(m.text);
      if (total) $("countbar").value = (rows.length + done / total) / (hi - lo + 1);
      unitsSaid = performance.now();
      said("N = " + n + ": " + plural(done, "unit") + " of " + total.toLocaleString("en") + " done, " +
           ((performance.now() - t0) / 1000).toFixed(1) + " s");
    },
    err: m => { refused = m.text.replace(/^nqueens: /, ""); }
  });
  job.done.then(rc => {
    clearInterval(tick);
    if (countJob !== job) return;
    $("countstop").disabled = true;
    const secs = ((performance.now() - t0) / 1000).toFixed(1) + " s";
    if (rc === null) said("stopped after " + secs);
    else if (rc === 2 && refused) {
      said("not counted: " + refused + ".");
      $("countforce").hidden = false;
      $("countforce").onclick = () => countRange(lo, hi, engine, true);
    } else said(rc ? "the count failed: " + (refused || "no reason given") : "done in " + secs);
    const checked = rows.filter(n => n <= OEIS_TOTAL.length);
    $("countchecks").textContent = problems.length ? problems.join("; ") :
      checked.length ? "Every count agrees with OEIS A000170 (total) and A002562 (unique) for N = " +
        checked[0] + (checked.length > 1 ? " to " + checked[checked.length - 1] : "") + "." : "";
    $("countchecks").classList.toggle("bad", problems.length > 0);
  });
}

/* The form's range, as asked: whole numbers, from no more than to, within
   what the engine counts; anything else said, and nothing started. */
function countAsked() {
  const e = ENGINES.find(x => x.name === $("countengine").value), max = e ? e.maxN : 32;
  const read = id => { const v = $(id).value.trim(); return /^\d+$/.test(v) ? Number(v) : NaN; };
  const lo = read("countlo"), hi = read("counthi");
  let why = "";
  if (Number.isNaN(lo) || Number.isNaN(hi)) why = "give N as whole numbers, from and to";
  else if (lo < 1 || hi > max) why = $("countengine").value + " counts N from 1 to " + max;
  else if (lo > hi) why = "from " + lo + " is past to " + hi;
  if (why) {
    $("countstate").textContent = "not counted: " + why + ".";
    $("countforce").hidden = true;
    return;
  }
  countRange(lo, hi, $("countengine").value, false);
}

/* ---- 1. your turn ------------------------------------------------------ */

const play = {n: 8, q: [], ghost: null, job: null, cells: []};
const IMAGE_NAMES = ["as placed", "a quarter turn clockwise", "a half turn", "a quarter turn anticlockwise",
  "mirrored left to right", "mirrored top to bottom", "flipped on the diagonal from the top left",
  "flipped on the diagonal from the top right"];

/* The lines along which the queen in row qr attacks square (r, c), in
   the walk's own words (the trace page's linesBetween, and the row,
   which a walk never shares). */
function attackWords(qr, qc, r, c) {
  const why = qr === r ? ["row"] : [];
  for (const x of linesBetween(qr, qc, r, c))
    why.push(x === "column" ? "column" : x === "diagonal" ? "diagonal (row \u2212 column)" : "anti-diagonal (row + column)");
  return why;
}

function attackersOfSquare(r, c) {
  const out = [];
  play.q.forEach((qc, qr) => {
    if (qc < 0 || (qr === r && qc === c)) return;
    const why = attackWords(qr, qc, r, c);
    if (why.length) out.push({r: qr, c: qc, why});
  });
  return out;
}

function placed() { return play.q.filter(c => c >= 0).length; }

/* The engines' words in it glossed, as the trace viewer glosses its own
   (hover, focus or tap). */
function say(text, how) {
  $("playsay").innerHTML = glossed(text);
  $("playsay").className = "say" + (how ? " " + how : "");
}

/* Rows with no queen and no square left that no queen attacks. */
function deadRows() {
  const dead = [];
  for (let r = 0; r < play.n; r++) {
    if (play.q[r] >= 0) continue;
    let open = 0;
    for (let c = 0; c < play.n; c++) if (!attackersOfSquare(r, c).length) open++;
    if (!open) dead.push(r);
  }
  return dead;
}

function buildPlay() {
  const n = play.n, board = $("playboard"), b = base();
  board.textContent = "";
  play.cells = [];
  board.style.gridTemplateColumns = "20px repeat(" + n + ", var(--cell))";
  board.style.gridTemplateRows = "18px repeat(" + n + ", var(--cell))";
  board.appendChild(document.createElement("div"));
  for (let c = 0; c < n; c++) {
    const d = document.createElement("div");
    d.className = "lab"; d.textContent = c + b;
    board.appendChild(d);
  }
  for (let r = 0; r < n; r++) {
    const lab = document.createElement("div");
    lab.className = "lab"; lab.textContent = r + b;
    board.appendChild(lab);
    play.cells.push([]);
    for (let c = 0; c < n; c++) {
      const cell = document.createElement("button");
      cell.type = "button";
      cell.dataset.r = r; cell.dataset.c = c;
      cell.addEventListener("click", () => tap(r, c));
      /* a mouse points before it clicks; a finger's touch is its tap */
      cell.addEventListener("pointerenter", e => { if (e.pointerType === "mouse") hover(r, c); });
      cell.addEventListener("pointerleave", () => { $("playhint").textContent = ""; });
      cell.addEventListener("keydown", e => moveFocus(e, r, c));
      cell.tabIndex = r || c ? -1 : 0;
      board.appendChild(cell);
      play.cells[r].push(cell);
    }
  }
  sizePlay();
}

function sizePlay() {
  const room = ($("part-play").clientWidth || window.innerWidth) - 24;
  const cell = Math.max(16, Math.min(54, Math.floor(room / play.n)));
  $("playboard").style.setProperty("--cell", cell + "px");
}

function drawPlay() {
  const n = play.n;
  for (let r = 0; r < n; r++)
    for (let c = 0; c < n; c++) {
      const cell = play.cells[r][c], queen = play.q[r] === c;
      const attackers = queen ? [] : attackersOfSquare(r, c);
      const ghost = !queen && play.ghost && play.ghost[r] === c && play.q[r] < 0;
      cell.className = "cell" + ((r + c) % 2 ? " dark" : "") + (queen ? " queen" : "") +
        (attackers.length ? " attacked" : "") + (ghost ? " ghost" : "") +
        (r === 0 ? " edge-t" : "") + (r === n - 1 ? " edge-b" : "") + (c === 0 ? " edge-l" : "") + (c === n - 1 ? " edge-r" : "");
      cell.setAttribute("aria-label", sqName(r, c) + (queen ? ": a queen" : attackers.length ? ": attacked" :
        ghost ? ": the engine's queen" : ": free"));
    }
  const k = placed();
  $("playcount").textContent = plural(k, "queen") + " placed of " + n + ".";
  $("playboard").dataset.queens = play.q.join(",");
  $("playfill").disabled = !play.ghost;
}

/* A tap: a queen comes off; a free square takes one; an attacked one is
   refused, with every queen that attacks it and how. */
function tap(r, c) {
  stopPlayJob();
  play.ghost = null;
  $("playclass").hidden = true;
  if (play.q[r] === c) {
    play.q[r] = -1;
    drawPlay();
    say("The queen at " + sqName(r, c) + " is taken back.");
    return;
  }
  const attackers = attackersOfSquare(r, c);
  if (attackers.length) {
    play.cells[r][c].classList.add("warn");
    say("Not there: " + sqName(r, c) + " is attacked. " + attackers.map(a =>
      "The queen at " + sqName(a.r, a.c) + " shares its " + a.why.join(" and its ") + ".").join(" ") +
      (play.q[r] >= 0 ? " (To move row " + (r + base()) + "'s queen, tap it to take it back first.)" : ""), "bad");
    setTimeout(() => play.cells[r] && play.cells[r][c] && play.cells[r][c].classList.remove("warn"), 600);
    return;
  }
  play.q[r] = c;
  drawPlay();
  afterPlace(r, c);
}

function afterPlace(r, c) {
  const k = placed();
  if (k === play.n) { solved(); return; }
  const dead = deadRows();
  if (dead.length)
    say("A queen at " + sqName(r, c) + ". But now " + dead.map(x => "row " + (x + base())).join(" and ") +
        (dead.length === 1 ? " has" : " have") + " no square that no queen attacks: no solution keeps these queens. Take one back.", "bad");
  else say("A queen at " + sqName(r, c) + ". " + plural(play.n - k, "queen") + " to go.");
}

/* Pointing at an attacked square names its attackers before any tap, on
   a line of its own: what the last tap said stays. */
function hover(r, c) {
  const a = play.q[r] === c ? [] : attackersOfSquare(r, c);
  $("playhint").innerHTML = a.length ? glossed(sqName(r, c) + " is attacked by " + a.map(x => "the queen at " +
    sqName(x.r, x.c) + " (" + x.why.join(" and ") + ")").join(", ") + ".") : "";
}

/* The board is one stop of the Tab key; the arrow keys move on it (a
   grid's keys), Home and End to the row's ends. */
function moveFocus(e, r, c) {
  const d = {ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1]}[e.key];
  const n = play.n;
  let to = d ? [r + d[0], c + d[1]] : e.key === "Home" ? [r, 0] : e.key === "End" ? [r, n - 1] : null;
  if (!to) return;
  e.preventDefault();
  to = to.map(x => Math.max(0, Math.min(n - 1, x)));
  play.cells[r][c].tabIndex = -1;
  const cell = play.cells[to[0]][to[1]];
  cell.tabIndex = 0;
  cell.focus();
}

const FINISH = "let the engine finish<span class=\"wide\"> from here</span>";

function stopPlayJob() {
  if (play.job) { play.job.stop(); play.job = null; }
  $("playfinish").innerHTML = FINISH;
}

/* A full board: a solution (no placement the page allowed attacks).  The
   library says which class it is in and draws its 8 images. */
function solved() {
  say("A solution! " + (play.n === 1 ? "One queen attacks nothing." :
      "No two of your " + play.n + " queens attack each other."), "good");
  const cols = play.q.slice();
  play.job = startJob({fn: "class", cols}, {
    class: m => showClass(m, cols),
    err: m => say("The check failed: " + m.text, "bad")
  });
  play.job.done.then(() => { play.job = null; });
}

function showClass(m, cols) {
  const b = base(), same = i => m.images.findIndex(x => x.join() === m.images[i].join());
  const smallest = m.smallest.join(), classes = m.classes.toLocaleString("en");
  const where = m.place ? "class " + m.place.toLocaleString("en") + " of the " + classes +
    " (the classes numbered in the order of their smallest boards, read row by row)" :
    m.classes === 1 ? "the one class" : "one of the " + classes + " classes";
  $("playclasstext").innerHTML = glossed("Turning or mirroring a solution gives a solution, so solutions come in " +
    "classes: the boards one rotation or reflection makes of another. Yours is in " + where + ". " +
    "Its class's smallest board is " + m.smallest.map(c => c + b).join(" ") + " (a column a row). It has " +
    plural(m.weight, "different board") + (m.weight < 8 ? ", not 8: some turns give the same board back" : "") +
    ". Counting each class once is what the unique count does.");
  const firstSmallest = m.images.findIndex(x => x.join() === smallest);
  const box = $("playimages");
  box.textContent = "";
  m.images.forEach((img, t) => {
    const fig = document.createElement("figure");
    fig.className = "image" + (t === firstSmallest ? " smallest" : "");
    fig.style.margin = "0";
    const mini = document.createElement("div");
    mini.className = "mini";
    mini.style.gridTemplateColumns = "repeat(" + play.n + ", 9px)";
    for (let r = 0; r < play.n; r++)
      for (let c = 0; c < play.n; c++) {
        const s = document.createElement("span");
        s.className = (img[r] === c ? "q" : "") + ((r + c) % 2 ? " dark" : "");
        mini.appendChild(s);
      }
    const cap = document.createElement("figcaption");
    const first = same(t);
    cap.textContent = IMAGE_NAMES[t] + (first < t ? " (= " + IMAGE_NAMES[first] + ")" : "") +
      (t === firstSmallest ? ": the smallest" : "");
    fig.append(mini, cap);
    fig.dataset.cols = img.join(",");
    box.appendChild(fig);
  });
  $("playclass").hidden = false;
  $("playclass").dataset.place = m.place;
  $("playclass").dataset.classes = m.classes;
  void cols;
}

/* The completion search from the learner's queens: how many solutions
   keep them, and the first of them as faint queens. */
function finish() {
  if (play.job) { stopPlayJob(); say("Stopped."); return; }
  const given = play.q.slice(), t0 = performance.now();
  const k = placed();
  say(k ? "The engine is searching for every solution that keeps your " + plural(k, "queen") + "..." :
      "The engine is searching for every solution of the empty board...");
  $("playfinish").textContent = "stop the engine";
  let answer = null;
  play.job = startJob({fn: "complete", given}, {
    complete: m => { answer = m; },
    err: m => say(m.text, "bad")
  });
  const job = play.job;
  job.done.then(rc => {
    if (play.job !== job) return;
    play.job = null;
    $("playfinish").innerHTML = FINISH;
    if (!answer || rc) return;
    const secs = ((performance.now() - t0) / 1000).toFixed(2);
    const total = BigInt(answer.total);
    const none = k ? "No solution keeps these queens (the engine searched every way to fill the other rows, " +
      secs + " s). Take one back." : "The " + play.n + " \u00d7 " + play.n + " board has no solution at all: every " +
      "way to place " + play.n + " queens has two that attack each other (" + secs + " s).";
    const some = k ? (total === 1n ? " solution keeps" : " solutions keep") + " your " + (k === 1 ? "queen" : "queens")
      : (total === 1n ? " solution" : " solutions") + " on the empty board";
    if (total === 0n) {
      play.ghost = null;
      say(none, "bad");
    } else {
      play.ghost = answer.first;
      say(total.toLocaleString("en") + some + " (" + secs + " s). The faint queens are the first of them; " +
          "\u201cplace them\u201d puts them on the board.", "good");
    }
    drawPlay();
  });
}

function fill() {
  if (!play.ghost) return;
  play.q = play.ghost.slice();
  play.ghost = null;
  drawPlay();
  solved();
}

function newBoard() {
  stopPlayJob();
  play.n = Number($("playn").value) || 8;
  play.q = new Array(play.n).fill(-1);
  play.ghost = null;
  $("playclass").hidden = true;
  buildPlay();
  drawPlay();
  say("An empty " + play.n + " \u00d7 " + play.n + " board: place " + plural(play.n, "queen") +
      " so that none attacks another. Tap a square to place a queen, tap a queen to take it back.");
}

/* ---- the page ---------------------------------------------------------- */

/* The trace page's footer says how it was made: this page's way. */
function footer() {
  document.querySelector("footer .made").innerHTML = 'Made by <code>make wasm</code>: the nqueens library and ' +
    'command line compiled to <span id="lessonmodule">WebAssembly</span>, all in this one file; nothing is ' +
    'fetched, and it works offline. Each step is the engine\'s own, its line the one <code>nqueens trace</code> prints.';
  for (const e of document.querySelectorAll("[data-gloss]")) e.innerHTML = glossed(e.textContent);
}

function main() {
  $("part-watch").appendChild($("trace"));
  const h = document.createElement("h2");
  h.id = "title"; $("title").replaceWith(h);
  footer();
  options($("playn"), range(1, PLAY_MAX_N), 8);
  options($("walkn"), range(1, 16), 5);
  PARTS.forEach(p => {
    /* a click leaves the keys to the page (the walk's arrows); a tab
       reached by the keyboard keeps them, the tab list's own */
    $("tab-" + p).addEventListener("click", e => { showPart(p); if (e.detail) e.currentTarget.blur(); });
    $("tab-" + p).addEventListener("keydown", tabKeys);
  });
  $("playn").onchange = newBoard;
  $("playclear").onclick = newBoard;
  $("playfinish").onclick = finish;
  $("playfill").onclick = fill;
  $("onebased").onchange = () => {
    buildPlay(); drawPlay();
    say("Rows and columns are now counted from " + base() + ".");
    if (walkGen) startWalk(at);
    keepAddress();
  };
  for (const id of ["walkn", "walkcompare", "walkiterative"]) $(id).onchange = () => startWalk();
  $("walkengine").onchange = () => { walkMenus(); startWalk(); };
  window.nqOnStep = keepAddress;
  $("countfast").onclick = () => { options($("countengine"), ENGINES.map(e => [e.name, e.name]), "fast");
    $("countlo").value = 1; $("counthi").value = 16; countRange(1, 16, "fast", false); };
  $("countgo").onclick = countAsked;
  $("countstop").onclick = () => { if (countJob) countJob.stop(); };
  window.addEventListener("resize", sizePlay);
  newBoard();
  loadEngines().then(() => {
    walkMenus();
    const p = readAddress();
    firstStep = takeAddress(p);
    if (!base()) { buildPlay(); drawPlay(); }
    showPart(p.part);
    document.body.dataset.ready = "1";
  });
}

main();
})();
