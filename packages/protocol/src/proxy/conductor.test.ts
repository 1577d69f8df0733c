/**
 * The conductor and pass-through proxies routing text: payloads arrive as the sender wrote them
 * (never parsed and encoded again on the way), ids are mapped per hop and back, cancellation and
 * malformed input are answered at the hop they happen on.
 */
import { describe, expect, it } from 'vitest';
import { JsonRpcConnection } from '../jsonrpc/connection.js';
import { createChannelPair, type ChannelPairOptions, type MemoryChannel } from '../transport/memory.js';
import { Conductor } from './conductor.js';
import { runProxy, type ProxyHandlers } from './proxy.js';

/** Raw lines read from a channel, one at a time. */
function lines(channel: MemoryChannel) {
  const decoder = new TextDecoder();
  const waiting: ((line: string) => void)[] = [];
  const ready: string[] = [];
  let partial = '';
  channel.start({
    data(chunk) {
      const parts = (partial + decoder.decode(chunk, { stream: true })).split('\n');
      partial = parts.pop() ?? '';
      for (const line of parts) {
        const taker = waiting.shift();
        if (taker) taker(line);
        else ready.push(line);
      }
    },
    end: () => undefined,
  });
  return {
    next: (): Promise<string> => {
      const line = ready.shift();
      return line !== undefined ? Promise.resolve(line) : new Promise((resolve) => waiting.push(resolve));
    },
    send: (line: string) => channel.write(line + '\n'),
  };
}

/** Client and agent as raw lines, `proxies` proxies (runProxy with these handlers) between. */
function chain(proxies: ProxyHandlers[], pipes: ChannelPairOptions = {}) {
  const [clientSide, conductorClient] = createChannelPair(pipes);
  const [conductorAgent, agentSide] = createChannelPair(pipes);
  const parts = proxies.map((handlers, index) => {
    const [conductorSide, proxySide] = createChannelPair(pipes);
    runProxy(proxySide, handlers);
    return { name: `proxy ${index + 1}`, channel: conductorSide };
  });
  const conductor = new Conductor(conductorClient, [...parts, { name: 'agent', channel: conductorAgent }]);
  conductor.start();
  return { client: lines(clientSide), agent: lines(agentSide), conductor };
}

/** A conductor whose proxy and agent are raw lines; the client's channel is left unread. */
function rawProxyChain(pipes: ChannelPairOptions = {}) {
  const [clientSide, conductorClient] = createChannelPair(pipes);
  const [conductorProxy, proxySide] = createChannelPair(pipes);
  const [conductorAgent, agentSide] = createChannelPair(pipes);
  const conductor = new Conductor(conductorClient, [
    { name: 'proxy', channel: conductorProxy },
    { name: 'agent', channel: conductorAgent },
  ]);
  conductor.start();
  return { clientSide, proxy: lines(proxySide), agent: lines(agentSide), conductor };
}

const PAYLOAD = '{"n":1.50,"big":12345678901234567890,"s":"\\u00e9\\/","nested":{ "a" : [ ] }}';
const parse = (line: string) => JSON.parse(line) as Record<string, unknown> & { id?: number | string };

