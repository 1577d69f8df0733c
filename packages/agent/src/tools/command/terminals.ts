/**
 * A session's terminals: the commands the agent runs as its own processes (reported as terminal
 * events with their output streamed), and those a v1 client runs for it (announced, so that the
 * log can replay their output). Background terminals outlive their tool call and are listed in
 * every foreground state report until they end; all of them stop when the session closes.
 */
import { randomUUID } from 'node:crypto';
import type { Logger } from '@acp-kit/protocol';
import type { AgentEvent, BackgroundItem, TerminalEvent } from '../../core/events.js';
import { LocalProcess } from './local-process.js';
import type { CommandOutcome } from './shell.js';

/** What the registry needs from its session. */
export interface TerminalHost {
  emit(event: AgentEvent, options?: { persist?: boolean }): Promise<boolean>;
  /** Stores an event without sending it (output snapshots, for replay). */
  recordEvent(event: AgentEvent): void;
  /** The set of background terminals changed: report the foreground state with the new list. */
  backgroundChanged(): Promise<void>;
  readonly logger: Logger;
}

export interface AgentTerminalOptions {
  commandLine: string;
  cwd: string;
  toolCallId: string;
  timeoutMs: number;
  outputByteLimit: number;
  /** Outlives its tool call; listed as background work until it ends. */
  background: boolean;
}

/** A terminal the agent runs. */
export interface AgentTerminal {
  readonly terminalId: string;
  /** Resolves once the process ended and its last output and exit were reported. */
  readonly outcome: Promise<CommandOutcome>;
  /** Stops the process group (a cancel). */
  stop(): void;
}

/** Least time between two stored snapshots of a terminal's output. */
const SNAPSHOT_INTERVAL_MS = 1_000;
/** Output waiting to be sent beyond which the process is paused until the client has caught up. */
const MAX_PENDING_CHARS = 64 * 1024;

function exitText(outcome: CommandOutcome): string {
  if (outcome.timedOut) return 'timed out and was stopped';
  if (outcome.signal) return `was killed by ${outcome.signal}`;
  return `exited with code ${outcome.exitCode ?? 'unknown'}`;
}

class RunningTerminal implements AgentTerminal {
  readonly outcome: Promise<CommandOutcome>;
  ended = false;
  /** Spawns the process (after the terminal was announced). */
  readonly begin: () => void;
  private process: LocalProcess | undefined;
  private stopRequested = false;
  private retained = '';
  private truncated = false;
  private pending = '';
  private flushing: Promise<void> | undefined;
  private lastSnapshot = 0;

  constructor(
    private readonly host: TerminalHost,
    readonly terminalId: string,
    readonly options: AgentTerminalOptions,
  ) {
    let begin!: () => void;
    this.outcome = new Promise<CommandOutcome>((resolve, reject) => {
      begin = () => {
        const process = new LocalProcess({
          commandLine: options.commandLine,
          cwd: options.cwd,
          outputByteLimit: options.outputByteLimit,
          timeoutMs: options.timeoutMs,
          onOutput: (chunk, retained) => this.onOutput(chunk, retained),
        });
        this.process = process;
        // A cancel that came between the announcement and the start.
        if (this.stopRequested) process.stop();
        this.finish(process).then(resolve, reject);
      };
    });
    this.begin = begin;
  }

  stop(): void {
    this.stopRequested = true;
    this.process?.stop();
  }

  /** Whether a stop was asked for (the process may not have exited yet). */
  get stopping(): boolean {
    return this.stopRequested;
  }

  private base(): Pick<TerminalEvent, 'type' | 'terminalId' | 'owner'> {
    return { type: 'terminal', terminalId: this.terminalId, owner: 'agent' };
  }

  private onOutput(chunk: string, retained: string): void {
    this.retained = retained;
    this.pending += chunk;
    // The client reads slower than the command writes: let the pipe fill and the command wait.
    if (this.pending.length > MAX_PENDING_CHARS) this.process?.pause();
    this.flushing ??= this.flush();
  }

  /** Sends what gathered while the previous send was waiting, as one chunk: order kept, memory bounded. */
  private async flush(): Promise<void> {
    while (this.pending !== '') {
      const data = this.pending;
      this.pending = '';
      this.process?.resume();
      await this.host.emit(
        { type: 'terminal_output', terminalId: this.terminalId, data },
        { persist: false },
      );
      const now = Date.now();
      if (now - this.lastSnapshot >= SNAPSHOT_INTERVAL_MS) {
        this.lastSnapshot = now;
        this.host.recordEvent({ ...this.base(), output: this.retained, truncated: this.truncated });
      }
    }
    this.flushing = undefined;
  }

