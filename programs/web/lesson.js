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

/* ---- the lesson's words, a table a language --------------------------

   Merged into the trace page's WORDS (its script, before this one): one
   table a language, the same keys in each.  Adding a language: a table
   here and one in the trace page's WORDS, doc/internals.md ("Adding a
   language: the page").  The English of the fixed text is the HTML's
   (data-t, data-th, data-ta), read as the page starts. */
const LESSON_WORDS = {
en: {
  noEngines: why => "This browser could not start the page's engines (WebAssembly in a Web " +
    "Worker)" + (why ? ": " + why : "") + ". The lesson needs a browser from 2021 or later.",
  noneBeside: "(none)",
  module: (simd, kernel) => "WebAssembly " + (simd ? "with SIMD" : "without SIMD") + (kernel ? " (fast's kernel: " + kernel + ")" : ""),
  walking: k => "the engine is walking: " + pl(k, "step") + " so far",
  walked: (k, capped, cap) => pl(k, "step") + (capped ? " (the page keeps the first " + pl(cap, "step") + ")" : ""),
  countingN: (n, e, s) => "counting N = " + n + " with " + e + ": " + s + " s",
  counting: e => "counting with " + e + "...",
  oeisWrong: (n, t, u, ot, ou) => "N = " + n + ": " + t + " and " + u + ", but OEIS says " + ot + " and " + ou,
  units: (n, done, total, s) => "N = " + n + ": " + pl(done, "unit") + " of " + total.toLocaleString("en") + " done, " + s + " s",
  stopped: s => "stopped after " + s + " s",
  notCounted: why => "not counted: " + why + ".",
  estimate: (n, e, est, sampled) => "count " + n + " with engine " + e + " would take " + est + " on 1 thread here (" +
    (sampled ? "this page: WebAssembly, one thread; nqueens estimate " + n + " --threads 1 makes the same estimate for the " +
      "native program on this machine, and without --threads for all its cores" :
      "at this page's rate, timed on smaller boards") + "); a smaller N, a faster engine, or count anyway",
  failed: why => "the count failed: " + why,
  noReason: "no reason given",
  done: s => "done in " + s + " s",
  oeisAgree: (a, b) => "Every count agrees with OEIS A000170 (total) and A002562 (unique) for N = " + a + (b ? " to " + b : "") + ".",
  askWhole: "give N as whole numbers, from and to",
  askRange: (e, max) => e + " counts N from 1 to " + max,
  askOrder: (lo, hi) => "from " + lo + " is past to " + hi,
  images: ["as placed", "a quarter turn clockwise", "a half turn", "a quarter turn anticlockwise",
    "mirrored left to right", "mirrored top to bottom", "flipped on the diagonal from the top left",
    "flipped on the diagonal from the top right"],
  sameAs: x => " (= " + x + ")",
  smallestMark: ": the smallest",
  lineRow: "row",
  lineWords: x => x === "row" || x === "column" ? x : x === "diagonal" ? "diagonal (row \u2212 column)" : "anti-diagonal (row + column)",
  lineKid: x => x === "row" ? "along its row" : x === "column" ? "straight up or down its column" : "along a slanting line",
  cellQueen: ": a queen", cellAttacked: ": attacked", cellGhost: ": the engine's queen", cellFree: ": free",
  placed: (k, n) => pl(k, "queen") + " placed of " + n + ".",
  precisely: "Precisely",
  takenBack: at => "The queen at " + at + " is taken back.",
  notThere: (at, n) => "Not there! " + (n === 1 ? "A queen can reach this square" : n + " queens can reach this square") +
    " (" + at + "), so a queen here would be taken.",
  notTherePrecise: (at, list, row) => at + " is attacked. " + list.map(a => "The queen at " + a.at + " shares its " +
    a.why.join(" and its ") + ".").join(" ") + (row ? " (To move row " + row + "'s queen, tap it to take it back first.)" : ""),
  kidTakeBack: row => " To move the queen in row " + row + ", tap it first to take it off.",
  deadKid: (at, rows) => "A queen at " + at + ". But now " + rows.join(" and ") + (rows.length === 1 ? " has" : " have") +
    " no safe square left, so these queens cannot all stay. Take one back.",
  deadPrecise: rows => rows.join(" and ") + (rows.length === 1 ? " has" : " have") +
    " no square that no queen attacks: no solution keeps these queens.",
  rowName: r => "row " + r,
  placedOne: (at, left) => "A queen at " + at + ". " + pl(left, "queen") + " to go.",
  hover: (at, list) => at + " is attacked by " + list.map(x => "the queen at " + x.at + " (" + x.why.join(" and ") + ")").join(", ") + ".",
  hoverQueen: at => "The queen at " + at + " attacks the marked squares: its row, its column and both slanting lines.",
  solvedOne: "A solution! One queen attacks nothing.",
  solved: n => "A solution! No two of your " + n + " queens attack each other.",
  checkFailed: t => "The check failed: " + t,
  classKid: (weight) => "Turn your board or look at it in a mirror and you get another solution: the " +
    (weight < 8 ? weight + " different boards" : "8 boards") + " below. Boards made from each other like this are one family; " +
    "the count of different solutions that counts each family once is the unique count.",
  classPrecise: (where, smallest, weight) => "Turning or mirroring a solution gives a solution, so solutions come in " +
    "classes: the boards one rotation or reflection makes of another. Yours is in " + where + ". " +
    "Its class's smallest board is " + smallest + " (a column a row). It has " +
    pl(weight, "different board") + (weight < 8 ? ", not 8: some turns give the same board back" : "") +
    ". Counting each class once is what the unique count does.",
  classWhere: (place, classes) => place ? "class " + place + " of the " + classes +
    " (the classes numbered in the order of their smallest boards, read row by row)" :
    classes === "1" ? "the one class" : "one of the " + classes + " classes",
  searching: k => k ? "The engine is searching for every solution that keeps your " + pl(k, "queen") + "..." :
    "The engine is searching for every solution of the empty board...",
  stopEngine: "stop the engine",
  stoppedPlay: "Stopped.",
  noneKeeps: s => "No solution keeps these queens (the engine searched every way to fill the other rows, " + s + " s). Take one back.",
  noneAtAll: (n, s) => "The " + n + " \u00d7 " + n + " board has no solution at all: every " +
    "way to place " + n + " queens has two that attack each other (" + s + " s).",
  some: (total, k, s) => total.toLocaleString("en") + (k ? (total === 1n ? " solution keeps" : " solutions keep") +
    " your " + (k === 1 ? "queen" : "queens") : (total === 1n ? " solution" : " solutions") + " on the empty board") +
    " (" + s + " s). The faint queens are the first of them; \u201cplace them\u201d puts them on the board.",
  empty: n => "An empty " + n + " \u00d7 " + n + " board: place " + pl(n, "queen") +
    " so that none attacks another. Tap a square to place a queen, tap a queen to take it back.",
  from: b => "Rows and columns are now counted from " + b + ".",
  made: 'Made by <code>make wasm</code>: the nqueens library and ' +
    'command line compiled to <span id="lessonmodule">WebAssembly</span>, all in this one file; nothing is ' +
    'fetched, and it works offline. Each step is the engine\'s own, its line the one <code>nqueens trace</code> prints.',
  linkEngine: (e, list) => "The link asks for engine \u201c" + e + "\u201d, which the walk cannot show; it shows " + list + ".",
  linkN: (n, max) => "The link asks for N = " + n + ", but this part shows N = 1 to " + max + ".",
  linkCompare: e => "The link asks to compare with engine \u201c" + e + "\u201d, which the walk cannot show.",
  linkPart: p => "The link asks for a part \u201c" + p + "\u201d; the parts are play, watch and count.",
  linkLang: l => "The link asks for the language \u201c" + l + "\u201d; the page speaks English (en) and Japanese (ja).",
  linkOther: k => "The link's \u201c" + k + "\u201d is not one the page reads (n, engine, compare, iterative, step, from, lang).",
  linkShown: "Shown instead: what the page opens with.",
  dur: (e, v, range) => (range ? "about " : "over ") + e.took,
  finishHtml: 'let the engine finish<span class="wide"> from here</span>',
  titlePlay: n => "N = " + n + " \u2014 your turn \u2014 nqueens",
  titleWatch: (n, e, c) => "N = " + n + " \u2014 " + e + (c ? " and " + c : "") + " \u2014 nqueens",
  titleCount: (lo, hi, e) => "count N = " + lo + " to " + hi + " \u2014 " + e + " \u2014 nqueens",
},
ja: {
  noEngines: why => "このブラウザではページのエンジン（Web Worker の中の WebAssembly）を動かせませんでした" + (why ? "：" + why : "") +
    "。2021 年以降のブラウザで開いてください。",
  noneBeside: "（なし）",
  module: (simd, kernel) => "WebAssembly（SIMD " + (simd ? "あり" : "なし") + "）" + (kernel ? "、fast のカーネル：" + kernel : ""),
  walking: k => "エンジンが探索中：ここまで " + k + " ステップ",
  walked: (k, capped, cap) => k + " ステップ" + (capped ? "（ページには最初の " + cap + " ステップまで入れています）" : ""),
  countingN: (n, e, s) => engineName(e) + "で N = " + n + " を数えています：" + s + " 秒",
  counting: e => engineName(e) + "で数えています…",
  oeisWrong: (n, t, u, ot, ou) => "N = " + n + "：総解 " + t + "、ユニーク解 " + u + "。でも OEIS では " + ot + " と " + ou,
  units: (n, done, total, s) => "N = " + n + "：全 " + total.toLocaleString("ja-JP") + " 区画のうち " + done + " 区画が終わりました、" + s + " 秒",
  stopped: s => s + " 秒で止めました",
  notCounted: why => "数えませんでした：" + why + "。",
  estimate: (n, e, est, sampled) => engineName(e) + "で N = " + n + " を数えると、このページ（WebAssembly、1 スレッド）では" + est +
    "かかります" + (sampled ? "。nqueens estimate " + n + " --threads 1 は同じ見積もりを、この機械のふつうのプログラムで出します（--threads なしなら全コアで）。" :
      "（小さい盤で時間を計って見積もりました）。") + "N を小さくするか、速いエンジンを選ぶか、「それでも数える」を押してください",
  failed: why => "数えられませんでした：" + why,
  noReason: "理由は分かりません",
  done: s => s + " 秒で終わりました",
  oeisAgree: (a, b) => "N = " + a + (b ? "〜" + b : "") + " のどの数も OEIS の A000170（総解）と A002562（ユニーク解）に合っています。",
  askWhole: "N は整数で、「から」と「まで」を入れてください",
  askRange: (e, max) => engineName(e) + "で数えられるのは N = 1〜" + max + " です",
  askOrder: (lo, hi) => "「から」の " + lo + " が「まで」の " + hi + " より大きくなっています",
  images: ["置いたまま", "右に 1/4 回転", "半回転", "左に 1/4 回転", "左右に裏返し", "上下に裏返し",
    "左上からの対角線で裏返し", "右上からの対角線で裏返し"],
  sameAs: x => "（＝" + x + "）",
  smallestMark: "：一番小さい盤",
  lineRow: "row",
  lineWords: x => x === "row" ? "横の行" : x === "column" ? "縦の列" : x === "diagonal" ? "右下がりの斜め（行 − 列）" : "左下がりの斜め（行 + 列）",
  lineKid: x => x === "row" ? "横に" : x === "column" ? "縦に" : "斜めに",
  cellQueen: "：クイーン", cellAttacked: "：効き筋の中", cellGhost: "：エンジンのクイーン", cellFree: "：空き",
  placed: (k, n) => n + " 個のうち " + k + " 個のクイーンを置きました。",
  precisely: "くわしく",
  takenBack: at => at + " のクイーンを取りのぞきました。",
  notThere: (at, n) => "そこには置けません！" + at + " は" + (n === 1 ? "クイーンの効き筋に入っています" : n + " 個のクイーンの効き筋に入っています") +
    "。ここに置くと取られてしまいます。",
  notTherePrecise: (at, list, row) => at + " は効き筋の中です。" + list.map(a => a.at + " のクイーンと" + a.why.join("も") + "が同じです。").join("") +
    (row ? "（" + row + " 行目のクイーンを動かすには、まずそのクイーンをタップして取りのぞきます。）" : ""),
  kidTakeBack: row => row + " 行目のクイーンを動かしたいときは、まずそのクイーンをタップして取りのぞいてね。",
  deadKid: (at, rows) => at + " に置きました。でも " + rows.join("と") + "には、もう安全なマスがありません。このクイーンたちのままでは解になりません。どれかを取りのぞいてみよう。",
  deadPrecise: rows => rows.join("と") + "には、どのクイーンの効き筋にも入っていないマスがひとつもありません。このクイーンたちを残す解はありません。",
  rowName: r => r + " 行目",
  placedOne: (at, left) => at + " にクイーンを置きました。あと " + left + " 個。",
  hover: (at, list) => at + " は " + list.map(x => x.at + " のクイーン（" + x.why.join("・") + "）").join("、") + " の効き筋の中です。",
  hoverQueen: at => at + " のクイーンの効き筋（横・縦・斜め 2 本）に印をつけました。",
  solvedOne: "解ができました！ クイーンが 1 個なら、ねらう相手はいません。",
  solved: n => "解ができました！ " + n + " 個のクイーンのどれも、ほかのクイーンをねらっていません。",
  checkFailed: t => "確かめられませんでした：" + t,
  classKid: (weight) => "盤を回したり鏡に映したりすると、別の解ができます。下の " + (weight < 8 ? weight + " 通りの盤" : "8 つの盤") +
    "がそうです。こうしてできる盤は同じ仲間です。仲間をひとつと数えた解の数がユニーク解、全部を別々に数えた数が総解です。",
  classPrecise: (where, smallest, weight) => "解を回転させたり裏返したりしても解なので、解は仲間（回転や裏返しでうつり合う盤の集まり）に分かれます。" +
    "あなたの解は" + where + "に入っています。その仲間の一番小さい盤は " + smallest + "（各行のクイーンの列）。仲間には " + weight +
    " 通りの盤があります" + (weight < 8 ? "（8 通りでないのは、回しても同じ盤にもどるものがあるからです）" : "") +
    "。仲間をひとつずつ数えるのがユニーク解の数え方です。",
  classWhere: (place, classes) => place ? classes + " ある仲間のうち " + place + " 番目（仲間は一番小さい盤を行ごとに読んだ順に番号をつけています）" :
    classes === "1" ? "ただひとつの仲間" : classes + " ある仲間のひとつ",
  searching: k => k ? "あなたの " + k + " 個のクイーンを残す解を、エンジンが全部探しています…" : "空の盤の解を、エンジンが全部探しています…",
  stopEngine: "エンジンを止める",
  stoppedPlay: "止めました。",
  noneKeeps: s => "このクイーンたちを残す解はありません（エンジンがほかの行の埋め方を全部調べました、" + s + " 秒）。どれかを取りのぞいてみよう。",
  noneAtAll: (n, s) => n + "×" + n + " の盤には解がまったくありません。" + n + " 個のクイーンをどう置いても、ねらい合う 2 個ができてしまいます（" + s + " 秒）。",
  some: (total, k, s) => (k ? "あなたのクイーンを残す解は " : "空の盤の解は ") + total.toLocaleString("ja-JP") + " 個あります（" + s +
    " 秒）。うすいクイーンがその最初の解です。「置いてみる」で盤に置けます。",
  empty: n => n + "×" + n + " の空の盤です。どのクイーンもほかのクイーンをねらわないように、" + n +
    " 個のクイーンを置こう。マスをタップすると置けて、クイーンをタップすると取りのぞけます。",
  from: b => "行と列を " + b + " から数えるようにしました。",
  made: '<code>make wasm</code> で作ったページです。nqueens のライブラリとコマンドを ' +
    '<span id="lessonmodule">WebAssembly</span> にして、このファイル 1 つに入れています。何もダウンロードせず、オフラインでも動きます。' +
    '各ステップはエンジンそのものの動きで、その行は <code>nqueens trace</code> が表示するものと同じです。',
  linkEngine: (e, list) => "リンクのエンジン「" + e + "」は、探索を見せられるエンジンではありません。見せられるのは " + list + " です。",
  linkN: (n, max) => "リンクの N = " + n + " は範囲の外です。ここで選べるのは N = 1〜" + max + " です。",
  linkCompare: e => "リンクの比べるエンジン「" + e + "」は、探索を見せられるエンジンではありません。",
  linkPart: p => "リンクのパート「" + p + "」はありません。パートは play・watch・count です。",
  linkLang: l => "リンクの言語「" + l + "」はありません。このページは日本語（ja）と英語（en）です。",
  linkOther: k => "リンクの「" + k + "」は、このページが読むパラメータではありません（n、engine、compare、iterative、step、from、lang）。",
  linkShown: "かわりに、ページの最初の状態を表示しています。",
  dur: (e, v, range, u) => range ? "約 " + v + " " + u[2] + "（" + range[0] + "〜" + range[1] + " " + u[2] + "）" : v + " " + u[2] + "以上",
  finishHtml: "エンジンに続きをまかせる",
  titlePlay: n => "N = " + n + " — やってみよう — nqueens",
  titleWatch: (n, e, c) => "N = " + n + " — " + engineName(e) + (c ? " と " + engineName(c) : "") + " — nqueens",
  titleCount: (lo, hi, e) => "N = " + lo + "〜" + hi + " を数える — " + engineName(e) + " — nqueens",
  /* the fixed text (the HTML's in English) */
  h1: "N クイーン問題",
  puzzle: "<var>N</var>&thinsp;&times;&thinsp;<var>N</var> のチェス盤に、<var>N</var> 個のクイーンを置きます。" +
    "クイーンは縦・横・斜めにどこまでも進める駒で、その線を効き筋といいます。どのクイーンもほかのクイーンの効き筋に入らないように置けるかな？ " +
    "まず自分でやってみて、次にコンピューターの探し方を見て、最後に解を全部数えます。" +
    '<span class="wide">どう探すかで、数えるのが 1 秒で終わるか 100 年かかるかが決まります。</span>',
  tabsLabel: "レッスンのパート", tabPlay: "1・やってみよう", tabWatch: "2・見てみよう", tabCount: "3・数えよう",
  oneBased: "行と列を 1 から数える",
  playIntro: "マスをタップするとクイーンを置けます。クイーンをタップすると取りのぞけます。色のついたマスは効き筋の中で、タップするとどのクイーンにねらわれているかが分かります。",
  aBoardN: "盤の大きさ N", clear: "盤を空にする", finish: "エンジンに続きをまかせる", fill: "置いてみる",
  aPlayBoard: "あなたの盤", aImages: "あなたの解の 8 つの見え方",
  watchIntro: "盤の大きさとエンジンを選んで、探索を 1 ステップずつ再生しよう（2 つのエンジンをならべて比べることもできます）。" +
    "どのステップも本物のエンジンの動きです。このページは本物のエンジンを WebAssembly にして動かしています。",
  engine: "エンジン", aWalkEngine: "見るエンジン", beside: "ならべる", aCompare: "比べるエンジン",
  iterativeLabel: "ループ版", iterativeWide: "（自前のスタックで、同じ手順）",
  countLead: "どの盤の解も、好きなエンジンで全部数えてみよう：総解とユニーク解。表はコマンドの count が表示するものと同じです。" +
    "数えている間もページは使えて、途中で止めることもできます。",
  countFast: "高速版（fast）で N = 1〜16 を数える", countFrom: "から", countTo: "まで", aFrom: "N（から）", aTo: "N（まで）",
  aCountEngine: "数えるエンジン", countGo: "数える", countStop: "止める", countForce: "それでも数える",
  aCountBar: "数える進み具合", aCountTable: "nqueens count が表示する数",
  series: "このレッスンは、日本のブログ連載「N クイーン問題」（総当たり → バックトラック → 配置フラグ → ビットマップ → ミラー → 対称解除法 → キャリーチェーン）と同じ順に進みます。",
  seriesMap: "連載の各回とエンジン、同じ表示を再現するコマンドの対応表",
  seriesHref: "../doc/series.ja.md",
  seriesWhere: "（リポジトリの中、このページのとなりのフォルダにあります）",
},
};

