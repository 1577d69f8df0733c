/**
 * The `acp` command line.
 */
import { Command, CommanderError, Option } from 'commander';
import { registerAgentCommand } from './commands/agent.js';
import type { AddAgentOptions } from './commands/agents.js';
import type { AddRuleOptions } from './commands/rules.js';
import type { RunOptions } from './commands/run.js';
import { EXIT_CODES, UsageError } from './exit-status.js';
import { processIo, type CliIo } from './io.js';
import { VERSION } from './version.js';

// Command implementations are imported when their command runs: `acp --version` and `--help`
// load neither the client engine nor the agent (see scripts/bundle.test.ts).
const commands = {
  run: () => import('./commands/run.js'),
  sessions: () => import('./commands/sessions.js'),
  agents: () => import('./commands/agents.js'),
  rules: () => import('./commands/rules.js'),
};

const RUN_HELP = `
The prompt is an argument, or - to read it from stdin. The agent is a catalog name (--agent, see
\`acp agents\`) or a command given after --, e.g.:
  acp run --agent demo "hello"
  acp run --format json "summarise README.md" -- my-agent --acp
  git diff | acp run --agent claude -

Permissions: nobody can answer a prompt, so what the policy does not allow is denied.
  --approve reads  (default) reads inside the working directory are allowed, the rest denied
  --approve all    everything the agent asks inside the working directory is allowed
  --approve none   every permission request is denied
Secret-looking files, paths outside the working directory and loader variables (LD_PRELOAD…) are
denied unless a rule names them. Saved rules (\`acp rules\`) and --policy FILE apply on top: their
deny rules always win, their allow rules apply except under --approve none.

Output: text puts the agent's message on stdout and tool calls, plans and permission decisions on
stderr. json prints one object per line: {"type":"update","update":{…}} for every session/update
as received, "permission" decisions, and a last {"type":"result","stopReason":…} line.

Exit codes: 0 end_turn, 1 other error, 2 bad usage, 3 refusal, 4 cancelled, 5 max_tokens or
max_turn_requests, 6 authentication required, 7 agent crashed, 8 agent unavailable (unknown, not
installed, failed to start), 130 killed by a second Ctrl-C. Ctrl-C cancels the turn; a second one
stops the agent.`;

/**
 * Runs `acp` with `argv` (as in `process.argv`) and resolves with the exit code.
 *
 * @example
 * process.exitCode = await main(process.argv);
 */
export async function main(
  argv: readonly string[],
  io: CliIo = processIo(),
  ui: (args: readonly string[], io: CliIo) => Promise<number> = runTerminalUi,
): Promise<number> {
  const args = argv.slice(2);
  const split = args.indexOf('--');
  const head = split >= 0 ? args.slice(0, split) : args;
  const tail = split >= 0 ? args.slice(split + 1) : undefined;
  if (isTerminalUiInvocation(head)) return ui(args, io);
  let exitCode: number = EXIT_CODES.OK;
  const program = buildProgram(io, tail, (code) => {
    exitCode = code;
  });
  try {
    await program.parseAsync(head, { from: 'user' });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT_CODES.OK : EXIT_CODES.USAGE;
    if (error instanceof UsageError) {
      io.stderr.write(`acp: ${error.message}\n`);
      return EXIT_CODES.USAGE;
    }
    const [{ describeError }, { exitCodeForError }] = await Promise.all([
      import('@acp-kit/client'),
      import('./exit-codes.js'),
    ]);
    io.stderr.write(`acp: ${describeError(error)}\n`);
    return exitCodeForError(error);
  }
}

const TUI_FLAGS = /^--(agent|cwd|resume)(=|$)/;

/** `acp`, `acp --agent NAME`, `acp --cwd DIR`, `acp --resume ID` and `acp -- CMD…` open the terminal UI. */
export function isTerminalUiInvocation(head: readonly string[]): boolean {
  return head.length === 0 || TUI_FLAGS.test(head[0] as string);
}

/** Loads the terminal UI only when it is used, so `acp run` and `acp agent` start without React. */
async function runTerminalUi(args: readonly string[], io: CliIo): Promise<number> {
  if (!process.stdin.isTTY || !process.stdout.isTTY) {
    io.stderr.write(
      'acp: the terminal UI needs a terminal; use `acp run` for scripts and pipes (see `acp --help`)\n',
    );
    return EXIT_CODES.USAGE;
  }
  const { tuiMain } = await import('@acp-kit/tui');
  return tuiMain(args, { self: io.self, env: io.env });
}

