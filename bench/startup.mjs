/**
 * `node bench/startup.mjs [--runs 10] [--quick] [--bundle FILE]` (the `startup` suite of `npm run bench`)
 *
 * How fast `acp` starts, each figure as a ratio to a floor measured in the same run, alternated
 * run by run (subject, floor, floor, subject, ...):
 * - the first frame of `acp --agent demo`: the session screen (tab, composer, status bar and key
 *   hints) of the real UI, and of `acp` (the agent picker listing the catalog), against a bare
 *   Node process that draws five lines (bench/startup-floor.cjs). Both are started in the same
 *   tmux pane and timed from outside the same way: from asking tmux to start the program to the
 *   write after which `capture-pane` shows the screen (bench/lib/tmux-pane.mjs). Goal ≤ 1.5×.
 * - `acp --version` and `acp --help`, spawn → exit, against `node -e 0`. Goal ≤ 1.2×.
 * The time until the demo agent's session is open (`● connected`) is printed as context.
 *
 * `acp` is the clone's bundle (built when missing or stale), or with `--bundle FILE` another one:
 * an installed package's `lib/node_modules/acp-kit/bin/acp.cjs` (npm run pack:all, then
 * `npm i -g --prefix DIR ./acp-kit-*.tgz`) to judge what users run.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { ensureBundle, option, ACP } from './tui-common.mjs';
import { alternate, ratioRow, reportVerdicts, stats } from './lib/verdict.mjs';
import { TmuxPane } from './lib/tmux-pane.mjs';

const QUICK = process.argv.includes('--quick');
const RUNS = Number(option('--runs', QUICK ? 4 : 10));
const BUNDLE = option('--bundle');
if (!BUNDLE) ensureBundle();
const acp = BUNDLE ?? ACP;
const FLOOR = join(dirname(fileURLToPath(import.meta.url)), 'startup-floor.cjs');
const VERSION = JSON.parse(readFileSync(join(dirname(dirname(acp)), 'package.json'), 'utf8')).version;

const work = mkdtempSync(join(os.tmpdir(), 'acp-startup-bench-'));
const say = (text) => process.stdout.write(`${text}\n`);

/** Fresh config and data directories, as for a user who has not configured anything. */
function userDirs(run) {
  const root = join(work, `user-${run}-${Math.random().toString(36).slice(2, 8)}`);
  const dirs = { root, workspace: join(root, 'project') };
  mkdirSync(dirs.workspace, { recursive: true });
  return {
    dirs,
    env: {
      HOME: root,
      ACP_KIT_CONFIG_DIR: join(root, 'config'),
      ACP_KIT_DATA_DIR: join(root, 'data'),
      XDG_CONFIG_HOME: join(root, 'xdg-config'),
      XDG_DATA_HOME: join(root, 'xdg-data'),
      XDG_CACHE_HOME: join(root, 'xdg-cache'),
      COLORTERM: 'truecolor',
    },
  };
}

/** Milliseconds from spawn to exit of `argv`; fails unless it exits 0 and its output passes `check`. */
function timeCommand(argv, check = () => true) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(argv[0], argv.slice(1), { stdio: ['ignore', 'pipe', 'pipe'], cwd: work });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d) => (out += d));
    child.stderr.resume();
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = performance.now() - started;
      if (code !== 0 || !check(out))
        reject(new Error(`${argv.join(' ')}: exit ${code}\n${out.slice(0, 500)}`));
      else resolve(ms);
    });
  });
}

const pane = new TmuxPane({ dir: work });

/** The session screen: tab, composer, status bar and hints, all drawn. */
const sessionScreen = (screen) =>
  /^ ?1 acp-kit demo agent/m.test(screen) &&
  screen.includes('Message · / for commands') &&
  /│ acp-kit demo agent/.test(screen) &&
  screen.includes('new tab');
/** The picker, listing the catalog. */
const pickerScreen = (screen) =>
  screen.includes('Choose an agent') &&
  screen.includes('d acp-kit demo agent') &&
  screen.includes('Enter start');
const floorScreen = (screen) => screen.includes('line 5 of 5');

