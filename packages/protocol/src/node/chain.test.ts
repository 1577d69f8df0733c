/**
 * Proxy chains over real processes: two proxies written with runProxy in front of an agent, the
 * conductor in this process. Initialization as the RFD says, prompts and updates both ways, a
 * permission request travelling back through the proxies, cancellation through the chain, and
 * no orphans when a component dies mid-turn or the client leaves.
 */
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { JsonRpcConnection } from '../jsonrpc/connection.js';
import { ProtocolError } from '../jsonrpc/errors.js';
import { createChannelPair } from '../transport/memory.js';
import { startChain, type ChainCommand, type RunningChain } from './chain.js';
import { fixture, isAlive } from './test-support/helpers.js';

const require = createRequire(import.meta.url);
const TSX = pathToFileURL(require.resolve('tsx')).href;
const fromSource = (file: string, args: string[] = []): ChainCommand => ({
  command: process.execPath,
  args: ['--conditions=@acp-kit/source', `--import=${TSX}`, fixture(file), ...args],
});
const tagProxy = (name: string, ...flags: string[]) => ({
  ...fromSource('tag-proxy.ts', [name, ...flags]),
  name: `proxy ${name}`,
});
const agent = { ...fromSource('chain-agent.ts'), name: 'agent' };

let chains: RunningChain[] = [];
afterEach(async () => {
  await Promise.all(chains.map((chain) => chain.stop()));
  chains = [];
});

interface Update {
  update: { content: { text: string } };
}

function connect(components: ChainCommand[]) {
  const [clientSide, conductorSide] = createChannelPair();
  const chain = startChain(conductorSide, components, { graceMs: 500 });
  chains.push(chain);
  const client = new JsonRpcConnection(clientSide, { peerName: 'agent' });
  const texts: string[] = [];
  const updated: Array<(text: string) => void> = [];
  client.onNotification('session/update', (params) => {
    const text = (params as Update).update.content.text;
    texts.push(text);
    for (const listener of updated) listener(text);
  });
  client.onRequest('session/request_permission', () => ({
    outcome: { outcome: 'selected', optionId: 'yes' },
  }));
  client.start();
  const nextUpdate = (match: string) =>
    new Promise<void>((resolve) => updated.push((text) => text.includes(match) && resolve()));
  return { chain, client, texts, nextUpdate };
}

async function openSession(client: JsonRpcConnection, name = 'chain-agent+B+A'): Promise<string> {
  const init = (await client.request('initialize', { protocolVersion: 1, clientCapabilities: {} })) as {
    agentInfo: { name: string };
  };
  expect(init.agentInfo.name).toBe(name);
  const { sessionId } = (await client.request('session/new', { cwd: '/', mcpServers: [] })) as {
    sessionId: string;
  };
  return sessionId;
}

const prompt = (sessionId: string, text: string) => ({ sessionId, prompt: [{ type: 'text', text }] });

describe('proxy chain over real processes', () => {
  it('initializes proxies with proxy/initialize and routes a turn both ways through two proxies', async () => {
    const { client, texts } = connect([tagProxy('A'), tagProxy('B'), agent]);
    // The agent's name comes back modified by B, then A: each proxy answered proxy/initialize
    // (a proxy answers a plain initialize with an error, the agent answers no proxy/initialize).
    const sessionId = await openSession(client);
    const result = await client.request('session/prompt', prompt(sessionId, 'please ask'));
    expect(result).toEqual({ stopReason: 'end_turn' });
    // Prompts travel A then B (each appends its tag); the permission request went agent → B → A → client and back.
    expect(texts).toEqual([
      'got: please ask [A] [B]',
      'permission: {"outcome":{"outcome":"selected","optionId":"yes"}}',
    ]);
  });

  it('forwards session/cancel and $/cancel_request through the chain', async () => {
    const { client, nextUpdate } = connect([tagProxy('A'), tagProxy('B'), agent]);
    const sessionId = await openSession(client);
    const started = nextUpdate('got:');
    const turn = client.request('session/prompt', prompt(sessionId, 'wait'));
    await started;
    const cancelled = nextUpdate('session cancelled');
    await client.notify('session/cancel', { sessionId });
    await expect(turn).resolves.toEqual({ stopReason: 'cancelled' });
    await cancelled;

    const abort = new AbortController();
    const again = nextUpdate('got:');
    const second = client.request('session/prompt', prompt(sessionId, 'wait'), { signal: abort.signal });
    await again;
    const requestCancelled = nextUpdate('request cancelled');
    abort.abort();
    await expect(second).rejects.toMatchObject({ code: 'REQUEST_ABORTED' });
    // The agent saw its own request aborted: each hop cancelled the request it had forwarded.
    await requestCancelled;
  });

  it('a proxy dying mid-turn fails the pending prompt naming it, and stops every other component', async () => {
    const { chain, client } = connect([tagProxy('A'), tagProxy('B', '--die-mid-turn'), agent]);
    const sessionId = await openSession(client);
    const error = (await client
      .request('session/prompt', prompt(sessionId, 'wait'))
      .catch((e: unknown) => e)) as ProtocolError;
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error.message).toMatch(/^proxy chain stopped: proxy B ended: proxy B exited with code 5/);
    const { end, exits } = await chain.done;
    expect(end.name).toBe('proxy B');
    expect(exits.map((exit) => exit.exitCode ?? exit.signal)).toHaveLength(3);
    for (const peer of chain.peers) expect(isAlive(peer.pid as number)).toBe(false);
    await expect(client.closed).resolves.toMatchObject({ code: 'CONNECTION_CLOSED' });
  });

  it('the agent exiting mid-turn fails the prompt naming the agent; the proxies are stopped', async () => {
    const { chain, client } = connect([tagProxy('A'), agent]);
    await client.request('initialize', { protocolVersion: 1, clientCapabilities: {} });
    const error = (await client
      .request('session/prompt', prompt('s1', 'die'))
      .catch((e: unknown) => e)) as ProtocolError;
    expect(error.message).toMatch(/^proxy chain stopped: agent ended: agent exited with code 3/);
    await chain.done;
    for (const peer of chain.peers) expect(isAlive(peer.pid as number)).toBe(false);
  });

  it('the client leaving ends every component', async () => {
    const { chain, client } = connect([tagProxy('A'), tagProxy('B'), agent]);
    await openSession(client);
    await client.close();
    const { end } = await chain.done;
    expect(end.who).toBe('client');
    for (const peer of chain.peers) expect(isAlive(peer.pid as number)).toBe(false);
  });

  it('runs the context-proxy example in front of the agent', async () => {
    const example = fileURLToPath(new URL('../../examples/context-proxy.ts', import.meta.url));
    const { client, texts } = connect([
      { ...fromSource('tag-proxy.ts', ['A']), name: 'proxy A' },
      { command: process.execPath, args: ['--conditions=@acp-kit/source', `--import=${TSX}`, example] },
      agent,
    ]);
    const sessionId = await openSession(client, 'chain-agent+A');
    await expect(client.request('session/prompt', prompt(sessionId, 'hi'))).resolves.toEqual({
      stopReason: 'end_turn',
    });
    expect(texts).toEqual(['got: Answer briefly; this project uses TypeScript. hi [A]', '\n(0 tool calls)']);
  });

  it('a proxy run without a conductor says so', async () => {
    const { client } = connect([tagProxy('A')]);
    // Alone, the proxy is the chain's last component and gets a plain initialize.
    await expect(
      client.request('initialize', { protocolVersion: 1, clientCapabilities: {} }),
    ).rejects.toThrow(/this is an ACP proxy: run it inside a proxy chain/);
  });
});
