/**
 * One session as the application sees it: a store to render, prompts, cancellation, modes and
 * config options. It keeps its local id and transcript across agent restarts and reattachments
 * (load, resume, or continuity into a new agent session, possibly with another agent).
 */
import {
  AcpKitError,
  type ContentBlock,
  type RequestPermissionRequest,
  type RequestPermissionResponse,
  type SessionConfigOption,
  type StopReason,
} from '@acp-kit/protocol';
import { describeLimit } from '../agent/timeouts.js';
import type { AgentUpdate } from '../model/agent-update.js';
import type { ToolCallContent } from '../model/content.js';
import { cancelledTurnError, ClientError, toErrorInfo } from '../errors.js';
import type { FsCallContext, PendingWrite } from '../fs/fs-service.js';
import type { PermissionRule, PermissionSubject } from '../permissions/rules.js';
import type { TraceFrame, TraceSink, TraceWriter } from '../persistence/trace.js';
import type { RecordedFrame } from '../persistence/trace-tail.js';
import type { TranscriptWriter } from '../persistence/transcript-store.js';
import type { TerminalCallContext } from '../terminal/terminal-service.js';
import type { Unsubscribe } from '../util/emitter.js';
import type { AttachMode } from './events.js';
import { CancelDeadline } from './cancel-deadline.js';
import { diffsToPlace, placeDiffs, PLACEMENT_TIMEOUT_MS, type DiffPlacement } from './diff-placement.js';
import { FrameFeed } from './frame-feed.js';
import { PermissionBroker } from './permission-broker.js';
import { buildPrompt, type PromptPart } from './prompt.js';
import type { OpenedSession } from './agent-port.js';
import type { SessionLink } from './session-link.js';
import type { SessionState } from './state.js';
import { SessionStore } from './store.js';

/** How replayed history (`session/load`) is treated. */
export type ReplayMode = 'record' | 'skip-history';

/** Result of a prompt turn. */
export interface TurnResult {
  stopReason: StopReason;
  /** Adjustments made to the prompt to fit the agent (e.g. a file sent as a link). */
  notes: string[];
}

/** Model updates still applied while skipping replayed history (state, not history). */
const STATE_UPDATES: ReadonlySet<AgentUpdate['kind']> = new Set([
  'commands',
  'mode',
  'config_options',
  'session_info',
  'usage',
  'plan',
  'foreground',
]);

/**
 * A session.
 *
 * @example
 * const session = await agent.newSession({ cwd: process.cwd() });
 * session.store.subscribe(() => render(session.store.getSnapshot()));
 * const { stopReason } = await session.prompt('Add a test for parse()');
 */
export class ClientSession {
  readonly store: SessionStore;
  private link: SessionLink | undefined;
  private currentAgentSessionId: string | undefined;
  private readonly broker: PermissionBroker;
  private replay: ReplayMode | undefined;
  private seed: ContentBlock | undefined;
  private trace: TraceWriter | undefined;
  private readonly feed = new FrameFeed();
  private activity: (() => void) | undefined;
  /** The last update still waiting to be applied (its diffs being placed), if any. */
  private updatesWaiting: Promise<void> | undefined;
  private readonly cancelDeadline = new CancelDeadline();
  /** Settles once the files of a session whose agent exited are written and let go. */
  private detaching: Promise<void> | undefined;
  /**
   * The session ended on our side (closed, or its last turn is over): the agent's requests for it
   * are refused from then on, whatever the policy would allow.
   */
  private ended = false;
  /**
   * @internal Where the connection's trace router delivers this session's frames: to the trace
   * file and the live feed.
   */
  readonly frameSink: TraceSink = {
    frame: (record, line) => {
      this.trace?.write(line);
      this.feed.push(record, line.length);
    },
  };

  constructor(
    readonly localId: string,
    state: SessionState,
    private readonly writer?: TranscriptWriter,
  ) {
    this.store = new SessionStore(state);
    this.broker = new PermissionBroker(
      localId,
      () => this.store.getSnapshot(),
      (event) => this.store.dispatch(event),
      (content) => this.placeDiffs(content),
    );
    if (writer) this.store.onEvent((event) => writer.append(event));
  }

  /** The current state snapshot. */
  get state(): SessionState {
    return this.store.getSnapshot();
  }