for (const code of Object.keys(LESSON_WORDS)) WORDS[code] = Object.assign(WORDS[code] || {}, LESSON_WORDS[code]);
/* English's plural, for its table */
function pl(k, word) { return k.toLocaleString("en") + " " + word + (k === 1 ? "" : "s"); }

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

function base() { return $("onebased").checked ? 1 : 0; }
function sqName(r, c) { return T("sq", r + base(), c + base()); }
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
      $("lessonnote").textContent = T("noEngines", why);
    }
    engineMenus();
  });
}

/* The engine menus, each engine by its name in the page's language. */
function engineMenus() {
  const keep = id => $(id).value, walkers = ENGINES.filter(e => e.caps & CAP_EVENTS).map(e => [e.name, engineName(e.name)]);
  options($("walkengine"), walkers, keep("walkengine") || "backtrack");
  options($("walkcompare"), [["", T("noneBeside")]].concat(walkers), keep("walkcompare"));
  options($("countengine"), ENGINES.map(e => [e.name, engineName(e.name)]), keep("countengine") || "fast");
  for (const id of ["walkengine", "walkcompare", "countengine"])
    [...$(id).options].forEach(o => { const e = ENGINES.find(x => x.name === o.value); if (e) o.title = e.summary; });
  if ($("lessonmodule")) $("lessonmodule").textContent = T("module", FLAVOUR === "simd", KERNEL);
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
  titleNow();
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
    $("walkstate").textContent = more ? T("walking", w.steps.length) : T("walked", w.steps.length, w.capped, WALK_CAP);
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

/* "#watch&n=8&engine=bitmap&compare=flags&step=470&lang=ja": a
   teacher's link opens the walk at that step (and &from=0 counts rows
   from 0); "#play&n=4" your turn on a 4 x 4 board; "#count&n=12&
   engine=bitmap" the count's form.  Every parameter is checked
   (takeAddress): one the page cannot honour is said in the page, in its
   language, never passed over. */
function readAddress() {
  const [part, ...pairs] = location.hash.slice(1).split("&");
  const p = {part, keys: []};
  for (const kv of pairs) {
    if (!kv) continue;
    const [k, v] = kv.split("=");
    p[k] = decodeURIComponent(v || ""); p.keys.push(k);
  }
  return p;
}

/* The parameters a link may give, and the problems with this link's
   ([key of the words, values...]). */
const LINK_KEYS = ["n", "engine", "compare", "iterative", "step", "from", "lang"];
const linkProblems = [];

let addressTimer = 0;

/* The address says what is shown (at most four times a second: each step
   of play would otherwise rewrite it), and so does the tab's title. */
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
    if (part === "play") h += "&n=" + play.n;
    if (!base()) h += "&from=0";
    if (LANG_LINK) h += "&lang=" + LANG;
    if (history.replaceState && h !== location.hash) history.replaceState(null, "", h);
    titleNow();
  }, 250);
}

