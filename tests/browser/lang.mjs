// lang.mjs - what the lesson page's and the trace page's language checks
// share (lesson.mjs's "lang" group, teach.mjs's "lang" group): the page
// opened with the browser set to a language, and its visible prose read.
import { evaluate, load } from "./cdp.mjs";

// The browser's languages, as navigator.languages says them, from the
// next page loaded on (Accept-Language and navigator.languages both).
export async function browserLanguages(b, tab, langs) {
  const { userAgent } = await b.send("Browser.getVersion");
  await b.send("Emulation.setUserAgentOverride",
    { userAgent: userAgent.replace("HeadlessChrome", "Chrome"), acceptLanguage: langs.join(",") }, tab.sessionId);
}

// The page's visible text, each text node on its own (a run of words is
// looked for within one), leaving out what the page shows as code: code,
// pre, kbd, samp, the pseudo-code boxes (.code) and the scripts; a
// select's chosen option is visible text too.
export const VISIBLE_TEXT = `(() => {
  const out = [], skip = "code, pre, kbd, samp, .code, script, style, noscript, [hidden]";
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let t; (t = walker.nextNode());) {
    const el = t.parentElement, text = t.textContent.trim();
    if (!text || !el || el.closest(skip) || el.closest("select")) continue;
    if (!el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) continue;
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    out.push(text);
  }
  for (const s of document.querySelectorAll("select"))
    if (s.checkVisibility() && s.selectedOptions[0]) out.push(s.selectedOptions[0].textContent);
  return out;
})()`;

// Runs of three or more English words (ASCII letters, apart only by
// spaces and light punctuation) in texts: the English prose left.
export function englishRuns(texts) {
  const re = /[A-Za-z][A-Za-z'\u2019-]*(?:[ ,;:.()\u2019'"]+[A-Za-z][A-Za-z'\u2019-]*){2,}/g;
  const found = [];
  for (const t of texts) for (const m of t.matchAll(re)) found.push(m[0]);
  return found;
}

// Texts with Japanese in them (kana or kanji).
export function japaneseTexts(texts) {
  return texts.filter(t => /[\u3040-\u30ff\u4e00-\u9fff]/.test(t));
}

// The Japanese page's prose: no English run left, and with it, the
// series' terms it must hold (each term found in the visible text or a
// gloss's words); throws why not.
export async function checkJapanese(b, tab, where, mustHave = []) {
  const texts = await evaluate(b, tab, VISIBLE_TEXT);
  const runs = englishRuns(texts);
  if (runs.length) throw new Error(where + ": English left in the Japanese page: " +
    [...new Set(runs)].slice(0, 8).map(x => JSON.stringify(x)).join(", "));
  if (!japaneseTexts(texts).length) throw new Error(where + ": no Japanese text at all");
  const all = texts.join("\n"), missing = mustHave.filter(t => !all.includes(t));
  if (missing.length) throw new Error(where + ": the series' terms missing: " + missing.join(", "));
  return texts.length;
}

// The English page: no Japanese left, but for the language switch's own
// name (日本語).
export async function checkEnglish(b, tab, where) {
  const texts = (await evaluate(b, tab, VISIBLE_TEXT)).filter(t => t !== "\u65e5\u672c\u8a9e");
  const ja = japaneseTexts(texts);
  if (ja.length) throw new Error(where + ": Japanese in the English page: " + ja.slice(0, 5).join(" | "));
  return texts.length;
}

export { load };
