/**
 * The `acp` command line: one commander program. Without a command it opens the terminal UI, whose
 * options are the root command's; every command's implementation is imported by its action, so
 * `acp --version` and `acp --help` load commander and a few small modules only.
 */
import { Argument, Command, CommanderError, Option } from 'commander';
import type { TuiArguments } from '@acp-kit/tui';
import type { AddAgentOptions } from './commands/agents.js';
import type { DoctorOptions } from './commands/doctor.js';
import type { AddRuleOptions } from './commands/rules.js';
import type { RunOptions } from './commands/run.js';
import type { ServeOptions } from './commands/serve.js';
import { deprecatedEnvWarnings } from './deprecated-env.js';
import { EXIT_CODES, UsageError } from './exit-codes.js';
import * as help from './help-text.js';
import { processIo, type CliIo } from './io.js';
import { registerChain } from './register-chain.js';
import { registerCheck } from './register-check.js';
import { rejectUnknownSubcommands, unknownCommand } from './unknown-command.js';
import { addFormatOptions, outputFormat, type FormatOptions } from './output-format.js';
import { VERSION } from './version.js';

/** Opens the terminal UI (or its line mode) with parsed options; injectable for tests. */
export type TerminalUi = (args: TuiArguments, io: CliIo) => Promise<number>;

/**
 * Runs `acp` with `argv` (as in `process.argv`) and resolves with the exit code.
 *
 * @example
 * process.exitCode = await main(process.argv);
 */
export async function main(
  argv: readonly string[],
  io: CliIo = processIo(),
  ui: TerminalUi = openTerminalUi,
): Promise<number> {
  const args = argv.slice(2);
  // Everything after the first `--` is an agent command (`acp -- CMD`, `acp run "…" -- CMD`).
  const split = args.indexOf('--');
  const head = split >= 0 ? args.slice(0, split) : args;
  const tail = split >= 0 ? args.slice(split + 1) : undefined;
  for (const warning of deprecatedEnvWarnings(io.env)) io.stderr.write(`acp: warning: ${warning}\n`);
  let exitCode: number = EXIT_CODES.OK;
  let failing = '';
  const program = await buildProgram(io, tail, (code) => (exitCode = code), ui, commandOf(head));
  forEachCommand(program, (command) =>
    command.configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
      // Parse errors are reported below, in the one error style, naming the command that failed.
      outputError: () => (failing = commandPath(command)),
      // Asked of the io, not of process.stdout: `acp --help` need not create Node's stream objects.
      getOutHelpWidth: () => (io.stdout.isTTY && io.stdout.columns) || 80,
      getErrHelpWidth: () => (io.stderr.isTTY && io.stderr.columns) || 80,
      // The help texts are plain (help-text.ts): nothing to strip, whatever the terminal.
      getOutHasColors: () => false,
      getErrHasColors: () => false,
    }),
  );
  program.hook('preAction', (_program, action) => {
    failing = commandPath(action);
  });
  try {
    await program.parseAsync(head, { from: 'user' });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError && error.exitCode === 0) return EXIT_CODES.OK;
    const { reportError } = await import('./errors.js');
    return reportError(error, io, failing ? { command: failing } : {});
  }
}

/** The command word of `acp`'s arguments (`run`, `agent`…), skipping the root's own options. */
function commandOf(head: readonly string[]): string | undefined {
  for (let i = 0; i < head.length; i++) {
    const word = head[i] as string;
    if (/^--(agent|cwd|resume|url)$/.test(word)) i++;
    else if (!word.startsWith('-')) return word === 'help' ? head[i + 1] : word;
  }
  return undefined;
}

function commandPath(command: Command): string {
  const names: string[] = [];
  for (let at: Command | null = command; at?.parent; at = at.parent) names.unshift(at.name());
  return names.join(' ');
}

function forEachCommand(command: Command, visit: (command: Command) => void): void {
  visit(command);
  for (const child of command.commands) forEachCommand(child, visit);
}

