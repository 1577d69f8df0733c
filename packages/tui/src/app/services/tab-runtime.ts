/**
 * One tab's live objects: the agent connection, the session and its projected view, and the
 * prompts queued during a turn. Every change a person should see goes to the app store as a tab
 * patch; the session itself is rendered from the engine's store.
 */
import { basename } from 'node:path';
import {
  ClientError,
  describeError,
  remoteNotice,
  runTerminalAuth,
  toErrorInfo,
  type AcpClient,
  type AgentConnection,
  type AgentEntry,
  type AuthOption,
  type ClientSession,
  type EarlyAgent,
  type PromptPart,
} from '@acp-kit/client';
import { ProtocolError, type McpServer } from '@acp-kit/protocol';
import { keyLabel, resolveKeyBindings } from '../../keys/key-bindings.js';
import { plural } from '../../text/fold.js';
import { startingMessage } from '../components/tab-label.js';
import { usableMcpServers, type TuiSettings } from '../settings/settings.js';
import type { TabEvent, TabInfo, TabPatch } from '../state/app-state.js';
import type { AppStore } from '../state/app-store.js';
import { SessionViewStore } from '../view/session-view-store.js';
import type { HistoryPrinted } from './history-printed.js';
import type { TuiMetrics } from './metrics.js';
import { listWorkspaceFiles, promptParts } from './workspace-files.js';

/**
 * The longest a reopened session's agent waits for the session's history to be printed (a tab
 * opened in the background is not printed until it is shown).
 */
const HISTORY_WAIT_MS = 1000;

/** Lines of a login's output shown while signing in (the newest). */
const SIGN_IN_LINES = 3;

/** Session events that change its status. */
const STATUS_EVENTS = new Set([
  'prompt',
  'turn_end',
  'turn_failed',
  'cancel_requested',
  'agent_exited',
  'attached',
]);

/** Runs a program in the foreground with the real terminal (the UI steps aside meanwhile). */
export interface TerminalHandover {
  /** `note` says what takes the terminal (default: the agent's sign-in). */
  run<T>(work: () => Promise<T>, note?: string): Promise<T>;
}

/** What a tab needs from the application. */
export interface TabDeps {
  readonly client: AcpClient;
  readonly store: AppStore;
  readonly settings: () => TuiSettings;
  readonly handover: TerminalHandover;
  /** Called when the tab's displayed session changes (so the screen shows it). */
  readonly onViewChanged: (tabId: string) => void;
  /** When the screen has printed a view's history (a reopened session's agent starts after it). */
  readonly historyPrinted?: HistoryPrinted;
  readonly now?: () => number;
  readonly metrics?: TuiMetrics;
  /** The agent's process, started before the UI was loaded: the tab's first start takes it. */
  readonly early?: EarlyAgent;
  /** Lists a workspace's files for `@` mentions (default: {@link listWorkspaceFiles}). */
  readonly listFiles?: (cwd: string) => Promise<readonly string[]>;
}

/** Where the session of a new tab comes from. */
export type TabSource =
  | { readonly kind: 'new' }
  | { readonly kind: 'stored'; readonly id: string }
  | { readonly kind: 'agent'; readonly agentSessionId: string; readonly how: 'load' | 'resume' };

/** A prompt waiting to be sent: the composed text and its attachments (images). */
interface QueuedPrompt {
  readonly text: string;
  readonly attachments: readonly PromptPart[];
}

/** Interpreters whose first argument names the agent better than they do. */
const INTERPRETERS = new Set(['node', 'python', 'python3', 'deno', 'bun', 'npx', 'uvx', 'pnpx']);

/** Launchers that run the command after their own options and `NAME=value` words. */
const LAUNCHERS = new Set(['env', 'nice', 'nohup', 'exec', 'command', 'time']);

/**
 * The words of a command line that name the agent: `env VAR=x agent --acp` is the `agent`
 * (launchers, their options and variable assignments are skipped), then an interpreter's script.
 */
