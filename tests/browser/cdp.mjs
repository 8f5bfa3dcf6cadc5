// cdp.mjs - headless Chromium over the DevTools pipe, for the browser
// tests (walk.mjs, teach.mjs).  No npm package and no WebSocket client:
// Chromium started with --remote-debugging-pipe reads commands on fd 3
// and writes on fd 4, each message JSON ended by a NUL.
//
//   const b = new Browser(chromiumPath, profileDir);
//   const tab = await openTab(b);            // tab.errors: console errors
//   await load(b, tab, url);                 // waits for the load event
//   await evaluate(b, tab, "1 + 1");         // the value (promises awaited)
//   await press(b, tab, ...RIGHT);           // a key, down and up
//   await b.close();
//
// withBrowser(path, fn) starts one in a fresh profile, runs fn(b) and
// closes it (and removes the profile) whatever fn does.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

// --name value pairs from the command line; `need` lists the options
// that must be there; `flags` the options that take no value.
export function options(argv, need, prog, flags = []) {
  const o = {};
  for (let i = 0; i < argv.length; i++) {
    const name = argv[i].replace(/^--/, "");
    if (!argv[i].startsWith("--")) throw new Error(prog + ": unexpected argument " + argv[i]);
    if (flags.includes(name)) { o[name] = true; continue; }
    if (i + 1 >= argv.length) throw new Error(prog + ": --" + name + " needs a value");
    o[name] = argv[++i];
  }
  for (const n of need)
    if (!o[n]) throw new Error(prog + ": --" + n + " is needed");
  return o;
}

// The program's standard output; throws unless it exits 0.
export function run(cli, args) {
  const r = spawnSync(cli, args, { encoding: "utf8", maxBuffer: 1 << 28 });
  if (r.status !== 0)
    throw new Error(cli + " " + args.join(" ") + ": exit " + (r.status ?? r.signal ?? r.error) + ": " +
      String(r.stderr || "").slice(0, 400));
  return r.stdout;
}

// A DevTools session over the pipe: send(method, params) resolves with
// the result; events go to onEvent.
export class Browser {
  constructor(path, profile) {
    this.proc = spawn(path, ["--headless", "--no-sandbox", "--disable-gpu",
      "--remote-debugging-pipe", "--no-first-run", "--no-default-browser-check",
      "--disable-extensions", "--disable-background-networking", "--disable-component-update",
      "--disable-sync", "--disable-default-apps", "--mute-audio",
      "--disable-background-timer-throttling", "--disable-renderer-backgrounding",
      "--disable-backgrounding-occluded-windows",
      "--user-data-dir=" + profile, "--allow-file-access-from-files", "about:blank"],
      { stdio: ["ignore", "ignore", "pipe", "pipe", "pipe"] });
    this.proc.stderr.resume();
    this.next = 1; this.waiting = new Map(); this.events = []; this.buf = "";
    this.proc.stdio[4].on("data", d => this.receive(d));
    this.proc.stdio[3].on("error", () => {});  // the exit below says why
    this.exited = new Promise(res => this.proc.on("exit", (code, sig) => {
      for (const { fail, method, timer } of this.waiting.values()) {
        clearTimeout(timer);
        fail(new Error(method + ": chromium exited (" + (sig || code) + ")"));
      }
      this.waiting.clear();
      this.dead = true;
      res();
    }));
  }
  receive(d) {
    this.buf += d.toString("utf8");
    let end;
    while ((end = this.buf.indexOf("\0")) >= 0) {
      const msg = JSON.parse(this.buf.slice(0, end));
      this.buf = this.buf.slice(end + 1);
      if (msg.id && this.waiting.has(msg.id)) {
        const { ok, fail, method, timer } = this.waiting.get(msg.id);
        clearTimeout(timer);
        this.waiting.delete(msg.id);
        if (msg.error) fail(new Error(method + ": " + msg.error.message)); else ok(msg.result);
      } else if (msg.method) {
        if (this.keepEvents) this.events.push(msg);
        if (this.onEvent) this.onEvent(msg);
      }
    }
  }
  send(method, params = {}, sessionId, timeoutMs = 20000) {
    if (this.dead) return Promise.reject(new Error(method + ": chromium has exited"));
    const id = this.next++;
    const msg = { id, method, params };
    if (sessionId) msg.sessionId = sessionId;
    this.proc.stdio[3].write(JSON.stringify(msg) + "\0");
    return new Promise((ok, fail) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        fail(new Error(method + ": no answer in " + timeoutMs / 1000 + " s"));
      }, timeoutMs);
      timer.unref();
      this.waiting.set(id, { ok, fail, method, timer });
    });
  }
  // The next event named `method` (of the session) after now.
  waitFor(method, sessionId, timeoutMs = 20000) {
    return new Promise((ok, fail) => {
      const prev = this.onEvent;
      const t = setTimeout(() => {
        this.onEvent = prev;
        fail(new Error("no " + method + " in " + timeoutMs / 1000 + " s"));
      }, timeoutMs);
      this.onEvent = msg => {
        if (prev) prev(msg);
        if (msg.method === method && msg.sessionId === sessionId) {
          clearTimeout(t); this.onEvent = prev; ok(msg.params);
        }
      };
    });
  }
  async close() {
    try { await this.send("Browser.close", {}, undefined, 5000); } catch (e) { this.proc.kill(); }
    await this.exited;
  }
}