/** `TERM=dumb`: no cursor movement, no box drawing (Emacs `M-x shell`, some CI consoles). */
export function isDumbTerminal(env: NodeJS.ProcessEnv): boolean {
  return env.TERM === 'dumb';
}

/** The UI, loaded only when it runs; on a dumb terminal, the line-mode conversation. */
async function openTerminalUi(args: TuiArguments, io: CliIo): Promise<number> {
  if (isDumbTerminal(io.env)) {
    const { lineMode } = await import('./commands/line-mode.js');
    return lineMode(args, io);
  }
  if (!io.interactive || !io.stdout.isTTY) {
    throw new UsageError('the terminal UI needs a terminal', {
      hint: 'use `acp run` for scripts and pipes, or TERM=dumb acp for a plain line-by-line conversation',
    });
  }
  // The UI's small entry: it draws the first frame and starts the agent before loading the rest.
  const { tuiMain } = await import('@acp-kit/tui/entry');
  return tuiMain(args, { self: io.self, env: io.env });
}

/** `--protocol 1|2`, for the commands that start an agent (`acp`, `acp run`). */
function protocolFlag(): Option {
  return new Option(
    '--protocol <version>',
    'speak this ACP version only: 1 or 2 (default: 2 when the agent answers 2, else 1)',
  ).choices(['1', '2']);
}

/** Options of the root command (the UI's). */
interface RootOptions {
  agent?: string;
  cwd?: string;
  resume?: string;
  url?: string;
  protocol?: string;
}

/**
 * The commander program (exported for help-text tests, completion and documentation). `command`
 * is the command about to run: `acp agent`'s options come from the agent package, which is
 * imported only when that command (or the full tree, for completion) is needed.
 */
