/**
 * `node bench/reopen.mjs [--quick] [--runs N] [--bundle FILE]` (the `reopen` suite of `npm run bench`)
 *
 * Reopening a long recorded session in the terminal UI (`acp --resume`, in tmux), judged against a
 * floor measured in the same run: a bare Node process that reads the same session file
 * (`events.jsonl`) and parses every line, nothing else (bench/lib/bare-jsonl-reader.mjs). Both are
 * timed from their own process start (the UI's marks; the reader's clock when it is done). UI and
 * floor alternate; each budget is the ratio of a pair, min/median/max, verdict on the median.
 * - a 100,000-update session (2,000 turns: streamed chunks, tool calls, plans, usage), as `acp`
 *   recorded it (the session is opened and closed once in the UI before the measured runs):
 *   the session shown (its composer drawn) and its newest items printed, each ≤ 1.5x the reader.
 *   Every run must leave the newest 30 turns in the scrollback, in order. When the agent's
 *   session is connected again (`● connected`, polled in tmux) is printed as context.
 * - keystroke echo in a 10,000-message session: p99 inside the UI ≤ 50 ms (absolute: what a person
 *   notices), measured once per run.
 * `--quick`: 2 runs, a 20,000-update session.
 */
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, URL } from 'node:url';
import { option } from './common.js';
import { alternate, boundRow, ratioRow, reportVerdicts } from './lib/verdict.mjs';
import { keystrokes, reopen, updatesSession } from './lib/tui-sessions.mjs';
import { ensureBundle, percentile, TuiRun, uiProgram } from './tui-common.mjs';

const quick = process.argv.includes('--quick');
const runs = Number(option('--runs', quick ? 2 : 3));
const UPDATES = quick ? 20_000 : 100_000;
const MESSAGES = quick ? 2_000 : 10_000;
const READER = fileURLToPath(new URL('./lib/bare-jsonl-reader.mjs', import.meta.url));

if (!option('--bundle')) ensureBundle();
const program = uiProgram();
const dirs = TuiRun.makeDirs();
try {
  const session = updatesSession(dirs, UPDATES);
  const file = join(dirs.data, 'client', 'sessions', session.localId, 'events.jsonl');

  /** The UI reopening the session; the newest turns must be in the scrollback. */
  let opened = 0;
  const ui = async () => {
    const result = await reopen({ updates: UPDATES, program, dirs, session, reopenedBefore: opened++ });
    if (result.scrollback !== 'complete') throw new Error(`reopened: scrollback ${result.scrollback}`);
    console.log(
      `  UI: shown ${result.marks['session-drawn']} ms, newest printed ${result.marks['history-printed']} ms, ` +
        `connected ${result.connectedMs} ms (seen in tmux), RSS ${result.rssMb} MiB peak`,
    );
    return result;
  };
  const bare = () => {
    const result = JSON.parse(execFileSync(process.execPath, [READER, file], { encoding: 'utf8' }));
    console.log(`  bare reader: ${result.ms.toFixed(0)} ms (${result.lines} lines)`);
    return result;
  };

  // As acp recorded it: opened and closed once before (what that leaves beside the events stays).
  const first = await ui();
  const measured = await alternate(runs, { ui, bare });
  const keys = [];
  for (let run = 0; run < runs; run++)
    keys.push(await keystrokes({ messages: MESSAGES, keys: quick ? 30 : 60, program }));

  const floor = measured.bare.map((r) => r.ms);
  /** A milestone of the UI (ms since its start) against the reader's time. */
  const milestone = (id, mark, shown) =>
    ratioRow({
      id,
      what: `reopen ${UPDATES.toLocaleString('en')} updates: ${shown}`,
      floorName: 'bare JSONL reader',
      unit: 'ms',
      subject: measured.ui.map((r) => r.marks[mark]),
      floor,
      goal: { op: '<=', target: 1.5 },
    });
  reportVerdicts(
    'reopen',
    [
      milestone('reopen-shown', 'session-drawn', 'session shown'),
      milestone('reopen-newest', 'history-printed', 'newest items printed'),
      boundRow({
        id: 'keystroke-p99',
        what: `keystroke echo p99, ${MESSAGES.toLocaleString('en')}-message session`,
        unit: 'ms',
        values: keys.map((r) => percentile(r.inside, 99)),
        goal: { op: '<=', target: 50 },
      }),
    ],
    { firstOpen: first.marks, runs: measured },
  );
} finally {
  rmSync(dirs.root, { recursive: true, force: true, maxRetries: 20, retryDelay: 50 });
}
