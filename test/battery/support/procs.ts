/**
 * Real processes for the battery: `acp` run from source (as the CLI and UI tests do), the fixture
 * agents, temp homes, and what `/proc` says about processes (memory, orphans).
 */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The repository root. */
export const REPO_ROOT = resolve(fileURLToPath(new URL('../../..', import.meta.url)));
/** The fixtures directory. */
export const FIXTURES = join(REPO_ROOT, 'test/battery/fixtures');

const require = createRequire(import.meta.url);
const TSX = pathToFileURL(require.resolve('tsx')).href;
const CLI_SOURCE = join(REPO_ROOT, 'packages/cli/src/cli.ts');

/** Node arguments that run `acp` from source (the package source condition and the tsx loader). */
export const ACP_FROM_SOURCE: readonly string[] = [
  '--conditions=@acp-kit/source',
  `--import=${TSX}`,
  CLI_SOURCE,
];

/** Lines of a stack trace or an unhandled error in a process's stderr: a crash. */
export const CRASH =
  /Uncaught|UnhandledPromiseRejection|unhandledRejection|FATAL ERROR|Maximum call stack|\n\s+at .+:\d+:\d+\)/;

/** A fixture script's absolute path. */
export function fixture(name: string): string {
  return join(FIXTURES, name);
}

/** A temp home: config and data dirs for `acp`, a workspace, and an environment that uses them. */
export interface BatteryHome {
  readonly root: string;
  readonly work: string;
  readonly data: string;
  readonly agentData: string;
  readonly env: NodeJS.ProcessEnv;
  cleanup(): void;
}

/** Homes removed by their test; removed again when this process exits (late transcript writes). */
const removedHomes = new Set<string>();
process.once('exit', () => {
  for (const root of removedHomes) rmSync(root, { recursive: true, force: true });
});

/** Creates a temp home; `env` keeps PATH and points every acp-kit location into it. */
export function makeHome(prefix = 'battery'): BatteryHome {
  const root = realpathSync(mkdtempSync(join(tmpdir(), `acp-${prefix}-`)));
  const work = join(root, 'work');
  const data = join(root, 'data');
  const agentData = join(root, 'agent-data');
  for (const dir of [work, data, agentData, join(root, 'config'), join(root, 'xdg')]) mkdirSync(dir);
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: root,
    LANG: 'C.UTF-8',
    ACP_KIT_CONFIG_DIR: join(root, 'config'),
    ACP_KIT_DATA_DIR: data,
    XDG_CONFIG_HOME: join(root, 'xdg'),
    XDG_DATA_HOME: join(root, 'xdg'),
    ACP_KIT_DEMO_DELAY_MS: '0',
    // J1: the whole battery runs with debug logging.
    ACP_KIT_LOG: 'debug',
  };
  return {
    root,
    work,
    data,
    agentData,
    env,
    cleanup: () => {
      rmSync(root, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 });
      removedHomes.add(root);
    },
  };
}

/** Starts `acp ARGS` from source. */
export function spawnAcp(args: readonly string[], options: SpawnOptions = {}): ChildProcess {
  return spawn(process.execPath, [...ACP_FROM_SOURCE, ...args], {
    stdio: ['pipe', 'pipe', 'pipe'],
    ...options,
  });
}

/** `acp agent --demo` from source, with its sessions kept in `home`. */
export function spawnDemoAgent(home: BatteryHome, extraEnv: NodeJS.ProcessEnv = {}): ChildProcess {
  return spawnAcp(['agent', '--demo', '--data-dir', home.agentData], {
    cwd: home.work,
    env: { ...home.env, ...extraEnv },
  });
}

/** Text collected from a stream, bounded to its last `maxChars`. */
export class Collected {
  text = '';
  bytes = 0;
  constructor(
    stream: NodeJS.ReadableStream | null | undefined,
    private readonly maxChars = 4 * 1024 * 1024,
  ) {
    stream?.setEncoding?.('utf8');
    stream?.on('data', (chunk: string) => {
      this.bytes += Buffer.byteLength(chunk);
      this.text += chunk;
      if (this.text.length > this.maxChars) this.text = this.text.slice(-this.maxChars);
    });
  }
}

