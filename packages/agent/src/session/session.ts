/**
 * One live session: its state, its event log, and the single path by which events reach the
 * client (persisted first, then handed to the client's face, which translates them).
 */
import { AcpKitError, type Logger } from '@acp-kit/protocol';
import type { ClientPort, EventSink } from '../core/client-port.js';
import type { AgentEvent, ConfigOption, StateEvent, StopReason, TurnError } from '../core/events.js';
import { isModeId, modeConfigOption, type ModeId } from '../modes/modes.js';
import { TerminalRegistry } from '../tools/command/terminals.js';
import type { Workspace } from '../tools/workspace.js';
import type { RememberedDecision, SessionLog, SessionMeta, SessionRecord, SessionStore } from './store.js';
import { clip, firstLine } from '../util/text.js';

/** Config options a turn engine adds next to `mode` (the model selector, for instance). */
export interface ConfigOptionSource {
  configOptions(session: Session): ConfigOption[];
  /** Applies a value; returns false when `configId` is not one of the engine's options. */
  setConfigOption(session: Session, configId: string, value: string | boolean): boolean;
}

/** Events that describe current state rather than history: restored from metadata, never replayed. */
const NOT_PERSISTED = new Set<AgentEvent['type']>([
  'notice',
  'commands',
  'config_options',
  'state',
  'terminal_output',
]);

const TITLE_LENGTH = 80;

/** The agent keeps one plan per session: each plan event replaces it. */
export const PLAN_ID = 'plan';

export interface SessionInit {
  meta: SessionMeta;
  store: SessionStore;
  log: SessionLog;
  client: ClientPort;
  workspace: Workspace;
  options: ConfigOptionSource;
  logger: Logger;
}

type Foreground = StateEvent['state'];

/**
 * A live session.
 *
 * @example
 * await session.emit({ type: 'message_chunk', role: 'agent', messageId, content: { type: 'text', text: 'Hi' } });
 */
export class Session {
  readonly id: string;
  readonly meta: SessionMeta;
  workspace: Workspace;
  /** The client, as the core sees it (whatever protocol version it speaks). */
  readonly client: ClientPort;
  readonly logger: Logger;
  /** The commands this session runs as terminals. */
  readonly terminals: TerminalRegistry;
  private readonly sink: EventSink;
  private readonly store: SessionStore;
  private readonly log: SessionLog;
  private readonly optionSource: ConfigOptionSource;
  private turnController: AbortController | undefined;
  private turnPromise: Promise<void> = Promise.resolve();
  private closed = false;
  private foreground: Foreground = 'idle';
  /** Once background work was reported, every state report lists it (complete, possibly empty). */
  private backgroundReported = false;
  /** Tool calls the client may cancel alone, by id. */
  private readonly cancellable = new Map<string, AbortController>();
  /** Called when the session closes (MCP servers stop, for instance). */
  private readonly closers: (() => Promise<void> | void)[] = [];

  constructor(init: SessionInit) {
    this.id = init.meta.sessionId;
    this.meta = init.meta;
    this.store = init.store;
    this.log = init.log;
    this.client = init.client;
    this.sink = init.client.sink(this.id);
    this.workspace = init.workspace;
    this.optionSource = init.options;
    this.logger = init.logger;
    this.terminals = new TerminalRegistry({
      emit: (event, options) => this.emit(event, options),
      recordEvent: (event) => this.recordEvent(event),
      // After close, the close itself reports the final state.
      backgroundChanged: () => (this.closed ? Promise.resolve() : this.reportState()),
      logger: this.logger,
    });
  }