/**
 * Runs one measurement in the pane; when tmux went away meanwhile (something on this shared machine
 * ended it), starts another tmux and measures again, once.
 */
async function inPane(measure) {
  try {
    return await measure();
  } catch (error) {
    if (!/^tmux .* (is gone|went away)/.test(error.message)) throw error;
    say(`  (${error.message}: a new tmux, and the run again)`);
    await pane.restart();
    return measure();
  }
}

/** First frame of acp with `args` (ms), then quits it; `ready` records the time to `● connected`. */
async function firstFrame(args, test, run, ready) {
  const { dirs, env } = userDirs(run);
  try {
    const ms = await pane.time([process.execPath, acp, '--cwd', dirs.workspace, ...args], {
      env,
      cwd: dirs.workspace,
      stderr: join(work, 'acp-stderr.log'),
      test,
    });
    if (ready) ready.push(await pane.until((s) => s.includes('● connected')));
    await pane.quit();
    return ms;
  } finally {
    rmSync(dirs.root, { recursive: true, force: true });
  }
}

async function floorFrame() {
  const ms = await pane.time([process.execPath, FLOOR], { test: floorScreen });
  await pane.quit();
  return ms;
}

say(
  `acp: ${acp} (${VERSION}); ${RUNS} alternated runs per row; load ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
const readyMs = [];
const rows = [];
try {
  const frames = await alternate(
    RUNS,
    {
      session: (run) => inPane(() => firstFrame(['--agent', 'demo'], sessionScreen, run, readyMs)),
      floor: () => inPane(floorFrame),
      picker: (run) => inPane(() => firstFrame([], pickerScreen, run)),
      floor2: () => inPane(floorFrame),
    },
    (name, ms) => say(`  ${name.padEnd(8)} ${ms.toFixed(0)} ms`),
  );
  // One run of each first, not timed: the file system's cache, and V8's code cache that acp keeps.
  await timeCommand([process.execPath, acp, '--version']);
  await timeCommand([process.execPath, acp, '--help']);
  await timeCommand([process.execPath, '-e', '0']);
  const commands = await alternate(RUNS * 2, {
    version: () => timeCommand([process.execPath, acp, '--version'], (out) => out.trim() === VERSION),
    node: () => timeCommand([process.execPath, '-e', '0']),
    help: () => timeCommand([process.execPath, acp, '--help'], (out) => out.includes('Usage: acp')),
    node2: () => timeCommand([process.execPath, '-e', '0']),
  });
  const frame = { floorName: 'bare Node drawing five lines', unit: 'ms', goal: { op: '<=', target: 1.5 } };
  const ready = stats(readyMs);
  rows.push(
    ratioRow({
      id: 'first-frame-session',
      what: 'first frame, acp --agent demo (session screen)',
      subject: frames.session,
      floor: frames.floor,
      ...frame,
      note: `session open (● connected) after ${ready.median.toFixed(0)} ms (median; ${ready.min.toFixed(0)}-${ready.max.toFixed(0)})`,
    }),
    ratioRow({
      id: 'first-frame-picker',
      what: 'first frame, acp (agent picker)',
      subject: frames.picker,
      floor: frames.floor2,
      ...frame,
    }),
    ratioRow({
      id: 'version',
      what: 'acp --version',
      floorName: 'node -e 0',
      unit: 'ms',
      subject: commands.version,
      floor: commands.node,
      goal: { op: '<=', target: 1.2 },
    }),
    ratioRow({
      id: 'help',
      what: 'acp --help',
      floorName: 'node -e 0',
      unit: 'ms',
      subject: commands.help,
      floor: commands.node2,
      goal: { op: '<=', target: 1.2 },
    }),
  );
  say(
    `\nsession open (● connected) after a median ${ready.median.toFixed(0)} ms (${ready.min.toFixed(0)}-${ready.max.toFixed(0)})`,
  );
  reportVerdicts('startup', rows, { acp, version: VERSION, readyMs });
} finally {
  await pane.close();
  rmSync(work, { recursive: true, force: true });
}
