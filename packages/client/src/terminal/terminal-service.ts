/**
 * `terminal/*` for agents: commands run without a shell, in their own process group, inside the
 * session's roots, with bounded output, per-session limits, and killed with their session.
 *
 * A `command` with `args` runs as that argv: metacharacters in it stay literal. A bare command
 * line (no `args`) that contains blanks or shell syntax runs through `/bin/sh -c` — the only time a
 * shell is involved — and the permission prompt shows the line whole. The policy decides on the
 * real request: the command, the variables it sets (off the allow list, they need explicit
 * approval) and its working directory (refused outside the roots).
 */
import type {
  CreateTerminalRequest,
  KillTerminalRequest,
  ReleaseTerminalRequest,
  TerminalOutputRequest,
  TerminalOutputResponse,
  WaitForTerminalExitRequest,
  WaitForTerminalExitResponse,
} from '@acp-kit/protocol';
import { ClientError } from '../errors.js';
import { realRoots, truncatePath, validateAgentPath, withinRoots } from '../fs/path-guard.js';
import type { PermissionSubject } from '../permissions/rules.js';
import { effectiveEnv, envNeedingApproval, isValidEnvName } from '../permissions/env-allow-list.js';
import { quoteArgv, type CommandSpec } from '../permissions/shell-words.js';
import { newId } from '../util/ids.js';
import { ManagedTerminal, type ExitStatus } from './managed-terminal.js';
import { realpath } from 'node:fs/promises';

/** What the service tells the session about its terminals (for display and transcripts). */
export type TerminalEvent =
  | { type: 'terminal_started'; sessionId: string; terminalId: string; command: string; cwd: string }
  | { type: 'terminal_output'; sessionId: string; terminalId: string; data: string }
  | {
      type: 'terminal_exited';
      sessionId: string;
      terminalId: string;
      exitStatus: ExitStatus;
      output: string;
      truncated: boolean;
    }
  | { type: 'terminal_released'; sessionId: string; terminalId: string };

/** Options of {@link TerminalService}. */
export interface TerminalServiceOptions {
  /** Host ceiling on kept output per terminal, whatever the agent asks (default 1 MiB). */
  outputCeilingBytes?: number;
  /** Commands running at once per session (default 8). */
  maxRunningPerSession?: number;
  /** Terminals not yet released per session (default 32). */
  maxOpenPerSession?: number;
  /** Time between SIGTERM and SIGKILL (default 2000 ms). */
  killGraceMs?: number;
  /** Environment the commands inherit (default: ours). */
  baseEnv?: NodeJS.ProcessEnv;
  /** Shell for bare command lines (default `/bin/sh`). */
  shell?: string;
  onEvent?: (event: TerminalEvent) => void;
}

/** What the service needs to know about the session making the call. */
export interface TerminalCallContext {
  sessionId: string;
  agentId: string;
  cwd: string;
  roots: readonly string[];
  authorize(subject: PermissionSubject): Promise<boolean>;
}

interface Entry {
  sessionId: string;
  terminal: ManagedTerminal;
}

