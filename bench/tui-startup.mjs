/**
 * `node bench/tui-startup.mjs [--runs 10]`
 *
 * Time to the first frame of `acp` (the production bundle) in a real terminal (tmux), with no
 * agent given, so the first frame is the agent picker. Reported per run: the UI's own measurement
 * (first Ink frame, in ms since the process started, from `performance.now()`), and from outside:
 * the time from asking tmux to start the process until `capture-pane` shows the picker (includes
 * tmux's own start and the 5 ms polling). Target: first frame ≤ 300 ms.
 */
import { ensureBundle, machine, median, option, percentile, TuiRun } from './tui-common.mjs';

ensureBundle();
const runs = Number(option('--runs', 10));
const inside = [];
const outside = [];
for (let i = 0; i < runs; i++) {
  const run = new TuiRun();
  try {
    outside.push(
      await run.waitFor((s) => s.includes('Choose an agent') || s.includes('Looking for agents'), {
        everyMs: 5,
      }),
    );
    const metrics = await run.quit();
    inside.push(metrics.firstFrameMs);
  } finally {
    run.close();
  }
}
const row = (name, values) =>
  `| ${name} | ${median(values).toFixed(0)} | ${percentile(values, 90).toFixed(0)} | ${Math.max(...values).toFixed(0)} |`;
console.log(JSON.stringify({ machine: machine(), runs, inside, outside: outside.map((v) => Math.round(v)) }));
console.log('\n| First frame (ms), %d runs | median | p90 | max |', runs);
console.log('| --- | --- | --- | --- |');
console.log(row('in the UI (since process start)', inside));
console.log(row('seen in tmux (since spawn)', outside));
