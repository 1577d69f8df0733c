/**
 * Which capability each method or payload needs, checked before sending so that we never call
 * what the peer did not advertise.
 */
import { AcpKitError } from '../jsonrpc/errors.js';
import type {
  AgentCapabilities,
  ClientCapabilities,
  ContentBlock,
  McpServer,
  SessionUpdate,
} from '../schema/types.gen.js';

/** Set-like markers: ACP uses `{}` (or `true`) for "supported", absent/null/false for not. */
function on(value: unknown): boolean {
  return value !== undefined && value !== null && value !== false;
}

function refuse(what: string, capability: string): never {
  throw new AcpKitError(
    'CAPABILITY_NOT_SUPPORTED',
    `The peer did not advertise ${capability}, so ${what} cannot be used`,
    { capability },
  );
}

/** Agent capability each client → agent method needs (methods not listed need none). */
const AGENT_METHOD_CAPABILITY: Record<string, [string, (c: AgentCapabilities) => boolean]> = {
  logout: ['agentCapabilities.auth.logout', (c) => on(c.auth?.logout)],
  'session/load': ['agentCapabilities.loadSession', (c) => c.loadSession === true],
  'session/list': ['agentCapabilities.sessionCapabilities.list', (c) => on(c.sessionCapabilities?.list)],
  'session/resume': [
    'agentCapabilities.sessionCapabilities.resume',
    (c) => on(c.sessionCapabilities?.resume),
  ],
  'session/close': ['agentCapabilities.sessionCapabilities.close', (c) => on(c.sessionCapabilities?.close)],
  'session/delete': [
    'agentCapabilities.sessionCapabilities.delete',
    (c) => on(c.sessionCapabilities?.delete),
  ],
};

/** Client capability each agent → client method needs. */
const CLIENT_METHOD_CAPABILITY: Record<string, [string, (c: ClientCapabilities) => boolean]> = {
  'fs/read_text_file': ['clientCapabilities.fs.readTextFile', (c) => c.fs?.readTextFile === true],
  'fs/write_text_file': ['clientCapabilities.fs.writeTextFile', (c) => c.fs?.writeTextFile === true],
  'terminal/create': ['clientCapabilities.terminal', (c) => c.terminal === true],
  'terminal/output': ['clientCapabilities.terminal', (c) => c.terminal === true],
  'terminal/wait_for_exit': ['clientCapabilities.terminal', (c) => c.terminal === true],
  'terminal/kill': ['clientCapabilities.terminal', (c) => c.terminal === true],
  'terminal/release': ['clientCapabilities.terminal', (c) => c.terminal === true],
};

/** Throws CAPABILITY_NOT_SUPPORTED unless the agent advertised what `method` with `params` needs. */
export function assertAgentSupports(
  caps: AgentCapabilities | undefined,
  method: string,
  params: unknown,
): void {
  const c = caps ?? {};
  const gate = AGENT_METHOD_CAPABILITY[method];
  if (gate && !gate[1](c)) refuse(method, gate[0]);
  const p = (params ?? {}) as {
    additionalDirectories?: unknown[];
    mcpServers?: McpServer[];
    prompt?: ContentBlock[];
  };
  if (method === 'session/new' || method === 'session/load' || method === 'session/resume') {
    if ((p.additionalDirectories?.length ?? 0) > 0 && !on(c.sessionCapabilities?.additionalDirectories)) {
      refuse('additionalDirectories', 'agentCapabilities.sessionCapabilities.additionalDirectories');
    }
    for (const server of p.mcpServers ?? []) {
      const type = (server as { type?: unknown }).type;
      if (type === 'http' && c.mcpCapabilities?.http !== true)
        refuse('an HTTP MCP server', 'mcpCapabilities.http');
      if (type === 'sse' && c.mcpCapabilities?.sse !== true)
        refuse('an SSE MCP server', 'mcpCapabilities.sse');
    }
  }
  if (method === 'session/prompt') {
    for (const block of p.prompt ?? []) {
      const type = (block as { type?: unknown }).type;
      if (type === 'image' && c.promptCapabilities?.image !== true) {
        refuse('an image in a prompt', 'promptCapabilities.image');
      }
      if (type === 'audio' && c.promptCapabilities?.audio !== true) {
        refuse('audio in a prompt', 'promptCapabilities.audio');
      }
      if (type === 'resource' && c.promptCapabilities?.embeddedContext !== true) {
        refuse('an embedded resource in a prompt', 'promptCapabilities.embeddedContext');
      }
    }
  }
}

/** Throws CAPABILITY_NOT_SUPPORTED unless the client advertised what `method` with `params` needs. */
export function assertClientSupports(
  caps: ClientCapabilities | undefined,
  method: string,
  params: unknown,
): void {
  const c = caps ?? {};
  const gate = CLIENT_METHOD_CAPABILITY[method];
  if (gate && !gate[1](c)) refuse(method, gate[0]);
  if (method === 'elicitation/create') {
    const mode = (params as { mode?: unknown } | undefined)?.mode;
    if (mode === 'url' ? !on(c.elicitation?.url) : !on(c.elicitation?.form)) {
      refuse(
        `elicitation (${String(mode)} mode)`,
        `clientCapabilities.elicitation.${mode === 'url' ? 'url' : 'form'}`,
      );
    }
  }
  if (method === 'session/update') {
    const kind = (params as { update?: SessionUpdate } | undefined)?.update?.sessionUpdate;
    if (kind === 'notice' && !on(c.session?.notices))
      refuse('a notice update', 'clientCapabilities.session.notices');
    if ((kind === 'compaction_update' || kind === 'compaction_summary_chunk') && !on(c.session?.compaction)) {
      refuse(`a ${kind}`, 'clientCapabilities.session.compaction');
    }
  }
}

/** Whether the client can take `update` (notices and compaction need their capabilities). */
export function clientAccepts(caps: ClientCapabilities | undefined, update: SessionUpdate): boolean {
  try {
    assertClientSupports(caps, 'session/update', { update });
    return true;
  } catch {
    return false;
  }
}
