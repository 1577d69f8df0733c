/**
 * The one error style of `acp`, for every command and for `acp run`'s text output: what went
 * wrong on a line starting `acp: `, what to do on a line starting `hint: `, both on stderr. This
 * module maps any error to that text and to the exit code; nothing else formats errors.
 */
import { AcpKitError, ErrorCodes, ProtocolError } from '@acp-kit/protocol';
import { ClientError, describeError, type AuthOption } from '@acp-kit/client';
import { CommanderError } from 'commander';
import { EXIT_CODES, UsageError } from './exit-codes.js';
import { oneLine, safe } from './format.js';
import type { CliIo } from './io.js';

/** Where `acp run --auth` takes the key of a method that asks for one (never from the command line). */
export const API_KEY_VARIABLE = 'ACP_KIT_AUTH_API_KEY';

/** An error as `acp` reports it. */
export interface ErrorReport {
  /** What went wrong (safe for a terminal; may span lines, e.g. an agent's last stderr). */
  readonly message: string;
  /** What to do about it (may span lines). */
  readonly hint: string;
  readonly exitCode: number;
}

/** What the report may mention. */
export interface ErrorContext {
  /** The command that failed, as typed after `acp` (`run`, `sessions show`), for `--help` hints. */
  readonly command?: string;
}

const BUG_HINT = 'if this looks like a bug in acp, `acp doctor` prints what to paste into a report';

/**
 * The message, hint and exit code for `error`.
 *
 * @example
 * errorReport(new UsageError('the prompt is empty'), { command: 'run' });
 * // { message: 'the prompt is empty', hint: 'see `acp run --help`', exitCode: 2 }
 */
