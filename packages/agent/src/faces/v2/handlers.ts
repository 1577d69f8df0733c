/**
 * The agent's v2 face: the handlers of a v2 {@link AgentSideConnection}, each a call into the
 * version-neutral core. v2 specifics live here and in `updates.ts`: `auth/login`/`auth/logout`,
 * `session/resume` with `replayFrom` (no `session/load`), config options only (no modes), the
 * prompt answered with its message id once inserted (the turn goes on in `state_update`s), and
 * `tool_call/cancel` / `terminal/cancel`.
 */
import type {
  AgentHandlers,
  AgentSideConnection,
  AuthMethod as WireAuthMethod,
  CancelTerminalRequest,
  CancelToolCallRequest,
  CloseSessionRequest,
  DeleteSessionRequest,
  InitializeRequest,
  InitializeResponse,
  ListSessionsRequest,
  ListSessionsResponse,
  LoginAuthRequest,
  McpServer as WireMcpServer,
  McpServerHttp,
  McpServerStdio,
  NewSessionRequest,
  NewSessionResponse,
  PromptRequest,
  PromptResponse,
  ResumeSessionRequest,
  ResumeSessionResponse,
  SetSessionConfigOptionRequest,
  SetSessionConfigOptionResponse,
} from '@acp-kit/protocol/v2';
import { isUnknownVariant, type HandlerContext } from '@acp-kit/protocol';
import { isAcpMcpServer } from '@acp-kit/protocol/unstable';
import { AgentCore, type AgentOptions } from '../../core/agent-core.js';
import type { AuthMethod, McpServer } from '../../core/events.js';
import { invalidParams } from '../../util/errors.js';
import { AGENT_VERSION } from '../../version.js';
import { sessionList } from '../shared.js';
import { V2Port, v2Features } from './port.js';
import { v2ConfigOptions } from './updates.js';

function v2AuthMethod(method: AuthMethod): WireAuthMethod {
  const base = { methodId: method.id, name: method.name, description: method.description ?? null };
  return method.terminal
    ? { type: 'terminal', ...base, args: method.terminal.args }
    : { type: 'agent', ...base };
}

/** Unstable MCP-over-ACP: `type: "acp"` MCP servers (see mcp/acp-transport.ts). */
const ACP_MCP_CAPABILITY = { acp: {} };

/**
 * A v2 MCP server in the shape the MCP connector takes (v1's: stdio without a `type`). An `acp`
 * server has the same fields in both versions; only the unstable schemas have it, hence the cast.
 */
function mcpServer(server: WireMcpServer): McpServer {
  if (isAcpMcpServer(server))
    return { type: 'acp', name: server.name, serverId: server.serverId } as unknown as McpServer;
  // An unknown transport goes on as it came: the connector reports it as unsupported.
  if (isUnknownVariant(server) || (server.type !== 'stdio' && server.type !== 'http'))
    return server as unknown as McpServer;
  if (server.type === 'stdio') {
    const stdio = server as McpServerStdio;
    return {
      name: stdio.name,
      command: stdio.command,
      args: stdio.args ?? [],
      env: (stdio.env ?? []).map(({ name, value }) => ({ name, value })),
    };
  }
  const http = server as McpServerHttp;
  return {
    type: 'http',
    name: http.name,
    url: http.url,
    headers: (http.headers ?? []).map(({ name, value }) => ({ name, value })),
  };
}

/** v2 marks a capability with `{}`; one not offered is left out. */
function offered<K extends string>(flags: Record<K, boolean>): Partial<Record<K, Record<string, never>>> {
  const out: Partial<Record<K, Record<string, never>>> = {};
  for (const key of Object.keys(flags) as K[]) if (flags[key]) out[key] = {};
  return out;
}

/** The v2 handlers over `core`. */
export class V2Face implements AgentHandlers {
  readonly core: AgentCore;

  constructor(connection: AgentSideConnection, options: AgentOptions) {
    this.core = new AgentCore(new V2Port(connection), options);
  }

