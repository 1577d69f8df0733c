/**
 * The start of `acp` when its arguments may open the terminal UI (none, or options first: bin/acp.cjs
 * sends those here): the same program (main.ts) built as one CommonJS file, dist/start.cjs, that
 * bin/acp.cjs runs with V8's code cache kept beside it. For the UI it draws the first frame
 * (`drawEarly`: settings, catalog, the screen) before any chunk of the bundle is loaded, then loads
 * the UI's entry (after-frame.ts, dist/after-frame.cjs in the bundle's chunks), which starts the
 * agent and takes the drawing over. Everything else (a command, an error to report, line mode)
 * needs modules this file does not hold (scripts/bundle.ts makes importing one throw
 * `ACP_NOT_BUNDLED`): the whole program is then run again by the bundle's entry (dist/cli.cjs), so
 * the argument parser decides, and what it would have written on stderr here is dropped, as the
 * run there writes it.
 */
import { join } from 'node:path';
import { drawEarly, terminalProblem, type EarlyDrawing, type TuiArguments } from '@acp-kit/tui/entry';
import type { AfterFrame } from './after-frame.js';
import { processIo, type CliIo, type Output } from './io.js';
import { isDumbTerminal, main, type TerminalUi } from './main.js';

/** How this file loads a chunk of the bundle (a path): bin/acp.cjs's loader, with its code cache. */
export type LoadChunk = (file: string) => Promise<unknown>;

/**
 * Called once this file's own work is done, before any chunk loads: bin/acp.cjs then writes the
 * code cache of this file (if it is to write one), loads the built-in modules the UI uses and sets
 * the V8 flags it runs with, so that the chunks are read, and their code caches made, under those
 * flags (V8 rejects a cache made under others; after a flag changes it also rejects the code
 * cache Node keeps for its built-in modules, hence those first: docs/performance.md, "The ninth
 * round" and "The twelfth round").
 */
export type LeaveStart = () => void;

/** What scripts/bundle.ts makes an import of a module outside this file throw. */
export const NOT_BUNDLED = 'ACP_NOT_BUNDLED';

/** Thrown to have the bundle's entry run the program instead (see {@link NOT_BUNDLED}). */
function handOver(why: string): Error {
  return Object.assign(new Error(`acp: ${why} is not part of dist/start.cjs`), { code: NOT_BUNDLED });
}

const isHandOver = (error: unknown): boolean => (error as { code?: unknown } | null)?.code === NOT_BUNDLED;

/** stderr, held until this file is sure to run the program to its end (see {@link start}). */
function heldOutput(target: Output): Output & { release(): void; drop(): void } {
  let held: string[] | undefined = [];
  return {
    get isTTY() {
      return target.isTTY;
    },
    get columns() {
      return target.columns;
    },
    write(text: string) {
      if (held) held.push(text);
      else return target.write(text);
      return true;
    },
    release() {
      const texts = held ?? [];
      held = undefined;
      for (const text of texts) target.write(text);
    },
    drop() {
      held = undefined;
    },
  };
}

/**
 * The UI from here: draws its first frame, then loads the rest from the chunks. Before the drawing,
 * what only the bundle's entry can do (line mode, the error of a missing terminal) hands over.
 */
function terminalUi(
  dist: string,
  loadChunk: LoadChunk,
  leaveStart: LeaveStart,
  release: () => void,
): TerminalUi {
  return async (args: TuiArguments, io: CliIo) => {
    if (isDumbTerminal(io.env)) throw handOver('line mode');
    if (!io.interactive || !io.stdout.isTTY) throw handOver("the missing terminal's error");
    release();
    const problem = terminalProblem(io.env, process.stdin, process.stdout);
    if (problem) {
      io.stderr.write(problem);
      return 2;
    }
    let drawing: EarlyDrawing | undefined;
    try {
      drawing = await drawEarly(args, {
        env: io.env,
        stdin: process.stdin,
        stdout: process.stdout,
        self: io.self,
      });
    } catch {
      // The UI's own start meets the same problem and reports it (after-frame.ts).
    }
    leaveStart();
    const file = join(dist, 'after-frame.cjs');
    let afterFrame: AfterFrame;
    try {
      ({ afterFrame } = (await loadChunk(file)) as { afterFrame: AfterFrame });
    } catch (error) {
      // Not handed over: the drawing is on screen. An installation without its chunks.
      io.stderr.write(`acp: cannot load the terminal UI (${file}): ${(error as Error).message}\n`);
      return 1;
    }
    return afterFrame(args, drawing, io);
  };
}

/**
 * Runs `acp` with the process's arguments; resolves when the program's end is set as the exit code
 * (or handed to the bundle's entry, which sets it). `dist` is the bundle's directory.
 */
export async function start(
  loadChunk: LoadChunk,
  leaveStart: LeaveStart = () => undefined,
  dist: string = __dirname,
): Promise<void> {
  const listening = process.stdout.listeners('error');
  const base = processIo({ exitOnBrokenPipe: true });
  // Its end on a broken pipe, which dist/cli.cjs's io installs again when the program goes there.
  const brokenPipe = process.stdout.listeners('error').filter((listener) => !listening.includes(listener));
  const stderr = heldOutput(base.stderr);
  // The process's io with stderr held; its getters (stdin, made on first use) stay getters.
  const io = Object.create(base, { stderr: { value: stderr, enumerable: true } }) as CliIo;
  try {
    process.exitCode = await main(
      process.argv,
      io,
      terminalUi(dist, loadChunk, leaveStart, () => stderr.release()),
    );
    stderr.release();
  } catch (error) {
    if (!isHandOver(error)) throw error;
    stderr.drop();
    for (const listener of brokenPipe) process.stdout.off('error', listener as (error: Error) => void);
    // The bundle's program runs with the UI's flags from its start, as before this hand-over.
    leaveStart();
    await loadChunk(join(dist, 'cli.cjs'));
  }
}