export function errorReport(error: unknown, context: ErrorContext = {}): ErrorReport {
  const help = `see \`acp ${context.command ? `${context.command} ` : ''}--help\``;
  if (error instanceof CommanderError) {
    // Commander's text: "error: unknown option '--x'\n(Did you mean --y?)".
    const lines = error.message.replace(/^error: /, '').split('\n');
    const suggestion = lines.find((line) => /^\(Did you mean/.test(line));
    const message = lines.filter((line) => line !== suggestion && line.trim() !== '').join(' ');
    const hint = suggestion ? `${suggestion.slice(1, -1).replace(/^Did/, 'did')} ${help}` : help;
    return { message: safe(message), hint, exitCode: EXIT_CODES.USAGE };
  }
  if (error instanceof UsageError)
    return { message: safe(error.message), hint: error.hint ?? help, exitCode: EXIT_CODES.USAGE };
  return {
    message: safe(describeError(error)),
    hint: hintFor(error, context),
    exitCode: exitCodeForError(error),
  };
}

function hintFor(error: unknown, context: ErrorContext): string {
  const inRun = context.command === 'run';
  const agentStderr = inRun
    ? "run again with --verbose to see the agent's stderr"
    : '`acp doctor --probe` starts each installed agent and reports what fails';
  if (error instanceof ProtocolError) {
    if (error.code === ErrorCodes.AuthRequired) return authHint([], undefined);
    if (error.code === ErrorCodes.MethodNotFound)
      return 'the agent does not implement this; update it, or use an agent that does';
    return `the agent reported this error; ${agentStderr}`;
  }
  if (error instanceof ClientError || error instanceof AcpKitError) {
    switch (error.code) {
      case 'AUTH_REQUIRED':
        return authHint(
          (error.details.authOptions as AuthOption[] | undefined) ?? [],
          typeof error.details.authHint === 'string' ? error.details.authHint : undefined,
          (error.details.heldBackEnv as string[] | undefined) ?? [],
          inRun,
          typeof error.details.agentId === 'string' ? error.details.agentId : undefined,
        );
      case 'AGENT_NOT_FOUND':
        return '`acp agents` lists the agents; add your own with `acp agents add NAME -- COMMAND [ARGS…]`';
      case 'AGENT_NOT_INSTALLED':
        return 'install it, or put its command on PATH; `acp doctor` shows which agents are installed';
      case 'AGENT_START_FAILED':
        if (error.details.remote === true) return remoteHint(error);
        return agentStderr;
      case 'SPAWN_FAILED':
      case 'REQUEST_TIMEOUT':
        return agentStderr;
      case 'AGENT_EXITED':
      case 'PEER_EXITED':
      case 'CONNECTION_CLOSED':
      case 'RESTART_BUDGET_EXHAUSTED':
        return `the agent stopped; ${agentStderr}`;
      case 'UNSUPPORTED_PROTOCOL_VERSION':
        return 'update the agent (or acp-kit) so that both speak the same ACP version';
      case 'SESSION_NOT_FOUND':
        return '`acp sessions` lists the recorded sessions';
      case 'CONFIG_INVALID':
        return 'fix or remove the file named above; `acp doctor` checks every configuration file';
      case 'REGISTRY_FETCH_FAILED':
        return 'check the address and the network, or download the registry and give its file';
      case 'CAPABILITY_NOT_SUPPORTED':
        return 'the agent does not offer this; update it, or use an agent that does';
      default:
        return BUG_HINT;
    }
  }
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS')
    return 'check the permissions of the file or directory named above; `acp doctor` shows the paths acp uses';
  if (code === 'ENOSPC') return 'the disk is full; free some space and run again';
  return BUG_HINT;
}

/**
 * What to do when a remote agent (`--url`, a catalog entry with a url) cannot be reached or
 * refuses the connection: there is no agent stderr here to look at.
 */
function remoteHint(error: ClientError | AcpKitError): string {
  const cause = error.cause;
  const status = cause instanceof AcpKitError ? cause.details.status : undefined;
  const tokenEnv =
    typeof error.details.tokenEnv === 'string' ? error.details.tokenEnv : 'ACP_KIT_REMOTE_TOKEN';
  switch (status) {
    case 401:
      return `set ${oneLine(tokenEnv)} to the token \`acp serve\` printed (or ACP_KIT_SERVE_TOKEN on the server), then run again`;
    case 403:
      return 'the server refuses this Origin or Host: connect with the address `acp serve` printed; docs/remote.md explains --allow-origin';
    case 404:
      return 'check the address: `acp serve` prints the one to use (it ends in /acp)';
    case 503:
      return 'the server is at its limit of connections: try again later, or raise `acp serve --max-connections`';
    default:
      return status === undefined
        ? 'check the address and that the server is running (`acp serve` prints its address); through ssh -L, that the tunnel is open'
        : 'the server refused the connection; its log (the terminal running `acp serve`) says why';
  }
}

/** How to sign in: the agent's methods as `acp run` can use them, and the catalog's hint. */
function authHint(
  options: readonly AuthOption[],
  catalogHint: string | undefined,
  heldBack: readonly string[] = [],
  inRun = true,
  agentId?: string,
): string {
  const lines = ['sign in to the agent, then run again'];
  if (options.length > 0) {
    lines[0] += '; it offers:';
    // `--auth` belongs to `acp run`; elsewhere (the line mode) it signs in with a headless turn.
    const withAuth = (id: string): string =>
      inRun
        ? `run again with --auth ${id}`
        : `sign in with \`acp run --agent ${agentId !== undefined && /^[\w.-]+$/.test(agentId) ? agentId : 'AGENT'} --auth ${id} "hello"\``;
    for (const option of options) {
      const how = option.input
        ? `set ${API_KEY_VARIABLE} to your ${option.input.label} and ${withAuth(option.id)}`
        : option.action === 'authenticate'
          ? withAuth(option.id)
          : option.action === 'run-terminal'
            ? `${option.instructions}, or ${withAuth(option.id)} to do it here`
            : option.instructions;
      lines.push(`- ${oneLine(option.name)}: ${safe(how)}`);
    }
  } else lines[0] += ' (`acp doctor` shows what each agent looks for)';
  if (catalogHint) lines.push(safe(catalogHint));
  if (heldBack.length > 0) {
    const names = heldBack.map((name) => oneLine(name)).join(', ');
    lines.push(
      `held back from this agent (named like credentials): ${names}; to pass one, add it to the agent's "passEnv" in agents.json, or run with ACP_KIT_PASS_ENV=${oneLine(heldBack[0] as string)}`,
    );
  }
  return lines.join('\n');
}

/**
 * The report as stderr text: `acp: …` and `hint: …`, continuation lines indented under the hint.
 *
 * @example
 * formatErrorReport({ message: 'no agent named "x"', hint: 'see `acp agents`', exitCode: 8 });
 * // 'acp: no agent named "x"\nhint: see `acp agents`\n'
 */
export function formatErrorReport(report: Pick<ErrorReport, 'message' | 'hint'>): string {
  const [first = '', ...rest] = safe(report.hint).split('\n');
  const hint = [`hint: ${first}`, ...rest.map((line) => `      ${line}`)].join('\n');
  return `acp: ${safe(report.message).trimEnd()}\n${hint}\n`;
}

/** Writes the report of `error` on stderr; returns the exit code. */
export function reportError(error: unknown, io: Pick<CliIo, 'stderr'>, context: ErrorContext = {}): number {
  const report = errorReport(error, context);
  io.stderr.write(formatErrorReport(report));
  return report.exitCode;
}

/** A warning line: `acp: warning: …`. */
export function warningText(text: string): string {
  return `acp: warning: ${safe(text)}\n`;
}

/** Exit code for an error. */
export function exitCodeForError(error: unknown): number {
  if (error instanceof UsageError || error instanceof CommanderError) return EXIT_CODES.USAGE;
  const code = error instanceof ClientError || error instanceof AcpKitError ? error.code : undefined;
  switch (code) {
    case 'AUTH_REQUIRED':
      return EXIT_CODES.AUTH_REQUIRED;
    case 'SESSION_NOT_FOUND':
      // An id that names no recorded session, or several: what was typed is wrong.
      return EXIT_CODES.USAGE;
    case 'AGENT_EXITED':
    case 'PEER_EXITED':
    case 'CONNECTION_CLOSED':
      return EXIT_CODES.AGENT_CRASHED;
    case 'AGENT_NOT_FOUND':
    case 'AGENT_NOT_INSTALLED':
    case 'AGENT_START_FAILED':
    case 'UNSUPPORTED_PROTOCOL_VERSION':
    case 'SPAWN_FAILED':
      return EXIT_CODES.AGENT_UNAVAILABLE;
    default:
      return EXIT_CODES.ERROR;
  }
}
