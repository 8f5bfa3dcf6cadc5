// page.test.mjs - the package in a page: README's example, served over
// http from the folder it is installed in, run by headless Chromium
// (NQ_CHROMIUM) driven over the DevTools pipe (NQ_CDP: the repository's
// tests/browser/cdp.mjs); skipped without them.
import {test} from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import {readFile, writeFile} from "node:fs/promises";
import path from "node:path";
import {pathToFileURL} from "node:url";

const chromium = process.env.NQ_CHROMIUM, cdp = process.env.NQ_CDP;
const types = {".html": "text/html", ".mjs": "text/javascript"};

// Counts, solutions, a walk, the engines and a refusal, said in the page.
const page = `<!doctype html>
<meta charset="utf-8">
<pre id="out"></pre>
<script type="module">
  import {count, solutions, trace, engines} from "./node_modules/nqueens/nqueens.mjs";
  const out = document.getElementById("out");
  try {
    const c = await count(8);
    out.textContent = \`N = 8: \${c.total} solutions, \${c.unique} unique\\n\`;
    for await (const cols of solutions(8, {oneBased: true, limit: 2}))
      out.textContent += cols.join(" ") + "\\n";
    let k = 0;
    for await (const s of trace(6, {engine: "bitmap"})) k++;
    out.textContent += \`\${k} steps, \${(await engines()).length} engines\\n\`;
    await count(40).catch(e => out.textContent += e.constructor.name + ": " + e.message + "\\n");
    out.textContent += "DONE";
  } catch (e) { out.textContent += "FAIL " + e; }
</script>
`;

/* The current folder over http on a free port. */
function serve() {
  const server = http.createServer(async (q, r) => {
    const file = path.join(process.cwd(), decodeURIComponent(new URL(q.url, "http://x").pathname));
    try {
      const body = await readFile(file);
      r.writeHead(200, {"content-type": types[path.extname(file)] || "application/octet-stream"});
      r.end(body);
    } catch { r.writeHead(404); r.end(); }
  });
  return new Promise(ok => server.listen(0, "127.0.0.1", () => ok(server)));
}

test("README's page example in Chromium: count, solutions, trace, engines, a RangeError",
     {skip: !(chromium && cdp) && "no NQ_CHROMIUM and NQ_CDP"}, async () => {
  const {withBrowser, openTab, load, evaluate} = await import(pathToFileURL(cdp).href);
  await writeFile("page.html", page);
  const server = await serve();
  let text = "";
  try {
    await withBrowser(chromium, async b => {
      const tab = await openTab(b);
      await load(b, tab, `http://127.0.0.1:${server.address().port}/page.html`);
      for (let i = 0; i < 120 && !/DONE|FAIL/.test(text); i++) {
        await new Promise(r => setTimeout(r, 250));
        text = await evaluate(b, tab, "document.getElementById('out').textContent");
      }
    });
  } finally { server.close(); }
  assert.equal(text, "N = 8: 92 solutions, 12 unique\n1 5 8 6 3 7 2 4\n1 6 8 3 7 4 2 5\n" +
               "308 steps, 9 engines\nRangeError: N must be a whole number from 1 to 32, not '40'\nDONE");
});