export async function buildProgram(
  io: CliIo,
  tail: readonly string[] | undefined,
  done: (code: number) => void,
  ui: TerminalUi = openTerminalUi,
  command?: string,
): Promise<Command> {
  const noTail = (): void => {
    if (tail) throw new UsageError('this command takes no arguments after --');
  };
  const program = new Command('acp')
    .description(
      'The terminal client for every ACP agent: the terminal UI, headless runs, the agent catalog, sessions and permission rules, and the acp-kit agent.',
    )
    .usage(
      '[--agent NAME | --url URL] [--cwd DIR] [--resume ID] [-- AGENT-COMMAND [ARGS…]]\n       acp <command> [options]',
    )
    .version(VERSION)
    .exitOverride()
    .enablePositionalOptions()
    .showSuggestionAfterError()
    // With a root action commander would not add `acp help COMMAND` by itself.
    .helpCommand(true)
    .option('--agent <name>', 'open the UI on this catalog agent (see `acp agents`)')
    .option(
      '--url <url>',
      'open the UI on a remote agent (acp serve, or any ACP endpoint); its token comes from ACP_KIT_REMOTE_TOKEN',
    )
    .option('--cwd <dir>', 'working directory of new sessions (default: the current one)')
    .option(
      '--resume <id>',
      "reopen a recorded session (local id, unique prefix, or the agent's session id) with its agent, or with --agent / a command instead",
    )
    .addOption(protocolFlag())
    .argument('[agent-command...]', 'after --: start this command as the agent (acp -- node my-agent.mjs)')
    .addHelpText('after', help.ROOT_HELP)
    .action(async (words: string[], options: RootOptions) => {
      if (words.length > 0) unknownCommand(program, words[0] as string);
      if (tail !== undefined && tail.length === 0)
        throw new UsageError('a command is needed after --', { hint: 'acp -- COMMAND [ARGS…]' });
      if (options.agent !== undefined && tail)
        throw new UsageError('give either --agent NAME or a command after --, not both');
      if (options.url !== undefined && (options.agent !== undefined || tail))
        throw new UsageError('give one agent: --url URL, --agent NAME or a command after --');
      if (options.url !== undefined && !/^https?:\/\/[^/\s]+/i.test(options.url))
        throw new UsageError(
          `--url needs an http:// or https:// address, not "${options.url.slice(0, 200)}"`,
          {
            hint: 'e.g. acp --url http://127.0.0.1:8765/acp (what acp serve prints)',
          },
        );
      const { protocol, ...rest } = options;
      const version = protocol === undefined ? undefined : protocol === '1' ? 1 : 2;
      done(
        await ui(
          { ...rest, ...(version ? { protocol: version } : {}), ...(tail ? { command: tail } : {}) },
          io,
        ),
      );
    });
  program.hook('preSubcommand', () => {
    const given = (['agent', 'cwd', 'resume', 'url', 'protocol'] as const).filter(
      (name) => program.opts()[name] !== undefined,
    );
    if (given.length > 0)
      throw new UsageError(`--${given[0]} before a command belongs to the terminal UI`, {
        hint: 'put the option after the command name, e.g. acp run --agent demo "hello"',
      });
  });

  const run = program
    .command('run')
    .description('Run one prompt turn with an agent (or continue a session), headless')
    .argument('[prompt]', 'the prompt, or - to read it from stdin')
    .option('--agent <name>', "catalog agent to run (default: the session's agent, else the default agent)")
    .option(
      '--url <url>',
      'a remote agent (acp serve, or any ACP endpoint); its token comes from ACP_KIT_REMOTE_TOKEN',
    )
    .option('--cwd <dir>', 'working directory of the session (default: the current one)');
  addFormatOptions(run, ['text', 'json'], 'output format: text, or json (one object per line)')
    .addOption(
      new Option('--approve <mode>', 'what to allow without asking')
        .choices(['all', 'reads', 'none'])
        .default('reads'),
    )
    .option('--policy <file>', 'extra permission rules (same format as rules.json)')
    .option('--session <id>', 'continue a recorded session (local id, prefix, or agent session id)')
    .option('--file <path>', 'attach a file to the prompt (repeatable)', collect)
    .option('--stall <seconds>', 'report a turn without agent traffic for this long (default 60)')
    .option('--verbose', "show the agent's stderr, thoughts and protocol diagnostics on stderr")
    .addOption(protocolFlag())
    .option(
      '--auth <method>',
      'authenticate with this agent auth method first (see the methods an auth error lists): terminal logins run here when stdin is a terminal; a method that takes an API key reads it from ACP_KIT_AUTH_API_KEY',
    )
    .addHelpText('after', help.RUN_HELP)
    .action(async (prompt: string | undefined, options: RunOptions & FormatOptions) => {
      const { runCommand } = await import('./commands/run.js');
      done(await runCommand(prompt, tail, { ...options, format: outputFormat(options) }, io));
    });

  const sessions = rejectUnknownSubcommands(
    program
      .command('sessions')
      .description('List, show and delete the sessions acp recorded')
      .addHelpText('after', help.SESSIONS_HELP),
  );
  addFormatOptions(
    sessions
      .command('list', { isDefault: true })
      .description('List recorded sessions, or with --agent the sessions that agent lists (session/list)')
      .option('--all', 'also list sessions without a turn (the UI opened and closed)')
      .option('--agent <name>', "list this agent's own sessions instead")
      .option('--cwd <dir>', 'with --agent: the working directory to list sessions for'),
  )
    .addHelpText('after', help.SESSIONS_LIST_HELP)
    .action(async (options: { agent?: string; cwd?: string; all?: boolean } & FormatOptions) => {
      noTail();
      const { listSessions } = await import('./commands/sessions.js');
      done(await listSessions({ ...options, format: outputFormat(options) }, io));
    });
  addFormatOptions(
    sessions
      .command('show')
      .description('Print a recorded session')
      .argument('<id>', 'local id, unique prefix, or agent session id'),
    ['text', 'json'],
    'output format: text, or json (the meta and every recorded event)',
  )
    .addHelpText('after', help.SESSIONS_SHOW_HELP)
    .action(async (id: string, options: FormatOptions) => {
      noTail();
      const { showSession } = await import('./commands/sessions.js');
      done(await showSession(id, { format: outputFormat(options) }, io));
    });
  sessions
    .command('delete')
    .description('Delete a recorded session (transcript and trace)')
    .argument('<id>', 'local id, unique prefix, or agent session id')
    .option('--remote', 'also delete it at the agent (session/delete), when the agent can')
    .addHelpText('after', help.SESSIONS_DELETE_HELP)
    .action(async (id: string, options: { remote?: boolean }) => {
      noTail();
      const { deleteSession } = await import('./commands/sessions.js');
      done(await deleteSession(id, options, io));
    });

  const agents = rejectUnknownSubcommands(
    program
      .command('agents')
      .description('The agent catalog: built-in agents, your own, and registry imports')
      .addHelpText('after', help.AGENTS_HELP),
  );
  addFormatOptions(
    agents.command('list', { isDefault: true }).description('List agents and whether they are installed'),
    ['text', 'json', 'names'],
    'output format: text, json, or names (one per line)',
  )
    .addHelpText('after', help.AGENTS_LIST_HELP)
    .action(async (options: FormatOptions) => {
      noTail();
      const { listAgents } = await import('./commands/agents.js');
      done(await listAgents({ format: outputFormat(options) }, io));
    });
  agents
    .command('add')
    .description(
      'Add an agent: acp agents add NAME [options] -- COMMAND [ARGS…], or import: acp agents add --registry FILE|URL [ID…]',
    )
    .argument('[names...]', 'the agent name (or registry ids with --registry)')
    .option('--name <display>', 'display name')
    .option('--description <text>', 'description')
    .option('--env <NAME=VALUE>', 'environment variable for the agent (repeatable)', collect)
    .option(
      '--pass-env <NAME>',
      'let the agent see this credential variable of yours, or PREFIX* (repeatable; others named like keys, tokens or secrets are held back)',
      collect,
    )
    .option('--cwd <dir>', 'working directory of the agent process')
    .option('--default', 'make it the default agent of acp run')
    .option(
      '--registry <source>',
      'import from an ACP registry JSON file or URL (e.g. https://cdn.agentclientprotocol.com/registry/v1/latest/registry.json)',
    )
    .addHelpText('after', help.AGENTS_ADD_HELP)
    .action(async (names: string[], options: AddAgentOptions) => {
      const { addAgent } = await import('./commands/agents.js');
      done(await addAgent(names, tail, options, io));
    });
  agents
    .command('remove')
    .description('Remove one of your agents')
    .argument('<name>', 'the agent to remove')
    .addHelpText('after', help.AGENTS_REMOVE_HELP)
    .action(async (name: string) => {
      noTail();
      const { removeAgent } = await import('./commands/agents.js');
      done(await removeAgent(name, io));
    });

  registerRules(program, noTail, done, io);
  registerChain(program, tail, noTail, done, io);
  registerCheck(program, tail, noTail, done, io);

  program
    .command('serve')
    .description('Serve a catalog agent (or a command) to remote ACP clients over HTTP and WebSocket')
    .option('--agent <name>', 'catalog agent to serve (demo, acp-kit, claude…); or give a command after --')
    .option('--host <address>', 'address to listen on (default 127.0.0.1; others need a token)')
    .option('--port <port>', 'port to listen on (default 8765; 0: any free port)')
    .option('--cwd <dir>', 'working directory of the agent processes (default: the current one)')
    .option(
      '--allow-origin <origin>',
      'let browser pages from this origin connect (repeatable; default: none)',
      collect,
    )
    .option(
      '--require-token',
      'require a bearer token on loopback too (generated unless ACP_KIT_SERVE_TOKEN is set)',
    )
    .option('--max-connections <n>', 'connections at once (default 16), one agent process each')
    .option('--max-sessions <n>', 'sessions per connection (default 32)')
    .option('--max-message-bytes <n>', 'largest message either way (default 64 MiB)')
    .option(
      '--resume-grace <seconds>',
      'how long a vanished client with a session may come back and resume (default 30)',
    )
    .option('--handshake-timeout <seconds>', 'how long a new client has to send initialize (default 10)')
    .addHelpText('after', help.SERVE_HELP)
    .action(async (options: ServeOptions) => {
      const { serveCommand } = await import('./commands/serve.js');
      done(await serveCommand(tail, options, io));
    });

  addFormatOptions(
    program
      .command('doctor')
      .description('Check the installation, agents and terminal: what to paste into a bug report')
      .option('--probe', 'start each installed agent and open a session to see whether it is signed in'),
  )
    .addHelpText('after', help.DOCTOR_HELP)
    .action(async (options: DoctorOptions & FormatOptions) => {
      noTail();
      const { doctor } = await import('./commands/doctor.js');
      done(await doctor({ ...options, format: outputFormat(options) }, io));
    });

  program
    .command('completion')
    .description('Print the shell completion script for bash, zsh or fish')
    .addArgument(new Argument('<shell>', 'the shell').choices(['bash', 'zsh', 'fish']))
    .addHelpText('after', help.COMPLETION_HELP)
    .action(async (shell: 'bash' | 'zsh' | 'fish') => {
      noTail();
      const { completionScript } = await import('./commands/completion.js');
      io.stdout.write(completionScript(program, shell));
      done(EXIT_CODES.OK);
    });

  // The completion script covers every command, so it needs the agent's real options too.
  if (command === 'agent' || command === 'completion') await registerAgent(program, noTail, done);
  else
    program
      .command('agent')
      .description('Serve the acp-kit coding agent (or --demo) over ACP on stdin/stdout')
      .allowUnknownOption()
      .action(() => {
        throw new UsageError('acp agent could not be loaded');
      });
  return program;
}

