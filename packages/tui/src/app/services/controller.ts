/**
 * The application's services behind one object the screens call: tabs and their agents, the
 * permission and write-review queues, stored sessions, rules and settings. Components never talk
 * to the engine directly.
 */
import { resolve } from 'node:path';
import {
  AcpClient,
  describeError,
  type AgentEntry,
  type AuthOption,
  type ClientSession,
  type DetectedAgent,
  type EarlyAgent,
  type PermissionAnswer,
  type PermissionRule,
  type PromptPart,
  type SessionMeta,
} from '@acp-kit/client';
import type { CreateElicitationResponse, SessionInfo } from '@acp-kit/protocol';
import { loadSettings, settingsPath, updateSettings, type SettingsPatch } from '../settings/settings-file.js';
import type { TuiSettings } from '../settings/settings.js';
import { startingMessage } from '../components/tab-label.js';
import type { AppStore } from '../state/app-store.js';
import { UI_READ_PACING_MS } from '../view/session-view-store.js';
import { stopOne } from './cancel-target.js';
import { ElicitationQueue, elicitationTab } from './elicitation-queue.js';
import { PermissionQueue } from './permission-queue.js';
import type { ControllerOptions, ResumableSession } from './controller-options.js';
import { HistoryPrinted } from './history-printed.js';
import { agentSessions, findStoredSession } from './stored-sessions.js';
import { TabRegistry, type TabSessionRule } from './tab-registry.js';
import { TabRuntime, type TabSource } from './tab-runtime.js';
import { TranscriptActions } from './transcript-actions.js';
import { WriteReviewService, type ReviewOutcome } from './write-review.js';

export type { TabSessionRule } from './tab-registry.js';

export type { ControllerOptions, ResumableSession } from './controller-options.js';

/**
 * @example
 * const controller = await Controller.create({ store, paths, cwd, handover });
 * controller.openAgent(controller.client.catalog.require('demo'));
 */
export class Controller {
  readonly permissions: PermissionQueue;
  readonly elicitations: ElicitationQueue;
  readonly reviews: WriteReviewService;
  /** Copying and opening in the editor, for the transcript browser. */
  readonly transcript: TranscriptActions;
  /** Told by the screen when a session's history is printed (a reopened session's agent waits). */
  readonly historyPrinted = new HistoryPrinted();
  private readonly tabs = new TabRegistry();
  private counter = 0;
  private client_: AcpClient | undefined;
  private exitResolve: ((code: number) => void) | undefined;
  private quitting_: Promise<void> | undefined;
  private resumable_: readonly ResumableSession[] = [];
  private startAgents: readonly DetectedAgent[] | undefined;
  /** Resolves with the exit code when the user quits. */
  readonly exited: Promise<number>;
  readonly now: () => number;

  private constructor(private readonly options: ControllerOptions) {
    this.now = options.now ?? Date.now;
    this.startAgents = options.startAgents;
    this.permissions = new PermissionQueue(options.store, (localId) => this.tabs.tabOfSession(localId));
    this.elicitations = new ElicitationQueue(options.store, (request, origin) =>
      elicitationTab(
        request,
        this.tabs.elicitationCandidates(),
        this.store.getSnapshot().activeTabId,
        origin,
      ),
    );
    this.reviews = new WriteReviewService({
      store: options.store,
      tabFor: (localId) => this.tabs.tabOfSession(localId),
    });
    this.exited = new Promise((resolveExit) => (this.exitResolve = resolveExit));
    this.transcript = new TranscriptActions({
      env: () => this.env,
      settings: () => this.settings,
      flash: (text, severity) => this.flash(text, severity),
      handover: options.handover,
      ...(options.writeTerminal ? { writeTerminal: options.writeTerminal } : {}),
    });
  }