function agentWord(command: readonly string[]): string | undefined {
  let i = 0;
  while (i < command.length) {
    const word = command[i] as string;
    if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(word) || (i > 0 && word.startsWith('-'))) i++;
    else if (LAUNCHERS.has(basename(word))) {
      i++;
      // `env -u NAME` and `nice -n 10` take a value.
      while (command[i]?.startsWith('-')) i += command[i] === '-u' || command[i] === '-n' ? 2 : 1;
    } else break;
  }
  const program = command[i];
  if (program === undefined) return undefined;
  if (!INTERPRETERS.has(basename(program))) return program;
  return command.slice(i + 1).find((arg) => !arg.startsWith('-')) ?? program;
}

/** An agent entry for a command given on the command line (`acp -- CMD ARGS`). */
export function commandEntry(command: readonly string[]): AgentEntry {
  const [program = '', ...args] = command;
  const word = agentWord(command) ?? program;
  const name = basename(word) || program;
  const id =
    name
      .replace(/[^A-Za-z0-9._-]/g, '-')
      .replace(/^[^A-Za-z0-9]+/, '')
      .slice(0, 64) || 'agent';
  return { id, name, source: 'user', command: program, args };
}

/**
 * @example
 * const tab = new TabRuntime('t1', entry, process.cwd(), deps);
 * await tab.open({ kind: 'new' });
 * tab.submit('Fix the failing test');
 */
export class TabRuntime {
  connection: AgentConnection | undefined;
  session: ClientSession | undefined;
  view: SessionViewStore | undefined;
  /** Workspace files for `@` mentions (filled in the background). */
  files: readonly string[] = [];
  /** Prompts waiting for the running turn to end or the session to be ready: text and attachments. */
  private readonly queue: QueuedPrompt[] = [];
  private offStatus: (() => void) | undefined;
  private pumping = false;
  private killing = false;
  /** The agent is being replaced by a new process: the old one's exit is not a crash. */
  private replacing = false;
  /** Cancels the sign-in in progress (`authenticate`), if any. */
  private signIn: AbortController | undefined;
  /** Aborted by close(): an agent still starting is stopped, and nothing more is opened. */
  private readonly closing = new AbortController();
  private readonly now: () => number;

  constructor(
    readonly id: string,
    readonly agent: AgentEntry,
    readonly cwd: string,
    private readonly deps: TabDeps,
  ) {
    this.now = deps.now ?? Date.now;
  }

  /** The tab as stored in the app state. */
  get info(): TabInfo | undefined {
    return this.deps.store.getSnapshot().tabs.find((tab) => tab.id === this.id);
  }

  /** Starts the agent and opens the session; failures end up in the tab's phase, never thrown. */
  async open(source: TabSource): Promise<void> {
    if (source.kind !== 'stored') this.listFiles();
    try {
      if (source.kind === 'stored') {
        await this.showStored(source.id);
        // Its agent and the workspace's files (walking a large tree takes a core for a while) are
        // needed for the next prompt only: what the person sees comes first.
        if (this.view) await this.deps.historyPrinted?.wait(this.view, HISTORY_WAIT_MS);
        this.listFiles();
      }
      this.lifecycle({ type: 'start', message: startingMessage(this.agent.name) });
      this.deps.metrics?.mark('agent-start');
      const connection = await this.connect();
      this.lifecycle({ type: 'progress', message: 'Opening the session…' });
      if (source.kind === 'stored' && this.session) {
        await this.reopen(connection, this.session);
      } else if (source.kind === 'agent') {
        const options = { cwd: this.cwd, mcpServers: this.mcpServers() };
        const session =
          source.how === 'load'
            ? await connection.loadSession(source.agentSessionId, options)
            : await connection.resumeSession(source.agentSessionId, options);
        this.setSession(session);
      } else {
        this.setSession(await connection.newSession({ cwd: this.cwd, mcpServers: this.mcpServers() }));
      }
      this.ready();
    } catch (error) {
      this.failed(error);
    }
  }

  /** Lists the workspace's files for `@` mentions, in the background. */
  private listFiles(): void {
    void (this.deps.listFiles ?? listWorkspaceFiles)(this.cwd).then((files) => (this.files = files));
  }

  /**
   * Sends a prompt with its attachments (images), or queues it while a turn runs or the session
   * opens (sent when the turn ends, or the session is ready).
   */
  submit(text: string, attachments: readonly PromptPart[] = []): void {
    this.queue.push({ text, attachments });
    this.patch({ queued: this.queue.length });
    void this.pump();
  }

