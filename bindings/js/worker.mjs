/*
 * worker.mjs - the package's worker: one job in a worker of its own
 * (node: worker_threads; browsers: a module Web Worker), so that a count
 * never blocks the caller's thread and a job is stopped by ending its
 * worker.  It loads one of the two modules (wasm/nqueens-simd.mjs or
 * wasm/nqueens-scalar.mjs: the library and the command line, built by
 * `make npm`), runs the job, and posts what it prints:
 *   {type: "items", items}   a batch of stdout's JSON lines, parsed
 *   {type: "done", rc, err}  the command line's exit code and its stderr
 * A stream (solutions, trace) waits for the caller after each batch where
 * a SharedArrayBuffer is to hand (node, a cross-origin-isolated page), so
 * that a walk of millions of steps is made only as fast as it is read.
 */
const isNode = typeof process === "object" && !!process.versions?.node;

/* How the worker talks to its caller: node's parentPort or the global
 * scope of a Web Worker. */
async function channel() {
  if (!isNode)
    return {post: m => self.postMessage(m), on: fn => { self.onmessage = e => fn(e.data); }};
  const {parentPort} = await import("node:worker_threads");
  // emscripten 3.1's ES module still names CommonJS's require and
  // __dirname under node; this worker gives them, so that the same
  // module file serves node and browsers.
  const {createRequire} = await import("node:module");
  const {fileURLToPath} = await import("node:url");
  const path = await import("node:path");
  globalThis.require = createRequire(import.meta.url);
  globalThis.__dirname = path.dirname(fileURLToPath(import.meta.url));
  return {post: m => parentPort.postMessage(m), on: fn => parentPort.on("message", fn)};
}

/* Batches of stdout's lines to the caller, `size` at a time, each after
 * the caller has taken all but `window` of those sent before. */
function batcher(port, flow, size) {
  const window = 2;
  let items = [], sent = 0;
  const flush = () => {
    if (!items.length) return;
    port.post({type: "items", items});
    items = [];
    sent++;
    if (!flow) return;
    for (let taken; (taken = Atomics.load(flow, 0)) < sent - window && !Atomics.load(flow, 1);)
      Atomics.wait(flow, 0, taken);
    // The caller stopped reading: end the command line here (the worker
    // is ended too, this only spares it the rest of the walk).
    if (Atomics.load(flow, 1)) throw new Error("nqueens: stopped");
  };
  return {add: line => { items.push(JSON.parse(line)); if (items.length >= size) flush(); }, flush};
}

async function run(port, job) {
  const err = [];
  const out = batcher(port, job.flow ? new Int32Array(job.flow) : null, job.batch || 256);
  const {default: create} = await import(new URL(`./wasm/nqueens-${job.flavour}.mjs`, import.meta.url));
  const module = await create({
    noInitialRun: true,
    print: line => { if (line.startsWith("{")) out.add(line); },
    printErr: line => err.push(line),
  });
  let rc;
  try {
    rc = job.fn === "count"
      ? module.ccall("nqjs_count", "number", ["string", "string", "number", "number"],
                     [job.n, job.engine, job.force ? 1 : 0, job.maxSeconds])
      : module.callMain(job.args);
    out.flush();
  } catch (e) {
    err.push(String(e?.message ?? e));
    rc = rc ?? 1;
  }
  port.post({type: "done", rc, err: err.join("\n")});
}

const port = await channel();
port.on(job => run(port, job).catch(e => port.post({type: "done", rc: 1, err: String(e)})));
