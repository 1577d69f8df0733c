/**
 * ACP v1: which capability each method or payload needs, checked before sending so that we never
 * call what the peer did not advertise. The tables are data ({@link CapabilityGate}); the typed
 * connections apply them.
 */
import type {
  AgentCapabilities,
  ClientCapabilities,
  ContentBlock,
  McpServer,
  SessionUpdate,
} from '../schema/types.gen.js';
import {
  checkCapabilities,
  checkElicitationMode,
  on,
  refuse,
  type CapabilityGate,
} from './capability-gate.js';

type SessionSetup = { additionalDirectories?: unknown[]; mcpServers?: McpServer[] } | undefined;

function checkSessionSetup(c: AgentCapabilities, params: unknown): void {
  const p = params as SessionSetup;
  if ((p?.additionalDirectories?.length ?? 0) > 0 && !on(c.sessionCapabilities?.additionalDirectories)) {
    refuse('additionalDirectories', 'agentCapabilities.sessionCapabilities.additionalDirectories');
  }
  for (const server of p?.mcpServers ?? []) {
    const type = (server as { type?: unknown }).type;
    if (type === 'http' && c.mcpCapabilities?.http !== true)
      refuse('an HTTP MCP server', 'mcpCapabilities.http');
    if (type === 'sse' && c.mcpCapabilities?.sse !== true) refuse('an SSE MCP server', 'mcpCapabilities.sse');
    // Unstable MCP-over-ACP: the stable schema has no `acp` flag, hence the widened read.
    if (type === 'acp' && (c.mcpCapabilities as { acp?: unknown } | undefined)?.acp !== true)
      refuse('an MCP server over ACP', 'mcpCapabilities.acp');
  }
}

/** What a v1 client may send: agent capability each client → agent method needs. */
export const V1_AGENT_CAPABILITY_GATE: CapabilityGate<AgentCapabilities> = {
  methods: {
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
  },
  payloads: {
    'session/new': checkSessionSetup,
    'session/load': checkSessionSetup,
    'session/resume': checkSessionSetup,
    'session/prompt': (c, params) => {
      for (const block of (params as { prompt?: ContentBlock[] } | undefined)?.prompt ?? []) {
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
    },
  },
};

const terminal: CapabilityRule = ['clientCapabilities.terminal', (c) => c.terminal === true];
type CapabilityRule = readonly [string, (c: ClientCapabilities) => boolean];

/** What a v1 agent may send: client capability each agent → client method needs. */
export const V1_CLIENT_CAPABILITY_GATE: CapabilityGate<ClientCapabilities> = {
  methods: {
    'fs/read_text_file': ['clientCapabilities.fs.readTextFile', (c) => c.fs?.readTextFile === true],
    'fs/write_text_file': ['clientCapabilities.fs.writeTextFile', (c) => c.fs?.writeTextFile === true],
    'terminal/create': terminal,
    'terminal/output': terminal,
    'terminal/wait_for_exit': terminal,
    'terminal/kill': terminal,
    'terminal/release': terminal,
  },
  payloads: {
    'elicitation/create': (c, params) => checkElicitationMode(c, params, 'clientCapabilities'),
    'session/update': (c, params) => {
      const kind = (params as { update?: SessionUpdate } | undefined)?.update?.sessionUpdate;
      if (kind === 'notice' && !on(c.session?.notices))
        refuse('a notice update', 'clientCapabilities.session.notices');
      if (
        (kind === 'compaction_update' || kind === 'compaction_summary_chunk') &&
        !on(c.session?.compaction)
      ) {
        refuse(`a ${kind}`, 'clientCapabilities.session.compaction');
      }
    },
  },
};

/** Throws CAPABILITY_NOT_SUPPORTED unless the agent advertised what `method` with `params` needs. */
export function assertAgentSupports(
  caps: AgentCapabilities | undefined,
  method: string,
  params: unknown,
): void {
  checkCapabilities(V1_AGENT_CAPABILITY_GATE, caps ?? {}, method, params);
}

/** Throws CAPABILITY_NOT_SUPPORTED unless the client advertised what `method` with `params` needs. */
export function assertClientSupports(
  caps: ClientCapabilities | undefined,
  method: string,
  params: unknown,
): void {
  checkCapabilities(V1_CLIENT_CAPABILITY_GATE, caps ?? {}, method, params);
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
