/**
 * The v2 face, requests: the session's {@link AgentPort} over a v2 `ClientSideConnection`. A
 * prompt is answered at insertion and its turn ends with the foreground's `idle` (see
 * {@link V2Turns}); reopening is `session/resume`, with `replayFrom: {type: "start"}` when the
 * history is wanted; modes are the `mode` config option; sign-in is `auth/login`.
 */
import type { ContentBlock, ListSessionsRequest, ListSessionsResponse, StopReason } from '@acp-kit/protocol';
import type {
  AgentCapabilities,
  AuthMethod as V2AuthMethod,
  ClientSideConnection,
  SessionConfigOption as WireConfigOption,
  SessionUpdate,
  AvailableCommand,
  McpServer as V2McpServer,
} from '@acp-kit/protocol/v2';
import type { AuthMethod } from '@acp-kit/protocol';
import { isUnknownVariant } from '@acp-kit/protocol';
import { isAcpMcpServer } from '@acp-kit/protocol/unstable';
import type { SessionConfigOption } from '../model/content.js';
import type {
  AgentFeatures,
  AgentPort,
  OpenedSession,
  PortRequestOptions,
  SessionSetup,
} from '../session/agent-port.js';

import { configOption } from './from-v2-update.js';
import type { V2Translators } from './v2-handlers.js';
import type { V2Turns } from './v2-turns.js';

/** What a v2 agent's capabilities mean for the engine (no `capabilities.session`: no sessions). */
export function v2Features(caps: AgentCapabilities): AgentFeatures {
  const session = caps.session;
  const on = (value: unknown): boolean => value !== undefined && value !== null;
  const sessions = on(session);
  return {
    protocolVersion: 2,
    // Resume with replay from the start serves as load.
    load: sessions,
    resume: sessions,
    list: sessions,
    close: sessions,
    delete: on(session?.delete),
    prompt: {
      image: on(session?.prompt?.image),
      audio: on(session?.prompt?.audio),
      embeddedContext: on(session?.prompt?.embeddedContext),
    },
    mcp: {
      stdio: on(session?.mcp?.stdio),
      http: on(session?.mcp?.http),
      sse: false,
      // MCP-over-ACP: unstable, so not in the stable type.
      acp: on((session?.mcp as { acp?: unknown } | null | undefined)?.acp),
    },
    cancelOne: sessions,
  };
}

/** v2 auth methods under v1's names (`methodId` is `id`, `env` a record), as the engine describes them. */
export function v2AuthMethods(methods: readonly V2AuthMethod[] | undefined): AuthMethod[] {
  const out: AuthMethod[] = [];
  for (const method of methods ?? []) {
    const description: unknown = method.description;
    const common = {
      id: method.methodId,
      name: method.name,
      ...(typeof description === 'string' ? { description } : {}),
    };
    if (!isUnknownVariant(method) && method.type === 'terminal') {
      const env = Object.fromEntries((method.env ?? []).map(({ name, value }) => [name, value]));
      out.push({ type: 'terminal', ...common, ...(method.args ? { args: method.args } : {}), env });
    } else if (isUnknownVariant(method) || method.type === 'agent') out.push(common);
  }
  return out;
}

/** A v2 connection as a session's port. */
export class V2Port implements AgentPort {
  readonly features: AgentFeatures;

  constructor(
    readonly connection: ClientSideConnection,
    private readonly turns: V2Turns,
    private readonly translators: V2Translators,
  ) {
    this.features = v2Features(connection.agentCapabilities);
    void connection.closed.then((reason) => turns.closeAll(reason));
  }

  get isClosed(): boolean {
    return this.connection.isClosed;
  }

  get closed() {
    return this.connection.closed;
  }

  async newSession(setup: SessionSetup, options?: PortRequestOptions) {
    const response = await this.connection.newSession(v2Setup(setup), options);
    return { sessionId: response.sessionId, ...this.opened(response.sessionId, response) };
  }

  async loadSession(
    sessionId: string,
    setup: SessionSetup,
    options?: PortRequestOptions,
  ): Promise<OpenedSession> {
    const response = await this.connection.resumeSession(
      { sessionId, ...v2Setup(setup), replayFrom: { type: 'start' } },
      options,
    );
    return this.opened(sessionId, response);
  }

