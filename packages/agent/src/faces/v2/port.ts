/**
 * The agent core's view of a v2 client. A v2 client has no files or terminals to lend: the agent
 * reads and writes the disk itself and runs its own terminals (confined and asked about exactly
 * as for any client).
 */
import type { AgentSideConnection, ClientCapabilities, CreateElicitationRequest } from '@acp-kit/protocol/v2';
import type {
  ClientFeatures,
  ClientPort,
  FormAnswer,
  FormQuestion,
  PermissionAnswer,
  PermissionQuestion,
} from '../../core/client-port.js';
import { formAnswer, permissionAnswer } from '../shared.js';
import { V2Sink, v2ToolCall } from './updates.js';

type FormRequest = Extract<CreateElicitationRequest, { mode: 'form' }>;

/**
 * What a v2 client can do, from its `initialize` capabilities (boolean options, message upserts and
 * background work are v2's baseline).
 */
export function v2Features(caps: ClientCapabilities | undefined): ClientFeatures {
  return {
    booleanConfigOptions: true,
    forms: Boolean(caps?.elicitation?.form),
    terminalAuth: Boolean(caps?.auth?.terminal),
    messageUpserts: true,
    backgroundWork: true,
  };
}

export class V2Port implements ClientPort {
  constructor(private readonly connection: AgentSideConnection) {}

  /** MCP-over-ACP travels over this connection (the agent serves v2 with the unstable schema too). */
  get mcpConnection(): AgentSideConnection {
    return this.connection;
  }

  get features(): ClientFeatures {
    return v2Features(this.connection.clientCapabilities);
  }

  get isClosed(): boolean {
    return this.connection.isClosed;
  }

  sink(sessionId: string): V2Sink {
    return new V2Sink(sessionId, this.connection);
  }

  release(): void {
    // A v2 sink keeps nothing per session.
  }

  async requestPermission(
    sessionId: string,
    question: PermissionQuestion,
    signal: AbortSignal,
  ): Promise<PermissionAnswer> {
    const response = await this.connection.requestPermission(
      {
        sessionId,
        title: question.title,
        subject: { type: 'tool_call', toolCall: v2ToolCall(question.toolCall) },
        options: question.options,
      },
      { signal },
    );
    return permissionAnswer(response.outcome, response._meta);
  }

  async askForm(question: FormQuestion, signal: AbortSignal): Promise<FormAnswer> {
    const response = await this.connection.createElicitation(
      {
        mode: 'form',
        requestId: question.requestId,
        message: question.message,
        requestedSchema: question.schema as FormRequest['requestedSchema'],
      },
      { signal },
    );
    return formAnswer(response);
  }
}
