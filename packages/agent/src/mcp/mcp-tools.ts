/**
 * An MCP server's tools as agent tools: offered to the model under `mcp__<server>__<tool>`, run
 * through the same permission and tool-call reporting as the built-in tools.
 */
import { ProtocolError, type Client } from '@modelcontextprotocol/client';
import type { ContentBlock } from '@acp-kit/protocol';
import type { ToolContent } from '../core/events.js';
import { ToolError, type AgentTool } from '../tools/types.js';
import { clip } from '../util/text.js';

/** What `tools/list` says about one tool (the fields we use). */
export interface McpToolInfo {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  annotations?: { title?: string; readOnlyHint?: boolean };
}

/** Longest time an MCP tool may run without reporting progress. */
const MCP_CALL_TIMEOUT_MS = 10 * 60 * 1000;

/** `mcp__<server>__<tool>`, restricted to what model APIs accept in tool names. */
export function mcpToolName(server: string, tool: string): string {
  return `mcp__${server}__${tool}`.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64);
}

/** MCP content blocks are ACP content blocks (ACP reuses MCP's shapes); unknown ones become text. */
function toAcpContent(item: Record<string, unknown>): ToolContent {
  const type = item.type;
  let block: ContentBlock;
  if (
    type === 'text' ||
    type === 'image' ||
    type === 'audio' ||
    type === 'resource_link' ||
    type === 'resource'
  ) {
    block = item as ContentBlock;
  } else {
    block = { type: 'text', text: `[${String(type)} content]` };
  }
  return { type: 'content', content: block };
}

function textOf(items: readonly Record<string, unknown>[]): string {
  return items
    .map((item) => {
      if (item.type === 'text') return String(item.text);
      if (item.type === 'resource') {
        const resource = item.resource as { uri?: string; text?: string } | undefined;
        return resource?.text ?? `[resource ${resource?.uri ?? ''}]`;
      }
      return `[${String(item.type)} content]`;
    })
    .join('\n');
}

/** Wraps one MCP tool of `server`. */
export function mcpTool(
  server: string,
  client: Client,
  info: McpToolInfo,
): AgentTool<Record<string, unknown>> {
  const readOnly = info.annotations?.readOnlyHint === true;
  const title = info.annotations?.title ?? info.title ?? info.name;
  return {
    name: mcpToolName(server, info.name),
    description: `${info.description ?? title} (MCP server "${server}")`,
    kind: readOnly ? 'read' : 'other',
    readOnly,
    inputJsonSchema: info.inputSchema,
    parseInput(raw) {
      const input = raw ?? {};
      if (typeof input !== 'object' || Array.isArray(input))
        throw new ToolError(`${info.name} takes an object`);
      return input as Record<string, unknown>;
    },
    async prepare(input) {
      return {
        title: `${server}: ${title}`,
        // Servers mark safe tools read-only; everything else asks (per mode) like an edit would.
        permission: readOnly
          ? { action: 'mcp-read', outside: false }
          : {
              action: 'mcp',
              outside: false,
              key: `mcp:${server}:${info.name}`,
              scope: `${server} "${info.name}" calls`,
            },
        async execute({ signal }) {
          const result = await client
            .callTool(
              { name: info.name, arguments: input },
              { signal, timeout: MCP_CALL_TIMEOUT_MS, resetTimeoutOnProgress: true },
            )
            .catch((error: unknown) => {
              // The server's own error answer is the tool's failure, not ours.
              throw error instanceof ProtocolError && !signal.aborted ? new ToolError(error.message) : error;
            });
          const items = (Array.isArray(result.content) ? result.content : []) as Record<string, unknown>[];
          const output = textOf(items) || JSON.stringify(result.structuredContent ?? {});
          return {
            output: clip(output, 50_000),
            content: items.map(toAcpContent),
            rawOutput: result.structuredContent ?? { content: items },
            failed: result.isError === true,
          };
        },
      };
    },
  };
}
