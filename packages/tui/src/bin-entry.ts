/**
 * What the `acp` command needs to start the terminal UI: argument parsing for `acp`,
 * `acp --agent NAME`, `acp -- CMD ARGS`, `--cwd DIR` and `--resume ID`, and {@link tuiMain}.
 */
import type { LaunchSpec } from '@acp-kit/client';
import { runTui, type TuiOptions } from './app/run-tui.js';

/** Usage of the terminal UI's arguments. */
export const TUI_USAGE = `usage: acp [--agent NAME] [--cwd DIR] [--resume ID] [-- COMMAND [ARGS…]]

Opens the terminal UI. Without --agent or a command, an agent picker opens (the demo agent is on d).
  --agent NAME   start this catalog agent (see \`acp agents\`)
  --cwd DIR      working directory of new sessions (default: the current one)
  --resume ID    reopen a recorded session (local id, unique prefix, or the agent's session id)
  -- CMD ARGS    start this command as the agent
`;

/** Parses the UI's arguments (after `acp`). */
export function parseTuiArgs(
  args: readonly string[],
): { readonly options: TuiOptions } | { readonly error: string } {
  const split = args.indexOf('--');
  const head = split >= 0 ? args.slice(0, split) : args;
  const command = split >= 0 ? args.slice(split + 1) : undefined;
  const options: { agent?: string; cwd?: string; resume?: string; command?: readonly string[] } = {};
  for (let i = 0; i < head.length; i++) {
    const arg = head[i] as string;
    const [flag, inline] =
      arg.startsWith('--') && arg.includes('=')
        ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
        : [arg, undefined];
    if (flag !== '--agent' && flag !== '--cwd' && flag !== '--resume')
      return { error: `unknown argument ${arg}` };
    const value = inline ?? head[++i];
    if (value === undefined || value === '') return { error: `${flag} needs a value` };
    options[flag.slice(2) as 'agent' | 'cwd' | 'resume'] = value;
  }
  if (command !== undefined) {
    if (command.length === 0) return { error: 'a command is needed after --' };
    if (options.agent !== undefined) return { error: 'give either --agent or a command after --, not both' };
    options.command = command;
  }
  return { options };
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
 * Parses `args` and runs the UI; resolves with the exit code (2 for bad usage or no terminal).
 *
 * @example
 * process.exitCode = await tuiMain(process.argv.slice(2), { self: selfLaunchSpec() });
 */
export async function tuiMain(args: readonly string[], io: TuiMainIo = {}): Promise<number> {
  const stderr = io.stderr ?? process.stderr;
  const parsed = parseTuiArgs(args);
  if ('error' in parsed) {
    stderr.write(`acp: ${parsed.error}\n${TUI_USAGE}`);
    return 2;
  }
  const stdin = io.stdin ?? process.stdin;
  const stdout = io.stdout ?? process.stdout;
  if (!stdin.isTTY || !stdout.isTTY) {
    stderr.write('acp: the terminal UI needs a terminal; use `acp run` for scripts and pipes\n');
    return 2;
  }
  return runTui({
    ...parsed.options,
    ...(io.self ? { self: io.self } : {}),
    ...(io.env ? { env: io.env } : {}),
    stdin,
    stdout,
    stderr: io.stderr ?? process.stderr,
  });
}
