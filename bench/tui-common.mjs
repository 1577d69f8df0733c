/**
 * Shared pieces of the terminal UI benchmarks (`bench/tui-*.mjs`, `bench/install.mjs`): `acp` as
 * a user gets it (the acp-kit bundle, built when missing or older than the sources), a UI running in tmux on a private socket with temp
 * config and data directories, bounded polling of `capture-pane`, and the UI's own metrics
 * (`ACP_KIT_TUI_METRICS_FILE`).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { option } from './common.js';

export const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
/** The clone's `acp`: the same bundle the `acp-kit` package ships (scripts/bundle.ts). */
export const ACP = join(ROOT, 'packages/cli/bin/acp.cjs');
const BUNDLE_ENTRY = join(ROOT, 'packages/cli/dist/cli.cjs');
export const SCENARIO_AGENT = join(ROOT, 'packages/tui/src/e2e/fixtures/scenario-agent.mjs');

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(path));
    else if (/\.(ts|tsx)$/.test(entry.name)) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

/** Builds the bundle when it is missing or older than the sources of the packages in it. */
export function ensureBundle() {
  const sources = ['cli', 'tui', 'client', 'protocol', 'agent'].map((p) =>
    newestMtime(join(ROOT, 'packages', p, 'src')),
  );
  if (existsSync(BUNDLE_ENTRY) && statSync(BUNDLE_ENTRY).mtimeMs >= Math.max(...sources)) return;
  const result = spawnSync('npm', ['run', 'bundle'], { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) throw new Error('bundling acp failed');
}

export { option };

export const median = (values) => percentile(values, 50);

/** Nearest-rank percentile. */
export function percentile(values, p) {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** Machine facts for the report. */
export function machine() {
  return {
    cpu: `${os.cpus()[0]?.model ?? '?'} × ${os.cpus().length}`,
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    load: os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' '),
    tmux: execFileSync('tmux', ['-V'], { encoding: 'utf8' }).trim(),
  };
}

/**
 * How the UI is run: `node ACP`, or with `--bundle FILE` another `acp` (an installed one's bin,
 * or for profiles a build without minification: `npx tsx scripts/bundle.ts --no-minify --outdir
 * /tmp/acp-prof/dist` and its bin/acp.cjs copied to /tmp/acp-prof/bin), and with `--cpu-prof DIR` under
 * `node --cpu-prof` (summarise with `node bench/profile-summary.js DIR`; `--cpu-prof-interval US`
 * samples more often than every 1,000 µs).
 */
export function uiProgram() {
  const profileDir = option('--cpu-prof');
  const interval = option('--cpu-prof-interval');
  return [
    process.execPath,
    ...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []),
    ...(profileDir && interval ? [`--cpu-prof-interval=${interval}`] : []),
    option('--bundle', ACP),
  ];
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
let counter = 0;

const quote = (word) => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`);

/** The UI (`acp`) in tmux, with temp directories and the scripted agent as catalog agent `scenario`. */
export class TuiRun {
  constructor({
    args = [],
    columns = 120,
    rows = 40,
    env = {},
    dirs,
    rawLog,
    program = uiProgram(),
    historyLimit = 100_000,
  } = {}) {
    this.dirs = dirs ?? TuiRun.makeDirs();
    this.ownsDirs = dirs === undefined;
    this.metricsFile = join(this.dirs.root, `metrics-${++counter}.json`);
    this.socket = `acp-tui-bench-${process.pid}-${counter}`;
    const conf = join(this.dirs.root, 'tmux.conf');
    writeFileSync(
      conf,
      `set -g history-limit ${historyLimit}\nset -g remain-on-exit on\nset -g status off\n`,
    );
    const fullEnv = {
      ACP_KIT_CONFIG_DIR: this.dirs.config,
      ACP_KIT_DATA_DIR: this.dirs.data,
      XDG_CONFIG_HOME: join(this.dirs.root, 'xdg/config'),
      XDG_DATA_HOME: join(this.dirs.root, 'xdg/data'),
      ACP_KIT_TUI_METRICS_FILE: this.metricsFile,
      SCENARIO_STATE: join(this.dirs.root, 'agent-state'),
      COLORTERM: 'truecolor',
      ...env,
    };
    const words = [
      'env',
      ...Object.entries(fullEnv).map(([k, v]) => `${k}=${v}`),
      ...program,
      '--cwd',
      this.dirs.workspace,
      ...args,
    ];
    const command = `exec ${words.map(quote).join(' ')} 2>>${quote(join(this.dirs.root, 'stderr.log'))}`;
    this.startedAt = performance.now();
    execFileSync('tmux', [
      '-L',
      this.socket,
      '-f',
      conf,
      'new-session',
      '-d',
      '-s',
      'main',
      '-x',
      String(columns),
      '-y',
      String(rows),
      command,
    ]);
    if (rawLog) this.tmux('pipe-pane', '-o', '-t', 'main', `cat >> ${quote(rawLog)}`);
  }

  /** Temp directories with the scripted agent registered as `scenario`. */
  static makeDirs() {
    const root = mkdtempSync(join(os.tmpdir(), 'acp-tui-bench-'));
    const dirs = {
      root,
      config: join(root, 'config'),
      data: join(root, 'data'),
      workspace: join(root, 'workspace'),
    };
    for (const dir of [dirs.config, dirs.data, dirs.workspace]) mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dirs.config, 'agents.json'),
      JSON.stringify({
        agents: { scenario: { name: 'Scenario', command: process.execPath, args: [SCENARIO_AGENT] } },
      }),
    );
    return dirs;
  }

  tmux(...args) {
    // A long answer's scrollback is tens of megabytes.
    return execFileSync('tmux', ['-L', this.socket, ...args], { encoding: 'utf8', maxBuffer: 1 << 30 });
  }

  screen() {
    return this.tmux('capture-pane', '-p', '-t', 'main');
  }

  /** Scrollback and screen. */
  history() {
    return this.tmux('capture-pane', '-p', '-S', '-', '-t', 'main');
  }

  /** Polls the screen every `everyMs` until `test(screen)`; returns the elapsed ms since launch. */
  async waitFor(test, { timeoutMs = 60_000, everyMs = 10 } = {}) {
    const deadline = Date.now() + timeoutMs;
    const check = typeof test === 'string' ? (s) => s.includes(test) : test;
    for (;;) {
      const screen = this.screen();
      if (check(screen)) return performance.now() - this.startedAt;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${test}\n${screen}`);
      await sleep(everyMs);
    }
  }

  type(text) {
    this.tmux('send-keys', '-t', 'main', '-l', text);
  }

  press(...keys) {
    for (const key of keys) this.tmux('send-keys', '-t', 'main', key);
  }

  /** Quits with Ctrl+Q and returns the UI's metrics. */
  async quit() {
    this.press('C-q');
    const deadline = Date.now() + 20_000;
    while (this.tmux('display-message', '-p', '-t', 'main', '#{pane_dead}').trim() !== '1') {
      if (Date.now() > deadline) throw new Error('the UI did not exit');
      await sleep(20);
    }
    return JSON.parse(readFileSync(this.metricsFile, 'utf8'));
  }

  close() {
    try {
      execFileSync('tmux', ['-L', this.socket, 'kill-server'], { stdio: 'ignore' });
    } catch {
      // Already gone.
    }
    if (this.ownsDirs) rmSync(this.dirs.root, { recursive: true, force: true });
  }
}
