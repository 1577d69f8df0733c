/**
 * Registers `acp check` (the conformance checker) and `acp replay` (a recorded trace as a fake
 * agent). Their implementations load only when they run, like every command's.
 */
import type { Command } from 'commander';
import type { CheckOptions } from './commands/check.js';
import type { ReplayOptions } from './commands/replay.js';
import * as help from './help-text.js';
import type { CliIo } from './io.js';
import { addFormatOptions, outputFormat, type FormatOptions } from './output-format.js';

const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

export function registerCheck(
  program: Command,
  tail: readonly string[] | undefined,
  noTail: () => void,
  done: (code: number) => void,
  io: CliIo,
): void {
  addFormatOptions(
    program
      .command('check')
      .description(
        'Check an ACP agent against the protocol: acp check --agent NAME | --url URL | -- CMD ARGS…',
      )
      .option('--agent <name>', 'catalog agent to check (see `acp agents`)')
      .option('--url <url>', 'remote agent to check (http(s)://…/acp, as acp serve prints)')
      .option('--offline', 'run only the checks that need no model turn')
      .option(
        '--only <names>',
        'run only these checks (names or prefixes such as errors.; repeatable)',
        collect,
      )
      .option('--skip <names>', 'leave out these checks (repeatable)', collect)
      .option('--cwd <dir>', "the agent's working directory (default: a scratch directory, removed after)")
      .option('--prompt <text>', 'the prompt of the turn checks (default: create a small file, then reply)')
      .option('--timeout <seconds>', 'how long one turn may take (default 120)')
      .option('--verbose', 'show the rule of every check, not only of failures and warnings')
      .option(
        '--client',
        'be the agent of a client under test: give `acp check --client` as its agent command',
      )
      .option('--report <file>', 'with --client: where to write the JSON report (default: a temp file)'),
  )
    .addHelpText('after', help.CHECK_HELP)
    .action(async (options: Omit<CheckOptions, 'format'> & FormatOptions) => {
      const { checkCommand } = await import('./commands/check.js');
      done(await checkCommand(tail, { ...options, format: outputFormat(options) }, io));
    });

  program
    .command('replay')
    .description('Serve a recorded trace as a fake agent on stdin/stdout and report where the client left it')
    .argument('<file>', "a session's trace.jsonl, or the file of acp proxy trace")
    .option('--report <file>', 'also write the report as JSON to this file')
    .addHelpText('after', help.REPLAY_HELP)
    .action(async (file: string, options: ReplayOptions) => {
      noTail();
      const { replayCommand } = await import('./commands/replay.js');
      done(await replayCommand(file, options, io));
    });
}