/* The tab's title: the part, its board and engine. */
function titleNow() {
  const part = document.body.dataset.part || "play";
  if (part === "watch") document.title = T("titleWatch", $("walkn").value, $("walkengine").value, $("walkcompare").value);
  else if (part === "count") document.title = T("titleCount", $("countlo").value, $("counthi").value, $("countengine").value);
  else document.title = T("titlePlay", play.n);
}
window.nqTitle = titleNow;

/* What the link names, set in the forms before the first walk; what it
   names that the page has not (an engine, an N out of range, a part, a
   language, a parameter) kept in linkProblems, to be said. */
function takeAddress(p) {
  const has = (id, v) => [...$(id).options].some(o => o.value === v);
  const walkers = () => [...$("walkengine").options].map(o => o.value).join(", ");
  const part = p.part || "play";
  if (!PARTS.includes(part)) linkProblems.push(["linkPart", part]);
  for (const k of p.keys) if (!LINK_KEYS.includes(k)) linkProblems.push(["linkOther", k]);
  if (LANG_ASKED) linkProblems.push(["linkLang", LANG_ASKED]);
  if (p.from === "0") $("onebased").checked = false;
  const whole = v => /^\d+$/.test(v) ? Number(v) : NaN;
  if (part === "play" && p.n !== undefined) {
    const n = whole(p.n);
    if (n >= 1 && n <= PLAY_MAX_N) { $("playn").value = n; newBoard(); } else linkProblems.push(["linkN", p.n, PLAY_MAX_N]);
  }
  if (part === "count") {
    if (p.engine !== undefined) {
      if (has("countengine", p.engine)) $("countengine").value = p.engine; else linkProblems.push(["linkEngine", p.engine, ENGINES.map(e => e.name).join(", ")]);
    }
    if (p.n !== undefined) {
      const e = ENGINES.find(x => x.name === $("countengine").value), n = whole(p.n), max = e ? e.maxN : 32;
      if (n >= 1 && n <= max) $("counthi").value = n; else linkProblems.push(["linkN", p.n, max]);
    }
  }
  if (part !== "watch") return 0;
  if (p.engine !== undefined) {
    if (has("walkengine", p.engine)) { $("walkengine").value = p.engine; walkMenus(); } else linkProblems.push(["linkEngine", p.engine, walkers()]);
  }
  if (p.n !== undefined) {
    if (has("walkn", p.n)) $("walkn").value = p.n; else linkProblems.push(["linkN", p.n, $("walkn").options.length]);
  }
  if (p.compare !== undefined && p.compare !== "") {
    if (has("walkcompare", p.compare)) $("walkcompare").value = p.compare; else linkProblems.push(["linkCompare", p.compare]);
  }
  if (p.iterative === "1") $("walkiterative").checked = true;
  return /^\d+$/.test(p.step || "") ? Number(p.step) : 0;
}

