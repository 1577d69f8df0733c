/**
 * `node bench/tui-stream.mjs [--chunks 5000] [--rates 250,0] [--runs 3] [--chunk-bytes N] [--no-loop]`
 *
 * Streams N Markdown chunks (headings, paragraphs, lists with bold and code) from the scripted
 * agent into `acp` (the production bundle) in tmux, at each rate in chunks per second (0: as fast
 * as the pipe takes them); `--chunk-bytes 100` pads the plain chunks to about 100 bytes (100,000
 * of them: a ~10 MB answer). Measured:
 * - full-screen clears written to the main buffer after the prompt (raw output, `pipe-pane`): target 0;
 * - `capture-pane` samples every 50 ms during the stream: the tab bar, status bar and hint line
 *   must each appear exactly once, intact, as the last lines (no torn or duplicated status bar);
 * - the UI's event-loop delay p99 after the prompt (target ≤ 20 ms) and its CPU from the prompt
 *   until everything is drawn (target ≤ 1.5 s), with its frames, their build times and the
 *   renders per component;
 * - the answer in the scrollback once the stream is drawn: every word once, in order;
 * - the CPU per 1,000 chunks while the first and the last tenth of the stream arrive (the UI's
 *   progress samples): flat when no work grows with the answer's length.
 * `--bundle FILE` runs another build of the UI, `--cpu-prof DIR` profiles it (see tui-common.mjs).
 * `--no-loop` turns the UI's event-loop delay sampler off (a 5 ms timer, ~4,000 wakeups of a
 * paced run): for CPU figures comparable with the stream suite's, which turns it off too.
 */
import { streamInUi } from './lib/tui-stream-run.mjs';
import { ensureBundle, machine, median, option } from './tui-common.mjs';

ensureBundle();
const chunks = Number(option('--chunks', 5000));
const rates = option('--rates', '250,0').split(',').map(Number);
const runs = Number(option('--runs', 3));
const chunkBytes = Number(option('--chunk-bytes', 0));
const sampleLoop = !process.argv.includes('--no-loop');

const results = [];
for (const rate of rates)
  for (let i = 0; i < runs; i++) results.push(await streamInUi({ chunks, rate, chunkBytes, sampleLoop }));
console.log(JSON.stringify({ machine: machine(), chunks, results }));
console.log(
  `\n| ${chunks} chunks${chunkBytes > 0 ? ` of ~${chunkBytes} bytes` : ''} | rate | turn (ms) | full clears | torn/duplicated status samples | loop delay p99 (ms) | CPU (ms) | CPU per 1k chunks, first / last tenth (ms) | frames | frame build p99 (ms) | answer in the scrollback |`,
);
console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
for (const rate of rates) {
  const rows = results.filter((r) => r.rate === rate);
  const m = (key) => median(rows.map((r) => r[key]));
  console.log(
    `| median of ${rows.length} | ${rate === 0 ? 'flood' : `${rate}/s`} | ${m('turnMs').toFixed(0)} | ${Math.max(...rows.map((r) => r.clears))} | ` +
      `${rows.reduce((sum, r) => sum + r.tornSamples, 0)} of ${rows.reduce((sum, r) => sum + r.samples, 0)} | ${sampleLoop ? m('loopP99').toFixed(1) : '–'} | ${m('cpuMs').toFixed(0)} | ${m('cpuPer1kFirstTenth').toFixed(1)} / ${m('cpuPer1kLastTenth').toFixed(1)} | ${m('frames').toFixed(0)} | ${m('renderP99').toFixed(1)} | ` +
      `${rows.filter((r) => r.answer === 'complete').length} of ${rows.length} complete |`,
  );
}