  get mode(): ModeId {
    return isModeId(this.meta.modeId) ? this.meta.modeId : 'ask';
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Whether the client takes `event` (a v1 client needs capabilities for notices and compaction). */
  accepts(event: AgentEvent): boolean {
    return this.sink.accepts(event);
  }

  /**
   * Persists `event` (unless it is live-only state, or `persist` is false) and sends it. Returns
   * false when the client does not take it: then nothing is sent or stored.
   */
  async emit(event: AgentEvent, options: { persist?: boolean } = {}): Promise<boolean> {
    if (!this.sink.accepts(event)) return false;
    if (options.persist !== false && !NOT_PERSISTED.has(event.type)) this.recordEvent(event);
    if (this.client.isClosed) return true;
    try {
      // Called without an await before it: events reach the wire in the order they were emitted.
      await this.sink.send(event);
    } catch (error) {
      // Usually the connection went away mid-turn: the event is on disk, the turn is being
      // aborted. An update the schema rejects (with `validateOutgoing`) is a bug, though.
      const invalid = error instanceof AcpKitError && error.code === 'INVALID_ARGUMENT';
      this.logger.log(invalid ? 'error' : 'debug', 'could not send a session update', {
        sessionId: this.id,
        kind: event.type,
        error,
      });
    }
    return true;
  }

  /** Sends history without storing it (opening a stored session). */
  async replay(events: readonly AgentEvent[]): Promise<void> {
    await this.sink.replay(events);
  }

  record(record: SessionRecord): void {
    this.log.append(record);
  }

  recordEvent(event: AgentEvent): void {
    this.record({ type: 'event', at: new Date().toISOString(), event });
  }

  /** Everything recorded so far (read back from the log; see `log-events.ts` for its events). */
  records(): SessionRecord[] {
    return this.store.readRecords(this.id);
  }

  /** Rewrites the metadata file (after a title, mode, config, permission or activity change). */
  saveMeta(): void {
    try {
      this.store.writeMeta(this.meta);
    } catch (error) {
      this.logger.log('error', 'could not write session metadata', { sessionId: this.id, error });
    }
  }

  configOptions(): ConfigOption[] {
    return [modeConfigOption(this.mode), ...this.optionSource.configOptions(this)];
  }

  /** Switches mode and tells the client (a v1 client hears of it as a mode change as well). */
  async setMode(mode: ModeId): Promise<void> {
    this.meta.modeId = mode;
    this.saveMeta();
    await this.emit({ type: 'config_options', options: this.configOptions() });
  }

  /** Sets a config option; false when there is no such option or value. */
  async setConfigOption(configId: string, value: string | boolean): Promise<boolean> {
    if (configId === 'mode') {
      if (typeof value !== 'string' || !isModeId(value)) return false;
      await this.setMode(value);
      return true;
    }
    if (!this.optionSource.setConfigOption(this, configId, value)) return false;
    this.saveMeta();
    await this.emit({ type: 'config_options', options: this.configOptions() });
    return true;
  }

  remembered(key: string): RememberedDecision | undefined {
    return this.meta.permissions[key];
  }

  remember(key: string, decision: RememberedDecision): void {
    this.meta.permissions[key] = decision;
    this.saveMeta();
  }

  /** Sets the title from the first prompt, once, and tells the client. */
  async titleFromPrompt(text: string): Promise<void> {
    if (this.meta.title) return;
    const title = clip(firstLine(text), TITLE_LENGTH);
    if (!title) return;
    this.meta.title = title;
    this.meta.updatedAt = new Date().toISOString();
    this.saveMeta();
    await this.emit({ type: 'session_info', title, updatedAt: this.meta.updatedAt });
  }

  /** Marks activity (end of a turn) in the metadata and tells the client. */
  async touch(): Promise<void> {
    this.meta.updatedAt = new Date().toISOString();
    this.saveMeta();
    await this.emit({ type: 'session_info', updatedAt: this.meta.updatedAt });
  }

  get turnRunning(): boolean {
    return this.turnController !== undefined;
  }

  /** Reports the foreground state (with the background list once there has been any). */
  async reportState(
    state: Foreground = this.foreground,
    end?: { stopReason: StopReason | 'error'; error?: TurnError },
  ): Promise<void> {
    this.foreground = state;
    const background = this.terminals.background();
    this.backgroundReported ||= background.length > 0;
    const listed = this.backgroundReported ? { background } : {};
    const event: StateEvent =
      state === 'idle' ? { type: 'state', state, ...end, ...listed } : { type: 'state', state, ...listed };
    await this.emit(event);
  }

  /** While the user is asked something the turn cannot go on without. */
  async whileBlocked<T>(work: () => Promise<T>): Promise<T> {
    const before = this.foreground;
    if (before === 'running') await this.reportState('requires_action');
    try {
      return await work();
    } finally {
      if (before === 'running' && this.foreground === 'requires_action') await this.reportState('running');
    }
  }

  /**
   * Runs one turn. Its signal aborts on `session/cancel`, on close, or when `abortWith` aborts
   * (`$/cancel_request` for the prompt). Close waits for it, so a cancelled turn can still record
   * the final state of its tool calls.
   */
  async runTurn<T>(work: (signal: AbortSignal) => Promise<T>, abortWith?: AbortSignal): Promise<T> {
    const controller = new AbortController();
    this.turnController = controller;
    const onAbort = (): void => controller.abort();
    if (abortWith?.aborted) controller.abort();
    else abortWith?.addEventListener('abort', onAbort, { once: true });
    const running = work(controller.signal);
    this.turnPromise = running.then(
      () => undefined,
      () => undefined,
    );
    try {
      return await running;
    } finally {
      abortWith?.removeEventListener('abort', onAbort);
      if (this.turnController === controller) this.turnController = undefined;
    }
  }

  /** `session/cancel`: aborts the running turn, if any. */
  cancel(): void {
    this.turnController?.abort();
  }

  /** Lets the client cancel a tool call alone (until {@link endCancellable}). */
  beginCancellable(toolCallId: string, controller: AbortController): void {
    this.cancellable.set(toolCallId, controller);
  }

  endCancellable(toolCallId: string): void {
    this.cancellable.delete(toolCallId);
  }

  /** `tool_call/cancel`: false when the call is unknown, final or not cancellable. */
  cancelToolCall(toolCallId: string): boolean {
    const controller = this.cancellable.get(toolCallId);
    if (!controller || controller.signal.aborted) return false;
    controller.abort();
    return true;
  }

  onClose(closer: () => Promise<void> | void): void {
    this.closers.push(closer);
  }

  /** Cancels work, stops what the session started (background commands too) and closes its log. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.cancel();
    await this.turnPromise;
    await this.terminals.closeAll();
    if (this.backgroundReported) await this.reportState();
    for (const closer of this.closers.splice(0)) {
      try {
        await closer();
      } catch (error) {
        this.logger.log('warn', 'error while closing a session', { sessionId: this.id, error });
      }
    }
    this.log.close();
    this.client.release(this.id);
  }
}