/* The link's problems, in the page's language, above the parts. */
function sayLink() {
  $("lessonnote").hidden = false;
  $("lessonnote").dataset.problems = linkProblems.map(x => x[0]).join(" ");
  $("lessonnote").textContent = linkProblems.map(x => T(x[0], ...x.slice(1))).join(" ") + " " + T("linkShown");
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
  let table = "", refused = null, estimate = null;
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
      said(T("countingN", rows.length ? rows[rows.length - 1] + 1 : lo, engine, ((performance.now() - t0) / 1000).toFixed(1)));
  }, 200);
  said(T("counting", engine));
  const job = countJob = startJob({fn: "count", engine, lo, hi, force}, {
    out: m => {
      table += m.text + "\n";
      $("counttable").textContent = table;
      const row = /^\s*(\d+):\s+(\d+)\s+(\d+)\s/.exec(m.text);
      if (!row) return;
      rows.push(+row[1]);
      const n = +row[1];
      if (n <= OEIS_TOTAL.length && (row[2] !== OEIS_TOTAL[n - 1] || row[3] !== OEIS_UNIQUE[n - 1]))
        problems.push(T("oeisWrong", n, row[2], row[3], OEIS_TOTAL[n - 1], OEIS_UNIQUE[n - 1]));
      $("countbar").value = rows.length / (hi - lo + 1);
    },
    progress: m => {
      const [n, done, total] = JSON.parse(m.text);
      if (total) $("countbar").value = (rows.length + done / total) / (hi - lo + 1);
      unitsSaid = performance.now();
      said(T("units", n, done, total, ((performance.now() - t0) / 1000).toFixed(1)));
    },
    estimate: m => { estimate = JSON.parse(m.text); },
    err: m => { refused = m.text.replace(/^nqueens: /, ""); }
  });
  job.done.then(rc => {
    clearInterval(tick);
    if (countJob !== job) return;
    $("countstop").disabled = true;
    const secs = ((performance.now() - t0) / 1000).toFixed(1);
    if (rc === null) said(T("stopped", secs));
    else if (rc === 2 && (refused || estimate)) {
      said(T("notCounted", estimate ? T("estimate", estimate.n, engine, duration(estimate), estimate.low >= 0) : refused));
      $("countforce").hidden = false;
      $("countforce").onclick = () => countRange(lo, hi, engine, true);
    } else said(rc ? T("failed", refused || T("noReason")) : T("done", secs));
    const checked = rows.filter(n => n <= OEIS_TOTAL.length);
    $("countchecks").textContent = problems.length ? problems.join("; ") :
      checked.length ? T("oeisAgree", checked[0], checked.length > 1 ? checked[checked.length - 1] : 0) : "";
    $("countchecks").classList.toggle("bad", problems.length > 0);
  });
}

