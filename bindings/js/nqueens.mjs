/*
 * nqueens.mjs - the package's entry: the N-Queens engines of nqueens (the
 * C library and its command line, compiled to WebAssembly) for node and
 * browsers, as the Python module offers them: count, solutions, trace,
 * engines.  Every job runs in a worker of its own (worker.mjs; node's
 * worker_threads, a module Web Worker in a page), so that nothing here
 * ever blocks the caller's thread, and a stream the caller stops reading
 * ends its worker.  What a job hands back is what the command line
 * prints (its --json lines) and its errors are the command line's words.
 */
const isNode = typeof process === "object" && !!process.versions?.node;
const workerUrl = new URL("./worker.mjs", import.meta.url);

/* WebAssembly SIMD: a module of one function using v128 (the bytes of
 * wasm-feature-detect's test), valid only where the engine takes SIMD. */
const simdProbe = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3,
  2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98, 11]);
let chosen = null;

/** The module this package runs here: "simd" where WebAssembly SIMD is
 * (the fast engine's vector kernel), else "scalar". */
export function flavour() {
  chosen ??= WebAssembly.validate(simdProbe) ? "simd" : "scalar";
  return chosen;
}

/* A worker and its messages as an async queue. */
async function spawn() {
  let worker;
  const listeners = [];
  const deliver = m => { for (const fn of listeners) fn(m); };
  if (isNode) {
    const {Worker} = await import("node:worker_threads");
    worker = new Worker(workerUrl);
    worker.on("message", deliver);
    worker.on("error", e => deliver({type: "done", rc: 1, err: String(e?.message ?? e)}));
    worker.on("exit", code => deliver({type: "done", rc: code || 1, err: "nqueens: the worker ended"}));
  } else {
    worker = new Worker(workerUrl, {type: "module"});
    worker.onmessage = e => deliver(e.data);
    worker.onerror = e => deliver({type: "done", rc: 1, err: String(e?.message ?? e)});
  }
  const queue = [], waiting = [];
  let ended = false;
  listeners.push(m => {
    if (ended) return;
    ended = m.type === "done";
    if (waiting.length) waiting.shift()(m); else queue.push(m);
  });
  return {
    post: job => worker.postMessage(job),
    next: () => queue.length ? Promise.resolve(queue.shift()) : new Promise(r => waiting.push(r)),
    end: () => { ended = true; worker.terminate(); },
  };
}

/* The command line's error as the error of its kind: a TypeError for an
 * argument of the wrong type, a RangeError for a value the command line
 * refuses (exit 2, its usage errors), else an Error; the program's name
 * it starts with ("nqueens: ", "nqueens trace: ") left out. */
function failure(rc, text, typeError) {
  const words = (text.split("\n").find(l => /^nqueens[ a-z]*: /.test(l)) || text || `exit ${rc}`)
    .replace(/^nqueens[ a-z]*: /, "");
  const Kind = typeError ? TypeError : rc === 2 ? RangeError : Error;
  return new Kind(words);
}

/* One job in a worker; its output lines, as an async iterator of
 * batches; stopping the iteration ends the worker. */
async function* job(spec, badType) {
  const w = await spawn();
  const flow = typeof SharedArrayBuffer === "function" && (isNode || globalThis.crossOriginIsolated)
    ? new Int32Array(new SharedArrayBuffer(8)) : null;
  try {
    w.post({...spec, flavour: flavour(), flow: flow?.buffer});
    for (;;) {
      const m = await w.next();
      if (m.type === "done") {
        if (m.rc !== 0) throw failure(m.rc, m.err, badType);
        return;
      }
      yield m.items;
      if (flow) { Atomics.add(flow, 0, 1); Atomics.notify(flow, 0); }
    }
  } finally {
    if (flow) { Atomics.store(flow, 1, 1); Atomics.notify(flow, 0); }
    w.end();
  }
}

/* N as the command line reads it (its text, so that a bad one is
 * refused in its words); a TypeError unless a whole number. */
const wrongN = n => typeof n !== "number" || !Number.isInteger(n);
function boardText(n) {
  if (typeof n !== "number")
    throw new TypeError(`N must be a whole number, not ${n === null ? "null" : typeof n}` +
                        (typeof n === "string" ? ` ('${n}')` : ""));
  return String(n);
}

