/**
 * Drives the terminal UI in a real terminal: tmux on a private socket, temp config/data/workspace
 * directories, and polling of `capture-pane` (bounded, never fixed sleeps). Every harness kills
 * its tmux server and removes its directories in `close()`.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
/** The repository root. */
export const REPO_ROOT = resolve(here, '../../../..');
/** `acp` itself, run from source: the UI opens through the command line users run. */
const BIN = join(REPO_ROOT, 'packages/cli/src/cli.ts');
/** The scripted agent used by the end-to-end tests. */
export const SCENARIO_AGENT = join(here, 'fixtures/scenario-agent.mjs');

function tsxLoader(): string {
  const require = createRequire(import.meta.url);
  const dir = dirname(require.resolve('tsx/package.json'));
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
    exports: { '.': string };
  };
  return pathToFileURL(join(dir, manifest.exports['.'])).href;
}

/** Quotes a word for `sh`. */
export function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** Options of {@link TuiHarness.launch}. */
export interface LaunchOptions {
  /** Arguments of `acp` (the UI): `--agent demo`, `-- node agent.mjs`… `--cwd` is added. */
  readonly args?: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
  readonly columns?: number;
  readonly rows?: number;
  /** Reuse the directories of an earlier run (to reopen its sessions). */
  readonly dirs?: HarnessDirs;
  /** Run this program instead of the UI from source (benchmarks run the bundle). */
  readonly program?: readonly string[];
  /** Record everything the UI writes to this file (`pipe-pane`). */
  readonly rawLog?: string;
}

/** The temp directories of a run. */
export interface HarnessDirs {
  readonly root: string;
  readonly config: string;
  readonly data: string;
  readonly workspace: string;
}

/** Creates the temp directories of a run. */
export function makeDirs(): HarnessDirs {
  const root = mkdtempSync(join(tmpdir(), 'acp-tui-e2e-'));
  const dirs = {
    root,
    config: join(root, 'config'),
    data: join(root, 'data'),
    workspace: join(root, 'workspace'),
  };
  for (const dir of [dirs.config, dirs.data, dirs.workspace, join(root, 'xdg')])
    mkdirSync(dir, { recursive: true });
  return dirs;
}

