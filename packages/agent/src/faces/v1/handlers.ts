/**
 * The agent's v1 face: the handlers of a v1 {@link AgentSideConnection}, each a call into the
 * version-neutral core. v1 specifics live here and in `updates.ts`: `session/load` (replay, then
 * answer), modes beside the `mode` config option, the prompt answered when its turn ends.
 */
import {
  PROTOCOL_VERSION,
  type AgentHandlers,
  type AgentSideConnection,
  type AuthMethod as WireAuthMethod,
  type AuthenticateRequest,
  type AuthenticateResponse,
  type CloseSessionRequest,
  type DeleteSessionRequest,
  type HandlerContext,
  type InitializeResponse,
  type ListSessionsRequest,
  type ListSessionsResponse,
  type LoadSessionRequest,
  type LoadSessionResponse,
  type NewSessionRequest,
  type NewSessionResponse,
  type PromptRequest,
  type PromptResponse,
  type ResumeSessionRequest,
  type ResumeSessionResponse,
  type SetSessionConfigOptionRequest,
  type SetSessionConfigOptionResponse,
  type SetSessionModeRequest,
} from '@acp-kit/protocol';
import { AgentCore, type AgentOptions } from '../../core/agent-core.js';
import type { AuthMethod } from '../../core/events.js';
import { isModeId } from '../../modes/modes.js';
import type { Session } from '../../session/session.js';
import { invalidParams } from '../../util/errors.js';
import { silentLogger } from '../../util/logger.js';
import { AGENT_VERSION } from '../../version.js';
import { modeState } from './modes.js';
import { sessionList } from '../shared.js';
import { V1Port } from './port.js';
import { v1ConfigOptions } from './updates.js';

/** Unstable MCP-over-ACP: `type: "acp"` MCP servers (see mcp/acp-transport.ts). */
const ACP_MCP_CAPABILITY = { acp: true };

function v1AuthMethod(method: AuthMethod): WireAuthMethod {
  const base = { id: method.id, name: method.name, description: method.description };
  return method.terminal ? { ...base, type: 'terminal', args: method.terminal.args } : base;
}

/** The v1 handlers over `core`. */
export class V1Face implements AgentHandlers {
  readonly core: AgentCore;
  private readonly port: V1Port;

  constructor(connection: AgentSideConnection, options: AgentOptions) {
    this.port = new V1Port(connection, options.logger ?? silentLogger);
    this.core = new AgentCore(this.port, options);
  }

  initialize(): InitializeResponse {
    const engine = this.core.engine;
    return {
      protocolVersion: PROTOCOL_VERSION,
      agentCapabilities: {
        loadSession: true,
        promptCapabilities: engine.promptCapabilities(),
        // `acp`: MCP-over-ACP (unstable; the stable schema has no such flag, hence the spread).
        mcpCapabilities: { http: true, sse: true, ...ACP_MCP_CAPABILITY },
        sessionCapabilities: { list: {}, resume: {}, close: {}, delete: {}, additionalDirectories: {} },
      },
      authMethods: engine.authMethods(this.port.features).map(v1AuthMethod),
      agentInfo: { name: 'acp-kit-agent', title: engine.title, version: AGENT_VERSION },
    };
  }

  async authenticate(params: AuthenticateRequest, ctx: HandlerContext): Promise<AuthenticateResponse> {
    await this.core.authenticate(params.methodId, ctx.requestId, ctx.signal);
    return {};
  }

  /** What a session response says about modes and options; the sink learns the mode shown. */
  private opened(session: Session) {
    this.port.sinkOf(session.id)?.modeShown(session.mode);
    return { modes: modeState(session.mode), configOptions: v1ConfigOptions(session.configOptions()) };
  }

  async newSession(params: NewSessionRequest): Promise<NewSessionResponse> {
    const session = await this.core.newSession(params.cwd, params.additionalDirectories, params.mcpServers);
    return { sessionId: session.id, ...this.opened(session) };
  }

  async loadSession(params: LoadSessionRequest): Promise<LoadSessionResponse> {
    // The whole history goes out before the response, as session/load requires.
    const session = await this.core.openSession({
      sessionId: params.sessionId,
      cwd: params.cwd,
      additionalDirectories: params.additionalDirectories,
      mcpServers: params.mcpServers,
      replay: true,
    });
    return this.opened(session);
  }

  async resumeSession(params: ResumeSessionRequest): Promise<ResumeSessionResponse> {
    const session = await this.core.openSession({
      sessionId: params.sessionId,
      cwd: params.cwd,
      additionalDirectories: params.additionalDirectories,
      mcpServers: params.mcpServers ?? [],
      replay: false,
    });
    return this.opened(session);
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

  async setSessionMode(params: SetSessionModeRequest): Promise<Record<string, never>> {
    this.core.session(params.sessionId);
    if (!isModeId(params.modeId)) throw invalidParams(`Unknown mode ${params.modeId}`);
    await this.core.setConfigOption(params.sessionId, 'mode', params.modeId);
    return {};
  }

  async setSessionConfigOption(
    params: SetSessionConfigOptionRequest,
  ): Promise<SetSessionConfigOptionResponse> {
    const options = await this.core.setConfigOption(params.sessionId, params.configId, params.value);
    return { configOptions: v1ConfigOptions(options) };
  }

  async promptSession(params: PromptRequest, ctx: HandlerContext): Promise<PromptResponse> {
    const { done } = this.core.prompt(params.sessionId, params.prompt, ctx.signal);
    return { stopReason: await done };
  }

  cancelSession(params: { sessionId: string }): void {
    this.core.cancel(params.sessionId);
  }
}
