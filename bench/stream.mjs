/**
 * `node bench/stream.mjs [--quick] [--runs N] [--bundle FILE] [--before-bundle FILE]` (the `stream`
 * suite of `npm run bench`)
 *
 * The terminal UI streaming an answer, judged against a floor measured in the same run: a bare
 * Node process that reads the same stream from the same agent over a pipe and `JSON.parse`s every
 * line, nothing else (bench/lib/bare-stream-reader.mjs). UI and floor alternate (UI, floor, then
 * floor, UI, ...); each budget is the ratio of a pair, min/median/max, with a verdict on the median.
 * - paced: 5,000 Markdown chunks at 250/s; the UI's CPU from the prompt until everything is drawn
 *   (process.cpuUsage: every thread of the UI process, not the agent's) against the reader's CPU
 *   from the prompt to its answer. Budget ≤ 1.5x. Neither samples its event-loop delay meanwhile
 *   (a timer every 5 ms: more wakeups than the stream's), and the UI takes no progress samples
 *   (a timer every 250 ms, as often as its frames).
 * - flood: the same 5,000 chunks as fast as the pipe takes them. Budget: no worse than before
 *   this suite existed (the ratio measured then, see docs/performance.md).
 * - event-loop delay p99 of paced runs made for it (both sampling every 5 ms) against the bare
 *   reader's (what the machine's load alone makes a nearly idle process wait): no worse than before.
 * - a ~10 MB answer (100,000 chunks of ~100 bytes, flood): resident memory once it is drawn ≤ 200 MiB.
 * Every UI run must leave the whole answer in the scrollback once, in order, with no full-screen
 * clear, or the suite fails. `--quick`: 2 runs of each, no 10 MB answer. `--before-bundle FILE`:
 * the build before this suite's work runs beside them in the flood and loop-delay runs, and its
 * ratios are those rows' goals (a recorded ratio says as much about its machine as its code).
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath, URL } from 'node:url';
import { option } from './common.js';
import { alternate, boundRow, ratioRow, reportVerdicts, stats } from './lib/verdict.mjs';
import { streamInUi } from './lib/tui-stream-run.mjs';
import { ensureBundle, uiProgram } from './tui-common.mjs';

const quick = process.argv.includes('--quick');
const runs = Number(option('--runs', quick ? 2 : 3));
const CHUNKS = 5000;
const PACED_RATE = 250;
/**
 * The flood's ratio before this suite's work (median of 3 pairs, 2026-11-28, on that day's
 * machine). It is a property of the machine as much as of the code: on the machine of 2026-11-29
 * the same build gave ~17 (436 vs ~25 ms), its bare reader taking half the CPU while the UI took
 * the same. `--before-bundle` measures it in the same run instead.
 */
const FLOOD_RATIO_BEFORE = Number(option('--flood-ratio-before', 6.5));
/** The paced run's event-loop delay p99 against the bare reader's, before this suite's work. */
const LOOP_RATIO_BEFORE = Number(option('--loop-ratio-before', 2.5));
/**
 * `--before-bundle FILE`: the `acp` bundle of the build before this suite's work (commit 9869c84,
 * packed and installed, see docs/performance.md), run alternately with the UI and the floor; the
 * flood's and the loop delay's goals are then its own ratios in this run.
 */
const BEFORE = option('--before-bundle');
const READER = fileURLToPath(new URL('./lib/bare-stream-reader.mjs', import.meta.url));

if (!option('--bundle')) ensureBundle();
const program = uiProgram();

/** The floor: the bare reader's CPU for the same stream (with `loop`, sampling its loop delay). */
function bareReader(chunks, rate, bytes = 0, loop = false) {
  const args = [READER, String(chunks), String(rate), String(bytes), ...(loop ? ['loop'] : [])];
  const out = execFileSync(process.execPath, args, { encoding: 'utf8' });
  const result = JSON.parse(out.trim().split('\n').at(-1));
  if (result.updates !== chunks)
    throw new Error(`the bare reader got ${result.updates} of ${chunks} updates`);
  return result;
}

/** One UI run, which must have drawn the whole answer once without clearing the screen. */
async function ui(chunks, rate, chunkBytes = 0, sampleLoop = false, build = program, name = 'UI') {
  // No progress samples (a timer every 250 ms): nothing here reads them.
  const result = await streamInUi({
    chunks,
    rate,
    chunkBytes,
    program: build,
    sampleLoop,
    sampleProgress: false,
  });
  if (result.answer !== 'complete' || result.clears !== 0)
    throw new Error(
      `${name} run (rate ${rate}): answer ${result.answer}, ${result.clears} full-screen clears`,
    );
  console.log(
    `  ${name} ${rate === 0 ? 'flood' : `${rate}/s`}: CPU ${result.cpuMs} ms (user ${result.cpuUserMs}, system ${result.cpuSystemMs}), ` +
      `${result.frames} frames, ${sampleLoop ? `loop p99 ${result.loopP99} ms, ` : ''}RSS ${result.rssMb} MiB peak`,
  );
  return result;
}

