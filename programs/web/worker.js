/*
 * worker.js - the lesson page's worker (mk/webpage.sh puts it in the
 * page as text; the page runs it, with one of the two modules after it,
 * in a Web Worker).  It sets up the module's Module object first: the
 * command line's stdout and stderr and what the module's C emits
 * (programs/web/web.c, nqw_emit) go to the page as messages.  A job is
 * one message from the page; the worker answers as the job goes and
 * ends with {type: "done", rc}, then waits for the next (the page keeps a
 * few such workers, their module compiled and warm).  The page stops a
 * job by ending the worker.
 */
var Module = {
  noInitialRun: true,
  print: text => postMessage({type: "out", text}),
  printErr: text => postMessage({type: "err", text}),
  nqEmit: (type, text) => { postMessage({type, text}); return 0; },
  onRuntimeInitialized: () => { nqReady = true; if (nqQueued) nqRun(nqQueued); }
};
var nqReady = false, nqQueued = null;
onmessage = e => { if (nqReady) nqRun(e.data); else nqQueued = e.data; };

/* values as a C array of ints for fn(pointer), freed after. */
function nqInts(values, fn) {
  const p = Module._malloc(4 * Math.max(values.length, 1));
  Module.HEAP32.set(values, p >> 2);
  try { return fn(p); } finally { Module._free(p); }
}

/* n ints read back from the module's memory at p. */
function nqRead(p, n) { return Array.from(Module.HEAP32.subarray(p >> 2, (p >> 2) + n)); }

/* A solution's class (nqw_class) and its 8 images (nqw_images). */
function nqClass(cols) {
  const n = cols.length;
  return nqInts(cols, c => nqInts(new Array(3 + n).fill(0), out => {
    const rc = Module.ccall("nqw_class", "number", ["number", "number", "number"], [c, n, out]);
    if (rc) return rc;
    const got = nqRead(out, 3 + n);
    return nqInts(new Array(8 * n).fill(0), img => {
      Module.ccall("nqw_images", "number", ["number", "number", "number"], [c, n, img]);
      const all = nqRead(img, 8 * n), images = [];
      for (let t = 0; t < 8; t++) images.push(all.slice(t * n, (t + 1) * n));
      postMessage({type: "class", place: got[0], classes: got[1], weight: got[2],
                   smallest: got.slice(3), images});
      return 0;
    });
  }));
}

/* The completions of the queens given (nqw_complete). */
function nqComplete(given) {
  const n = given.length, total = Module._malloc(48);
  try {
    return nqInts(given, g => nqInts(new Array(n).fill(0), first => {
      const rc = Module.ccall("nqw_complete", "number", ["number", "number", "number", "number"],
                              [g, n, first, total]);
      if (!rc) postMessage({type: "complete", total: Module.UTF8ToString(total), first: nqRead(first, n)});
      return rc;
    }));
  } finally { Module._free(total); }
}

function nqRun(job) {
  let rc;
  try {
    if (job.fn === "engines") rc = Module.ccall("nqw_engines", "number", [], []);
    else if (job.fn === "walk")
      rc = Module.ccall("nqw_walk", "number", ["string", "number", "number", "number", "number", "number"],
                        [job.engine, job.n, job.iterative ? 1 : 0, job.oneBased ? 1 : 0, job.cap, job.chunk]);
    else if (job.fn === "count")
      rc = Module.ccall("nqw_count", "number", ["string", "number", "number", "number"],
                        [job.engine, job.lo, job.hi, job.force ? 1 : 0]);
    else if (job.fn === "class") rc = nqClass(job.cols);
    else if (job.fn === "complete") rc = nqComplete(job.given);
    else rc = -1;
  } catch (e) {
    postMessage({type: "err", text: "the module failed: " + e});
    rc = -1;
  }
  postMessage({type: "done", rc});
}