  /** Loads the settings and starts the engine. */
  static async create(options: ControllerOptions): Promise<Controller> {
    const controller = new Controller(options);
    const { settings, problems } = await loadSettings(settingsPath(options.paths.configDir));
    options.store.dispatch({ type: 'settings_loaded', settings, problems });
    controller.client_ = await AcpClient.create({
      paths: options.paths,
      ...(options.env ? { env: options.env } : {}),
      ...(options.self ? { self: options.self } : {}),
      host: {
        askPermission: controller.permissions.ask,
        reviewWrite: controller.reviews.reviewWrite,
        writeReviewMode: () => controller.settings.reviewWrites,
        elicit: controller.elicitations.elicit,
      },
      stallMs: settings.stallSeconds * 1000,
      coalesceReadsMs: UI_READ_PACING_MS,
      ...(options.protocolVersion ? { protocolVersion: options.protocolVersion } : {}),
    });
    return controller;
  }

  get client(): AcpClient {
    if (!this.client_) throw new Error('the controller is not started');
    return this.client_;
  }

  get store(): AppStore {
    return this.options.store;
  }

  get settings(): TuiSettings {
    return this.store.getSnapshot().settings;
  }

  get cwd(): string {
    return this.options.cwd;
  }

  /** The environment the app runs with (agents and helper tools such as clipboard readers). */
  get env(): NodeJS.ProcessEnv {
    return this.options.env ?? process.env;
  }

  /** The runtime of a tab. */
  tab(id: string | undefined): TabRuntime | undefined {
    return id === undefined ? undefined : this.tabs.get(id);
  }

  /** The runtime of the active tab. */
  get active(): TabRuntime | undefined {
    return this.tab(this.store.getSnapshot().activeTabId);
  }

  // -------------------------------------------------------------------- tabs

  /** The catalog with installed state (for the agent picker). */
  detectAgents(): Promise<DetectedAgent[]> {
    return this.client.catalog.detectAll();
  }

  /** The agents found before the UI was loaded, once: the first picker shows them as the first frame did. */
  takeStartAgents(): DetectedAgent[] | undefined {
    const agents = this.startAgents;
    this.startAgents = undefined;
    return agents && [...agents];
  }

  /**
   * Opens a tab with `agent` and a new (or reopened) session; its first start takes `early`, the
   * agent's process started before the UI was loaded, when it is that agent's.
   */
  openAgent(
    agent: AgentEntry,
    source: TabSource = { kind: 'new' },
    cwd = this.cwd,
    early?: EarlyAgent,
  ): TabRuntime {
    const id = `t${++this.counter}`;
    const runtime = new TabRuntime(id, agent, resolve(cwd), {
      ...(early ? { early } : {}),
      client: this.client,
      store: this.store,
      settings: () => this.settings,
      handover: this.options.handover,
      historyPrinted: this.historyPrinted,
      onViewChanged: (tabId) => {
        if (this.store.getSnapshot().activeTabId === tabId) this.store.dispatch({ type: 'reprint' });
      },
      ...(this.options.metrics ? { metrics: this.options.metrics } : {}),
      now: this.now,
    });
    this.tabs.set(id, runtime);
    this.store.dispatch({
      type: 'tab_added',
      tab: { id, agent, phase: 'starting', message: startingMessage(agent.name), queued: 0 },
      activate: true,
    });
    this.store.dispatch({ type: 'overlay_closed' });
    void runtime.open(source);
    return runtime;
  }

  /** Reopens a stored session in a new tab, with its agent (or `agent` instead). */
  async openStored(id: string, agent?: AgentEntry): Promise<void> {
    const found = await findStoredSession(this.client, id, agent);
    if ('problem' in found) this.flash(found.problem, 'error');
    else this.openAgent(found.agent, { kind: 'stored', id: found.meta.localId }, found.meta.cwd);
  }

  switchTab(delta: number): void {
    const { tabs, activeTabId } = this.store.getSnapshot();
    if (tabs.length < 2) return;
    const index = tabs.findIndex((tab) => tab.id === activeTabId);
    const next = tabs[(index + delta + tabs.length) % tabs.length];
    if (next) this.activate(next.id);
  }

  activate(id: string): void {
    this.tabs.get(id)?.view?.flush();
    this.store.dispatch({ type: 'tab_activated', id });
  }