  /**
   * Esc / Ctrl+C: cancels a sign-in in progress, or the running turn; `stuck` when a cancel was
   * already sent and the turn still runs.
   */
  cancel(): 'idle' | 'cancelled' | 'stuck' {
    if (this.signIn) {
      this.signIn.abort();
      this.signIn = undefined;
      return 'cancelled';
    }
    const session = this.session;
    const status = session?.state.status;
    if (!session || (status !== 'running' && status !== 'cancelling')) return 'idle';
    if (status === 'cancelling') return 'stuck';
    // Queued prompts are not sent after a cancel (the user stopped the work), nor dropped
    // silently: their text goes to the composer's history, and the user is told.
    const kept = this.queue.splice(0).map((prompt) => prompt.text);
    this.patch({
      queued: 0,
      cancelSentAt: this.now(),
      ...(kept.length > 0 ? { unsent: [...(this.info?.unsent ?? []), ...kept] } : {}),
    });
    if (kept.length > 0) {
      const them = kept.length === 1 ? 'it' : 'them';
      const bindings = resolveKeyBindings(this.deps.settings().keys).bindings;
      const recall = keyLabel(bindings, 'composer.previous') || '↑';
      this.deps.store.dispatch({
        type: 'flash',
        flash: {
          text: `Not sent: ${plural(kept.length, 'queued prompt')} (turn cancelled) · ${recall} in the composer brings ${them} back`,
          severity: 'warning',
        },
      });
    }
    void session.cancel();
    return 'cancelled';
  }

  /** Stops the agent at once (a stuck cancel); the transcript stays, restart reattaches. */
  async kill(): Promise<void> {
    this.killing = true;
    await this.connection?.kill();
  }

  /** Restarts the agent (after a crash, a kill or a stall) and reattaches the session. */
  async restart(): Promise<void> {
    const connection = this.connection;
    const session = this.session;
    if (!connection) return this.open({ kind: 'new' });
    this.lifecycle({ type: 'start', message: `Restarting ${this.agent.name}…` });
    try {
      this.killing = false;
      await this.replaceAgent(connection);
      this.describeAgent(connection);
      await this.reopen(connection, session);
      this.ready();
    } catch (error) {
      this.failed(error);
    }
  }

  /**
   * Carries out an auth method, then opens (or reattaches) the session. When the agent refuses or
   * still asks for authentication, the dialog comes back saying that this method did not work.
   */
  async authenticate(option: AuthOption, secrets: { apiKey?: string } = {}): Promise<void> {
    const connection = this.connection;
    if (!connection || option.action === 'user') return;
    const cancelled = new AbortController();
    try {
      if (option.action === 'authenticate') {
        const signingIn = `Signing in with ${option.name}… (Esc cancels)`;
        this.lifecycle({ type: 'start', message: signingIn });
        // A login may print a URL or ask for a code: its newest lines are shown under the message.
        const printed: string[] = [];
        const off = connection.events.on('signInOutput', ({ text }) => {
          for (const line of text.split('\n')) if (line.trim() !== '') printed.push(line.trim());
          printed.splice(0, Math.max(0, printed.length - SIGN_IN_LINES));
          this.lifecycle({ type: 'progress', message: `${signingIn} · ${printed.join(' · ')}` });
        });
        this.signIn = cancelled;
        try {
          await connection.authenticate(option.id, secrets, { signal: cancelled.signal });
        } finally {
          off();
          if (this.signIn === cancelled) this.signIn = undefined;
        }
      } else {
        const result = await this.deps.handover.run(() => runTerminalAuth(option, { cwd: this.cwd }));
        if (!result.ok) {
          this.lifecycle({
            type: 'sign_in_failed',
            message: `The sign-in command ended with ${result.signal ?? `exit code ${String(result.exitCode)}`}; try again or choose another method.`,
          });
          return;
        }
        this.lifecycle({ type: 'start', message: `Reconnecting to ${this.agent.name}…` });
        await this.replaceAgent(connection);
        this.describeAgent(connection);
      }
      await this.reopen(connection, this.session);
      this.ready();
    } catch (error) {
      if (cancelled.signal.aborted) {
        // The user stopped waiting (Esc): back to the sign-in choices.
        this.lifecycle({ type: 'sign_in_failed', message: `Signing in with ${option.name} was cancelled.` });
        this.deps.store.dispatch({ type: 'overlay_opened', overlay: { kind: 'auth', tabId: this.id } });
      } else this.failed(error, option);
    }
  }

