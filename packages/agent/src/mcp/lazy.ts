/** An MCP connector that loads the MCP SDK only when a session actually has servers. */
import type { Logger, McpServer } from '@acp-kit/protocol';
import type { McpConnector, McpSessionHandle } from '../agent.js';
import type { Session } from '../session/session.js';
import type { AgentTool } from '../tools/types.js';

/**
 * @example
 * serveAgent(channel, { engine, dataDir, mcp: lazyMcpServers(logger) });
 */
export function lazyMcpServers(logger: Logger): McpConnector {
  return {
    start(session: Session, servers: readonly McpServer[]): McpSessionHandle {
      const inner = import('./mcp-connector.js').then(({ McpServers }) =>
        new McpServers(logger).start(session, servers),
      );
      let loaded: McpSessionHandle | undefined;
      const ready = inner.then(async (handle) => {
        loaded = handle;
        await handle.ready;
      });
      return {
        ready,
        tools: (): AgentTool[] => loaded?.tools() ?? [],
        report: async () => (await inner).report(),
        stop: async () => (await inner).stop(),
      };
    },
  };
}