  async closeTab(id: string | undefined = this.store.getSnapshot().activeTabId): Promise<void> {
    const runtime = this.tab(id);
    if (!runtime || id === undefined) return;
    this.permissions.denyTab(id);
    this.elicitations.cancelTab(id);
    this.reviews.rejectTab(id, 'the tab was closed');
    this.tabs.delete(id);
    this.store.dispatch({ type: 'tab_removed', id });
    await runtime.close();
    if (this.tabs.size === 0)
      this.store.dispatch({ type: 'overlay_opened', overlay: { kind: 'agents', purpose: 'start' } });
  }

  // ------------------------------------------------------------------- turns

  /** Sends a prompt (with attachments such as images) in the active tab, or queues it. */
  submit(text: string, attachments: readonly PromptPart[] = []): void {
    this.active?.submit(text, attachments);
  }

  /** Esc / Ctrl+C: cancel the turn, offer to kill a stuck agent; `idle` when nothing runs. */
  cancel(): 'idle' | 'cancelled' | 'stuck' {
    const runtime = this.active;
    if (!runtime) return 'idle';
    const result = runtime.cancel();
    // The engine withdraws the turn's write reviews itself (their signal aborts).
    if (result === 'cancelled') {
      this.elicitations.cancelTab(runtime.id);
    }
    if (result === 'stuck')
      this.store.dispatch({ type: 'overlay_opened', overlay: { kind: 'kill', tabId: runtime.id } });
    return result;
  }

  /**
   * Stops the newest running tool call of the active tab that the agent can stop alone, else its
   * newest running terminal that can be (ACP v2 `tool_call/cancel`, `terminal/cancel`); the turn
   * goes on. Says so when there is none.
   */
  async cancelCall(): Promise<void> {
    await stopOne(this.active?.session, (text, severity) => this.flash(text, severity));
  }

  async kill(tabId: string): Promise<void> {
    this.store.dispatch({ type: 'overlay_closed' });
    await this.tab(tabId)?.kill();
  }

  async restart(tabId = this.store.getSnapshot().activeTabId): Promise<void> {
    this.store.dispatch({ type: 'overlay_closed' });
    const runtime = this.tab(tabId);
    if (runtime) this.reviews.rejectTab(runtime.id, 'the agent was restarted');
    await runtime?.restart();
  }

  /** Signs in with one of the agent's methods; `apiKey` for a method that takes one (`option.input`). */
  async authenticate(tabId: string, option: AuthOption, secrets: { apiKey?: string } = {}): Promise<void> {
    if (option.action === 'user') return;
    this.store.dispatch({ type: 'overlay_closed' });
    await this.tab(tabId)?.authenticate(option, secrets);
  }

  async setMode(modeId: string): Promise<void> {
    this.store.dispatch({ type: 'overlay_closed' });
    await this.run(() => this.active?.session?.setMode(modeId));
  }

  /** Shift+Tab: the next of the session's modes. */
  async cycleMode(): Promise<void> {
    const modes = this.active?.session?.state.modes;
    if (!modes || modes.availableModes.length < 2) return;
    const index = modes.availableModes.findIndex((mode) => mode.id === modes.currentModeId);
    const next = modes.availableModes[(index + 1) % modes.availableModes.length];
    if (next) await this.setMode(next.id);
  }

  async setConfigOption(configId: string, value: string | boolean): Promise<void> {
    await this.run(() => this.active?.session?.setConfigOption(configId, value));
  }

  // -------------------------------------------------------------- questions

  answerPermission(id: string, answer: PermissionAnswer): void {
    this.permissions.answer(id, answer);
  }

  answerElicitation(id: string, answer: CreateElicitationResponse): void {
    this.elicitations.answer(id, answer);
  }

  answerReview(id: string, outcome: ReviewOutcome): void {
    this.reviews.answer(id, outcome);
  }

  // ------------------------------------------------------- sessions, rules

  listStored(): Promise<SessionMeta[]> {
    return this.client.transcripts.list();
  }

  /** The sessions the active tab's agent lists (`session/list`), when it can. */
  listAgentSessions(): Promise<{ agent: AgentEntry; sessions: SessionInfo[] } | undefined> {
    return agentSessions(this.active);
  }

  /** Deletes one of the active agent's own sessions (`session/delete`). */
  async deleteAgentSession(agentSessionId: string): Promise<void> {
    const runtime = this.active;
    if (!runtime?.info?.capabilities?.delete) {
      this.flash('This agent cannot delete its sessions', 'warning');
      return;
    }
    await this.run(() => runtime.connection?.deleteSession(agentSessionId));
  }