  /** Reattaches the tab's session to the (restarted) agent, or opens a new one when it has none. */
  private async reopen(connection: AgentConnection, session: ClientSession | undefined): Promise<void> {
    if (!session) {
      this.setSession(await connection.newSession({ cwd: this.cwd, mcpServers: this.mcpServers() }));
      return;
    }
    const state = session.state;
    await connection.reattach(
      session,
      {
        ...(state.agentId ? { agentId: state.agentId } : {}),
        ...(state.agentSessionId ? { agentSessionId: state.agentSessionId } : {}),
      },
      { mcpServers: this.mcpServers() },
    );
  }

  /** Cancels the turn, closes the session and stops the agent, also while it is still starting. */
  async close(): Promise<void> {
    this.closing.abort();
    this.offStatus?.();
    this.view?.dispose();
    if (this.session?.state.status === 'running') await this.session.cancel().catch(() => undefined);
    await this.session?.close().catch(() => undefined);
    await this.connection?.close().catch(() => undefined);
  }

  // ---------------------------------------------------------------- internals

  /** What the tab knows besides its lifecycle. */
  private patch(patch: TabPatch): void {
    this.deps.store.dispatch({ type: 'tab_updated', id: this.id, patch });
  }

  /** Restarts the agent process; its exit on the way is expected (the client may report it late). */
  private async replaceAgent(connection: AgentConnection): Promise<void> {
    this.replacing = true;
    try {
      await connection.restart();
    } finally {
      this.replacing = false;
    }
  }

  /** A step of the tab's lifecycle (tab-lifecycle.ts decides where it leads). */
  private lifecycle(event: TabEvent): void {
    this.deps.store.dispatch({ type: 'tab_event', id: this.id, event });
  }

  private async showStored(id: string): Promise<void> {
    const { session } = await this.deps.client.loadStored(id);
    // Shown at once: the printer waits for the highlighter before it prints code.
    this.setSession(session);
  }

  private async connect(): Promise<AgentConnection> {
    const connection = await this.deps.client.connect(this.agent, {
      cwd: this.cwd,
      signal: this.closing.signal,
      // A full remote server is asked again later: the tab says so while it waits.
      onCreated: (starting) =>
        starting.events.on('remote', (event) => {
          const notice = remoteNotice(event);
          if (notice) this.lifecycle({ type: 'progress', message: `${this.agent.name}: ${notice}` });
        }),
      ...(this.deps.early ? { early: this.deps.early } : {}),
    });
    this.connection = connection;
    // Closed while the start was ending: close() may not have seen this connection.
    if (this.closing.signal.aborted) {
      await connection.close();
      throw new ClientError('AGENT_EXITED', `${this.agent.name}: the tab was closed`);
    }
    this.describeAgent(connection);
    if (connection.remote) {
      this.patch({ remote: connection.remote });
      connection.events.on('remote', () => this.patch({ remote: connection.remote }));
    }
    connection.events.on('exit', ({ error, expected }) => {
      if ((expected || this.replacing) && !this.killing) return;
      this.lifecycle({
        type: 'exited',
        error: toErrorInfo(error),
        message: this.killing ? `${this.agent.name} was stopped` : `${this.agent.name} exited`,
      });
      this.killing = false;
    });
    return connection;
  }

  private describeAgent(connection: AgentConnection): void {
    const info = connection.agentInfo;
    const features = connection.features;
    this.patch({
      agentTitle: info?.title ?? info?.name ?? undefined,
      agentVersion: info?.version ?? undefined,
      protocolVersion: features.protocolVersion,
      capabilities: {
        list: features.list,
        load: features.load,
        resume: features.resume,
        delete: features.delete,
        image: features.prompt.image,
        cancelOne: features.cancelOne,
      },
    });
  }

