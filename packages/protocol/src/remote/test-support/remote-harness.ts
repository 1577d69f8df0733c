/** A remote server with scripted agents on 127.0.0.1, and a client over a remote channel, for tests. */
import { ClientSideConnection, type ClientHandlers, type SessionNotification } from '@acp-kit/protocol';
import { RemoteServer, type RemoteServerOptions } from '../server.js';
import type { RemoteServerLimits } from '../server-connection.js';
import { listenRemote, type ListenRemoteOptions, type RemoteListener } from '../node/listen.js';
import { connectRemoteAgent } from '../node/index.js';
import type { RemoteChannel, RemoteClientOptions, RemoteEvent } from '../client-types.js';
import { scriptedAgent, type ScriptedAgentControl } from './scripted-agent.js';

export interface Harness {
  server: RemoteServer;
  listener: RemoteListener;
  /** Control of each agent started, in order. */
  agents: ScriptedAgentControl[];
  close(): Promise<void>;
}

export async function startHarness(
  options: {
    limits?: Partial<RemoteServerLimits>;
    listen?: ListenRemoteOptions;
    gate?: ScriptedAgentControl['gate'];
  } & Partial<Pick<RemoteServerOptions, 'onConnectionClosed'>> = {},
): Promise<Harness> {
  const agents: ScriptedAgentControl[] = [];
  const server = new RemoteServer({
    startAgent: () => {
      const { agent, control } = scriptedAgent({ gate: options.gate });
      agents.push(control);
      return agent;
    },
    limits: options.limits,
    onConnectionClosed: options.onConnectionClosed,
  });
  const listener = await listenRemote(server, options.listen);
  return { server, listener, agents, close: () => listener.close() };
}

export interface TestClient {
  channel: RemoteChannel;
  connection: ClientSideConnection;
  events: RemoteEvent[];
  /** The text of every agent_message_chunk, in arrival order. */
  texts: string[];
  updates: SessionNotification[];
  /** Resolves when `texts` has `n` entries. */
  textCount(n: number): Promise<void>;
  /** Resolves at the next event of this type. */
  nextEvent(type: RemoteEvent['type']): Promise<RemoteEvent>;
}

export async function connectClient(
  url: string,
  options: RemoteClientOptions = {},
  handlers: Partial<ClientHandlers> = {},
): Promise<TestClient> {
  const events: RemoteEvent[] = [];
  const eventWaiters: { type: RemoteEvent['type']; resolve: (event: RemoteEvent) => void }[] = [];
  const texts: string[] = [];
  const updates: SessionNotification[] = [];
  const countWaiters: { n: number; resolve: () => void }[] = [];
  const channel = await connectRemoteAgent(url, {
    ...options,
    onEvent: (event) => {
      events.push(event);
      for (const waiter of eventWaiters.filter((w) => w.type === event.type)) {
        eventWaiters.splice(eventWaiters.indexOf(waiter), 1);
        waiter.resolve(event);
      }
      options.onEvent?.(event);
    },
  });
  const connection = new ClientSideConnection(channel, {
    sessionUpdate: (params) => {
      updates.push(params);
      const update = params.update as { sessionUpdate?: string; content?: { type?: string; text?: string } };
      if (update.sessionUpdate === 'agent_message_chunk' && update.content?.type === 'text')
        texts.push(update.content.text ?? '');
      for (const waiter of countWaiters.filter((w) => texts.length >= w.n)) {
        countWaiters.splice(countWaiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    },
    requestPermission: async () => ({ outcome: { outcome: 'selected', optionId: 'yes' } }),
    ...handlers,
  });
  connection.start();
  return {
    channel,
    connection,
    events,
    texts,
    updates,
    textCount: (n) =>
      texts.length >= n ? Promise.resolve() : new Promise((resolve) => countWaiters.push({ n, resolve })),
    nextEvent: (type) => new Promise((resolve) => eventWaiters.push({ type, resolve })),
  };
}

/** initialize + session/new. */
export async function openSession(
  client: TestClient,
  capabilities: Record<string, unknown> = {},
): Promise<string> {
  await client.connection.initialize({ protocolVersion: 1, clientCapabilities: capabilities });
  const { sessionId } = await client.connection.newSession({ cwd: '/tmp', mcpServers: [] });
  return sessionId;
}

export function prompt(client: TestClient, sessionId: string, text: string) {
  return client.connection.promptSession({ sessionId, prompt: [{ type: 'text', text }] });
}

/** An `initialize` request as a client sends it first (id 0). */
export const INITIALIZE_FRAME = JSON.stringify({
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: 1, clientCapabilities: {} },
});

/** The rejection of `promise` (undefined when it resolves). */
export async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (error: unknown) => error,
  );
}

/** Resolves once `check()` holds, looking again after each turn of the event loop (no timers). */
export async function waitFor(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setImmediate(resolve));
}