/** How a child ended. */
export interface ExitStatus {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** Resolves when `child` exits; rejects after `ms` (the child keeps running: kill it in cleanup). */
export function exitOf(child: ChildProcess, ms: number): Promise<ExitStatus> {
  if (child.exitCode !== null || child.signalCode !== null)
    return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  return within(
    new Promise<ExitStatus>((done) => child.once('exit', (code, signal) => done({ code, signal }))),
    ms,
    `exit of pid ${child.pid}`,
  );
}

/** Settles like `promise`, or rejects with a clear message after `ms` (never hangs a test). */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not happen within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Polls `condition` every `intervalMs` until it holds; rejects with `what` after `timeoutMs`. */
export async function pollUntil(
  condition: () => boolean,
  what: string,
  timeoutMs = 10_000,
  intervalMs = 20,
): Promise<number> {
  const start = performance.now();
  for (;;) {
    if (condition()) return performance.now() - start;
    if (performance.now() - start > timeoutMs) throw new Error(`${what}: still false after ${timeoutMs} ms`);
    await new Promise((done) => setTimeout(done, intervalMs));
  }
}

/** Memory of a live process from `/proc/PID/status`, in bytes. */
export function memoryOf(pid: number): { rss: number; peak: number } | undefined {
  let status: string;
  try {
    status = readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return undefined;
  }
  const kib = (name: string): number =>
    Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
  return { rss: kib('VmRSS') * 1024, peak: kib('VmHWM') * 1024 };
}

/**
 * Follows a process's peak RSS (`VmHWM`, which never goes down) until it exits or `stop()`.
 * `baseline` is the RSS when sampling started (or when `markBaseline()` was called).
 */
export class PeakMemory {
  baseline = 0;
  peak = 0;
  private readonly timer: ReturnType<typeof setInterval>;

  constructor(
    private readonly pid: number,
    intervalMs = 10,
  ) {
    this.markBaseline();
    this.timer = setInterval(() => this.sample(), intervalMs);
  }

  /** Takes the current RSS as the idle baseline. */
  markBaseline(): void {
    const now = memoryOf(this.pid);
    if (now) this.baseline = now.rss;
    this.sample();
  }

  /** The peak over the baseline, in bytes. */
  get delta(): number {
    return Math.max(0, this.peak - this.baseline);
  }

  sample(): void {
    const now = memoryOf(this.pid);
    if (now) this.peak = Math.max(this.peak, now.peak, now.rss);
  }

  stop(): void {
    this.sample();
    clearInterval(this.timer);
  }
}

/** A unique word put in the argv of every process a case starts, to count them afterwards. */
export function orphanToken(): string {
  return `battery-proc-${randomUUID()}`;
}

/** Live (non-zombie) processes whose command line contains `token`, other than ourselves. */
export function processesWith(token: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (!cmdline.includes(token)) continue;
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (stat.slice(stat.lastIndexOf(')') + 2)[0] === 'Z') continue;
      found.push(Number(entry));
    } catch {
      // Gone while we looked.
    }
  }
  return found;
}

/**
 * Orphans: processes carrying `token` still alive `graceMs` after the shutdown (polled, so a
 * clean shutdown returns at once), as short command lines. Whatever is left is then killed, so one
 * failure does not leak.
 */
export async function orphansOf(token: string, graceMs = 5_000): Promise<string[]> {
  const deadline = performance.now() + graceMs;
  let alive = processesWith(token);
  while (alive.length > 0 && performance.now() < deadline) {
    await new Promise((done) => setTimeout(done, 25));
    alive = processesWith(token);
  }
  const described = alive.map((pid) => {
    try {
      return `${pid}: ${readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').replace(token, '<token>').slice(0, 160)}`;
    } catch {
      return `${pid}: (gone)`;
    }
  });
  for (const pid of alive) killQuietly(pid, 'SIGKILL');
  return described;
}

/** The number of {@link orphansOf}. */
export async function countOrphans(token: string, graceMs = 5_000): Promise<number> {
  return (await orphansOf(token, graceMs)).length;
}

/** Whether `pid` is a live (non-zombie) process. */
export function isAlive(pid: number | undefined): boolean {
  if (pid === undefined) return false;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

/** Sends a signal, ignoring a process that is already gone. */
export function killQuietly(pid: number | undefined, signal: NodeJS.Signals = 'SIGKILL'): void {
  if (pid === undefined) return;
  try {
    process.kill(pid, signal);
  } catch {
    // Already gone.
  }
}

/** A fresh temp directory (removed by the caller). */
export function tempDir(prefix: string): string {
  return realpathSync(mkdtempSync(join(tmpdir(), `acp-battery-${prefix}-`)));
}

/** acp-kit's negotiating protocol-level agent (serveAgent, v1 and v2 faces) from source. */
export function spawnNegotiatingAgent(home: BatteryHome): ChildProcess {
  const main = join(REPO_ROOT, 'packages/protocol/test/interop/fixtures/acp-kit-v2-agent-main.ts');
  return spawn(process.execPath, ['--conditions=@acp-kit/source', `--import=${TSX}`, main, 'both'], {
    stdio: ['pipe', 'pipe', 'pipe'],
    cwd: home.work,
    env: home.env,
  });
}