/* A count's estimate (web.c's "estimate") in the page's words: in
   English the command line's own ("about 20 years (17-22)", as `nqueens
   estimate` prints it), in another language from its seconds. */
const TIME_UNITS = [[1, "second", "\u79d2"], [60, "minute", "\u5206"], [3600, "hour", "\u6642\u9593"], [86400, "day", "\u65e5"],
  [365.25 * 86400, "year", "\u5e74"]];
function duration(e) {
  let u = TIME_UNITS[0];
  for (const x of TIME_UNITS) if (e.seconds >= x[0]) u = x;
  const f = v => { const x = v / u[0]; return x >= 100 ? Math.round(x).toLocaleString("en") : String(Number(x.toPrecision(2))); };
  return T("dur", e, f(e.seconds), e.low >= 0 ? [f(e.low), f(e.high)] : null, u);
}

/* The form's range, as asked: whole numbers, from no more than to, within
   what the engine counts; anything else said, and nothing started. */
function countAsked() {
  const e = ENGINES.find(x => x.name === $("countengine").value), max = e ? e.maxN : 32;
  const read = id => { const v = $(id).value.trim(); return /^\d+$/.test(v) ? Number(v) : NaN; };
  const lo = read("countlo"), hi = read("counthi");
  let why = "";
  if (Number.isNaN(lo) || Number.isNaN(hi)) why = T("askWhole");
  else if (lo < 1 || hi > max) why = T("askRange", $("countengine").value, max);
  else if (lo > hi) why = T("askOrder", lo, hi);
  if (why) {
    $("countstate").textContent = T("notCounted", why);
    $("countforce").hidden = true;
    return;
  }
  countRange(lo, hi, $("countengine").value, false);
}