describe('Conductor routing text', () => {
  for (const [label, proxies] of [
    ['no proxy', []],
    ['two pass-through proxies', [{}, {}]],
  ] as const) {
    it(`passes params and results on as the sender wrote them, ids mapped per hop (${label})`, async () => {
      const { client, agent, conductor } = chain([...proxies]);
      client.send(`{"jsonrpc":"2.0","id":"c-1","method":"echo","params":${PAYLOAD}}`);
      // JSON.parse + stringify would have written 1.5, a rounded big number, "é" and "/".
      expect(await agent.next()).toBe(`{"jsonrpc":"2.0","id":1,"method":"echo","params":${PAYLOAD}}`);
      agent.send(`{"jsonrpc":"2.0","id":1,"result":${PAYLOAD}}`);
      expect(await client.next()).toBe(`{"jsonrpc":"2.0","id":"c-1","result":${PAYLOAD}}`);
      agent.send(`{"jsonrpc":"2.0","method":"session/update","params":${PAYLOAD}}`);
      expect(await client.next()).toBe(`{"jsonrpc":"2.0","method":"session/update","params":${PAYLOAD}}`);
      agent.send(`{"jsonrpc":"2.0","id":"a-1","method":"fs/read_text_file","params":${PAYLOAD}}`);
      const ask = parse(await client.next());
      expect(ask).toMatchObject({ method: 'fs/read_text_file' });
      client.send(
        `{"jsonrpc":"2.0","id":${JSON.stringify(ask.id)},"error":{"code":-32002,"message":"gone"}}`,
      );
      expect(await agent.next()).toBe(
        '{"jsonrpc":"2.0","id":"a-1","error":{"code":-32002,"message":"gone"}}',
      );
      await conductor.close();
    });
  }

  it('cancels through pass-through proxies: each hop cancels what it forwarded, the sender gets -32800', async () => {
    const { client, agent, conductor } = chain([{}, {}]);
    client.send('{"jsonrpc":"2.0","id":5,"method":"slow","params":{}}');
    const forwarded = parse(await agent.next());
    client.send('{"jsonrpc":"2.0","method":"$/cancel_request","params":{"requestId":5}}');
    expect(parse(await client.next())).toMatchObject({ id: 5, error: { code: -32800 } });
    expect(parse(await agent.next())).toEqual({
      jsonrpc: '2.0',
      method: '$/cancel_request',
      params: { requestId: forwarded.id },
    });
    // The agent's late answer goes nowhere; what follows it still arrives.
    agent.send(`{"jsonrpc":"2.0","id":${forwarded.id},"result":{}}`);
    agent.send('{"jsonrpc":"2.0","method":"after","params":{}}');
    expect(parse(await client.next())).toMatchObject({ method: 'after' });
    await conductor.close();
  });

  it('answers malformed frames on the hop they came by, and forwards nothing of them', async () => {
    const { client, agent, conductor } = chain([{}]);
    client.send('not json');
    expect(parse(await client.next())).toMatchObject({ id: null, error: { code: -32700 } });
    client.send('{"jsonrpc":"2.0","id":2,"method":"x","params":3}');
    expect(parse(await client.next())).toMatchObject({ id: 2, error: { code: -32600 } });
    client.send('{"jsonrpc":"1.0","id":3,"method":"x"}');
    expect(parse(await client.next())).toMatchObject({ id: 3, error: { code: -32600 } });
    client.send('{"jsonrpc":"2.0","id":4,"method":"slow"}');
    client.send('{"jsonrpc":"2.0","id":4,"method":"slow"}');
    expect(parse(await client.next())).toMatchObject({ id: 4, error: { code: -32600 } });
    expect(parse(await agent.next())).toMatchObject({ id: 1, method: 'slow' });
    await conductor.close();
  });

  it('answers a bad proxy/successor envelope -32602 and the chain goes on', async () => {
    const { clientSide, proxy, agent, conductor } = rawProxyChain();
    lines(clientSide);
    proxy.send('{"jsonrpc":"2.0","id":1,"method":"proxy/successor","params":{"params":{}}}');
    expect(parse(await proxy.next())).toMatchObject({ id: 1, error: { code: -32602 } });
    proxy.send('{"jsonrpc":"2.0","id":2,"method":"proxy/successor","params":{"method":"m","params":7}}');
    expect(parse(await proxy.next())).toMatchObject({ id: 2, error: { code: -32602 } });
    proxy.send('{"jsonrpc":"2.0","method":"proxy/successor","params":{"method":"m","params":[1]}}');
    expect(await agent.next()).toBe('{"jsonrpc":"2.0","method":"m","params":[1]}');
    await conductor.close();
  });

  it('a proxy intercepting one direction passes the other on as text', async () => {
    const [clientSide, conductorClient] = createChannelPair();
    const [conductorAgent, agentSide] = createChannelPair();
    const [conductorProxy, proxySide] = createChannelPair();
    const seen: string[] = [];
    runProxy(proxySide, {
      fromClient: (message, forward) => {
        seen.push(message.method);
        return message.method === 'echo' ? forward({ method: 'echo', params: { tagged: true } }) : forward();
      },
    });
    const conductor = new Conductor(conductorClient, [
      { name: 'proxy', channel: conductorProxy },
      { name: 'agent', channel: conductorAgent },
    ]);
    conductor.start();
    const agent = new JsonRpcConnection(agentSide, { peerName: 'client' });
    agent.onRequest('initialize', () => ({ protocolVersion: 1 }));
    agent.onRequest('echo', async (params) => ({ params, asked: await agent.request('ask', { q: 1 }) }));
    agent.start();
    const client = new JsonRpcConnection(clientSide, { peerName: 'agent' });
    client.onRequest('ask', (params) => ({ answered: params }));
    client.start();
    await expect(client.request('initialize', { protocolVersion: 1 })).resolves.toEqual({
      protocolVersion: 1,
    });
    await expect(client.request('echo', { tagged: false })).resolves.toEqual({
      params: { tagged: true },
      asked: { answered: { q: 1 } },
    });
    // `ask` came from the agent's side: passed on without reaching the interceptor.
    expect(seen).toEqual(['initialize', 'echo']);
    await conductor.close();
  });

  it('a stream larger than every pipe crosses three pass-through proxies (only the hops that fill a pipe wait)', async () => {
    const pipes = { highWaterMark: 4096, maxChunkBytes: 4096 };
    const { client, agent, conductor } = chain([{}, {}, {}], pipes);
    const text = 'x'.repeat(500);
    const count = 2000;
    client.send('{"jsonrpc":"2.0","id":1,"method":"stream","params":{}}');
    const request = parse(await agent.next());
    // The agent writes everything at once; the client reads only after that.
    for (let i = 0; i < count; i++)
      agent.send(`{"jsonrpc":"2.0","method":"session/update","params":{"i":${i},"text":"${text}"}}`);
    agent.send(`{"jsonrpc":"2.0","id":${request.id},"result":{"sent":${count}}}`);
    for (let i = 0; i < count; i++) expect(parse(await client.next())).toMatchObject({ params: { i } });
    expect(parse(await client.next())).toEqual({ jsonrpc: '2.0', id: 1, result: { sent: count } });
    await conductor.close();
  });

  it('a client that does not read holds back only the hop that feeds it; the others keep flowing', async () => {
    const { clientSide, proxy, agent, conductor } = rawProxyChain({ highWaterMark: 1024 });
    // The proxy sends the client far more than its pipe holds; the client reads nothing yet.
    for (let i = 0; i < 50; i++)
      proxy.send(`{"jsonrpc":"2.0","method":"note","params":{"i":${i},"pad":"${'p'.repeat(200)}"}}`);
    proxy.send('{"jsonrpc":"2.0","id":1,"method":"proxy/successor","params":{"method":"ping","params":{}}}');
    // Meanwhile the agent and the proxy still talk: the ping reaches the agent, its answer the proxy.
    expect(parse(await agent.next())).toMatchObject({ method: 'ping' });
    agent.send('{"jsonrpc":"2.0","method":"hello","params":{}}');
    expect(parse(await proxy.next())).toMatchObject({
      method: 'proxy/successor',
      params: { method: 'hello' },
    });
    // Once the client reads, everything sent to it arrives in order.
    const client = lines(clientSide);
    for (let i = 0; i < 50; i++) expect(parse(await client.next())).toMatchObject({ params: { i } });
    await conductor.close();
  });
});