/** The commander program (exported for help-text tests and documentation). */
export function buildProgram(
  io: CliIo,
  tail: readonly string[] | undefined,
  done: (code: number) => void,
): Command {
  const noTail = (): void => {
    if (tail) throw new UsageError('this command takes no arguments after --');
  };
  const program = new Command('acp')
    .description(
      'The terminal client for every ACP agent. Without a command, `acp [--agent NAME] [--cwd DIR] [--resume ID] [-- CMD ARGS…]` opens the terminal UI; the commands below run agents headless, manage the agent catalog, sessions and permission rules, or serve the acp-kit agent.',
    )
    .version(VERSION)
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.stdout.write(s), writeErr: (s) => io.stderr.write(s) })
    .showSuggestionAfterError();

  program
    .command('run')
    .description('Run one prompt turn with an agent (or continue a session), headless')
    .argument('[prompt]', 'the prompt, or - to read it from stdin')
    .option('--agent <name>', 'catalog agent to run (default: the default agent)')
    .option('--cwd <dir>', 'working directory of the session (default: the current one)')
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'json']).default('text'))
    .addOption(
      new Option('--approve <mode>', 'what to allow without asking')
        .choices(['all', 'reads', 'none'])
        .default('reads'),
    )
    .option('--policy <file>', 'extra permission rules (same format as rules.json)')
    .option('--session <id>', 'continue a stored session (local id, prefix, or agent session id)')
    .option(
      '--file <path>',
      'attach a file to the prompt (repeatable)',
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .option('--stall <seconds>', 'report a turn without agent traffic for this long (default 60)')
    .option('--verbose', "show the agent's stderr, thoughts and protocol diagnostics on stderr")
    .option(
      '--auth <method>',
      'authenticate with this agent auth method first (see the methods an auth error lists): terminal logins run here when stdin is a terminal; a method that takes an API key reads it from ACP_KIT_AUTH_API_KEY',
    )
    .addHelpText('after', RUN_HELP)
    .action(async (prompt: string | undefined, options: RunOptions) =>
      done(await (await commands.run()).runCommand(prompt, tail, options, io)),
    );

  const sessions = program.command('sessions').description('List, show and delete the sessions acp recorded');
  sessions
    .command('list', { isDefault: true })
    .description('List recorded sessions, or with --agent the sessions that agent lists (session/list)')
    .option('--agent <name>', "list this agent's own sessions instead")
    .option('--cwd <dir>', 'with --agent: the working directory to list sessions for')
    .option('--json', 'print JSON')
    .action(async (options: { agent?: string; json?: boolean; cwd?: string }) => {
      noTail();
      done(await (await commands.sessions()).listSessions(options, io));
    });
  sessions
    .command('show')
    .description('Print a recorded session')
    .argument('<id>', 'local id, unique prefix, or agent session id')
    .option('--json', 'print the meta and every recorded event as JSON')
    .action(async (id: string, options: { json?: boolean }) => {
      noTail();
      done(await (await commands.sessions()).showSession(id, options, io));
    });
  sessions
    .command('delete')
    .description('Delete a recorded session (transcript and trace)')
    .argument('<id>', 'local id, unique prefix, or agent session id')
    .option('--remote', 'also delete it at the agent (session/delete), when the agent can')
    .action(async (id: string, options: { remote?: boolean }) => {
      noTail();
      done(await (await commands.sessions()).deleteSession(id, options, io));
    });

  const agents = program
    .command('agents')
    .description('The agent catalog: built-in agents, your own, and registry imports');
  agents
    .command('list', { isDefault: true })
    .description('List agents and whether they are installed')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }) => {
      noTail();
      done(await (await commands.agents()).listAgents(options, io));
    });
  agents
    .command('add')
    .description(
      'Add an agent: acp agents add NAME [options] -- COMMAND [ARGS…], or import: acp agents add --registry FILE|URL [ID…]',
    )
    .argument('[names...]', 'the agent name (or registry ids with --registry)')
    .option('--name <display>', 'display name')
    .option('--description <text>', 'description')
    .option(
      '--env <NAME=VALUE>',
      'environment variable for the agent (repeatable)',
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .option('--cwd <dir>', 'working directory of the agent process')
    .option('--default', 'make it the default agent of acp run')
    .option(
      '--registry <source>',
      'import from an ACP registry JSON file or URL (e.g. https://cdn.agentclientprotocol.com/registry/v1/latest/registry.json)',
    )
    .action(async (names: string[], options: AddAgentOptions) =>
      done(await (await commands.agents()).addAgent(names, tail, options, io)),
    );
  agents
    .command('remove')
    .description('Remove one of your agents')
    .argument('<name>')
    .action(async (name: string) => {
      noTail();
      done(await (await commands.agents()).removeAgent(name, io));
    });

  const rules = program.command('rules').description('Saved permission rules, applied across agents');
  rules
    .command('list', { isDefault: true })
    .description('List saved rules')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }) => {
      noTail();
      done(await (await commands.rules()).listRules(options, io));
    });
  rules
    .command('add')
    .description('Add a rule: one action and any conditions (all must match)')
    .option('--allow', 'allow what matches')
    .option('--deny', 'deny what matches (deny rules win)')
    .option('--ask', 'always ask about what matches (denied when nobody can answer)')
    .option('--agent <name>', 'only for this agent')
    .option(
      '--kind <kinds>',
      'tool kinds, comma-separated: read, edit, delete, move, search, execute, think, fetch, switch_mode, other',
    )
    .option(
      '--path <glob>',
      'path glob, absolute or relative to the project (every path involved must match)',
    )
    .option(
      '--command <prefix>',
      'command prefix, a simple command such as "git status" (never matches ; | && $() …)',
    )
    .option('--project [dir]', 'only in this project directory (default: the current one)')
    .option('--note <text>', 'a note for yourself')
    .action(async (options: AddRuleOptions) => {
      noTail();
      done(await (await commands.rules()).addRule(options, io));
    });
  rules
    .command('remove')
    .description('Remove a rule by id (or unique id prefix)')
    .argument('<id>')
    .action(async (id: string) => {
      noTail();
      done(await (await commands.rules()).removeRule(id, io));
    });

  registerAgentCommand(program, noTail, done);
  return program;
}