  /** The agent's id of the session, while attached. */
  get agentSessionId(): string | undefined {
    return this.currentAgentSessionId;
  }

  /** Whether the session is attached to a live agent connection. */
  get attached(): boolean {
    return this.link !== undefined && !this.link.port.isClosed;
  }

  /** The agent it is attached to. */
  get agent(): SessionLink['agent'] | undefined {
    return this.link?.agent;
  }

  // ---------------------------------------------------------------- traffic

  /**
   * Calls `listener` with each JSON-RPC frame of this session as it is sent or received (secrets
   * redacted, as in `trace.jsonl`); returns the unsubscribe function. Frames about no session in
   * particular (`initialize`, `authenticate`) reach every session of the connection.
   *
   * @example
   * const off = session.onFrame(({ dir, frame }) => log(dir === 'out' ? '→' : '←', frame));
   */
  onFrame(listener: (frame: TraceFrame) => void): Unsubscribe {
    return this.feed.subscribe(listener);
  }

  /**
   * The most recent frames, oldest first (at most `RECENT_FRAMES`, 500, within 4 MiB of trace
   * lines); a session reopened from disk starts with the end of its recorded trace.
   */
  recentFrames(): TraceFrame[] {
    return this.feed.recent();
  }

  // ------------------------------------------------------------ permissions

  /** The rules remembered for this session (answers scoped "this session"), oldest first. */
  get sessionRules(): readonly PermissionRule[] {
    return this.broker.permissions.rules;
  }

  /** Forgets a session rule by id (or unique id prefix); returns it, or undefined when none matched. */
  removeSessionRule(idOrPrefix: string): PermissionRule | undefined {
    return this.broker.permissions.removeRule(idOrPrefix);
  }

  // ---------------------------------------------------------------- prompts

  /**
   * Sends a prompt and resolves when the turn ends. Rejects with AUTH_REQUIRED (its `details`
   * carry `authOptions`), AGENT_EXITED (exit code, signal, stderr tail), SESSION_BUSY, or the
   * agent's error; everything received until then stays in the store. With `last`, the session
   * ends with the turn (`acp run`): from the moment the turn ends, the agent's requests for it
   * (files, terminals, questions) are refused, as after {@link close}.
   */
  async prompt(
    parts: string | readonly PromptPart[],
    options: { signal?: AbortSignal; last?: boolean } = {},
  ): Promise<TurnResult> {
    const link = this.requireLink();
    const status = this.state.status;
    if (status === 'running' || status === 'cancelling')
      throw new ClientError('SESSION_BUSY', 'a prompt is already running in this session');
    const { prompt, notes } = await buildPrompt(
      typeof parts === 'string' ? [parts] : parts,
      link.port.features.prompt,
      {
        cwd: this.state.cwd,
      },
    );
    const turn = this.state.turn + 1;
    const sessionId = this.currentAgentSessionId as string;
    this.store.dispatch({ type: 'prompt', at: Date.now(), turn, prompt });
    const sent = this.seed ? [this.seed, ...prompt] : prompt;
    const onAbort = (): void => void this.cancel();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    link.turnStarted(this.localId);
    try {
      const answer = await this.cancelDeadline.race(link.port.prompt(sessionId, sent));
      this.seed = undefined;
      if (answer === undefined) {
        const grace = describeLimit(link.timeouts.cancelGraceMs);
        this.store.dispatch({ type: 'turn_end', at: Date.now(), turn, stopReason: 'cancelled' });
        // Stopped before the turn returns, as its note says: a caller that looks at the agent
        // then finds it stopped, not still exiting (SIGKILL to its group: not long).
        await link.kill().catch(() => undefined);
        return {
          stopReason: 'cancelled',
          notes: [
            ...notes,
            `the agent did not end the turn within ${grace} of the cancellation; it was stopped`,
          ],
        };
      }
      const { stopReason } = answer;
      this.store.dispatch({ type: 'turn_end', at: Date.now(), turn, stopReason });
      return { stopReason, notes };
    } catch (error) {
      const failure = this.turnError(link, error);
      const deviation = cancelledTurnError(this.state.status, failure);
      if (deviation !== undefined) {
        // The user cancelled and the agent answered with an error instead of `cancelled`.
        link.diagnostic?.(deviation);
        this.store.dispatch({ type: 'turn_end', at: Date.now(), turn, stopReason: 'cancelled' });
        return { stopReason: 'cancelled', notes };
      }
      this.store.dispatch({ type: 'turn_failed', at: Date.now(), turn, error: toErrorInfo(failure) });
      throw failure;
    } finally {
      // Before anything is awaited: a request right behind the turn's answer is already refused.
      if (options.last === true) this.ended = true;
      this.cancelDeadline.clear();
      options.signal?.removeEventListener('abort', onAbort);
      link.turnEnded(this.localId);
      this.broker.endTurn(turn);
      await this.persist();
      await this.detaching;
    }
  }

