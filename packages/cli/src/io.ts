/**
 * What a command talks to: output streams, input, environment, signals. Injected so commands can
 * run in-process in tests; `processIo()` is the real thing.
 */
import { fstatSync } from 'node:fs';
import type { LaunchSpec } from '@acp-kit/client';
import type { StopSignal } from './exit-codes.js';

/** A place to write text. */
export interface Output {
  /** False (a Node stream under backpressure) asks the caller to wait for `'drain'`. */
  write(text: string): unknown;
  isTTY?: boolean;
  /** Its width when it is a terminal (help is wrapped to it). */
  readonly columns?: number;
  /** With `off`: `acp run` waits for `'drain'` (or `'close'`) after a write that returned false. */
  once?(event: 'drain' | 'close', listener: () => void): unknown;
  off?(event: 'drain' | 'close', listener: () => void): unknown;
  /** True once the stream is closed (a reader that went away): nothing will drain any more. */
  readonly destroyed?: boolean;
  /** Drops what is still buffered (a stopped run whose reader never takes it). */
  destroy?(): unknown;
}

/** The command's world. */
export interface CliIo {
  stdout: Output;
  stderr: Output;
  /** Reads all of stdin (for `acp run -`). */
  readStdin(): Promise<string>;
  /** stdin as a stream, read line by line by the line-mode conversation (`TERM=dumb acp`). */
  input?: NodeJS.ReadableStream;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** How to run this `acp` (for the `demo` and `acp-kit` agents). */
  self: LaunchSpec;
  /**
   * Subscribes to what stops the process: SIGINT (Ctrl-C), SIGTERM, SIGHUP (the terminal closed),
   * and SIGPIPE for a stdout whose reader went away. While a handler is subscribed, none of them
   * ends the process by itself: the handler must. Returns the unsubscribe function.
   */
  onSignal(handler: (signal: StopSignal) => void): () => void;
  /** Whether a person is at a terminal (stdin is one): interactive logins can run. */
  interactive?: boolean;
  /**
   * Whether stdin is a pipe or a file a shell gave (`echo … | acp run`, `acp run < prompt.txt`):
   * `acp run` reads it. A socket (another program's default stdio) or a device is not read unasked.
   */
  stdinPiped?: boolean;
}

const LOADER_FLAG = /^(--import|--require|-r|--loader|--experimental-loader)$/;
const KEPT_FLAG = /^(--conditions|-C)$/;

/** A loader specifier that still resolves when the child runs in another directory. */
function absoluteSpecifier(specifier: string): string {
  if (specifier.startsWith('.') || specifier.startsWith('/') || /^[a-z]+:/i.test(specifier)) return specifier;
  try {
    return import.meta.resolve(specifier);
  } catch {
    return specifier;
  }
}

/** Options node needs to run this CLI the same way again (conditions, loaders), not debugging flags. */
function replayableExecArgv(): string[] {
  const out: string[] = [];
  const argv = process.execArgv;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const [flag, inline] = arg.includes('=')
      ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
      : [arg, undefined];
    if (!LOADER_FLAG.test(flag) && !KEPT_FLAG.test(flag)) continue;
    const value = inline ?? argv[++i];
    if (value === undefined) break;
    out.push(`${flag}=${LOADER_FLAG.test(flag) ? absoluteSpecifier(value) : value}`);
  }
  return out;
}

/** How to run this very `acp`: the same node, flags and script. */
export function selfLaunchSpec(): LaunchSpec {
  return { command: process.execPath, args: [...replayableExecArgv(), process.argv[1] as string] };
}

/** Whether the descriptor is a pipe (FIFO) or a regular file. */
function isPipeOrFile(fd: number): boolean {
  try {
    const info = fstatSync(fd);
    return info.isFIFO() || info.isFile();
  } catch {
    return false;
  }
}

const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * The real process's io. With `exitOnBrokenPipe`, a reader that went away (`acp run … | head`)
 * ends the process quietly, like any Unix tool — or, while a command subscribed with `onSignal`,
 * is reported to it as SIGPIPE so it stops what it started first (not for `acp agent`, whose
 * stdout is the protocol channel and handles its own end).
 */
export function processIo(options: { exitOnBrokenPipe?: boolean } = {}): CliIo {
  const handlers = new Set<(signal: StopSignal) => void>();
  const deliver = (signal: StopSignal): void => {
    for (const handler of [...handlers]) handler(signal);
  };
  let pipeBroken = false;
  if (options.exitOnBrokenPipe) {
    process.stdout.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE' && error.code !== 'ERR_STREAM_DESTROYED') return;
      if (handlers.size === 0) process.exit(141);
      if (pipeBroken) return;
      pipeBroken = true;
      deliver('SIGPIPE');
    });
  }
  const onProcessSignal = (signal: NodeJS.Signals): void => deliver(signal as StopSignal);
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    readStdin: async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString('utf8');
    },
    // stdin's stream is made on first use only (most commands never read it).
    get input() {
      return process.stdin;
    },
    env: process.env,
    cwd: process.cwd(),
    self: selfLaunchSpec(),
    get interactive() {
      return process.stdin.isTTY === true;
    },
    get stdinPiped() {
      return isPipeOrFile(0);
    },
    onSignal: (handler) => {
      if (handlers.size === 0) for (const signal of STOP_SIGNALS) process.on(signal, onProcessSignal);
      handlers.add(handler);
      return () => {
        handlers.delete(handler);
        if (handlers.size === 0) for (const signal of STOP_SIGNALS) process.off(signal, onProcessSignal);
      };
    },
  };
}
