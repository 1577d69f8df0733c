/**
 * `acp --version` and `acp --help` (`-V`, `-h`): the same program as every other start (main.ts;
 * the version without it, which prints one line), built as one CommonJS file (dist/quick.cjs,
 * scripts/bundle.ts) that bin/acp.cjs requires for exactly these arguments. Node then starts no ES module loader and reads one file instead of
 * five, and the output goes straight to the file descriptors: the stream objects Node makes on
 * the first use of `process.stdout` are made only to ask a terminal its width.
 */
import { fstatSync, writeSync } from 'node:fs';
import { deprecatedEnvWarnings } from './deprecated-env.js';
import type { CliIo, Output } from './io.js';
import { selfLaunchSpec } from './io.js';
import { VERSION } from './version.js';

/** Exit code when the reader of stdout went away (128 + SIGPIPE), as `processIo` exits. */
const BROKEN_PIPE = 141;

/**
 * Whether `fd` is a terminal. Only a character device can be one: a pipe or a file is known
 * without loading node:tty, which loads Node's net and stream modules (~10% of `acp --help`).
 */
function isTerminal(fd: number): boolean {
  try {
    if (!fstatSync(fd).isCharacterDevice()) return false;
  } catch {
    return false;
  }
  return process.getBuiltinModule('node:tty').isatty(fd);
}

/** Writes to `fd` synchronously; the stream `stream()` takes what the fd will not take now. */
function fdOutput(fd: 1 | 2, tty: boolean, stream: () => NodeJS.WriteStream): Output {
  return {
    isTTY: tty,
    get columns() {
      return tty ? stream().columns : undefined;
    },
    write(text: string) {
      let data = Buffer.from(text);
      try {
        while (data.length > 0) data = data.subarray(writeSync(fd, data));
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'EPIPE') process.exit(BROKEN_PIPE);
        // A non-blocking pipe that is full: the stream waits for it.
        if (code === 'EAGAIN') return stream().write(data);
        throw error;
      }
      return true;
    },
  };
}

/** What `--version` and `--help` use of a `CliIo`: two outputs and the environment. */
function quickIo(): CliIo {
  return {
    stdout: fdOutput(1, isTerminal(1), () => process.stdout),
    stderr: fdOutput(2, isTerminal(2), () => process.stderr),
    readStdin: () => Promise.reject(new Error('acp --version and --help read no input')),
    env: process.env,
    cwd: process.cwd(),
    get self() {
      return selfLaunchSpec();
    },
    get interactive() {
      return process.stdin.isTTY === true;
    },
    onSignal: () => () => undefined,
  };
}

async function quick(): Promise<number> {
  const io = quickIo();
  const [flag] = process.argv.slice(2);
  if (flag === '--version' || flag === '-V') {
    // The version needs no program: commander prints this same line (main.test.ts compares them).
    for (const warning of deprecatedEnvWarnings(io.env)) io.stderr.write(`acp: warning: ${warning}\n`);
    io.stdout.write(`${VERSION}\n`);
    return 0;
  }
  const { main } = await import('./main.js');
  return main(process.argv, io);
}

void quick().then((code) => {
  process.exitCode = code;
});