  /**
   * Cancels the running turn: open permission questions are answered `cancelled`, open tool calls
   * are marked cancelled, and `session/cancel` is sent. The prompt then resolves with `cancelled`;
   * late updates are still applied. An agent that has not ended the turn `timeouts.cancelGraceMs`
   * later (default 10 s) is stopped, and the turn ends `cancelled` here.
   */
  async cancel(): Promise<void> {
    const status = this.state.status;
    if (status !== 'running' && status !== 'cancelling') return;
    this.store.dispatch({ type: 'cancel_requested', at: Date.now(), turn: this.state.turn });
    this.broker.cancelAll();
    const link = this.link;
    if (!link || link.port.isClosed || !this.currentAgentSessionId) return;
    // Armed before sending: an agent that does not even read its stdin must not hold the turn.
    this.cancelDeadline.arm(link.timeouts.cancelGraceMs);
    await link.port.cancel(this.currentAgentSessionId).catch(() => undefined);
  }

  /**
   * Cancels one tool call (v2 `tool_call/cancel`) without ending the turn: only a call whose
   * latest update advertised `capabilities.cancel`. The agent confirms with the call's final
   * status. Rejects with CAPABILITY_NOT_SUPPORTED when the call cannot be cancelled alone.
   */
  async cancelToolCall(toolCallId: string): Promise<void> {
    const link = this.requireLink();
    const state = this.state;
    const index = state.toolCallIndex[toolCallId];
    const item = index === undefined ? undefined : state.items[index];
    if (item?.kind !== 'tool_call' || item.capabilities?.cancel !== true)
      throw new ClientError('CAPABILITY_NOT_SUPPORTED', `tool call ${toolCallId} cannot be cancelled alone`);
    await link.port.cancelToolCall(this.currentAgentSessionId as string, toolCallId);
  }

  /**
   * Cancels one terminal of the agent (v2 `terminal/cancel`) without ending the turn: only a
   * terminal whose latest update advertised `capabilities.cancel`.
   */
  async cancelTerminal(terminalId: string): Promise<void> {
    const link = this.requireLink();
    if (this.state.terminals[terminalId]?.capabilities?.cancel !== true)
      throw new ClientError('CAPABILITY_NOT_SUPPORTED', `terminal ${terminalId} cannot be cancelled alone`);
    await link.port.cancelTerminal(this.currentAgentSessionId as string, terminalId);
  }

  /** Sets the mode (v1 `session/set_mode`; a v2 agent's `mode` config option). */
  async setMode(modeId: string): Promise<void> {
    const link = this.requireLink();
    await link.port.setMode(this.currentAgentSessionId as string, modeId);
    this.store.dispatch({ type: 'mode_set', at: Date.now(), modeId });
  }

  /** `session/set_config_option`; booleans only when the option is a boolean one. */
  async setConfigOption(configId: string, value: string | boolean): Promise<readonly SessionConfigOption[]> {
    const link = this.requireLink();
    const sessionId = this.currentAgentSessionId as string;
    const configOptions = await link.port.setConfigOption(sessionId, configId, value);
    this.store.dispatch({ type: 'config_options_set', at: Date.now(), configOptions });
    return configOptions;
  }

  /** Names the session locally (shown in lists; the agent's own title updates still apply). */
  async setTitle(title: string): Promise<void> {
    this.store.dispatch({ type: 'title_set', at: Date.now(), title });
    await this.persist();
  }

