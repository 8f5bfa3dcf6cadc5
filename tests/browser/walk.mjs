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
// Chromium is driven over the DevTools protocol on a pipe
// (--remote-debugging-pipe: it reads commands on fd 3 and writes on fd 4,
// each message JSON ended by a NUL), so no npm package and no WebSocket
// client is needed.  Prints "ok ..." lines; exits 1 at the first failure.
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

// --name value pairs from the command line.
function options(argv) {
  const o = {};
  for (let i = 0; i + 1 < argv.length; i += 2) o[argv[i].replace(/^--/, "")] = argv[i + 1];
  for (const need of ["cli", "chromium", "engine", "out"])
    if (!o[need]) throw new Error("walk.mjs: --" + need + " is needed");
  return o;
}

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

// A DevTools session over the pipe: send(method, params) resolves with
// the result; events go to onEvent.
class Browser {
  constructor(path, profile) {
    this.proc = spawn(path, ["--headless", "--no-sandbox", "--disable-gpu",
      "--remote-debugging-pipe", "--no-first-run", "--no-default-browser-check",
      "--disable-extensions", "--disable-background-networking", "--disable-component-update",
      "--disable-sync", "--disable-default-apps", "--mute-audio",
      "--user-data-dir=" + profile, "--allow-file-access-from-files", "about:blank"],
      { stdio: ["ignore", "ignore", "pipe", "pipe", "pipe"] });
    this.proc.stderr.resume();
    this.next = 1; this.waiting = new Map(); this.events = []; this.buf = "";
    this.proc.stdio[4].on("data", d => this.receive(d));
    this.exited = new Promise(res => this.proc.on("exit", res));
  }
  receive(d) {
    this.buf += d.toString("utf8");
    let end;
    while ((end = this.buf.indexOf("\0")) >= 0) {
      const msg = JSON.parse(this.buf.slice(0, end));
      this.buf = this.buf.slice(end + 1);
      if (msg.id && this.waiting.has(msg.id)) {
        const { ok, fail, method } = this.waiting.get(msg.id);
        this.waiting.delete(msg.id);
        if (msg.error) fail(new Error(method + ": " + msg.error.message)); else ok(msg.result);
      } else if (msg.method) {
        this.events.push(msg);
        if (this.onEvent) this.onEvent(msg);
      }
    }
  }
  send(method, params = {}, sessionId) {
    const id = this.next++;
    const msg = { id, method, params };
    if (sessionId) msg.sessionId = sessionId;
    this.proc.stdio[3].write(JSON.stringify(msg) + "\0");
    return new Promise((ok, fail) => {
      this.waiting.set(id, { ok, fail, method });
      setTimeout(() => fail(new Error(method + ": no answer in 20 s")), 20000).unref();
    });
  }
  // The next event named `method` (of the session) after now.
  waitFor(method, sessionId) {
    return new Promise((ok, fail) => {
      const prev = this.onEvent;
      const t = setTimeout(() => fail(new Error("no " + method + " in 20 s")), 20000);
      this.onEvent = msg => {
        if (prev) prev(msg);
        if (msg.method === method && msg.sessionId === sessionId) {
          clearTimeout(t); this.onEvent = prev; ok(msg.params);
        }
      };
    });
  }
  async close() {
    try { await this.send("Browser.close"); } catch (e) { this.proc.kill(); }
    await this.exited;
  }
}

// A tab: its session, and what it has said on its console.
async function openTab(b) {
  const { targetId } = await b.send("Target.createTarget", { url: "about:blank" });
  const { sessionId } = await b.send("Target.attachToTarget", { targetId, flatten: true });
  const errors = [];
  const prev = b.onEvent;
  b.onEvent = msg => {
    if (prev) prev(msg);
    if (msg.sessionId !== sessionId) return;
    const p = msg.params;
    if (msg.method === "Runtime.exceptionThrown")
      errors.push("exception: " + (p.exceptionDetails.exception?.description || p.exceptionDetails.text));
    if (msg.method === "Runtime.consoleAPICalled" && (p.type === "error" || p.type === "assert"))
      errors.push("console." + p.type + ": " + p.args.map(a => a.value ?? a.description).join(" "));
    if (msg.method === "Log.entryAdded" && p.entry.level === "error")
      errors.push("log: " + p.entry.text);
  };
  for (const m of ["Page.enable", "Runtime.enable", "Log.enable"]) await b.send(m, {}, sessionId);
  await b.send("Emulation.setDeviceMetricsOverride",
    { width: 1300, height: 1000, deviceScaleFactor: 1, mobile: false }, sessionId);
  return { sessionId, errors };
}

async function load(b, tab, url) {
  const loaded = b.waitFor("Page.loadEventFired", tab.sessionId);
  await b.send("Page.navigate", { url }, tab.sessionId);
  await loaded;
}

// What the board element says: [data-step, data-queens].
async function shown(b, tab) {
  const r = await b.send("Runtime.evaluate", { returnByValue: true,
    expression: "(() => { const e = document.getElementById('board'); return e ? [e.dataset.step, e.dataset.queens] : null; })()" },
    tab.sessionId);
  return r.result.value;
}

async function press(b, tab, key, code, vk) {
  const ev = { key, code, windowsVirtualKeyCode: vk, nativeVirtualKeyCode: vk };
  if (key === " ") ev.text = " ";
  await b.send("Input.dispatchKeyEvent", { type: "keyDown", ...ev }, tab.sessionId);
  await b.send("Input.dispatchKeyEvent", { type: "keyUp", ...ev }, tab.sessionId);
}
const RIGHT = ["ArrowRight", "ArrowRight", 39], LEFT = ["ArrowLeft", "ArrowLeft", 37];
const HOME = ["Home", "Home", 36], END = ["End", "End", 35], SPACE = [" ", "Space", 32];

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
    const shot = await b.send("Page.captureScreenshot", { format: "png" }, tab.sessionId);
    writeFileSync(join(out, `trace-${engine}-${n}-step${presses - 1}.png`), Buffer.from(shot.data, "base64"));
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
  const r = await b.send("Runtime.evaluate", { returnByValue: true, expression:
    "(() => { document.getElementById('seedstyle').click(); const e = document.getElementById('board2'); return [e.dataset.step, e.dataset.queens]; })()" },
    tab.sessionId);
  const [j, q] = r.result.value;
  if (theirs[+j] === undefined || theirs[+j].join(",") !== q)
    throw new Error(`compared with ${other}: its board shows step ${j} queens '${q}'; its text trace has '${theirs[+j]}'`);
  const shot = await b.send("Page.captureScreenshot", { format: "png" }, tab.sessionId);
  writeFileSync(join(out, `trace-${engine}-${n}-compare-${other}.png`), Buffer.from(shot.data, "base64"));
  if (tab.errors.length) throw new Error("console: " + tab.errors.join("; "));
}

function run(cli, args) {
  const r = spawnSync(cli, args, { encoding: "utf8", maxBuffer: 1 << 28 });
  if (r.status !== 0) throw new Error(cli + " " + args.join(" ") + ": exit " + r.status + ": " + r.stderr);
  return r.stdout;
}

async function main() {
  const o = options(process.argv.slice(2));
  const out = resolve(o.out);
  mkdirSync(out, { recursive: true });
  const profile = mkdtempSync(join(tmpdir(), "nq-chromium-"));
  const b = new Browser(o.chromium, profile);
  let failed = false;
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
  } finally {
    await b.close();
    rmSync(profile, { recursive: true, force: true });
  }
  process.exit(failed ? 1 : 0);
}

main();
