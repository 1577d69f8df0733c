/**
 * One live session: its state, its event log, and the single path by which updates reach the
 * client (persisted first, then sent).
 */
import {
  AcpKitError,
  clientAccepts,
  type AgentSideConnection,
  type Logger,
  type SessionConfigOption,
  type SessionModeState,
  type SessionUpdate,
} from '@acp-kit/protocol';
import { isModeId, modeConfigOption, modeState, type ModeId } from '../modes/modes.js';
import type { Workspace } from '../tools/workspace.js';
import type { RememberedDecision, SessionLog, SessionMeta, SessionRecord, SessionStore } from './store.js';
import { clip, firstLine } from '../util/text.js';

/** Config options a turn engine adds next to `mode` (the model selector, for instance). */
export interface ConfigOptionSource {
  configOptions(session: Session): SessionConfigOption[];
  /** Applies a value; returns false when `configId` is not one of the engine's options. */
  setConfigOption(session: Session, configId: string, value: string | boolean): boolean;
}

/** Updates that describe current state rather than history: restored from metadata, never replayed. */
const NOT_PERSISTED = new Set([
  'notice',
  'available_commands_update',
  'current_mode_update',
  'config_option_update',
]);

const TITLE_LENGTH = 80;

export interface SessionInit {
  meta: SessionMeta;
  store: SessionStore;
  log: SessionLog;
  connection: AgentSideConnection;
  workspace: Workspace;
  options: ConfigOptionSource;
  logger: Logger;
}

/**
 * A live session.
 *
 * @example
 * await session.emit({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Hi' } });
 */
export class Session {
  readonly id: string;
  readonly meta: SessionMeta;
  workspace: Workspace;
  readonly connection: AgentSideConnection;
  readonly logger: Logger;
  private readonly store: SessionStore;
  private readonly log: SessionLog;
  private readonly optionSource: ConfigOptionSource;
  private turnController: AbortController | undefined;
  private turnPromise: Promise<void> = Promise.resolve();
  private closed = false;
  /** Called when the session closes (MCP servers stop, for instance). */
  private readonly closers: (() => Promise<void> | void)[] = [];

  constructor(init: SessionInit) {
    this.id = init.meta.sessionId;
    this.meta = init.meta;
    this.store = init.store;
    this.log = init.log;
    this.connection = init.connection;
    this.workspace = init.workspace;
    this.optionSource = init.options;
    this.logger = init.logger;
  }

  get mode(): ModeId {
    return isModeId(this.meta.modeId) ? this.meta.modeId : 'ask';
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Whether the client takes `update` (notices and compaction need capabilities). */
  accepts(update: SessionUpdate): boolean {
    return clientAccepts(this.connection.clientCapabilities, update);
  }

  /**
   * Persists `update` (unless it is live-only state, or `persist` is false) and sends it. Returns
   * false when the client did not advertise what the update needs: then nothing is sent or stored.
   */
  async emit(update: SessionUpdate, options: { persist?: boolean } = {}): Promise<boolean> {
    if (!this.accepts(update)) return false;
    if (options.persist !== false && !NOT_PERSISTED.has(update.sessionUpdate)) {
      this.record({ type: 'update', at: new Date().toISOString(), update });
    }
    if (this.connection.isClosed) return true;
    try {
      await this.connection.sessionUpdate({ sessionId: this.id, update });
    } catch (error) {
      // Usually the connection went away mid-turn: the update is on disk, the turn is being
      // aborted. An update the schema rejects (with `validateOutgoing`) is a bug, though.
      const invalid = error instanceof AcpKitError && error.code === 'INVALID_ARGUMENT';
      this.logger.log(invalid ? 'error' : 'debug', 'could not send a session update', {
        sessionId: this.id,
        kind: update.sessionUpdate,
        error,
      });
    }
    return true;
  }

  /** Sends an update without storing it (history replay). */
  async replay(update: SessionUpdate): Promise<void> {
    if (!this.accepts(update)) return;
    await this.connection.sessionUpdate({ sessionId: this.id, update });
  }

  record(record: SessionRecord): void {
    this.log.append(record);
  }

  /** Everything recorded so far (read back from the log). */
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

  modeState(): SessionModeState {
    return modeState(this.mode);
  }

  configOptions(): SessionConfigOption[] {
    return [modeConfigOption(this.mode), ...this.optionSource.configOptions(this)];
  }

  /**
   * Switches mode and tells the client through both `current_mode_update` and
   * `config_option_update`, whoever asked for the change.
   */
  async setMode(mode: ModeId): Promise<void> {
    this.meta.modeId = mode;
    this.saveMeta();
    await this.emit({ sessionUpdate: 'current_mode_update', currentModeId: mode });
    await this.emit({ sessionUpdate: 'config_option_update', configOptions: this.configOptions() });
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
    await this.emit({ sessionUpdate: 'config_option_update', configOptions: this.configOptions() });
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
    await this.emit({ sessionUpdate: 'session_info_update', title, updatedAt: this.meta.updatedAt });
  }

  /** Marks activity (end of a turn) in the metadata and tells the client. */
  async touch(): Promise<void> {
    this.meta.updatedAt = new Date().toISOString();
    this.saveMeta();
    await this.emit({ sessionUpdate: 'session_info_update', updatedAt: this.meta.updatedAt });
  }

  get turnRunning(): boolean {
    return this.turnController !== undefined;
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

  onClose(closer: () => Promise<void> | void): void {
    this.closers.push(closer);
  }

  /** Cancels work, stops what the session started and closes its log. Idempotent. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.cancel();
    await this.turnPromise;
    for (const closer of this.closers.splice(0)) {
      try {
        await closer();
      } catch (error) {
        this.logger.log('warn', 'error while closing a session', { sessionId: this.id, error });
      }
    }
    this.log.close();
  }
}
