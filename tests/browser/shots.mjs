// shots.mjs - the pictures the documents show, made again from the page
// (not a test: run by hand after the page changes, and look at them):
//
//   node tests/browser/shots.mjs --chromium /usr/bin/chromium \
//       --page web/lesson.html --out doc
//
// doc/lesson-phone-ja.png: the lesson in Japanese on a phone (360 px
// wide), at N = 8 in Your turn, the first screen (README.ja.md shows it);
// and, into --out too, lesson-print-ja.pdf and lesson-print-en.pdf: the
// page as Chromium prints it to A4 (print styles: no buttons, shading
// kept), to look at, not kept.  Japanese text needs a CJK font
// (Debian: fonts-noto-cjk).
import { resolve, join } from "node:path";
import { writeFileSync } from "node:fs";
import { evaluate, load, openTab, options, screenshot, setViewport,
         withBrowser } from "./cdp.mjs";

const o = options(process.argv.slice(2), ["chromium", "page", "out"], "shots.mjs");
const url = q => "file://" + resolve(o.page) + q;

// Until the page has drawn its board (the play part's squares).
async function settle(b, tab) {
  for (let i = 0; i < 100; i++) {
    if (await evaluate(b, tab, "document.querySelectorAll('button, td, rect').length > 20"))
      break;
    await new Promise(r => setTimeout(r, 100));
  }
  await new Promise(r => setTimeout(r, 500));
}

async function print(b, tab, file) {
  const pdf = await b.send("Page.printToPDF", { paperWidth: 8.27, paperHeight: 11.69,
    printBackground: true }, tab.sessionId, 60000);
  writeFileSync(file, Buffer.from(pdf.data, "base64"));
}

await withBrowser(o.chromium, async b => {
  const tab = await openTab(b);
  await setViewport(b, tab, 360, 740, true, 2);
  await load(b, tab, url("?lang=ja#play&n=8"));
  await settle(b, tab);
  await screenshot(b, tab, join(o.out, "lesson-phone-ja.png"));
  await setViewport(b, tab, 1280, 900, false);
  for (const lang of ["ja", "en"]) {
    await load(b, tab, url(`?lang=${lang}&x=${lang}#watch&n=6`));
    await settle(b, tab);
    await print(b, tab, join(o.out, `lesson-print-${lang}.pdf`));
  }
});
