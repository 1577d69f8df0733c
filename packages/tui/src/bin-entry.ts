/**
 * What the `acp` command needs to start the terminal UI: {@link tuiMain}, which takes the options
 * `acp`'s argument parser produced (`acp [--agent NAME] [--cwd DIR] [--resume ID] [-- CMD ARGS]`)
 * and checks that the terminal can show the UI. This module is small on purpose (`@acp-kit/tui/entry`):
 * what it does before the UI is loaded is on screen sooner (first-frame/early-start.ts).
 */
import type { LaunchSpec } from '@acp-kit/client';
import { drawEarly } from './first-frame/early-draw.js';
import { startDrawnAgent, type EarlyStart } from './first-frame/early-start.js';

export { drawEarly, type EarlyDrawing } from './first-frame/early-draw.js';
export type { EarlyStart } from './first-frame/early-start.js';

/** What the UI is asked to open: `acp`'s root options, already parsed. */
export interface TuiArguments {
  /** A catalog agent to start at once (`--agent NAME`). */
  readonly agent?: string;
  /** Working directory of new sessions (`--cwd DIR`; default: the current one). */
  readonly cwd?: string;
  /** A recorded session to reopen (`--resume ID`). */
  readonly resume?: string;
  /** An agent command to start at once (`acp -- CMD ARGS`). */
  readonly command?: readonly string[];
  /** A remote agent to connect to at once (`acp --url URL`). */
  readonly url?: string;
  /** Speak this ACP version only (`--protocol 1|2`; default: 2 when the agent speaks it, else 1). */
  readonly protocol?: 1 | 2;
}

/** What {@link tuiMain} needs from the process. */
export interface TuiMainIo {
  /** How to run `acp` itself (for the `demo` and `acp-kit` catalog agents). */
  readonly self?: LaunchSpec;
  readonly env?: NodeJS.ProcessEnv;
  readonly stdin?: NodeJS.ReadStream;
  readonly stdout?: NodeJS.WriteStream;
  readonly stderr?: NodeJS.WriteStream;
}

/**
 * Why the UI cannot run on this terminal, as `acp: …` and `hint: …` lines, or undefined when it can:
 * it needs a terminal on stdin and stdout, and one that can move the cursor (not `TERM=dumb`).
 */
export function terminalProblem(
  env: NodeJS.ProcessEnv,
  stdin: { isTTY?: boolean },
  stdout: { isTTY?: boolean },
): string | undefined {
  if (env.TERM === 'dumb')
    return (
      'acp: the terminal UI cannot draw on a dumb terminal (TERM=dumb)\n' +
      'hint: run `acp`, which talks in plain lines on a dumb terminal, or `acp run` for one prompt\n'
    );
  if (!stdin.isTTY || !stdout.isTTY)
    return (
      'acp: the terminal UI needs a terminal\n' +
      'hint: use `acp run` for scripts and pipes (see `acp run --help`)\n'
    );
  return undefined;
}

/**
 * Runs the UI for `args`; resolves with the exit code (2 when the terminal cannot show it).
 *
 * @example
 * process.exitCode = await tuiMain({ agent: 'demo' }, { self: selfLaunchSpec() });
 */
export async function tuiMain(args: TuiArguments, io: TuiMainIo = {}): Promise<number> {
  const stderr = io.stderr ?? process.stderr;
  const stdin = io.stdin ?? process.stdin;
  const stdout = io.stdout ?? process.stdout;
  const problem = terminalProblem(io.env ?? process.env, stdin, stdout);
  if (problem) {
    stderr.write(problem);
    return 2;
  }
  const env = io.env ?? process.env;
  const drawing = await drawEarly(args, { env, stdin, stdout, ...(io.self ? { self: io.self } : {}) });
  return runStartedTui(args, await startDrawnAgent(drawing), io);
}

/**
 * The rest of {@link tuiMain} once its first frame is drawn and its agent started (what the
 * installed `acp` does from its CommonJS start, then `@acp-kit/tui/early-start`): loads and runs
 * the UI, which replaces the drawing.
 */
export async function runStartedTui(
  args: TuiArguments,
  early: EarlyStart,
  io: TuiMainIo = {},
): Promise<number> {
  const { runTui } = await import('./app/run-tui.js');
  return runTui({
    ...args,
    early,
    ...(io.self ? { self: io.self } : {}),
    ...(io.env ? { env: io.env } : {}),
    stdin: io.stdin ?? process.stdin,
    stdout: io.stdout ?? process.stdout,
    stderr: io.stderr ?? process.stderr,
  });
}