  /**
   * Ends the session on our side: releases its terminals, asks the agent to close it when it can
   * (`session/close`), and flushes the transcript.
   */
  async close(): Promise<void> {
    this.ended = true;
    const link = this.link;
    const sessionId = this.currentAgentSessionId;
    if (link && sessionId) {
      await link.terminals.releaseSession(sessionId);
      if (!link.port.isClosed && link.port.features.close) {
        await link.port.closeSession(sessionId, { timeoutMs: 5000 }).catch(() => undefined);
      }
      // Its bridged MCP servers stop with it: closed is closed once this resolves.
      await link.detach(sessionId);
    }
    this.link = undefined;
    await this.persist();
    await this.trace?.close();
    this.trace = undefined;
    await this.writer?.close();
  }

  // ------------------------------------------------------ for the connection

  /** @internal Binds to an agent session (before `session/load` replays into it). */
  bind(link: SessionLink, agentSessionId: string, trace?: TraceWriter): void {
    this.link = link;
    this.ended = false;
    this.currentAgentSessionId = agentSessionId;
    this.writer?.resume();
    this.detaching = undefined;
    if (trace) {
      void this.trace?.close();
      this.trace = trace;
    }
  }

  /** @internal Forgets a binding that did not work out. */
  unbind(): void {
    this.link = undefined;
    this.currentAgentSessionId = undefined;
  }

  /** @internal Records that the session is attached (after `session/new|load|resume` answered). */
  markAttached(how: AttachMode, r: OpenedSession): void {
    const link = this.requireLink();
    const agentSessionId = this.currentAgentSessionId as string;
    this.store.dispatch({
      type: 'attached',
      at: Date.now(),
      agentId: link.agent.id,
      agentName: link.agent.name,
      agentSessionId,
      how,
      cwd: this.state.cwd,
      additionalDirectories: [...this.state.additionalDirectories],
      ...(r.modes ? { modes: r.modes } : {}),
      ...(r.configOptions ? { configOptions: r.configOptions } : {}),
    });
    void this.writer?.recordAttachment(link.agent, agentSessionId, how);
    if (r.updates) void this.handleUpdate(r.updates);
  }

  /** @internal While set, `session/load` history replays are recorded or skipped. */
  setReplay(mode: ReplayMode | undefined): void {
    this.replay = mode;
  }

  /** @internal Sends `seed` before the next prompt (continuity). */
  setSeed(seed: ContentBlock | undefined): void {
    this.seed = seed;
  }

  /** @internal Frames recorded before the session was reopened (the end of its trace). */
  preloadFrames(frames: readonly RecordedFrame[]): void {
    this.feed.preload(frames);
  }

  /** @internal Calls `listener` on every update received for the session (replays included). */
  watchActivity(listener: () => void): () => void {
    this.activity = listener;
    return () => {
      if (this.activity === listener) this.activity = undefined;
    };
  }

  /**
   * @internal What one wire update of the agent says about this session, translated by the
   * protocol face. An update with snippet diffs is applied once they are placed in their files
   * (bounded wait), and the updates after it wait for it: the promise returned holds the agent's
   * next updates meanwhile.
   */
  handleUpdate(updates: readonly AgentUpdate[]): Promise<void> | undefined {
    this.activity?.();
    let waiting: Promise<void> | undefined;
    for (const update of updates) waiting = this.handleOne(update) ?? waiting;
    return waiting;
  }

  private handleOne(update: AgentUpdate): Promise<void> | undefined {
    if (this.replay === 'skip-history' && !STATE_UPDATES.has(update.kind)) return undefined;
    const event = {
      type: 'update' as const,
      at: Date.now(),
      update,
      ...(this.replay === 'record' ? { replay: true } : {}),
    };
    const diffs = diffsToPlace(update);
    const placing = diffs ? this.placeDiffs(diffs) : undefined;
    if (!placing && !this.updatesWaiting) {
      this.store.dispatch(event);
      return undefined;
    }
    const applied = (this.updatesWaiting ?? Promise.resolve()).then(async () => {
      const diffPlacements = await placing;
      this.store.dispatch(diffPlacements ? { ...event, diffPlacements } : event);
    });
    this.updatesWaiting = applied;
    void applied.then(() => {
      if (this.updatesWaiting === applied) this.updatesWaiting = undefined;
    });
    return applied;
  }

