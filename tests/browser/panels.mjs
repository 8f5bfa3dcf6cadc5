// panels.mjs - the trace viewer's panels, read in the page and checked
// against the text trace (`nqueens trace`), replayed here: what teach.mjs
// checks on the command line's pages and lesson.mjs on the lesson page,
// whose walker is the same viewer fed by a worker.
import { evaluate } from "./cdp.mjs";

export const TEACHING = ["brute", "backtrack", "flags", "bitmap", "mirror", "symmetry"];
export const MASKS = new Set(["bitmap", "mirror", "symmetry"]);

// ---- the text trace, replayed ----

// The columns marked 1 in a mask as the trace prints it (column 0 first).
export function maskCols(m) {
  const cols = [];
  for (let c = 0; c < m.length; c++) if (m[c] === "1") cols.push(c);
  return cols;
}

// A walk from its text trace: steps[K] for K = 0..L, each with its kind,
// row and col (-1 where none), the board after it (a column a row, row 0
// first), path (the step that placed each of those queens), the masks
// "to try", "ruled out" and "free" where the line has them, and its line.
export function walkOf(text, engine, n, what) {
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
    for (const name of ["down", "down-right", "down-left"])
      if ((t = new RegExp("  " + name + " ([01]+)").exec(rest))) (s.masks = s.masks || {})[name] = t[1];
    if (kind === "remove") {  // a dead end: placed, then taken back with nothing placed or found under it
      let i = steps.length - 1;
      while (steps[i].kind === "reject") i--;
      s.deadEnd = steps[i].kind === "place" && steps[i].row === s.row && steps[i].col === s.col;
    }
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
export function attackersOf(board, r, c) {
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
export function checkText(w) {
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
      const want = masksOf(s.board.slice(0, s.row), s.row, w.n);
      for (const name of Object.keys(want))
        if (!s.masks || s.masks[name] !== want[name])
          throw new Error(at + `: '${name}' is '${s.masks && s.masks[name]}' in '${s.line}'; the squares the queens above ` +
            `attack that way, column 0 first, are ${want[name]}`);
      if (s.toTry[0] !== s.col) throw new Error(at + ": 'to try' " + s.toTry + " but the column taken is " + s.col);
    }
    if (MASKS.has(w.engine) && s.kind === "remove" && s.toTry && s.toTry.some(c => c <= s.col))
      throw new Error(at + ": 'to try' " + s.toTry + " after giving up column " + s.col);
  }
}

// The squares of row `row` that the queens above (board) attack straight
// down, down to the right (to higher columns) and down to the left, as 0s
// and 1s, column 0 first: what the masks of those names must hold.
export function masksOf(board, row, n) {
  const m = { "down": [], "down-right": [], "down-left": [] };
  for (let c = 0; c < n; c++) {
    m["down"].push(board.includes(c) ? 1 : 0);
    m["down-right"].push(board.some((qc, qr) => c - qc === row - qr) ? 1 : 0);
    m["down-left"].push(board.some((qc, qr) => qc - c === row - qr) ? 1 : 0);
  }
  for (const k of Object.keys(m)) m[k] = m[k].join("");
  return m;
}

// What the board of walk w must say at step k.
export function expected(w, k) {
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
export function pageRead(i) {
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
    masks: st ? Object.fromEntries([...st.querySelectorAll(".bits")].map(r => [r.querySelector(".name").textContent,
      [...r.querySelectorAll(".b")].map(x => x.lastChild.textContent).join("")])) : {},
    current: code ? code.querySelectorAll(".codeline.current").length : -1,
    reason: text("reason"), line: text("line"), pos: text("pos"),
  };
}

// Focus on the page itself, so that the keys reach its handler.
export function unfocus(b, tab) {
  return evaluate(b, tab, "(() => { if (document.activeElement) document.activeElement.blur(); return true; })()");
}

// JavaScript that calls `res` with what walk i shows (2: both walks; -1:
// null) after the page's next frame (or 100 ms, if frames do not come).
export function READ(i, res) {
  const what = i < 0 ? "null" : i === 2 ? "[read(0), read(1)]" : `read(${i})`;
  return `{ const read = ${pageRead}; let done = false;
    const f = () => { if (!done) { done = true; ${res}(${what}); } };
    requestAnimationFrame(f); setTimeout(f, 100); }`;
}

export const collapse = s => String(s).replace(/\s+/g, " ").trim();
export const sameSet = (a, b) => [...a].sort().join(" ") === [...b].sort().join(" ");

// The attackers as data-attackers lists them, each "r:c:why" with why's
// lines sorted; null when not in that form.
export function parseAttackers(s) {
  if (s === undefined || s === null || s === "") return [];
  const out = [];
  for (const part of s.split(";")) {
    const m = /^(\d+):(\d+):((?:column|diagonal|anti-diagonal)(?:\+(?:column|diagonal|anti-diagonal))*)$/.exec(part.trim());
    if (!m) return null;
    out.push({ r: +m[1], c: +m[2], why: m[3].split("+").sort() });
  }
  return out;
}
export const attackerKey = a => a.r + ":" + a.c + ":" + [...a.why].sort().join("+");

// Walk w's board shows step k as the text trace has it, in every
// attribute and mark of the contract.  opts.base: the labels' first
// number; opts.lines: the walk whose lines #line must show (the
// --one-based text for a --one-based page); opts.labels false: not checked.
export function checkShown(w, k, got, how, opts = {}) {
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
  // the masks as the panel shows them: named as the text names them, the
  // same cells
  if (MASKS.has(w.engine) && s.kind === "place" && s.masks)
    for (const [name, bits] of Object.entries(s.masks))
      if (got.masks[name] !== bits) fail(`step ${k} (${s.line}): #state's '${name}' row is '${got.masks[name]}', the text's '${bits}'`);
  // a sentence a step, saying why: a dead end named; a queen placed by the
  // engines that test the queens above, because none attacks the square
  const why = collapse(got.reason ?? "");
  if (!/^\S.*\.$/.test(why)) fail(`step ${k} (${s.line || "start"}): #reason '${why}' is not a sentence`);
  if (s.deadEnd && !/dead end/.test(why)) fail(`step ${k} (${s.line}): a dead end, but #reason says '${why}'`);
  if (s.kind === "place" && (w.engine === "backtrack" || w.engine === "flags") && !/No queen above attacks/.test(why))
    fail(`step ${k} (${s.line}): #reason '${why}' does not say why the queen may stand`);
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
export function pickSteps(w, count) {
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

export function firstOf(w, kind) {
  const s = w.steps.find(x => x.kind === kind);
  return s ? s.k : null;
}
