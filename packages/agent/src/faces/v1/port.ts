/** The agent core's view of a v1 client: its capabilities, questions, files and terminals. */
import type { AgentSideConnection, CreateElicitationRequest, Logger } from '@acp-kit/protocol';
import type {
  ClientFeatures,
  ClientFiles,
  ClientPort,
  ClientTerminals,
  FormAnswer,
  FormQuestion,
  PermissionAnswer,
  PermissionQuestion,
} from '../../core/client-port.js';
import { runInClientTerminal } from './client-terminal.js';
import { formAnswer, permissionAnswer } from '../shared.js';
import { V1Sink, passTerminal, v1ToolCall } from './updates.js';

type FormRequest = Extract<CreateElicitationRequest, { mode: 'form' }>;

/**
 * Made with the connection, before the client's `initialize` was read: what depends on its
 * capabilities is worked out when asked.
 */
export class V1Port implements ClientPort {
  private readonly sinks = new Map<string, V1Sink>();

  constructor(
    private readonly connection: AgentSideConnection,
    private readonly logger: Logger,
  ) {}

  /** MCP-over-ACP travels over this connection (the agent serves v1 with the unstable schema). */
  get mcpConnection(): AgentSideConnection {
    return this.connection;
  }

  get files(): ClientFiles | undefined {
    const fs = this.connection.clientCapabilities?.fs;
    const canRead = fs?.readTextFile === true;
    const canWrite = fs?.writeTextFile === true;
    if (!canRead && !canWrite) return undefined;
    const connection = this.connection;
    return {
      canRead,
      canWrite,
      async read(sessionId, path, range, signal) {
        const response = await connection.readTextFile(
          { sessionId, path, line: range.line ?? null, limit: range.limit ?? null },
          { signal },
        );
        return response.content;
      },
      async write(sessionId, path, content, signal) {
        await connection.writeTextFile({ sessionId, path, content }, { signal });
      },
    };
  }

  get terminals(): ClientTerminals | undefined {
    if (this.connection.clientCapabilities?.terminal !== true) return undefined;
    return { run: (options) => runInClientTerminal(this.connection, options) };
  }

  get features(): ClientFeatures {
    const caps = this.connection.clientCapabilities;
    return {
      booleanConfigOptions: Boolean(caps?.session?.configOptions?.boolean),
      forms: Boolean(caps?.elicitation?.form),
      terminalAuth: Boolean(caps?.auth?.terminal),
      // v1 has chunks only, and no notion of work beyond the prompt's answer.
      messageUpserts: false,
      backgroundWork: false,
    };
  }

  get isClosed(): boolean {
    return this.connection.isClosed;
  }

  sink(sessionId: string): V1Sink {
    const caps = this.connection.clientCapabilities;
    const sink = new V1Sink(
      sessionId,
      this.connection,
      {
        notices: Boolean(caps?.session?.notices),
        compaction: Boolean(caps?.session?.compaction),
        terminalMeta: caps?._meta?.terminal_output === true,
      },
      this.logger,
    );
    this.sinks.set(sessionId, sink);
    return sink;
  }

  /** The sink of a live session (the handlers tell it what a session response showed). */
  sinkOf(sessionId: string): V1Sink | undefined {
    return this.sinks.get(sessionId);
  }

  release(sessionId: string): void {
    this.sinks.get(sessionId)?.dispose();
    this.sinks.delete(sessionId);
  }

  async requestPermission(
    sessionId: string,
    question: PermissionQuestion,
    signal: AbortSignal,
  ): Promise<PermissionAnswer> {
    const response = await this.connection.requestPermission(
      { sessionId, toolCall: v1ToolCall(question.toolCall, passTerminal), options: question.options },
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
