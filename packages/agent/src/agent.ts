/**
 * Serving the agent: one connection answered in the protocol version its client asks for (v1 or
 * the v2 draft, see `serveAgent` in `@acp-kit/protocol/v2`), each by its face over the one
 * version-neutral core (`core/agent-core.ts`). The model agent and the demo agent differ only in
 * their turn engine.
 */
import type { ByteChannel } from '@acp-kit/protocol';
import { serveAgent as serveBothVersions, type ServedAgent } from '@acp-kit/protocol/v2';
import type { AgentCore, AgentOptions } from './core/agent-core.js';
import { V1Face } from './faces/v1/handlers.js';
import { V2Face } from './faces/v2/handlers.js';

export type { AgentOptions, McpConnector, McpSessionHandle } from './core/agent-core.js';

/** A connection the agent serves. */
export interface ServedAcpAgent {
  /** The connection underneath (its `negotiated` face once the client's `initialize` arrived). */
  readonly served: ServedAgent;
  /** Resolves once the connection ended and every session's work stopped. */
  readonly closed: Promise<void>;
  close(): Promise<void>;
}

/**
 * Serves ACP on `channel` until it closes, in v1 or v2 as the client asks.
 *
 * @example
 * const agent = serveAgent(stdioChannel(), { engine: new DemoEngine(), dataDir: resolveDataDir() });
 * await agent.closed;
 */
export function serveAgent(channel: ByteChannel, options: AgentOptions): ServedAcpAgent {
  let core: AgentCore | undefined;
  const served = serveBothVersions(
    onInputEnd(channel, () => core?.inputEnded()),
    {
      v1: (connection) => {
        const face = new V1Face(connection, options);
        core = face.core;
        return face;
      },
      v2: (connection) => {
        const face = new V2Face(connection, options);
        core = face.core;
        return face;
      },
    },
    // Unstable schema: `type: "acp"` MCP servers and `mcp/message` (see mcp/acp-transport.ts).
    {
      logger: options.logger,
      peerName: 'client',
      validateOutgoing: options.validateOutgoing,
      unstable: true,
    },
  );
  const closed = served.closed.then(() => core?.shutdown());
  return { served, closed, close: () => served.close() };
}

/**
 * `channel`, calling `onEnd` as soon as its input ends. The connection still answers what it has
 * received after that (a script may pipe requests in and read the answers), but the client will
 * send nothing more, not even `session/cancel`: running turns must not go on for it. Only `start`
 * is replaced, on the channel itself, so that everything else it offers stays as it is.
 */
function onInputEnd(channel: ByteChannel, onEnd: () => void): ByteChannel {
  const start = channel.start.bind(channel);
  channel.start = (sink) =>
    start({
      data: (chunk) => sink.data(chunk),
      end: (details) => {
        onEnd();
        sink.end(details);
      },
    });
  return channel;
}