/** `notes.txt` for the scripted agent's `edit notes.txt` (it changes lines 2, 11 and 20): 25 numbered lines. */
export const NOTES = Array.from({ length: 25 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';

/** Options of {@link makeScenarioDirs}. */
export interface ScenarioDirsOptions {
  /** Fields added to the catalog entry of the scripted agent (`authHint`…). */
  readonly agent?: Readonly<Record<string, unknown>>;
  /** Files written to the workspace, by name. */
  readonly files?: Readonly<Record<string, string | Uint8Array>>;
}

/**
 * Creates the temp directories of a run with the scripted agent in its catalog as "Scenario"
 * (`agents.json`) and `files` in its workspace.
 *
 * @example
 * const dirs = makeScenarioDirs({ files: { 'notes.txt': NOTES } });
 * TuiHarness.launch({ dirs, args: ['--agent', 'scenario'], env: scenarioEnv(dirs) });
 */
export function makeScenarioDirs(options: ScenarioDirsOptions = {}): HarnessDirs {
  const dirs = makeDirs();
  const scenario = { name: 'Scenario', command: process.execPath, args: [SCENARIO_AGENT], ...options.agent };
  writeFileSync(join(dirs.config, 'agents.json'), JSON.stringify({ agents: { scenario } }));
  for (const [name, content] of Object.entries(options.files ?? {}))
    writeFileSync(join(dirs.workspace, name), content);
  return dirs;
}

/** The permission prompt's box on `screen`: from its title to its bottom border. */
export function permissionBox(screen: string): string {
  const lines = screen.split('\n');
  const start = lines.findIndex((line) => line.includes('Permission requested'));
  const end = lines.findIndex((line, i) => i > start && line.includes('╰'));
  return lines.slice(start, end + 1).join('\n');
}

/** The scripted agent's environment in a run: its sessions kept in the run's directory. */
export function scenarioEnv(dirs: HarnessDirs): Readonly<Record<string, string>> {
  return { SCENARIO_STATE: join(dirs.root, 'agent-state') };
}

let counter = 0;

/** The exit status of a process that exited but was not reaped yet (128 + signal when killed). */
function zombieStatus(pid: number): number | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  if (fields[0] !== 'Z') return undefined;
  const waitStatus = Number(fields[49]);
  const signal = waitStatus & 0x7f;
  return signal === 0 ? (waitStatus >> 8) & 0xff : 128 + signal;
}

/** A UI running in tmux. */
export class TuiHarness {
  private closed = false;

  private constructor(
    readonly socket: string,
    readonly dirs: HarnessDirs,
    private readonly ownsDirs: boolean,
  ) {}

  /** Starts the UI in a new tmux server. */
  static launch(options: LaunchOptions = {}): TuiHarness {
    const dirs = options.dirs ?? makeDirs();
    const socket = `acp-tui-${process.pid}-${++counter}-${Date.now().toString(36)}`;
    const conf = join(dirs.root, `tmux-${counter}.conf`);
    writeFileSync(conf, 'set -g history-limit 100000\nset -g remain-on-exit on\nset -g status off\n');
    const xdg = join(dirs.root, 'xdg');
    const env: Record<string, string> = {
      ACP_KIT_CONFIG_DIR: dirs.config,
      ACP_KIT_DATA_DIR: dirs.data,
      XDG_CONFIG_HOME: join(xdg, 'config'),
      XDG_DATA_HOME: join(xdg, 'data'),
      XDG_STATE_HOME: join(xdg, 'state'),
      XDG_CACHE_HOME: join(xdg, 'cache'),
      COLORTERM: 'truecolor',
      ...options.env,
    };
    const program = options.program ?? [
      process.execPath,
      '--conditions=@acp-kit/source',
      `--import=${tsxLoader()}`,
      BIN,
    ];
    const words = [
      'env',
      // CI runs set CI=true, and Ink then draws only the last frame: a person's terminal has no CI.
      '-u',
      'CI',
      '-u',
      'CONTINUOUS_INTEGRATION',
      ...Object.entries(env).map(([k, v]) => `${k}=${v}`),
      ...program,
      '--cwd',
      dirs.workspace,
      ...(options.args ?? []),
    ];
    const command = `cd ${shellQuote(REPO_ROOT)} && exec ${words.map(shellQuote).join(' ')} 2>>${shellQuote(join(dirs.root, 'stderr.log'))}`;
    execFileSync('tmux', [
      '-L',
      socket,
      '-f',
      conf,
      'new-session',
      '-d',
      '-s',
      'main',
      '-x',
      String(options.columns ?? 120),
      '-y',
      String(options.rows ?? 40),
      command,
    ]);
    const harness = new TuiHarness(socket, dirs, options.dirs === undefined);
    if (options.rawLog) harness.tmux('pipe-pane', '-o', '-t', 'main', `cat >> ${shellQuote(options.rawLog)}`);
    return harness;
  }

  /** Runs a tmux command on this server. */
  tmux(...args: string[]): string {
    return execFileSync('tmux', ['-L', this.socket, ...args], { encoding: 'utf8' });
  }

  /** The visible screen. */
  screen(): string {
    return this.tmux('capture-pane', '-p', '-t', 'main');
  }

  /**
   * The visible screen with SGR attributes (`capture-pane -e`): colours and styles as escape
   * sequences. tmux emits only changes, so attributes carry over from one line to the next.
   */
  screenAnsi(): string {
    return this.tmux('capture-pane', '-p', '-e', '-t', 'main');
  }

  /** Scrollback and screen. */
  history(): string {
    return this.tmux('capture-pane', '-p', '-S', '-', '-t', 'main');
  }

  /** Scrollback and screen with SGR attributes (`capture-pane -e`). */
  historyWithEscapes(): string {
    return this.tmux('capture-pane', '-p', '-e', '-S', '-', '-t', 'main');
  }

  /** A pane variable (`#{pane_title}`, `#{alternate_on}`…). */
  pane(format: string): string {
    return this.tmux('display-message', '-p', '-t', 'main', format).trim();
  }

  /**
   * Polls until `match` is found (a string, regex, or predicate) in the screen or the whole
   * history, in two captures in a row (so the UI has finished mounting what it shows before keys
   * are sent to it); throws with the screen after `timeoutMs`.
   */
  async waitFor(
    match: string | RegExp | ((text: string) => boolean),
    options: { timeoutMs?: number; history?: boolean } = {},
  ): Promise<string> {
    // Generous: the app starts from source through tsx, which is slow on a loaded 2-core machine.
    const deadline = Date.now() + (options.timeoutMs ?? 60_000);
    const test =
      typeof match === 'function'
        ? match
        : typeof match === 'string'
          ? (t: string) => t.includes(match)
          : (t: string) => match.test(t);
    let seen = false;
    for (;;) {
      const text = options.history ? this.history() : this.screen();
      if (test(text)) {
        if (seen) return text;
        seen = true;
      } else seen = false;
      if (Date.now() > deadline) {
        const stderr = existsSync(join(this.dirs.root, 'stderr.log'))
          ? readFileSync(join(this.dirs.root, 'stderr.log'), 'utf8')
          : '';
        throw new Error(
          `timed out waiting for ${String(match)}\n--- screen ---\n${this.screen()}\n--- stderr ---\n${stderr.slice(-2000)}`,
        );
      }
      await new Promise((done) => setTimeout(done, 40));
    }
  }

  /** Types text literally. */
  type(text: string): void {
    this.tmux('send-keys', '-t', 'main', '-l', text);
  }

  /** Presses keys (tmux names: Enter, Escape, C-c, C-Right, y…), one at a time. */
  press(...keys: string[]): void {
    for (const key of keys) this.tmux('send-keys', '-t', 'main', key);
  }

  /** Types a line and presses Enter separately (as a person would). */
  async submit(text: string): Promise<void> {
    this.type(text);
    await this.waitFor(text.slice(-20));
    this.press('Enter');
  }

  /** Answers the permission prompt on screen once it accepts keys (after its typeahead guard). */
  async answer(key: string): Promise<void> {
    await this.waitFor('↑↓ choose · Enter answer');
    this.press(key);
  }

  /** Waits for the UI process to exit and returns its status (128 + the signal's number when killed by one). */
  async exitStatus(timeoutMs = 15_000): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (this.pane('#{pane_dead}') === '1') {
        const status = this.pane('#{pane_dead_status}');
        if (status !== '') return Number(status);
        // The pane reads as dead (its terminal closed) before tmux reaps the process: a zombie
        // still shows its wait status in /proc (field 52 of stat, Linux ≥ 3.5).
        const zombie = zombieStatus(Number(this.pane('#{pane_pid}')));
        if (zombie !== undefined) return zombie;
      }
      if (Date.now() > deadline) throw new Error(`the UI did not exit\n${this.screen()}`);
      await new Promise((done) => setTimeout(done, 50));
    }
  }

  /** Kills the tmux server (and the UI with it) and removes the temp directories it created. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    // Let the UI quit (closing its agents and records) before its directories are removed.
    try {
      if (this.pane('#{pane_dead}') !== '1') {
        this.press('C-q');
        const pause = new Int32Array(new SharedArrayBuffer(4));
        for (let i = 0; i < 250 && this.pane('#{pane_dead}') !== '1'; i++) Atomics.wait(pause, 0, 0, 20);
      }
    } catch {
      // The server is already gone.
    }
    try {
      execFileSync('tmux', ['-L', this.socket, 'kill-server'], { stdio: 'ignore' });
    } catch {
      // Already gone.
    }
    if (this.ownsDirs)
      rmSync(this.dirs.root, { recursive: true, force: true, maxRetries: 20, retryDelay: 50 });
  }
}