// Starts Chromium in a fresh profile, runs fn(b), closes it.
export async function withBrowser(path, fn) {
  const profile = mkdtempSync(join(tmpdir(), "nq-chromium-"));
  const b = new Browser(path, profile);
  try {
    return await fn(b);
  } finally {
    await b.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

// The window size (CSS pixels); mobile: a phone's (the page's viewport
// meta tag applies, touch events on).
export async function setViewport(b, tab, width, height, mobile = false, scale = 1) {
  await b.send("Emulation.setDeviceMetricsOverride",
    { width, height, deviceScaleFactor: scale, mobile }, tab.sessionId);
  await b.send("Emulation.setTouchEmulationEnabled", { enabled: mobile }, tab.sessionId);
}

// A tab: its session, and what it has said on its console (tab.errors:
// console.error and console.assert calls, exceptions, error log entries).
export async function openTab(b, width = 1300, height = 1000) {
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
  const tab = { sessionId, targetId, errors };
  await setViewport(b, tab, width, height, false);
  await b.send("Emulation.setFocusEmulationEnabled", { enabled: true }, sessionId);
  return tab;
}

// Navigates and waits for the load event.  A URL that differs from the
// page shown only in its #fragment does not reload: give such a URL a
// ?query of its own.
export async function load(b, tab, url) {
  const loaded = b.waitFor("Page.loadEventFired", tab.sessionId, 60000);
  await b.send("Page.navigate", { url }, tab.sessionId);
  await loaded;
}

// The value of a JavaScript expression in the page (a promise awaited);
// throws the page's exception if it throws.
export async function evaluate(b, tab, expression, timeoutMs = 20000) {
  const r = await b.send("Runtime.evaluate",
    { expression, returnByValue: true, awaitPromise: true }, tab.sessionId, timeoutMs);
  if (r.exceptionDetails)
    throw new Error("in the page: " + (r.exceptionDetails.exception?.description || r.exceptionDetails.text));
  return r.result.value;
}

// After two animation frames: what the page drew for the last change.
export function frames(b, tab) {
  return evaluate(b, tab, "new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))");
}

// A key pressed and released, as [key, code, keyCode]: RIGHT, LEFT, ...
export async function press(b, tab, key, code, vk) {
  const ev = { key, code, windowsVirtualKeyCode: vk, nativeVirtualKeyCode: vk };
  if (key === " ") ev.text = " ";
  if (key === "Enter") ev.text = "\r"; /* the key press that presses a button */
  await b.send("Input.dispatchKeyEvent", { type: "keyDown", ...ev }, tab.sessionId);
  await b.send("Input.dispatchKeyEvent", { type: "keyUp", ...ev }, tab.sessionId);
}
export const RIGHT = ["ArrowRight", "ArrowRight", 39], LEFT = ["ArrowLeft", "ArrowLeft", 37];
export const HOME = ["Home", "Home", 36], END = ["End", "End", 35], SPACE = [" ", "Space", 32];
export const PAGEUP = ["PageUp", "PageUp", 33], PAGEDOWN = ["PageDown", "PageDown", 34];
export const ENTER = ["Enter", "Enter", 13];

// A left click at client coordinates (x, y): moved, pressed, released.
export async function click(b, tab, x, y) {
  const at = { x, y, button: "left", clickCount: 1 };
  await b.send("Input.dispatchMouseEvent", { type: "mouseMoved", x, y }, tab.sessionId);
  await b.send("Input.dispatchMouseEvent", { type: "mousePressed", ...at, buttons: 1 }, tab.sessionId);
  await b.send("Input.dispatchMouseEvent", { type: "mouseReleased", ...at, buttons: 0 }, tab.sessionId);
}

// A PNG of the window (full: the whole page, beyond the window) to file.
export async function screenshot(b, tab, file, full = false) {
  const shot = await b.send("Page.captureScreenshot",
    { format: "png", captureBeyondViewport: full }, tab.sessionId, 60000);
  writeFileSync(file, Buffer.from(shot.data, "base64"));
}

// Throws with the tab's console errors, if any, and forgets them.
export function noErrors(tab, where) {
  if (!tab.errors.length) return;
  const e = tab.errors.splice(0);
  throw new Error(where + ": console: " + e.slice(0, 5).join("; ") + (e.length > 5 ? " (and " + (e.length - 5) + " more)" : ""));
}

// A script of checks in one browser: fn(b, tab, unit) runs them, each as
// unit(name, check): check() returns what it found, or throws why it
// failed; any console error or exception in the page fails it too.
// Prints "ok NAME: found (ms)" or "FAIL NAME: why" a check, then a last
// line for the script (prog, with what it ran: `ran`), and exits 1 if
// any check failed.
export async function runChecks(chromium, prog, ran, size, fn) {
  const t0 = Date.now();
  let passed = 0, failed = 0;
  await withBrowser(chromium, async b => {
    const tab = await openTab(b, ...size);
    const unit = async (name, check) => {
      const t = Date.now();
      try {
        const said = await check();
        noErrors(tab, "in the page");
        passed++;
        console.log(`ok ${name}: ${said} (${Date.now() - t} ms)`);
      } catch (e) {
        failed++;
        tab.errors.length = 0;
        console.log(`FAIL ${name}: ${e.message}`);
        if (b.dead) throw new Error("chromium exited");
      }
    };
    await fn(b, tab, unit);
  }).catch(e => { failed++; console.log(`FAIL ${prog}: ${e.message}`); });
  const secs = ((Date.now() - t0) / 1000).toFixed(1);
  if (failed) console.log(`FAIL ${prog}: ${failed} of ${passed + failed} checks failed (${secs} s)`);
  else console.log(`ok ${prog}: ${passed} checks (${ran}) in ${secs} s`);
  process.exit(failed ? 1 : 0);
}