/** Registers `acp agent` with its real options, from the agent package. */
async function registerAgent(
  program: Command,
  noTail: () => void,
  done: (code: number) => void,
): Promise<void> {
  const { registerAgentCommand } = await import('./commands/agent.js');
  registerAgentCommand(program, noTail, done);
  program.commands.find((c) => c.name() === 'agent')?.addHelpText('after', help.AGENT_HELP);
}

function registerRules(program: Command, noTail: () => void, done: (code: number) => void, io: CliIo): void {
  const rules = rejectUnknownSubcommands(
    program
      .command('rules')
      .description('Saved permission rules, applied across agents')
      .addHelpText('after', help.RULES_HELP),
  );
  addFormatOptions(rules.command('list', { isDefault: true }).description('List saved rules'))
    .addHelpText('after', help.RULES_LIST_HELP)
    .action(async (options: FormatOptions) => {
      noTail();
      const { listRules } = await import('./commands/rules.js');
      done(await listRules({ format: outputFormat(options) }, io));
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
    .option('--exact', 'with --command: that command only, no further arguments')
    .option(
      '--env <NAME[=VALUE]>',
      'allow rules: the command may set NAME (to VALUE; repeat for more values), beyond the built-in allow list (repeatable)',
      collect,
    )
    .option('--project [dir]', 'only in this project directory (default: the current one)')
    .option('--note <text>', 'a note for yourself')
    .addHelpText('after', help.RULES_ADD_HELP)
    .action(async (options: AddRuleOptions) => {
      noTail();
      const { addRule } = await import('./commands/rules.js');
      done(await addRule(options, io));
    });
  rules
    .command('remove')
    .description('Remove a rule by id (or unique id prefix)')
    .argument('<id>', 'the rule id, or a unique prefix of it')
    .addHelpText('after', help.RULES_REMOVE_HELP)
    .action(async (id: string) => {
      noTail();
      const { removeRule } = await import('./commands/rules.js');
      done(await removeRule(id, io));
    });
}

/** Repeatable options collect their values. */
function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}