  /** The configured MCP servers this agent can use (settings.ts: usableMcpServers). */
  private mcpServers(): McpServer[] {
    const mcp = this.connection?.running ? this.connection.features.mcp : undefined;
    const usable = usableMcpServers(this.deps.settings(), this.agent.id, mcp);
    this.patch({ mcpServers: usable.map(({ server }) => server.name) });
    return usable.map(({ server }) => server);
  }

  private setSession(session: ClientSession): void {
    if (this.session === session && this.view) return;
    this.view?.dispose();
    this.offStatus?.();
    this.session = session;
    // A long session shown again prints its newest items: the rest is projected only if asked for.
    this.view = new SessionViewStore(session.store, { historyItems: this.deps.settings().historyItems });
    this.patch({ status: session.state.status });
    this.offStatus = session.store.onEvent((event) => {
      if (STATUS_EVENTS.has(event.type)) {
        const status = session.state.status;
        if (status !== this.info?.status) this.patch({ status });
      }
    });
    this.deps.metrics?.mark('session-shown');
    this.deps.onViewChanged(this.id);
  }

  private ready(): void {
    this.deps.metrics?.mark('ready');
    this.lifecycle({ type: 'opened' });
    void this.pump();
  }

  /** Shows a failure; `attempted` is the sign-in method that was just tried, if any. */
  private failed(error: unknown, attempted?: AuthOption): void {
    const refused = attempted !== undefined && error instanceof ProtocolError;
    if ((error instanceof ClientError && error.code === 'AUTH_REQUIRED') || refused) {
      const fromError = error instanceof ClientError ? error.details.authOptions : undefined;
      const options = Array.isArray(fromError)
        ? (fromError as AuthOption[])
        : (this.connection?.authOptions ?? []);
      // Also after a refused attempt (a plain JSON-RPC error): what was held back may be why.
      const heldBack =
        error instanceof ClientError && Array.isArray(error.details.heldBackEnv)
          ? error.details.heldBackEnv
          : this.connection?.heldBackEnv;
      const message =
        (attempted
          ? `${attempted.name} did not sign you in: ${describeError(error)}`
          : describeError(error)) +
        (Array.isArray(heldBack) && heldBack.length > 0
          ? ` · Held back from this agent: ${heldBack.join(', ')} (to pass one, add it to the agent's "passEnv" in agents.json, or start acp with ACP_KIT_PASS_ENV=${String(heldBack[0])})`
          : '');
      this.lifecycle({ type: 'needs_sign_in', options, message });
      this.deps.store.dispatch({ type: 'overlay_opened', overlay: { kind: 'auth', tabId: this.id } });
      return;
    }
    // A session whose agent is gone failed because the agent exited (its exit may come later).
    const gone = this.session?.state.status === 'disconnected';
    this.lifecycle({
      type: gone ? 'exited' : 'failed',
      error: toErrorInfo(error),
      message: describeError(error),
    });
  }

  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    try {
      while (this.queue.length > 0 && this.session && this.info?.phase === 'ready') {
        const session = this.session;
        const { text, attachments } = this.queue.shift() as QueuedPrompt;
        this.patch({ queued: this.queue.length });
        try {
          const parts = await promptParts(text, session.state.cwd, attachments);
          this.deps.metrics?.mark('first-prompt');
          this.deps.metrics?.sampleProgress(() => session.state.updateCount);
          const result = await session.prompt(parts);
          this.deps.metrics?.mark('turn-end');
          if (result.notes.length > 0) {
            this.deps.store.dispatch({
              type: 'flash',
              flash: { text: result.notes.join('; '), severity: 'info' },
            });
          }
        } catch (error) {
          if (error instanceof ClientError && error.code === 'AUTH_REQUIRED') this.failed(error);
          else if (!(error instanceof ClientError && error.code === 'AGENT_EXITED')) {
            this.deps.store.dispatch({
              type: 'flash',
              flash: { text: describeError(error), severity: 'error' },
            });
          }
        } finally {
          this.patch({ cancelSentAt: undefined });
        }
      }
    } finally {
      this.pumping = false;
    }
  }
}
