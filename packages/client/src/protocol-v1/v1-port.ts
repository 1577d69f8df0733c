/**
 * The v1 face, requests: the session's {@link AgentPort} over a v1 `ClientSideConnection`. A turn
 * ends with the prompt's answer; reopening is `session/load` (replay) or `session/resume`.
 */
import type {
  AgentCapabilities,
  ClientSideConnection,
  ContentBlock,
  ListSessionsRequest,
  ListSessionsResponse,
  StopReason,
} from '@acp-kit/protocol';
import { ClientError } from '../errors.js';
import type { SessionConfigOption } from '../model/content.js';
import type {
  AgentFeatures,
  AgentPort,
  OpenedSession,
  PortRequestOptions,
  SessionSetup,
} from '../session/agent-port.js';
import { setupParams } from '../session/agent-port.js';

/** What a v1 agent's capabilities mean for the engine. */
export function v1Features(caps: AgentCapabilities): AgentFeatures {
  const sessions = caps.sessionCapabilities;
  return {
    protocolVersion: 1,
    load: caps.loadSession === true,
    resume: sessions?.resume != null,
    list: sessions?.list != null,
    close: sessions?.close != null,
    delete: sessions?.delete != null,
    prompt: {
      image: caps.promptCapabilities?.image === true,
      audio: caps.promptCapabilities?.audio === true,
      embeddedContext: caps.promptCapabilities?.embeddedContext === true,
    },
    // Every v1 agent takes stdio servers.
    mcp: {
      stdio: true,
      http: caps.mcpCapabilities?.http === true,
      sse: caps.mcpCapabilities?.sse === true,
      // `acp` is in the unstable schema only.
      acp: (caps.mcpCapabilities as { acp?: unknown } | undefined)?.acp === true,
    },
    cancelOne: false,
  };
}

/** A v1 connection as a session's port. */
export class V1Port implements AgentPort {
  readonly features: AgentFeatures;

  constructor(readonly connection: ClientSideConnection) {
    this.features = v1Features(connection.agentCapabilities);
  }

  get isClosed(): boolean {
    return this.connection.isClosed;
  }

  get closed() {
    return this.connection.closed;
  }

  async newSession(setup: SessionSetup, options?: PortRequestOptions) {
    return this.connection.newSession(setupParams(setup), options);
  }

  async loadSession(
    sessionId: string,
    setup: SessionSetup,
    options?: PortRequestOptions,
  ): Promise<OpenedSession> {
    return this.connection.loadSession({ sessionId, ...setupParams(setup) }, options);
  }

  async resumeSession(
    sessionId: string,
    setup: SessionSetup,
    options?: PortRequestOptions,
  ): Promise<OpenedSession> {
    return this.connection.resumeSession({ sessionId, ...setupParams(setup) }, options);
  }

  listSessions(params: ListSessionsRequest): Promise<ListSessionsResponse> {
    return this.connection.listSessions(params);
  }

  async closeSession(sessionId: string, options?: PortRequestOptions): Promise<void> {
    await this.connection.closeSession({ sessionId }, options);
  }

  async deleteSession(sessionId: string): Promise<void> {
    await this.connection.deleteSession({ sessionId });
  }

  async prompt(sessionId: string, prompt: ContentBlock[]): Promise<{ stopReason: StopReason }> {
    const { stopReason } = await this.connection.promptSession({ sessionId, prompt });
    return { stopReason };
  }

  cancel(sessionId: string): Promise<void> {
    return this.connection.cancelSession({ sessionId });
  }

  cancelToolCall(): Promise<void> {
    return Promise.reject(notInV1('cancelling one tool call'));
  }

  cancelTerminal(): Promise<void> {
    return Promise.reject(notInV1('cancelling one terminal'));
  }

  async setMode(sessionId: string, modeId: string): Promise<void> {
    await this.connection.setSessionMode({ sessionId, modeId });
  }

  async setConfigOption(
    sessionId: string,
    configId: string,
    value: string | boolean,
  ): Promise<SessionConfigOption[]> {
    const response =
      typeof value === 'boolean'
        ? await this.connection.setSessionConfigOption({ sessionId, configId, type: 'boolean', value })
        : await this.connection.setSessionConfigOption({ sessionId, configId, value });
    return response.configOptions;
  }

  async authenticate(
    methodId: string,
    meta: Record<string, unknown> | undefined,
    options?: PortRequestOptions,
  ): Promise<void> {
    await this.connection.authenticate({ methodId, ...(meta ? { _meta: meta } : {}) }, options);
  }
}

function notInV1(what: string): Error {
  return new ClientError('CAPABILITY_NOT_SUPPORTED', `${what} needs ACP v2; this agent speaks v1`);
}