  private async finish(process: LocalProcess): Promise<CommandOutcome> {
    let outcome: CommandOutcome;
    try {
      outcome = await process.exited;
    } catch (error) {
      outcome = { exitCode: null, signal: null, output: '', truncated: false, timedOut: false };
      this.host.logger.log('warn', 'a command could not be started', { error });
      await this.report(outcome);
      throw error;
    }
    await this.report(outcome);
    return outcome;
  }

  private async report(outcome: CommandOutcome): Promise<void> {
    await this.flushing;
    this.ended = true;
    this.truncated = outcome.truncated;
    const exitStatus = { exitCode: outcome.exitCode, signal: outcome.signal };
    // Stored with the retained output, so a replay shows what the command printed.
    this.host.recordEvent({
      ...this.base(),
      output: outcome.output,
      truncated: outcome.truncated,
      exitStatus,
    });
    await this.host.emit({ ...this.base(), exitStatus, cancellable: false }, { persist: false });
    if (this.options.background) {
      await this.host.emit({
        type: 'tool_call_chunk',
        toolCallId: this.options.toolCallId,
        content: {
          type: 'content',
          content: { type: 'text', text: `The background command ${exitText(outcome)}.` },
        },
      });
    }
  }
}

/**
 * @example
 * const terminal = await session.terminals.start({ commandLine: 'npm test', cwd, toolCallId, timeoutMs, outputByteLimit, background: false });
 * const outcome = await terminal.outcome;
 */
export class TerminalRegistry {
  private readonly live = new Map<string, RunningTerminal>();

  constructor(private readonly host: TerminalHost) {}

  /**
   * Starts a command as an agent-owned terminal: announces it, lets the caller show it
   * (`onAnnounced`, before any output can arrive), then starts the process.
   */
  async start(
    options: AgentTerminalOptions,
    onAnnounced?: (terminalId: string) => Promise<void>,
  ): Promise<AgentTerminal> {
    const terminal = new RunningTerminal(this.host, `local-${randomUUID()}`, options);
    this.live.set(terminal.terminalId, terminal);
    await this.host.emit({
      type: 'terminal',
      terminalId: terminal.terminalId,
      owner: 'agent',
      toolCallId: options.toolCallId,
      command: options.commandLine,
      cwd: options.cwd,
      cancellable: true,
      background: options.background,
    });
    await onAnnounced?.(terminal.terminalId);
    terminal.begin();
    void terminal.outcome
      .catch(() => undefined)
      .then(async () => {
        this.live.delete(terminal.terminalId);
        if (options.background) await this.host.backgroundChanged();
      });
    if (options.background) await this.host.backgroundChanged();
    return terminal;
  }

  /**
   * `terminal/cancel`: stops a running agent terminal; false when there is none by that id, or it
   * is already being stopped (a second cancel is refused like a second `tool_call/cancel`, so one
   * cancel is confirmed once).
   */
  cancel(terminalId: string): boolean {
    const terminal = this.live.get(terminalId);
    if (!terminal || terminal.ended || terminal.stopping) return false;
    terminal.stop();
    return true;
  }

  /** The background terminals still running. */
  background(): BackgroundItem[] {
    return [...this.live.values()]
      .filter((terminal) => terminal.options.background && !terminal.ended)
      .map((terminal) => ({ type: 'terminal', terminalId: terminal.terminalId }));
  }

  /** Announces a terminal the client runs for us, so that its output is kept for replay. */
  async clientCreated(terminalId: string, options: { toolCallId: string; command: string; cwd: string }) {
    await this.host.emit({ type: 'terminal', terminalId, owner: 'client', ...options });
  }

  /** Records how a client terminal ended and what it printed. */
  clientEnded(terminalId: string, outcome: CommandOutcome): void {
    this.host.recordEvent({
      type: 'terminal',
      terminalId,
      owner: 'client',
      output: outcome.output,
      truncated: outcome.truncated,
      exitStatus: { exitCode: outcome.exitCode, signal: outcome.signal },
    });
  }

  /** Stops every terminal (the session closes) and waits until they have ended. */
  async closeAll(): Promise<void> {
    const running = [...this.live.values()];
    for (const terminal of running) terminal.stop();
    await Promise.all(running.map((terminal) => terminal.outcome.catch(() => undefined)));
  }
}
