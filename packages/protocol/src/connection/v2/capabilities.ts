/**
 * ACP v2: which capability each method or payload needs, as data for the v2 faces.
 *
 * What a connection checks: methods gated by the capabilities the peers exchanged in `initialize`.
 * What it leaves to the application: `tool_call/cancel` and `terminal/cancel` are allowed per tool
 * call or terminal (their own `capabilities.cancel`, which arrives in session updates).
 */
import type {
  ClientCapabilities,
  ContentBlock,
  InitializeResponse,
  McpServer,
} from '../../schema/v2/types.gen.js';
import {
  checkCapabilities,
  checkElicitationMode,
  on,
  refuse,
  type CapabilityGate,
} from '../capability-gate.js';

/** What the agent advertised: its `initialize` answer (nothing before it). */
type Advertised = Partial<InitializeResponse>;
type Rule = readonly [string, (r: Advertised) => boolean];

/** `capabilities.session` omitted or null means the agent supports no `session/*` method at all. */
const session: Rule = ['capabilities.session', (r) => on(r.capabilities?.session)];
/** A non-empty `authMethods` advertises both `auth/login` and `auth/logout`. */
const auth: Rule = ['authMethods', (r) => (r.authMethods?.length ?? 0) > 0];

type SessionSetup = { additionalDirectories?: unknown[]; mcpServers?: McpServer[] } | undefined;

function checkSessionSetup(r: Advertised, params: unknown): void {
  const s = r.capabilities?.session;
  const p = params as SessionSetup;
  if ((p?.additionalDirectories?.length ?? 0) > 0 && !on(s?.additionalDirectories)) {
    refuse('additionalDirectories', 'capabilities.session.additionalDirectories');
  }
  for (const server of p?.mcpServers ?? []) {
    const type = (server as { type?: unknown }).type;
    // v2 makes stdio a capability too; other types are the caller's own extensions.
    if (type === 'stdio' && !on(s?.mcp?.stdio))
      refuse('a stdio MCP server', 'capabilities.session.mcp.stdio');
    if (type === 'http' && !on(s?.mcp?.http)) refuse('an HTTP MCP server', 'capabilities.session.mcp.http');
  }
}

/** What a v2 client may send: checked against the agent's whole `initialize` answer. */
export const V2_AGENT_CAPABILITY_GATE: CapabilityGate<Advertised> = {
  methods: {
    'auth/login': auth,
    'auth/logout': auth,
    'session/new': session,
    'session/list': session,
    'session/resume': session,
    'session/close': session,
    'session/prompt': session,
    'session/cancel': session,
    'session/set_config_option': session,
    'session/delete': ['capabilities.session.delete', (r) => on(r.capabilities?.session?.delete)],
  },
  payloads: {
    'session/new': checkSessionSetup,
    'session/resume': checkSessionSetup,
    'session/prompt': (r, params) => {
      const prompt = r.capabilities?.session?.prompt;
      for (const block of (params as { prompt?: ContentBlock[] } | undefined)?.prompt ?? []) {
        const type = (block as { type?: unknown }).type;
        if (type === 'image' && !on(prompt?.image)) {
          refuse('an image in a prompt', 'capabilities.session.prompt.image');
        }
        if (type === 'audio' && !on(prompt?.audio)) {
          refuse('audio in a prompt', 'capabilities.session.prompt.audio');
        }
        if (type === 'resource' && !on(prompt?.embeddedContext)) {
          refuse('an embedded resource in a prompt', 'capabilities.session.prompt.embeddedContext');
        }
      }
    },
  },
};

/** What a v2 agent may send: v2 clients have no fs or terminal methods; notices need no capability. */
export const V2_CLIENT_CAPABILITY_GATE: CapabilityGate<ClientCapabilities> = {
  payloads: {
    'elicitation/create': (c, params) => checkElicitationMode(c, params, 'capabilities'),
  },
};

/** Throws CAPABILITY_NOT_SUPPORTED unless the v2 agent's `initialize` answer allows `method` with `params`. */
export function assertV2AgentSupports(
  initialize: InitializeResponse | undefined,
  method: string,
  params: unknown,
): void {
  checkCapabilities(V2_AGENT_CAPABILITY_GATE, initialize ?? {}, method, params);
}
