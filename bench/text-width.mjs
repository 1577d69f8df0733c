/**
 * `node bench/text-width.mjs [--runs 5] [--repeat 200]`
 *
 * The cost of the terminal UI's `displayWidth` (string-width behind a shortcut for text that is
 * one cell per character) next to the hand-written function it replaced (`impl/width-hand-written.js`),
 * on the two hot paths: every line of a streamed message measured again on each update
 * (`estimateRows`, the live region's tail), and one character at a time (the form layout's word
 * breaking). Lines are classed by content, since only some non-Latin text reaches the segmenter,
 * whose answers are cached; the last row measures lines that each miss that cache.
 * Prints ns per line (or per character), the median of the runs, and the ratio new/old.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { median, option } from './common.js';
import { displayWidth as handWritten } from './impl/width-hand-written.js';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const built = join(root, 'packages/tui/dist/text/width.js');
if (!existsSync(built)) {
  console.log('packages/tui/dist is missing: running npm run build ...');
  spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
}
const { displayWidth } = await import(pathToFileURL(built).href);

const runs = Number(option('--runs', 5));
const repeat = Number(option('--repeat', 200));

/** A streamed answer as models write them, by kind of line. */
const LINES = {
  ascii: [
    '## Plan',
    'I will update `src/config.ts` so that the loader reads the new option, then run the tests.',
    '- [x] read the failing test and the code it exercises',
    '| file | change |',
    '    const value = settings.get("timeout") ?? DEFAULT_TIMEOUT_MS;',
  ],
  typographic: [
    'The loader — which runs before anything else — now accepts “timeout”…',
    'Café, naïve, façade: Latin-1 letters are one cell each; so are en–dashes and ‘quotes’.',
  ],
  emoji: [
    '| build | ✅ passed |',
    '| tests | ❌ 2 failed |',
    'Deployed 🚀 — all green 🎉',
    '⚠️ check the ✔️ items',
  ],
  'emoji sequences': ['Pair programming 👩‍💻 with ❤️', 'Flags 🇫🇷 🇯🇵 and 👍🏽'],
  cjk: [
    '设置已更新：超时现在是 30 秒。',
    '設定を更新しました。テストを実行します。',
    '한국어 문장도 두 칸씩 차지합니다.',
  ],
};

/** Median ns per item of `fn` over `items` (each pass `passes` times), alternated with the baseline. */
function compare(items, passes, label, per) {
  const time = (fn) => {
    let sink = 0;
    const start = process.hrtime.bigint();
    for (let r = 0; r < passes; r++) for (const item of items) sink += fn(item);
    const ns = Number(process.hrtime.bigint() - start);
    if (sink < 0) console.log(sink);
    return ns / (passes * items.length);
  };
  const old = [];
  const now = [];
  for (let i = 0; i < runs; i++) {
    old.push(time(handWritten));
    now.push(time(displayWidth));
  }
  const a = median(old);
  const b = median(now);
  rows.push({
    text: label,
    per,
    'hand-written ns': a.toFixed(0),
    'string-width ns': b.toFixed(0),
    ratio: (b / a).toFixed(2),
  });
}

/** 4,096 lines, each with a different ZWJ sequence: measured once, they all miss the cache. */
function coldLines() {
  const faces = Array.from({ length: 64 }, (_, i) => String.fromCodePoint(0x1f600 + i));
  const lines = [];
  for (const a of faces) for (const b of faces) lines.push(`Pair programming ${a}\u200d${b} with ❤️ today`);
  return lines;
}

const rows = [];
for (const [kind, lines] of Object.entries(LINES)) {
  // Warm-up (JIT) first; the runs alternate the two so that machine load hits both alike.
  for (const line of lines) {
    handWritten(line);
    displayWidth(line);
  }
  compare(lines, repeat, kind, 'line');
  compare(
    lines.flatMap((line) => [...line]),
    repeat,
    kind,
    'char',
  );
}
compare(coldLines(), 1, 'emoji sequences, first time', 'line');
console.log(`node ${process.version}, ${runs} runs × ${repeat} repeats, median ns per line / per character`);
console.table(rows);
