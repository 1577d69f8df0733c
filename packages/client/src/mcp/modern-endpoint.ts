/**
 * One `mcp/message` request answered in MCP 2026-07-28 by the MCP SDK 2.x server, in front of a
 * local server connected session-style (`local-mcp-server.ts`). The SDK does what that version
 * asks of a server: it checks the per-request `_meta` envelope (malformed: -32602, another version:
 * -32022), answers `server/discover` from the local server's handshake, strips the envelope
 * before our handler sees the request, and shapes results (`resultType`, the server's identity).
 *
 * The binding is stateless, so every request gets a connection of its own: the SDK's message entry
 * (`serveStdio` over our one-request transport, which is what it is for: bring your own transport)
 * pins a fresh `Server` to the request's era and it ends with the answer. Every method the
 * local server may know is forwarded to it as is (its answer or its error is the inner outcome).
 */
import type { Client } from '@modelcontextprotocol/client';
import type {
  JSONRPCMessage,
  Result,
  Server,
  ServerContext,
  StandardSchemaV1,
  Transport,
  TransportSendOptions,
} from '@modelcontextprotocol/server';
import { ProtocolError } from '@acp-kit/protocol';
import { McpBindingErrorCode, type McpOutcome, type MessageMcpRequest } from '@acp-kit/protocol/unstable';
import { isRecord } from '../util/json-file.js';

/** Longest a bridged request may run without progress (the agent cancels earlier if it wants). */
const REQUEST_TIMEOUT_MS = 10 * 60 * 1000;

type Params = Record<string, unknown>;

/** What the agent's server must be told of a running request besides its answer. */
export type NotifyAgent = (method: string, params: Params | undefined) => Promise<void>;

/** Any JSON object as a result: the local server's answer is forwarded, not re-validated. */
const ANY_RESULT: StandardSchemaV1<unknown, Result> = {
  '~standard': {
    version: 1,
    vendor: 'acp-kit',
    validate: (value) =>
      isRecord(value) ? { value: value as Result } : { issues: [{ message: 'result is not an object' }] },
  },
};

/**
 * @example
 * const outcome = await serveModernRequest(localClient, 'echo', params, ctx.signal, notify);
 */
export async function serveModernRequest(
  local: Client,
  name: string,
  request: MessageMcpRequest,
  signal: AbortSignal,
  notify: NotifyAgent,
): Promise<McpOutcome> {
  const [{ Server, ProtocolError: McpProtocolError }, { serveStdio }] = await Promise.all([
    import('@modelcontextprotocol/server'),
    import('@modelcontextprotocol/server/stdio'),
  ]);
  /** A failure of the local server's connection (not an answer of it): an outer error. */
  let backendFailure: unknown;
  const factory = (): Server => {
    const instructions = local.getInstructions();
    const server = new Server(local.getServerVersion() ?? { name, version: '' }, {
      capabilities: local.getServerCapabilities() ?? {},
      ...(instructions ? { instructions } : {}),
    });
    server.fallbackRequestHandler = async (inner, ctx) => {
      try {
        return await forward(local, inner.method, inner.params, ctx);
      } catch (error) {
        // The server's own error answer is the inner outcome; a lost or stuck server (the SDK's
        // string-coded SdkError) is the binding's failure.
        if (!(error instanceof McpProtocolError)) backendFailure = error;
        throw error;
      }
    };
    return server;
  };
  const channel = new OneRequestTransport(request.requestId, notify);
  const served = serveStdio(factory, { transport: channel, legacy: 'reject' });
  // The SDK aborts the handler, and so the local request; closing settles the answer after that.
  const cancel = (): void => {
    channel.cancel();
    void served.close();
  };
  signal.addEventListener('abort', cancel, { once: true });
  try {
    const answer = await channel.answer({
      jsonrpc: '2.0',
      id: request.requestId,
      method: request.method,
      ...(request.params ? { params: request.params } : {}),
    });
    if (signal.aborted)
      throw new ProtocolError(McpBindingErrorCode.requestCancelled, 'MCP request cancelled');
    if (backendFailure !== undefined) {
      throw new ProtocolError(
        McpBindingErrorCode.backendFailed,
        backendFailure instanceof Error ? backendFailure.message : String(backendFailure),
      );
    }
    return answer;
  } finally {
    signal.removeEventListener('abort', cancel);
    await served.close();
  }
}

/** One inner request forwarded to the local server, its progress relayed to the agent's token. */
function forward(
  local: Client,
  method: string,
  params: Params | undefined,
  ctx: ServerContext,
): Promise<Result> {
  const token = isRecord(params?._meta) ? params._meta.progressToken : undefined;
  return local.request({ method, ...(params ? { params } : {}) }, ANY_RESULT, {
    signal: ctx.mcpReq.signal,
    timeout: REQUEST_TIMEOUT_MS,
    resetTimeoutOnProgress: true,
    ...(typeof token === 'string' || typeof token === 'number'
      ? {
          onprogress: (progress) =>
            void ctx.mcpReq
              .notify({ method: 'notifications/progress', params: { ...progress, progressToken: token } })
              .catch(() => undefined),
        }
      : {}),
  });
}

/**
 * The SDK server's side of one `mcp/message` request: the request goes in, notifications related
 * to it go to the agent, and the response settles {@link answer}.
 */
class OneRequestTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private settle?: (outcome: McpOutcome) => void;
  private closed = false;

  constructor(
    private readonly requestId: string,
    private readonly notify: NotifyAgent,
  ) {}

  answer(request: JSONRPCMessage): Promise<McpOutcome> {
    return new Promise((resolve) => {
      this.settle = resolve;
      this.onmessage?.(request);
    });
  }

  /** The agent cancelled: the SDK aborts the handler (and so the local request). */
  cancel(): void {
    this.onmessage?.({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: this.requestId },
    });
  }

  start(): Promise<void> {
    return Promise.resolve();
  }

  async send(message: JSONRPCMessage, _options?: TransportSendOptions): Promise<void> {
    if ('id' in message && message.id === this.requestId && !('method' in message)) {
      this.settle?.('result' in message ? { result: message.result } : { error: message.error });
    } else if ('method' in message && !('id' in message)) {
      // Only this request is served here: every notification belongs to it.
      await this.notify(message.method, message.params);
    }
  }

  close(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.closed = true;
    this.settle?.({ error: { code: McpBindingErrorCode.backendFailed, message: 'MCP server closed' } });
    this.onclose?.();
    return Promise.resolve();
  }
}
