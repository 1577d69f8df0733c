/**
 * Runs `acp` in-process with captured output and a fake Ctrl-C, or as a real child process.
 */
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Readable, Writable } from 'node:stream';
import type { LaunchSpec } from '@acp-kit/client';
import type { StopSignal } from '../exit-codes.js';
import type { CliIo } from '../io.js';
import { main } from '../main.js';

const require = createRequire(import.meta.url);
const TSX = pathToFileURL(require.resolve('tsx')).href;
/** The CLI entry, run from source. */
export const CLI_SOURCE = fileURLToPath(new URL('../cli.ts', import.meta.url));
/** The scripted fake agent of the client package's tests. */
export const FAKE_AGENT = fileURLToPath(
  new URL('../../../client/src/test-support/fake-agent.mjs', import.meta.url),
);

/** How tests run `acp` from source (also what the demo catalog entry runs). */
export const SELF: LaunchSpec = {
  command: process.execPath,
  args: ['--conditions=@acp-kit/source', `--import=${TSX}`, CLI_SOURCE],
};

/** A temp home: config and data dirs for acp, and a work directory. */
export interface TestHome {
  dir: string;
  work: string;
  env: NodeJS.ProcessEnv;
  cleanup(): Promise<void>;
}

export async function testHome(): Promise<TestHome> {
  const dir = await realpath(await mkdtemp(join(tmpdir(), 'acp-cli-')));
  const work = join(dir, 'work');
  await import('node:fs/promises').then((fs) => fs.mkdir(work));
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: dir,
    ACP_KIT_CONFIG_DIR: join(dir, 'config'),
    ACP_KIT_DATA_DIR: join(dir, 'data'),
    XDG_CONFIG_HOME: join(dir, 'xdg-config'),
    XDG_DATA_HOME: join(dir, 'xdg-data'),
    ACP_KIT_DEMO_DELAY_MS: '0',
  };
  return { dir, work, env, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** The fake agent as a command for `acp run … -- CMD`. */
export function fakeCommand(options: Record<string, unknown> = {}): string[] {
  return [process.execPath, FAKE_AGENT, JSON.stringify(options)];
}

/** What a run produced. */
export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs `acp ARGS` in-process. `interrupt` receives a function that simulates Ctrl-C, and
 * `onStdout` sees stdout as it is written (to interrupt at the right moment).
 */
export async function runCli(
  args: readonly string[],
  home: TestHome,
  options: {
    stdin?: string;
    /** stdin as a stream (the line mode reads it line by line). */
    input?: NodeJS.ReadableStream;
    onStdout?: (text: string, interrupt: () => void) => void;
    /** Sees stderr as it is written. */
    onStderr?: (text: string, interrupt: () => void) => void;
    /** Pretend a person is at a terminal (interactive logins run). */
    interactive?: boolean;
  } = {},
): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const handlers = new Set<(signal: StopSignal) => void>();
  const interrupt = (): void => {
    for (const handler of [...handlers]) handler('SIGINT');
  };
  const io: CliIo = {
    stdout: {
      write: (text: string) => {
        stdout += text;
        options.onStdout?.(stdout, interrupt);
        return true;
      },
    },
    stderr: {
      write: (text: string) => {
        stderr += text;
        options.onStderr?.(stderr, interrupt);
        return true;
      },
    },
    readStdin: async () => options.stdin ?? '',
    // Text given as stdin is what a shell pipe would carry.
    stdinPiped: options.stdin !== undefined,
    ...(options.input ? { input: options.input } : {}),
    env: home.env,
    cwd: home.work,
    self: SELF,
    interactive: options.interactive ?? false,
    onSignal: (handler) => {
      handlers.add(handler);
      return () => handlers.delete(handler);
    },
  };
  const code = await main(['node', 'acp', ...args], io);
  return { code, stdout, stderr };
}

/** Parses JSON lines. */
export function jsonLines(text: string): Record<string, unknown>[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** Runs `acp` from source as a real child process (for signals). */
export function spawnCli(
  args: readonly string[],
  home: TestHome,
  stdin: 'ignore' | 'pipe' = 'ignore',
): ChildProcessByStdio<Writable | null, Readable, Readable> {
  return spawn(SELF.command, [...SELF.args, ...args], {
    cwd: home.work,
    env: home.env,
    stdio: [stdin, 'pipe', 'pipe'],
  }) as ChildProcessByStdio<Writable | null, Readable, Readable>;
}