  /** Places snippet diffs in their files, giving up after {@link PLACEMENT_TIMEOUT_MS}. */
  private async placeDiffs(
    content: readonly ToolCallContent[],
  ): Promise<(DiffPlacement | null)[] | undefined> {
    const link = this.link;
    if (!link?.peekText) return undefined;
    const state = this.state;
    const roots = [state.cwd, ...state.additionalDirectories];
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), PLACEMENT_TIMEOUT_MS);
    });
    try {
      return await Promise.race([
        placeDiffs(content, (path) => link.peekText?.(path, roots) ?? Promise.resolve(undefined), state.cwd),
        timeout,
      ]);
    } catch {
      return undefined;
    } finally {
      clearTimeout(timer);
    }
  }

  /** @internal `session/request_permission` for this session. */
  requestPermission(
    params: RequestPermissionRequest,
    signal: AbortSignal,
  ): Promise<RequestPermissionResponse> {
    return this.broker.requestPermission(this.requireLink(), params, signal);
  }

  /**
   * @internal What the fs service needs; `signal` is the agent's request's (aborted by
   * `$/cancel_request`), for write reviews.
   */
  fsContext(signal?: AbortSignal): FsCallContext {
    const link = this.requireLink();
    const state = this.state;
    return {
      agentId: link.agent.id,
      cwd: state.cwd,
      roots: [state.cwd, ...state.additionalDirectories],
      // Checked again when the policy runs: the session may have ended while the request waited.
      authorize: async (subject: PermissionSubject, write?: PendingWrite) =>
        !this.ended && (await this.broker.authorize(link, subject, write)),
      // Without a host nobody reviews or approves writes: no need to read the file being replaced.
      ...(link.host.reviewWrite || link.host.askPermission
        ? { reviewWrite: (write) => this.broker.reviewWrite(link, write, signal) }
        : {}),
      wrote: (path, fileStamp) => this.broker.permissions.noteWritten(path, fileStamp),
    };
  }

  /** @internal What the terminal service needs. */
  terminalContext(): TerminalCallContext {
    return { ...this.fsContext(), sessionId: this.currentAgentSessionId as string };
  }

  /** @internal The agent went away. */
  agentExited(error: unknown): void {
    this.broker.cancelAll('the agent exited');
    this.store.dispatch({ type: 'agent_exited', at: Date.now(), error: toErrorInfo(error) });
    this.link = undefined;
    // Until it is attached again, hold no file open: a caller may never close this session.
    const trace = this.trace;
    this.trace = undefined;
    this.writer?.suspend();
    this.detaching = Promise.all([this.persist(), trace?.close()]).then(() => undefined);
  }

  /**
   * @internal While its transcript or trace file lags far behind (a flood), a promise that
   * settles once they caught up: the connection waits for it before reading more from the agent.
   */
  recordingPressure(): Promise<void> | undefined {
    return this.writer?.pressure() ?? this.trace?.pressure();
  }

  /** @internal Records a stall (or its end) of the running turn. */
  stalled(silentMs: number | undefined): void {
    if (silentMs === undefined) this.store.dispatch({ type: 'activity', at: Date.now() });
    else this.store.dispatch({ type: 'stalled', at: Date.now(), silentMs });
  }

  // --------------------------------------------------------------- internals

  private requireLink(): SessionLink {
    const link = this.link;
    if (this.ended) throw new ClientError('SESSION_NOT_FOUND', 'the session has ended');
    if (!link || link.port.isClosed || !this.currentAgentSessionId) {
      throw new ClientError('SESSION_NOT_FOUND', 'the session is not attached to a running agent; reopen it');
    }
    return link;
  }

  private turnError(link: SessionLink, error: unknown): Error {
    const auth = link.authError(error);
    if (auth) return auth;
    if (
      error instanceof AcpKitError &&
      (error.code === 'PEER_EXITED' || error.code === 'CONNECTION_CLOSED')
    ) {
      return new ClientError('AGENT_EXITED', error.message, { ...error.details }, error);
    }
    return error instanceof Error ? error : new Error(String(error));
  }

  private async persist(): Promise<void> {
    const writer = this.writer;
    if (!writer) return;
    const state = this.state;
    await writer.flush(true);
    await writer.updateMeta({
      turns: state.turn,
      ...(state.title ? { title: state.title } : {}),
      ...(state.lastStopReason ? { lastStopReason: state.lastStopReason } : {}),
    });
  }
}