const DEFAULT_CEILING = 1024 * 1024;
const SHELL_SYNTAX = /[\s;&|<>()$`\\"'*?[\]{}~#!=]/;

/**
 * The terminal service.
 *
 * @example
 * const terminals = new TerminalService({ onEvent: (e) => store.dispatch(e) });
 * const { terminalId } = await terminals.create({ sessionId, command: 'npm', args: ['test'] }, context);
 */
export class TerminalService {
  private readonly terminals = new Map<string, Entry>();
  /** Released terminals whose processes are still being killed. */
  private readonly dying = new Set<ManagedTerminal>();
  private readonly ceiling: number;

  constructor(private readonly options: TerminalServiceOptions = {}) {
    this.ceiling = options.outputCeilingBytes ?? DEFAULT_CEILING;
  }

  async create(params: CreateTerminalRequest, context: TerminalCallContext): Promise<{ terminalId: string }> {
    if (typeof params.command !== 'string' || params.command === '' || params.command.includes('\0')) {
      throw new ClientError('INVALID_ARGUMENT', 'command must be a non-empty string without NUL');
    }
    const args = params.args ?? [];
    if (args.some((arg) => typeof arg !== 'string' || arg.includes('\0'))) {
      throw new ClientError('INVALID_ARGUMENT', 'args must be strings without NUL');
    }
    const bare = args.length === 0 && SHELL_SYNTAX.test(params.command);
    const command: CommandSpec = bare ? { line: params.command } : { argv: [params.command, ...args] };
    const commandText = bare ? params.command : quoteArgv([params.command, ...args]);

    const cwd = await this.resolveCwd(params.cwd, context);
    const inherited = this.options.baseEnv ?? process.env;
    for (const variable of params.env ?? []) {
      if (
        !isValidEnvName(variable.name) ||
        typeof variable.value !== 'string' ||
        variable.value.includes('\0')
      ) {
        throw new ClientError(
          'INVALID_ARGUMENT',
          `invalid environment variable ${JSON.stringify(variable.name).slice(0, 80)}`,
        );
      }
    }
    const set = effectiveEnv(params.env ?? [], inherited);
    const env: NodeJS.ProcessEnv = { ...inherited };
    for (const { name, value } of set) env[name] = value;
    const sensitive = envNeedingApproval(set);

    const mine = [...this.terminals.values()].filter((entry) => entry.sessionId === context.sessionId);
    if (mine.length >= (this.options.maxOpenPerSession ?? 32)) {
      throw new ClientError('TERMINAL_LIMIT', 'too many terminals in this session: release some first');
    }
    if (
      mine.filter((entry) => entry.terminal.exitStatus === undefined).length >=
      (this.options.maxRunningPerSession ?? 8)
    ) {
      throw new ClientError('TERMINAL_LIMIT', 'too many commands running in this session');
    }

    const subject: PermissionSubject = {
      source: 'terminal',
      agentId: context.agentId,
      kind: 'execute',
      paths: [],
      command,
      commandText,
      cwd: context.cwd,
      outsideRoots: false,
      secret: false,
      ...(set.length > 0 ? { env: set } : {}),
      ...(sensitive.length > 0 ? { sensitiveEnv: sensitive } : {}),
      ...(params.cwd !== undefined && params.cwd !== null && params.cwd !== '' ? { commandCwd: cwd } : {}),
    };
    if (!(await context.authorize(subject))) {
      throw new ClientError('PERMISSION_DENIED', `running \`${commandText.slice(0, 200)}\` was refused`);
    }

    // `outputByteLimit: 0` retains nothing (the schema's "maximum number of bytes to retain").
    const limit = Math.min(this.ceiling, byteLimitOr(params.outputByteLimit, this.ceiling));
    const terminalId = newId('term');
    const decoder = new TextDecoder('utf-8');
    let terminal: ManagedTerminal;
    try {
      terminal = await ManagedTerminal.start({
        program: bare ? (this.options.shell ?? '/bin/sh') : params.command,
        args: bare ? ['-c', params.command] : args,
        cwd,
        env,
        outputLimit: limit,
        onOutput: (chunk) => {
          const data = decoder.decode(chunk, { stream: true });
          if (data !== '')
            this.emit({ type: 'terminal_output', sessionId: context.sessionId, terminalId, data });
        },
      });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const reason =
        code === 'ENOENT'
          ? 'command not found'
          : code === 'EACCES'
            ? 'permission denied'
            : (error as Error).message;
      throw new ClientError('INVALID_ARGUMENT', `cannot run ${params.command.slice(0, 200)}: ${reason}`);
    }
    this.terminals.set(terminalId, { sessionId: context.sessionId, terminal });
    this.emit({
      type: 'terminal_started',
      sessionId: context.sessionId,
      terminalId,
      command: commandText,
      cwd,
    });
    void terminal.exited.then((exitStatus) => {
      this.emit({
        type: 'terminal_exited',
        sessionId: context.sessionId,
        terminalId,
        exitStatus,
        output: terminal.output.text(),
        truncated: terminal.output.truncated,
      });
    });
    return { terminalId };
  }

  output(params: TerminalOutputRequest): TerminalOutputResponse {
    const { terminal } = this.get(params.sessionId, params.terminalId);
    const status = terminal.exitStatus;
    const response: TerminalOutputResponse = {
      output: terminal.output.text(status !== undefined),
      truncated: terminal.output.truncated,
    };
    if (status) response.exitStatus = { exitCode: status.exitCode, signal: status.signal };
    return response;
  }

  async waitForExit(
    params: WaitForTerminalExitRequest,
    signal?: AbortSignal,
  ): Promise<WaitForTerminalExitResponse> {
    const { terminal } = this.get(params.sessionId, params.terminalId);
    const status = await abortable(terminal.exited, signal);
    return { exitCode: status.exitCode, signal: status.signal };
  }

  async kill(params: KillTerminalRequest): Promise<Record<string, never>> {
    const { terminal } = this.get(params.sessionId, params.terminalId);
    await terminal.kill(this.options.killGraceMs ?? 2000);
    return {};
  }

  async release(params: ReleaseTerminalRequest, graceMs?: number): Promise<Record<string, never>> {
    const { terminal } = this.get(params.sessionId, params.terminalId);
    this.terminals.delete(params.terminalId);
    this.dying.add(terminal);
    try {
      await terminal.kill(graceMs ?? this.options.killGraceMs ?? 2000);
    } finally {
      this.dying.delete(terminal);
    }
    this.emit({ type: 'terminal_released', sessionId: params.sessionId, terminalId: params.terminalId });
    return {};
  }

  /** Kills and forgets every terminal of a session (the session ended or its agent exited). */
  async releaseSession(sessionId: string): Promise<void> {
    const ids = [...this.terminals].filter(([, entry]) => entry.sessionId === sessionId).map(([id]) => id);
    await Promise.all(ids.map((terminalId) => this.release({ sessionId, terminalId })));
  }

  /**
   * Kills and forgets every terminal, SIGKILLing after `graceMs` (default `killGraceMs`). A smaller
   * `graceMs` also hurries the terminals being released already (shutting down in a hurry).
   */
  async releaseAll(graceMs?: number): Promise<void> {
    await Promise.all([
      ...[...this.terminals].map(([terminalId, entry]) =>
        this.release({ sessionId: entry.sessionId, terminalId }, graceMs),
      ),
      ...(graceMs === undefined ? [] : [...this.dying].map((terminal) => terminal.kill(graceMs))),
    ]);
  }

  /** Number of terminals not yet released (all sessions). */
  get openCount(): number {
    return this.terminals.size;
  }

  private get(sessionId: string, terminalId: string): Entry {
    const entry = this.terminals.get(terminalId);
    if (!entry || entry.sessionId !== sessionId) {
      throw new ClientError(
        'TERMINAL_NOT_FOUND',
        `no terminal ${String(terminalId).slice(0, 100)} in this session`,
      );
    }
    return entry;
  }

  private async resolveCwd(
    requested: string | null | undefined,
    context: TerminalCallContext,
  ): Promise<string> {
    const path =
      requested === undefined || requested === null || requested === ''
        ? context.cwd
        : validateAgentPath(requested, 'cwd');
    let real: string;
    try {
      real = await realpath(path);
    } catch {
      throw new ClientError('INVALID_ARGUMENT', `cwd does not exist: ${truncatePath(path)}`);
    }
    if (!withinRoots(real, await realRoots(context.roots))) {
      throw new ClientError('PATH_OUTSIDE_ROOTS', `cwd ${truncatePath(path)} is outside the session roots`);
    }
    return real;
  }

  private emit(event: TerminalEvent): void {
    this.options.onEvent?.(event);
  }
}

function byteLimitOr(value: number | null | undefined, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.floor(value) : fallback;
}

function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error as Error);
      },
    );
  });
}
