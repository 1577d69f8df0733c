/**
 * The `trace` proxy of a chain: records every message between the client and the agent, secrets
 * redacted, in the format of a session's `trace.jsonl` (`{t, dir, frame}` per line, `out` towards
 * the agent, `in` from it), so the tools that read session traces read it too.
 *
 * Frames are recorded as the agent's side of the conversation sees them: `proxy/initialize` as
 * `initialize`, envelopes opened, each request with its id on the hop it arrived by and its answer
 * under the same id, and a cancelled request followed by its `$/cancel_request`.
 */
import { ProtocolError, type ByteChannel, type FrameDirection, type RequestId } from '@acp-kit/protocol';
import { runProxy, type Interceptor, type RunningProxy } from '@acp-kit/protocol/unstable';
import { traceLine, TraceWriter } from '../persistence/trace.js';

/** A running trace proxy; `done` resolves once the chain ended and the file is complete. */
export interface TraceProxy {
  readonly proxy: RunningProxy;
  readonly done: Promise<void>;
}

/**
 * Serves the trace proxy on `channel`, appending to the trace file at `path` (created 0600).
 *
 * @example
 * const { done } = await startTraceProxy(stdioChannel(), 'chain-trace.jsonl');
 * await done;
 */
export async function startTraceProxy(channel: ByteChannel, path: string): Promise<TraceProxy> {
  const writer = await TraceWriter.openFile(path);
  const record = (direction: FrameDirection, frame: Record<string, unknown>): void => {
    const message = { jsonrpc: '2.0', ...frame };
    writer.write(traceLine(direction, JSON.stringify(message), message));
  };
  // A message travelling in `towards` direction; its answer travels back the other way.
  const recorder =
    (towards: FrameDirection): Interceptor =>
    async (message, forward) => {
      const back: FrameDirection = towards === 'out' ? 'in' : 'out';
      const params = message.params === undefined ? {} : { params: message.params };
      if (message.kind === 'notification' || message.id === undefined) {
        record(towards, { method: message.method, ...params });
        return forward();
      }
      const id: RequestId = message.id;
      record(towards, { id, method: message.method, ...params });
      message.signal?.addEventListener('abort', () => {
        const reason: unknown = message.signal?.reason;
        if (reason instanceof ProtocolError && reason.code === -32800)
          record(towards, { method: '$/cancel_request', params: { requestId: id } });
      });
      try {
        const result = await forward();
        record(back, { id, result });
        return result;
      } catch (error) {
        // A cancelled request is answered -32800 by the engine, whatever the forward rejected with.
        const sent = message.signal?.aborted ? ProtocolError.requestCancelled() : error;
        if (sent instanceof ProtocolError) {
          const answer = { code: sent.code, message: sent.message };
          record(back, { id, error: sent.data === undefined ? answer : { ...answer, data: sent.data } });
        }
        throw error;
      }
    };
  const proxy = runProxy(channel, { fromClient: recorder('out'), fromAgent: recorder('in') });
  const done = proxy.closed.then(() => writer.close());
  return { proxy, done };
}