/* ---- 1. your turn ------------------------------------------------------ */

const play = {n: 8, q: [], ghost: null, job: null, cells: [], rays: null, said: null};

/* The lines along which the queen in row qr attacks square (r, c):
   "row", and the trace page's linesBetween ("column", "diagonal",
   "anti-diagonal"); said by T("lineWords") and T("lineKid"). */
function attackWords(qr, qc, r, c) {
  return (qr === r ? ["row"] : []).concat(linesBetween(qr, qc, r, c));
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

/* What the page says to the learner: the words a 12-year-old reads, and
   the precise form one tap away (a details element), both glossed as the
   trace viewer glosses its own words (hover, focus or tap).  Kept as
   keys and values (play.said), to be said again in another language. */
function say(key, args, how, precise) {
  play.said = {key, args, how, precise};
  sayNow();
}

function sayNow() {
  const p = play.said;
  if (!p) return;
  const seen = new Set();
  let h = glossed(T(p.key, ...p.args.map(a => typeof a === "function" ? a() : a)), seen);
  if (p.precise) h += ' <details class="precise"><summary>' + esc(T("precisely")) + "</summary>" +
    glossed(T(p.precise[0], ...p.precise.slice(1).map(a => typeof a === "function" ? a() : a)), seen) + "</details>";
  $("playsay").innerHTML = h;
  $("playsay").className = "say" + (p.how ? " " + p.how : "");
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
      cell.addEventListener("pointerleave", () => { $("playhint").textContent = ""; showRays(play.placedLast); });
      cell.addEventListener("focus", () => { if (play.q[r] === c) showRays([r, c]); });
      cell.addEventListener("keydown", e => moveFocus(e, r, c));
      cell.tabIndex = r || c ? -1 : 0;
      board.appendChild(cell);
      play.cells[r].push(cell);
    }
  }
  sizePlay();
}

