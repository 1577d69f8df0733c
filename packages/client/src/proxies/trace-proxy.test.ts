/**
 * The trace proxy in a chain run in-process (conductor, proxy and agent over channel pairs): what
 * each line holds — ids per direction, answers and errors under their request's id, a cancelled
 * request followed by its $/cancel_request, secrets redacted.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JsonRpcConnection, ProtocolError, createChannelPair } from '@acp-kit/protocol';
import { Conductor } from '@acp-kit/protocol/unstable';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseTraceLine } from '../persistence/trace-tail.js';
import { startTraceProxy } from './trace-proxy.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'acp-trace-proxy-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function chain() {
  const [clientSide, conductorClient] = createChannelPair();
  const [conductorProxy, proxySide] = createChannelPair();
  const [conductorAgent, agentSide] = createChannelPair();
  const path = join(dir, 'trace.jsonl');
  const trace = await startTraceProxy(proxySide, path);
  const agent = new JsonRpcConnection(agentSide, { peerName: 'client' });
  agent.onRequest('initialize', () => ({ protocolVersion: 1, agentCapabilities: {} }));
  agent.onRequest('session/new', () => {
    throw new ProtocolError(-32000, 'Authentication required');
  });
  agent.onRequest('slow', (_params, ctx) => {
    return new Promise((resolve) => {
      ctx.signal.addEventListener('abort', () => resolve({ partial: true }));
    });
  });
  agent.onRequest('ask', async () => agent.request('fs/read_text_file', { sessionId: 's', path: '/x' }));
  agent.start();
  const conductor = new Conductor(conductorClient, [
    { name: 'trace proxy', channel: conductorProxy },
    { name: 'agent', channel: conductorAgent },
  ]);
  conductor.start();
  const client = new JsonRpcConnection(clientSide, { peerName: 'agent' });
  client.onRequest('fs/read_text_file', () => ({ content: 'hello' }));
  client.start();
  const lines = async () => {
    await client.close();
    // The conductor's own connections end with it (startChain's job in a real chain).
    await conductor.close();
    await trace.done;
    return (await readFile(path, 'utf8'))
      .split('\n')
      .map(parseTraceLine)
      .filter((f) => f !== undefined);
  };
  return { client, lines };
}

describe('the trace proxy', () => {
  it('records requests with their answers and errors, both ways, secrets redacted', async () => {
    const { client, lines } = await chain();
    await client.request('initialize', {
      protocolVersion: 1,
      clientCapabilities: {},
      _meta: { apiKey: 'sk-secret' },
    });
    await expect(client.request('session/new', { cwd: '/', mcpServers: [] })).rejects.toMatchObject({
      code: -32000,
    });
    await expect(client.request('ask')).resolves.toEqual({ content: 'hello' });
    const frames = (await lines()).map(({ dir: direction, frame }) => ({ direction, frame }));
    expect(frames).toEqual([
      {
        direction: 'out',
        frame: {
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: 1, clientCapabilities: {}, _meta: { apiKey: '[redacted]' } },
        },
      },
      {
        direction: 'in',
        frame: { jsonrpc: '2.0', id: 1, result: { protocolVersion: 1, agentCapabilities: {} } },
      },
      {
        direction: 'out',
        frame: { jsonrpc: '2.0', id: 2, method: 'session/new', params: { cwd: '/', mcpServers: [] } },
      },
      {
        direction: 'in',
        frame: { jsonrpc: '2.0', id: 2, error: { code: -32000, message: 'Authentication required' } },
      },
      { direction: 'out', frame: { jsonrpc: '2.0', id: 3, method: 'ask' } },
      // The conductor numbers its requests to the proxy (both directions) from one counter: 4.
      {
        direction: 'in',
        frame: { jsonrpc: '2.0', id: 4, method: 'fs/read_text_file', params: { sessionId: 's', path: '/x' } },
      },
      { direction: 'out', frame: { jsonrpc: '2.0', id: 4, result: { content: 'hello' } } },
      { direction: 'in', frame: { jsonrpc: '2.0', id: 3, result: { content: 'hello' } } },
    ]);
  });

  it('records a cancelled request, its $/cancel_request, and the -32800 it was answered with', async () => {
    const { client, lines } = await chain();
    const abort = new AbortController();
    const slow = client.request('slow', {}, { signal: abort.signal });
    const settled = slow.catch((error: unknown) => error);
    // The proxy has the request once the agent does: wait for it there by asking something after.
    await client.request('initialize', { protocolVersion: 1, clientCapabilities: {} });
    abort.abort();
    await settled;
    const frames = await lines();
    const methods = frames.map((f) => [f.dir, (f.frame as { method?: string }).method ?? 'answer']);
    const slowAt = methods.findIndex(([, method]) => method === 'slow');
    expect(methods.slice(slowAt)).toContainEqual(['out', '$/cancel_request']);
    const slowId = (frames[slowAt]?.frame as { id: number }).id;
    const cancel = frames.find((f) => (f.frame as { method?: string }).method === '$/cancel_request');
    expect(cancel?.frame).toMatchObject({ params: { requestId: slowId } });
    expect(frames.at(-1)?.frame).toMatchObject({ id: slowId, error: { code: -32800 } });
  });
});
