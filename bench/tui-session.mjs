/**
 * `node bench/tui-session.mjs [--messages 10000] [--updates 100000] [--keys 60] [--runs 3]`
 *
 * Long sessions in `acp` (the production bundle) in tmux, reopened with `--resume` (the scripted
 * agent reattaches with `session/load`):
 * - keystrokes in a session of N messages (default 10,000: 5,000 prompts and replies with
 *   Markdown): keystroke-to-echo, measured in the UI (input received → the frame showing it
 *   written) and from outside (`send-keys` → the character visible in `capture-pane`, polled every
 *   2 ms), and peak RSS. Targets: p99 ≤ 50 ms, RSS ≤ 300 MB.
 * - reopening a recorded session of M updates (default 100,000: streamed message chunks, tool
 *   calls with updates, plans, usage): time from launch until the transcript is printed and the
 *   composer takes input (target ≤ 2 s); then the screen clears written (only the reprints the
 *   app asks for) and whether the newest items are all in tmux's scrollback, in order.
 * `--bundle FILE` runs another build of the UI, `--cpu-prof DIR` profiles it (see tui-common.mjs).
 */
import { keystrokes, reopen } from './lib/tui-sessions.mjs';
import { ensureBundle, machine, median, option, percentile } from './tui-common.mjs';

ensureBundle();
const MESSAGES = Number(option('--messages', 10_000));
const UPDATES = Number(option('--updates', 100_000));
const KEYS = Number(option('--keys', 60));
const RUNS = Number(option('--runs', 3));
const keyRuns = [];
const reopenRuns = [];
for (let i = 0; i < RUNS; i++) {
  keyRuns.push(await keystrokes({ messages: MESSAGES, keys: KEYS }));
  reopenRuns.push(await reopen({ updates: UPDATES }));
}
console.log(
  JSON.stringify({ machine: machine(), messages: MESSAGES, updates: UPDATES, keyRuns, reopenRuns }),
);
const inside = keyRuns.flatMap((r) => r.inside);
const outside = keyRuns.flatMap((r) => r.outside);
console.log(
  `\n| ${MESSAGES.toLocaleString('en')}-message session, ${inside.length} keystrokes | p50 (ms) | p99 (ms) | max (ms) |`,
);
console.log('| --- | --- | --- | --- |');
console.log(
  `| keystroke to echo, in the UI | ${median(inside).toFixed(1)} | ${percentile(inside, 99).toFixed(1)} | ${Math.max(...inside).toFixed(1)} |`,
);
console.log(
  `| keystroke to echo, seen in tmux | ${median(outside).toFixed(1)} | ${percentile(outside, 99).toFixed(1)} | ${Math.max(...outside).toFixed(1)} |`,
);
console.log(`| peak RSS (MB), median of ${RUNS} | ${median(keyRuns.map((r) => r.rssMb))} | | |`);
console.log(
  `\n| Reopening a ${UPDATES.toLocaleString('en')}-update session (${reopenRuns[0].events} events), ms since launch | median | max |`,
);
console.log('| --- | --- | --- |');
const m = (pick) => reopenRuns.map(pick);
const line = (name, values) =>
  console.log(`| ${name} | ${median(values).toFixed(0)} | ${Math.max(...values).toFixed(0)} |`);
line(
  'transcript read and shown (UI)',
  m((r) => r.marks['session-drawn']),
);
line(
  'newest items printed (UI)',
  m((r) => r.marks['history-printed']),
);
line(
  'last turn and composer visible (tmux)',
  m((r) => r.seenMs),
);
line(
  'agent reattached (UI)',
  m((r) => r.marks.ready),
);
console.log(
  `| screen clears (reprints asked by the app) | ${m((r) => `${r.screenClears} (${r.reprints})`).join(', ')} | |`,
);
console.log(`| newest turns in the scrollback | ${m((r) => r.scrollback).join(', ')} | |`);
console.log(`| peak RSS (MB) | ${median(m((r) => r.rssMb))} | ${Math.max(...m((r) => r.rssMb))} |`);