/* The board's squares: as large as the part's width allows (54 px at
   most), and on a phone small enough that the whole board is in the
   first screen under what is said above it. */
function sizePlay() {
  const room = ($("part-play").clientWidth || window.innerWidth) - 24;
  let cell = Math.max(16, Math.min(54, Math.floor(room / play.n)));
  if (window.innerWidth <= 640) {
    const top = $("playboard").getBoundingClientRect().top + window.scrollY;
    const tall = Math.floor((window.innerHeight - top - 26) / play.n);
    cell = Math.max(16, Math.min(cell, tall));
  }
  $("playboard").style.setProperty("--cell", cell + "px");
}

/* A queen's lines on the board (row, column, both diagonals): how a
   queen moves, drawn when one is placed, hovered or focused. */
function showRays(at) {
  play.rays = at || null;
  const n = play.n;
  for (let r = 0; r < n; r++)
    for (let c = 0; c < n; c++) {
      const on = !!at && !(at[0] === r && at[1] === c) &&
        (at[0] === r || at[1] === c || at[0] - at[1] === r - c || at[0] + at[1] === r + c);
      play.cells[r][c].classList.toggle("ray", on);
    }
  $("playboard").dataset.rays = at ? at.join(",") : "";
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
      cell.setAttribute("aria-label", sqName(r, c) + (queen ? T("cellQueen") : attackers.length ? T("cellAttacked") :
        ghost ? T("cellGhost") : T("cellFree")));
    }
  $("playcount").textContent = T("placed", placed(), n);
  $("playboard").dataset.queens = play.q.join(",");
  $("playfill").disabled = !play.ghost;
  if (play.placedLast && play.q[play.placedLast[0]] !== play.placedLast[1]) play.placedLast = null;
  showRays(play.rays && play.q[play.rays[0]] === play.rays[1] ? play.rays : play.placedLast);
}

/* A tap: a queen comes off; a free square takes one; an attacked one is
   refused, with every queen that attacks it and how. */
function tap(r, c) {
  stopPlayJob();
  play.ghost = null;
  $("playclass").hidden = true;
  if (play.q[r] === c) {
    play.q[r] = -1;
    play.placedLast = null; play.rays = null;
    drawPlay();
    say("takenBack", [() => sqName(r, c)]);
    return;
  }
  const attackers = attackersOfSquare(r, c);
  if (attackers.length) {
    play.cells[r][c].classList.add("warn");
    const list = () => attackers.map(a => ({at: sqName(a.r, a.c), why: a.why.map(x => T("lineWords", x))}));
    say("notThere", [() => sqName(r, c), attackers.length], "bad",
        ["notTherePrecise", () => sqName(r, c), list, play.q[r] >= 0 ? () => r + base() : 0]);
    setTimeout(() => play.cells[r] && play.cells[r][c] && play.cells[r][c].classList.remove("warn"), 600);
    return;
  }
  play.q[r] = c;
  play.placedLast = [r, c]; play.rays = null;
  drawPlay();
  afterPlace(r, c);
}

function afterPlace(r, c) {
  const k = placed();
  if (k === play.n) { solved(); return; }
  const dead = deadRows();
  const rows = () => dead.map(x => T("rowName", x + base()));
  if (dead.length) say("deadKid", [() => sqName(r, c), rows], "bad", ["deadPrecise", rows]);
  else say("placedOne", [() => sqName(r, c), play.n - k]);
}

/* Pointing at a square: a queen's lines are drawn; an attacked square's
   attackers are named before any tap, on a line of its own (what the
   last tap said stays). */
