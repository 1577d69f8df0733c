/**
 * What a command talks to: output streams, input, environment, signals. Injected so commands can
 * run in-process in tests; `processIo()` is the real thing.
 */
import type { LaunchSpec } from '@acp-kit/client';

/** A place to write text. */
export interface Output {
  write(text: string): unknown;
  isTTY?: boolean;
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
  /** Subscribes to Ctrl-C; returns the unsubscribe function. */
  onInterrupt(handler: () => void): () => void;
  /** Whether a person is at a terminal (stdin is one): interactive logins can run. */
  interactive?: boolean;
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

/**
 * The real process's io. With `exitOnBrokenPipe`, a reader that went away (`acp run … | head`)
 * ends the process quietly, like any Unix tool (not for `acp agent`, whose stdout is the protocol
 * channel and handles its own end).
 */
export function processIo(options: { exitOnBrokenPipe?: boolean } = {}): CliIo {
  if (options.exitOnBrokenPipe) {
    process.stdout.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') process.exit(141);
    });
  }
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    readStdin: async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString('utf8');
    },
    input: process.stdin,
    env: process.env,
    cwd: process.cwd(),
    self: selfLaunchSpec(),
    interactive: process.stdin.isTTY === true,
    onInterrupt: (handler) => {
      process.on('SIGINT', handler);
      return () => process.off('SIGINT', handler);
    },
  };
}