  async resumeSession(
    sessionId: string,
    setup: SessionSetup,
    options?: PortRequestOptions,
  ): Promise<OpenedSession> {
    return this.opened(
      sessionId,
      await this.connection.resumeSession({ sessionId, ...v2Setup(setup) }, options),
    );
  }

  async listSessions(params: ListSessionsRequest): Promise<ListSessionsResponse> {
    // The same fields in both versions (v2 names the cursor type; it is a string).
    return (await this.connection.listSessions(params)) as ListSessionsResponse;
  }

  async closeSession(sessionId: string, options?: PortRequestOptions): Promise<void> {
    await this.connection.closeSession({ sessionId }, options);
    this.translators.forget(sessionId);
  }

  async deleteSession(sessionId: string): Promise<void> {
    await this.connection.deleteSession({ sessionId });
  }

  async prompt(sessionId: string, prompt: ContentBlock[]): Promise<{ stopReason: StopReason }> {
    const turn = this.turns.begin(sessionId);
    let messageId: string;
    try {
      ({ messageId } = await this.connection.promptSession({ sessionId, prompt }));
    } catch (error) {
      turn.abandon();
      throw error;
    }
    turn.answered(messageId);
    return { stopReason: await turn.promise };
  }

  cancel(sessionId: string): Promise<void> {
    return this.connection.cancelSession({ sessionId });
  }

  async cancelToolCall(sessionId: string, toolCallId: string): Promise<void> {
    await this.connection.cancelToolCall({ sessionId, toolCallId });
  }

  async cancelTerminal(sessionId: string, terminalId: string): Promise<void> {
    await this.connection.cancelTerminal({ sessionId, terminalId });
  }

  async setMode(sessionId: string, modeId: string): Promise<void> {
    // v2 has no modes: an agent with modes offers them as the `mode` config option.
    await this.setConfigOption(sessionId, 'mode', modeId);
  }

  async setConfigOption(
    sessionId: string,
    configId: string,
    value: string | boolean,
  ): Promise<SessionConfigOption[]> {
    const response =
      typeof value === 'boolean'
        ? await this.connection.setSessionConfigOption({ sessionId, configId, type: 'boolean', value })
        : await this.connection.setSessionConfigOption({ sessionId, configId, type: 'id', value });
    return response.configOptions.map(configOption);
  }

  async authenticate(
    methodId: string,
    meta: Record<string, unknown> | undefined,
    options?: PortRequestOptions,
  ): Promise<void> {
    await this.connection.login({ methodId, ...(meta ? { _meta: meta } : {}) }, options);
  }

  /** Config options and commands of an opened session (v2 answers them with the session). */
  private opened(
    sessionId: string,
    response: { configOptions?: WireConfigOption[]; availableCommands?: AvailableCommand[] },
  ): OpenedSession {
    const commands: SessionUpdate = {
      sessionUpdate: 'available_commands_update',
      availableCommands: response.availableCommands ?? [],
    } as SessionUpdate;
    return {
      ...(response.configOptions ? { configOptions: response.configOptions.map(configOption) } : {}),
      ...(response.availableCommands ? { updates: this.translators.for(sessionId).update(commands) } : {}),
    };
  }
}

/**
 * The setup in v2's terms: stdio servers are typed `stdio` and their env is a list, as in v1; `acp`
 * servers (MCP-over-ACP, unstable) have the same fields in both; v2 has no SSE transport, so SSE
 * servers are left out (the caller checked `features.mcp`).
 */
function v2Setup(setup: SessionSetup): {
  cwd: string;
  mcpServers: V2McpServer[];
  additionalDirectories?: string[];
} {
  const mcpServers: V2McpServer[] = [];
  for (const server of setup.mcpServers) {
    if (!('type' in server)) mcpServers.push({ type: 'stdio', ...server });
    else if (server.type === 'http') mcpServers.push(server);
    else if (isAcpMcpServer(server)) mcpServers.push(server as unknown as V2McpServer);
  }
  const dirs = setup.additionalDirectories ?? [];
  return { cwd: setup.cwd, mcpServers, ...(dirs.length > 0 ? { additionalDirectories: dirs } : {}) };
}