function hover(r, c) {
  if (play.q[r] === c) {
    showRays([r, c]);
    $("playhint").innerHTML = glossed(T("hoverQueen", sqName(r, c)));
    return;
  }
  const a = attackersOfSquare(r, c);
  $("playhint").innerHTML = a.length ? glossed(T("hover", sqName(r, c), a.map(x => ({at: sqName(x.r, x.c),
    why: x.why.map(y => T("lineWords", y))})))) : "";
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

function finishLabel() { $("playfinish").innerHTML = T("finishHtml"); }

function stopPlayJob() {
  if (play.job) { play.job.stop(); play.job = null; }
  finishLabel();
}

/* A full board: a solution (no placement the page allowed attacks).  The
   library says which class it is in and draws its 8 images. */
function solved() {
  if (play.n === 1) say("solvedOne", [], "good"); else say("solved", [play.n], "good");
  const cols = play.q.slice();
  play.job = startJob({fn: "class", cols}, {
    class: m => { play.classShown = {m, cols}; showClass(m, cols); },
    err: m => say("checkFailed", [m.text], "bad")
  });
  play.job.done.then(() => { play.job = null; });
}

function showClass(m, cols) {
  const b = base(), same = i => m.images.findIndex(x => x.join() === m.images[i].join());
  const smallest = m.smallest.join(), classes = m.classes.toLocaleString("en");
  const where = T("classWhere", m.place ? m.place.toLocaleString("en") : 0, classes);
  const seen = new Set();
  $("playclasstext").innerHTML = glossed(T("classKid", m.weight), seen) + ' <details class="precise"><summary>' +
    esc(T("precisely")) + "</summary>" + glossed(T("classPrecise", where, m.smallest.map(c => c + b).join(" "), m.weight), seen) +
    "</details>";
  const names = T("images");
  const firstSmallest = m.images.findIndex(x => x.join() === smallest);
  const box = $("playimages");
  box.textContent = "";
  /* each image's squares small enough that 8 fit their slots at any N */
  const px = Math.max(4, Math.min(9, Math.floor(104 / play.n)));
  m.images.forEach((img, t) => {
    const fig = document.createElement("figure");
    fig.className = "image" + (t === firstSmallest ? " smallest" : "");
    fig.style.margin = "0";
    const mini = document.createElement("div");
    mini.className = "mini";
    mini.style.gridTemplateColumns = "repeat(" + play.n + ", " + px + "px)";
    for (let r = 0; r < play.n; r++)
      for (let c = 0; c < play.n; c++) {
        const s = document.createElement("span");
        s.className = (img[r] === c ? "q" : "") + ((r + c) % 2 ? " dark" : "");
        s.style.width = s.style.height = px + "px";
        mini.appendChild(s);
      }
    const cap = document.createElement("figcaption");
    const first = same(t);
    cap.textContent = names[t] + (first < t ? T("sameAs", names[first]) : "") +
      (t === firstSmallest ? T("smallestMark") : "");
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
  if (play.job) { stopPlayJob(); say("stoppedPlay", []); return; }
  const given = play.q.slice(), t0 = performance.now();
  const k = placed();
  say("searching", [k]);
  $("playfinish").textContent = T("stopEngine");
  let answer = null;
  play.job = startJob({fn: "complete", given}, {
    complete: m => { answer = m; },
    err: m => say("checkFailed", [m.text], "bad")
  });
  const job = play.job;
  job.done.then(rc => {
    if (play.job !== job) return;
    play.job = null;
    finishLabel();
    if (!answer || rc) return;
    const secs = ((performance.now() - t0) / 1000).toFixed(2);
    const total = BigInt(answer.total);
    if (total === 0n) {
      play.ghost = null;
      if (k) say("noneKeeps", [secs], "bad"); else say("noneAtAll", [play.n, secs], "bad");
    } else {
      play.ghost = answer.first;
      say("some", [total, k, secs], "good");
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
  play.ghost = null; play.placedLast = null; play.rays = null; play.classShown = null;
  $("playclass").hidden = true;
  buildPlay();
  drawPlay();
  say("empty", [play.n]);
  keepAddress();
}

/* ---- the page ---------------------------------------------------------- */

/* The trace page's footer says how it was made: this page's way. */
function footer() {
  document.querySelector("footer .made").innerHTML = T("made");
  if ($("lessonmodule")) $("lessonmodule").textContent = T("module", FLAVOUR === "simd", KERNEL);
}

/* The words marked data-gloss glossed, text node by text node (their
   markup kept), each word once in the element. */
function glossMarked() {
  for (const e of document.querySelectorAll("[data-gloss]")) {
    const seen = new Set(), walker = document.createTreeWalker(e, NodeFilter.SHOW_TEXT), nodes = [];
    for (let t; (t = walker.nextNode());) if (!t.parentElement.closest(".term, code")) nodes.push(t);
    for (const t of nodes) {
      const h = glossed(t.textContent, seen);
      if (h === esc(t.textContent)) continue;
      const span = document.createElement("span");
      span.innerHTML = h;
      t.replaceWith(...span.childNodes);
    }
  }
}

/* The page in the language chosen (the trace page's setLang calls this
   after its own part): the fixed text, the menus, what was said. */
function relabel() {
  applyWords();
  glossMarked();
  footer();
  engineMenus();
  finishLabel();
  drawPlay();
  sayNow();
  if (play.classShown && !$("playclass").hidden) showClass(play.classShown.m, play.classShown.cols);
  if (linkProblems.length) sayLink();
  keepAddress();
  titleNow();
}

function main() {
  $("part-watch").appendChild($("trace"));
  /* the glosses' box where every part can show it */
  document.body.appendChild($("gloss"));
  $("lessonlangs").appendChild($("langs"));
  document.querySelector("footer").prepend($("keys"));
  const h = document.createElement("h2");
  h.id = "title"; $("title").replaceWith(h);
  applyWords();
  glossMarked();
  footer();
  finishLabel();
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
    say("from", [base()]);
    if (walkGen) startWalk(at);
    keepAddress();
  };
  for (const id of ["walkn", "walkcompare", "walkiterative"]) $(id).onchange = () => startWalk();
  $("walkengine").onchange = () => { walkMenus(); startWalk(); };
  window.nqOnStep = keepAddress;
  window.nqOnLang = relabel;
  $("countfast").onclick = () => { $("countengine").value = "fast";
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
    showPart(linkProblems.some(x => x[0] === "linkPart") ? "play" : p.part);
    if (linkProblems.length) sayLink();
    document.body.dataset.ready = "1";
  });
}

main();
})();