  /** The tab showing a stored session, if one does. */
  tabOfStored(localId: string): string | undefined {
    return this.tabs.tabOfSession(localId);
  }

  /** Deletes a stored session (and the agent's copy when `remote` and the agent can). */
  async deleteStored(meta: SessionMeta, remote: boolean): Promise<void> {
    const runtime = this.active;
    if (remote && meta.agentSessionId && runtime?.connection?.running && runtime.agent.id === meta.agentId) {
      await this.run(() => runtime.connection?.deleteSession(meta.agentSessionId as string));
    }
    await this.client.transcripts.delete(meta.localId);
    this.flash(`Deleted session ${meta.title ?? meta.localId}`, 'info');
  }

  get rules(): readonly PermissionRule[] {
    return this.client.rules.rules;
  }

  async removeRule(id: string): Promise<void> {
    await this.run(async () => {
      await this.client.rules.remove(id);
    });
  }

  /** Rules remembered for the sessions of the open tabs ("for this session" answers), in tab order. */
  get sessionRules(): readonly TabSessionRule[] {
    return this.tabs.sessionRules(this.store.getSnapshot().tabs);
  }

  /** Forgets a rule of the session with `localId`. */
  removeSessionRule(localId: string, id: string): void {
    this.sessionOf(localId)?.removeSessionRule(id);
  }

  /** The session with this local id, among the open tabs. */
  sessionOf(localId: string | undefined): ClientSession | undefined {
    return this.tabs.sessionOf(localId);
  }

  async updateSettings(patch: SettingsPatch): Promise<void> {
    await this.run(async () => {
      const { settings, problems } = await updateSettings(settingsPath(this.options.paths.configDir), patch);
      this.store.dispatch({ type: 'settings_loaded', settings, problems });
      this.store.dispatch({ type: 'reprint' });
    });
  }

  flash(text: string, severity: 'info' | 'warning' | 'error' = 'info'): void {
    this.store.dispatch({ type: 'flash', flash: { text, severity } });
  }

  /** True once {@link quit} was called: the app is closing its tabs and stopping its agents. */
  get quitting(): boolean {
    return this.quitting_ !== undefined;
  }

  /** Once quitting: the sessions its tabs held that had a turn, to print how to resume them. */
  get resumable(): readonly ResumableSession[] {
    return this.resumable_;
  }

  /**
   * Closes every tab — turns cancelled, sessions closed, agents stopped, those still starting
   * included (stdin closed, SIGTERM, SIGKILL to each agent's process group) — and resolves
   * {@link exited} with `code`. Called again while quitting (a second Ctrl+C, a second signal), it
   * hurries: the agents are killed at once, the rest of the cleanup still runs.
   */
  quit(code = 0): Promise<void> {
    if (this.quitting_) {
      void this.client_?.kill();
      return this.quitting_;
    }
    this.quitting_ = this.closeAll(code);
    return this.quitting_;
  }

  // ---------------------------------------------------------------- internals

  private async closeAll(code: number): Promise<void> {
    this.options.metrics?.mark('quit');
    this.resumable_ = [...this.tabs.values()].flatMap(({ session }) =>
      session && session.state.turn > 0
        ? [{ localId: session.localId, ...(session.state.title ? { title: session.state.title } : {}) }]
        : [],
    );
    if (this.tabs.size > 0) this.flash('Quitting: stopping the agents (Ctrl+C again: kill them now)');
    for (const id of [...this.tabs.keys()]) {
      this.permissions.denyTab(id);
      this.elicitations.cancelTab(id);
      this.reviews.rejectTab(id, 'acp is quitting');
    }
    await Promise.all([...this.tabs.values()].map((runtime) => runtime.close()));
    this.tabs.clear();
    await this.client_?.close();
    this.exitResolve?.(code);
  }

  private async run(work: () => Promise<unknown> | undefined): Promise<void> {
    try {
      await work();
    } catch (error) {
      this.flash(describeError(error), 'error');
    }
  }
}