function checkOptions(options, known) {
  if (options === null || typeof options !== "object")
    throw new TypeError(`options must be an object, not ${options === null ? "null" : typeof options}`);
  for (const key of Object.keys(options))
    if (!known.includes(key))
      throw new TypeError(`unknown option '${key}' (options: ${known.join(", ")})`);
  if (options.engine !== undefined && typeof options.engine !== "string")
    throw new TypeError(`engine must be a string, not ${typeof options.engine}`);
}

/* limit: a whole number from 1, as the command line's --limit. */
function limitArgs(limit) {
  if (limit === undefined || limit === null) return [];
  if (typeof limit !== "number" && typeof limit !== "bigint")
    throw new TypeError(`limit must be a whole number from 1, not ${typeof limit}`);
  return ["--limit", String(limit)];
}

const engineArgs = engine => engine === undefined ? [] : ["--engine", engine];

/** Counts of the N x N board: {total, unique} as BigInt, seconds. */
export async function count(n, options = {}) {
  checkOptions(options, ["engine", "threads", "force", "maxSeconds"]);
  const {engine, threads = 1, force = false, maxSeconds = 300} = options;
  if (threads !== 1 && threads !== null)
    throw new RangeError(`threads: this build counts on one thread (the WebAssembly ` +
                         `modules have no threads), not ${threads}`);
  if (typeof maxSeconds !== "number" || !(maxSeconds > 0))
    throw new TypeError(`maxSeconds must be a number of seconds over 0, not ${maxSeconds}`);
  let line, estimate;
  try {
    for await (const items of job({fn: "count", n: boardText(n), engine: engine ?? null,
                                   force: !!force, maxSeconds}, wrongN(n)))
      for (const item of items)
        if (item.estimate !== undefined) estimate = item; else line = item;
  } catch (e) {
    if (estimate) e.estimate = {seconds: estimate.estimate, low: estimate.low,
                                high: estimate.high, took: estimate.took};
    throw e;
  }
  return {n, engine: line.engine, total: BigInt(line.total), unique: BigInt(line.unique),
          seconds: line.seconds};
}

/** The solutions of the N x N board in board order, each an array of
 * columns by row (from 0, or from 1 with oneBased). */
export async function* solutions(n, options = {}) {
  checkOptions(options, ["engine", "oneBased", "unique", "limit"]);
  const {engine, oneBased = false, unique = false, limit} = options;
  const args = ["solve", boardText(n), "--json", ...engineArgs(engine), ...limitArgs(limit),
                ...(unique ? ["--unique"] : [])];
  const base = oneBased ? 1 : 0;
  for await (const items of job({fn: "main", args}, wrongN(n)))
    for (const item of items)
      if (item.type === "solution") yield item.queens.map(c => c + base);
}

/** The engine's search of the N x N board, step by step, as `nqueens
 * trace N --json` prints it: {step, event, row, col, queens, text}. */
export async function* trace(n, options = {}) {
  checkOptions(options, ["engine", "limit", "oneBased", "iterative", "style"]);
  const {engine, limit, oneBased = false, iterative = false, style} = options;
  if (style !== undefined && typeof style !== "string")
    throw new TypeError(`style must be a string, not ${typeof style}`);
  // Without a limit the whole walk: it is made only as fast as it is read.
  const args = ["trace", boardText(n), "--json", ...engineArgs(engine),
                ...limitArgs(limit ?? Number.MAX_SAFE_INTEGER),
                ...(oneBased ? ["--one-based"] : []), ...(iterative ? ["--iterative"] : []),
                ...(style !== undefined ? ["--style", style] : [])];
  for await (const items of job({fn: "main", args}, wrongN(n)))
    for (const {type, ...step} of items)
      if (type === "step") yield step;
}

/** The engines, as `nqueens engines --json` lists them: {name, maxN,
 * lists (can list solutions), units (split into units), events (can be
 * traced), summary}. */
export async function engines() {
  const list = [];
  for await (const items of job({fn: "main", args: ["engines", "--json"]}))
    for (const e of items)
      list.push({name: e.engine, maxN: e.max_n, lists: e.lists, units: e.units,
                 events: e.events, summary: e.summary});
  return list;
}