const log = (name, value) =>
  name.startsWith('bare') ? console.log(`  ${name}: CPU ${value.cpuMs.toFixed(0)} ms`) : undefined;
const paced = await alternate(
  runs,
  { ui: () => ui(CHUNKS, PACED_RATE), bare: () => bareReader(CHUNKS, PACED_RATE) },
  log,
);
const before = BEFORE ? [process.execPath, BEFORE] : undefined;
const flood = await alternate(
  runs,
  {
    ui: () => ui(CHUNKS, 0),
    ...(before ? { before: () => ui(CHUNKS, 0, 0, false, before, 'before') } : {}),
    bare: () => bareReader(CHUNKS, 0),
  },
  log,
);
const loop = await alternate(
  quick ? 1 : 2,
  {
    ui: () => ui(CHUNKS, PACED_RATE, 0, true),
    ...(before ? { before: () => ui(CHUNKS, PACED_RATE, 0, true, before, 'before') } : {}),
    bare: () => bareReader(CHUNKS, PACED_RATE, 0, true),
  },
  (name, value) => name === 'bare' && console.log(`  bare: loop p99 ${value.loopP99.toFixed(1)} ms`),
);
/** The goal "no worse than before": the before build's ratio in this run, or the recorded one. */
function beforeGoal(results, key, recorded) {
  if (!results.before) return { target: recorded, note: 'goal: the ratio before this work (2026-11-28)' };
  const ratio = stats(results.before.map((r, i) => r[key] / results.bare[i][key])).median;
  return {
    target: Math.round(ratio * 100) / 100,
    note: `goal: the build before this work, in this run (${results.before.map((r) => r[key].toFixed(key === 'cpuMs' ? 0 : 2)).join(', ')})`,
  };
}
const floodGoal = beforeGoal(flood, 'cpuMs', FLOOD_RATIO_BEFORE);
const loopGoal = beforeGoal(loop, 'loopP99', LOOP_RATIO_BEFORE);

const cpu = (results) => results.map((r) => r.cpuMs);
const rows = [
  ratioRow({
    id: 'paced-cpu',
    what: `paced ${CHUNKS.toLocaleString('en')} chunks at ${PACED_RATE}/s: UI CPU`,
    floorName: 'bare reader',
    unit: 'ms CPU',
    subject: cpu(paced.ui),
    floor: cpu(paced.bare),
    goal: { op: '<=', target: 1.5 },
  }),
  ratioRow({
    id: 'flood-cpu',
    what: `flood of ${CHUNKS.toLocaleString('en')} chunks: UI CPU`,
    floorName: 'bare reader',
    unit: 'ms CPU',
    subject: cpu(flood.ui),
    floor: cpu(flood.bare),
    goal: { op: '<=', target: floodGoal.target },
    note: floodGoal.note,
  }),
  ratioRow({
    id: 'paced-loop-p99',
    what: 'paced: event-loop delay p99',
    floorName: 'bare reader',
    unit: 'ms',
    subject: loop.ui.map((r) => r.loopP99),
    floor: loop.bare.map((r) => r.loopP99),
    goal: { op: '<=', target: loopGoal.target },
    note: loopGoal.note,
  }),
];
if (!quick) {
  const big = [];
  for (let run = 0; run < Math.min(runs, 2); run++) {
    const result = await ui(100_000, 0, 100);
    const memory = result.memoryAtQuitMb;
    if (memory)
      console.log(
        `  10 MB answer at quit: RSS ${result.rssAtQuitMb} MiB; V8 heap ${memory.heapTotal} MiB, ` +
          `${memory.heapUsed} used; external ${memory.external} MiB (array buffers ${memory.arrayBuffers})`,
      );
    big.push(result);
  }
  rows.push(
    boundRow({
      id: 'answer-10mb-rss',
      what: '~10 MB answer (100,000 chunks): RSS once drawn',
      unit: 'MiB',
      values: big.map((r) => r.rssAtQuitMb),
      goal: { op: '<=', target: 200 },
    }),
  );
}
reportVerdicts('stream', rows, { runs: { paced, flood, loop } });