  initialize(params: InitializeRequest): InitializeResponse {
    const engine = this.core.engine;
    const prompt = engine.promptCapabilities();
    return {
      protocolVersion: 2,
      info: { name: 'acp-kit-agent', title: engine.title, version: AGENT_VERSION },
      capabilities: {
        session: {
          prompt: offered({
            image: prompt.image,
            audio: prompt.audio,
            embeddedContext: prompt.embeddedContext,
          }),
          // `acp`: MCP-over-ACP (unstable; the stable schema has no such flag, hence the spread).
          mcp: { stdio: {}, http: {}, ...ACP_MCP_CAPABILITY },
          delete: {},
          additionalDirectories: {},
        },
      },
      // The connection adopts the capabilities once this answer succeeds: read them from the request.
      authMethods: engine.authMethods(v2Features(params.capabilities)).map(v2AuthMethod),
    };
  }

  async login(params: LoginAuthRequest, ctx: HandlerContext): Promise<Record<string, never>> {
    await this.core.authenticate(params.methodId, ctx.requestId, ctx.signal);
    return {};
  }

  logout(): Record<string, never> {
    this.core.logout();
    return {};
  }

  async newSession(params: NewSessionRequest): Promise<NewSessionResponse> {
    const session = await this.core.newSession(
      params.cwd,
      params.additionalDirectories,
      (params.mcpServers ?? []).map(mcpServer),
    );
    return { sessionId: session.id, configOptions: v2ConfigOptions(session.configOptions()) };
  }

  async resumeSession(params: ResumeSessionRequest): Promise<ResumeSessionResponse> {
    const from = params.replayFrom;
    if (from && (isUnknownVariant(from) || from.type !== 'start')) {
      throw invalidParams('Unsupported replayFrom: this agent replays from { "type": "start" } only');
    }
    const session = await this.core.openSession({
      sessionId: params.sessionId,
      cwd: params.cwd,
      additionalDirectories: params.additionalDirectories,
      mcpServers: (params.mcpServers ?? []).map(mcpServer),
      replay: Boolean(from),
    });
    // The current state, after any replay and before the answer, as v2 requires.
    await session.reportState();
    return { configOptions: v2ConfigOptions(session.configOptions()) };
  }

  listSessions(params: ListSessionsRequest): ListSessionsResponse {
    return sessionList(this.core.list(params.cwd, params.cursor));
  }

  async closeSession(params: CloseSessionRequest): Promise<Record<string, never>> {
    await this.core.close(params.sessionId);
    return {};
  }

  async deleteSession(params: DeleteSessionRequest): Promise<Record<string, never>> {
    await this.core.delete(params.sessionId);
    return {};
  }

  async setSessionConfigOption(
    params: SetSessionConfigOptionRequest,
  ): Promise<SetSessionConfigOptionResponse> {
    if (isUnknownVariant(params) || (params.type !== 'id' && params.type !== 'boolean')) {
      throw invalidParams(`Unsupported config value type for ${params.configId}`);
    }
    const options = await this.core.setConfigOption(
      params.sessionId,
      params.configId,
      params.value as string | boolean,
    );
    return { configOptions: v2ConfigOptions(options) };
  }

  promptSession(params: PromptRequest): PromptResponse {
    const { messageId, done } = this.core.prompt(params.sessionId, params.prompt);
    // How the turn ends goes out as a `state_update` (a failure as an `error` stop reason).
    done.catch(() => undefined);
    return { messageId };
  }

  cancelSession(params: { sessionId: string }): void {
    this.core.cancel(params.sessionId);
  }

  cancelToolCall(params: CancelToolCallRequest): Record<string, never> {
    this.core.cancelToolCall(params.sessionId, params.toolCallId);
    return {};
  }

  cancelTerminal(params: CancelTerminalRequest): Record<string, never> {
    this.core.cancelTerminal(params.sessionId, params.terminalId);
    return {};
  }
}
