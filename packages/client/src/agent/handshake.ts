/**
 * The handshake: one `initialize` over `connectAgent`, asking for v2 with the v1 fields beside the
 * v2 ones (a v1-only agent reads its own from the same message and answers 1), and the face of the
 * version the agent chose: its handlers, its {@link AgentPort}, and its `initialize` answer in the
 * engine's terms. `protocolVersion` forces one version (the `--protocol` option, a catalog entry).
 */
import type {
  AuthMethod,
  ByteChannel,
  ClientSideConnection,
  Implementation,
  RequestOptions,
  TypedConnection,
  TypedConnectionOptions,
} from '@acp-kit/protocol';
import { connectAgent, type ClientSideConnection as V2ClientSideConnection } from '@acp-kit/protocol/v2';
import { createClientHandlers, type HandlerDeps } from '../protocol-v1/v1-handlers.js';
import { V1Port } from '../protocol-v1/v1-port.js';
import { createV2Handlers, V2Translators, type V2HandlerDeps } from '../protocol-v2/v2-handlers.js';
import { v2AuthMethods, V2Port } from '../protocol-v2/v2-port.js';
import { V2Turns } from '../protocol-v2/v2-turns.js';
import type { AgentPort } from '../session/agent-port.js';
import { clientCapabilities, type AdvertiseOptions } from './capabilities.js';

/** What the negotiated face gives the connection. */
export interface Handshake {
  port: AgentPort;
  /** The connection of the chosen version (extension methods, `closed`). */
  connection: ClientSideConnection | V2ClientSideConnection;
  /** The v1 connection, when v1 was chosen (its `agentCapabilities` as advertised). */
  v1?: ClientSideConnection;
  agentInfo: Implementation | undefined;
  authMethods: AuthMethod[];
  /** Forgets what the face kept about a session that left the connection. */
  forget(agentSessionId: string): void;
}

/** Options of {@link shakeHands}. */
export interface HandshakeOptions extends AdvertiseOptions {
  info: Implementation;
  /** Force this version (default: ask for 2, accept 1). */
  protocolVersion?: 1 | 2;
  connection: TypedConnectionOptions;
  request: RequestOptions;
  /** Called with the connection before anything the agent sent during the handshake reaches it. */
  onConnection?: (connection: TypedConnection) => void;
}

/** Connects to the agent on `channel` in the version it answers. */
export async function shakeHands(
  channel: ByteChannel,
  deps: { v1: HandlerDeps; v2: Omit<V2HandlerDeps, 'turns'> },
  options: HandshakeOptions,
): Promise<Handshake> {
  const turns = new V2Turns();
  const translators = new V2Translators();
  const terminalAuth = options.terminalAuth ?? true;
  const negotiated = await connectAgent(
    channel,
    { v1: createClientHandlers(deps.v1), v2: createV2Handlers({ ...deps.v2, turns }, translators) },
    {
      ...options.connection,
      info: options.info,
      // v2 has no fs or terminals on the client; forms as in v1 (only when the host shows them).
      capabilities: {
        ...(terminalAuth ? { auth: { terminal: {} } } : {}),
        ...(options.forms === false ? {} : { elicitation: { form: {} } }),
      },
      clientCapabilities: clientCapabilities(options),
      ...(options.protocolVersion ? { protocolVersion: options.protocolVersion } : {}),
      request: options.request,
      ...(options.onConnection ? { onConnection: options.onConnection } : {}),
    },
  );
  if (negotiated.version === 1) {
    const v1 = negotiated.connection;
    const init = v1.initializeResponse;
    return {
      port: new V1Port(v1),
      connection: v1,
      v1,
      agentInfo: init?.agentInfo ?? undefined,
      authMethods: init?.authMethods ?? [],
      forget: () => undefined,
    };
  }
  const v2 = negotiated.connection;
  const init = v2.initializeResponse;
  return {
    port: new V2Port(v2, turns, translators),
    connection: v2,
    agentInfo: init?.info,
    authMethods: v2AuthMethods(init?.authMethods),
    forget: (agentSessionId) => translators.forget(agentSessionId),
  };
}
