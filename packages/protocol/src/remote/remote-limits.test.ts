/**
 * The remote server's gates and limits over real sockets: bearer token, Origin and Host, message
 * size in both directions, connections and sessions per connection, the RFD's status codes, and
 * a retried POST taken once.
 */
import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { AcpKitError, ProtocolError } from '@acp-kit/protocol';
import { connectRemoteAgent } from './node/index.js';
import {
  connectClient,
  failure,
  INITIALIZE_FRAME,
  waitFor,
  openSession,
  prompt,
  startHarness,
  type Harness,
  type TestClient,
} from './test-support/remote-harness.js';

let harness: Harness | undefined;
const clients: TestClient[] = [];

afterEach(async () => {
  for (const c of clients.splice(0)) await c.connection.close();
  await harness?.close();
  harness = undefined;
});

async function post(url: string, body: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body });
}

/** A raw HTTP request (fetch cannot set Host). */
function raw(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'GET', headers }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('authentication and origins', () => {
  it('requires the bearer token on every request and upgrade when one is set', async () => {
    harness = await startHarness({ listen: { token: 'right-token' } });
    const url = harness.listener.url;
    for (const profile of ['websocket', 'http'] as const) {
      const error = await failure(
        (async () => {
          const c = await connectClient(url, { profile, token: 'wrong-token' });
          clients.push(c);
          await openSession(c);
        })(),
      );
      expect(error).toBeInstanceOf(AcpKitError);
      expect((error as AcpKitError).code).toBe('REMOTE_REFUSED');
      expect((error as AcpKitError).message).toMatch(/token was missing or wrong/);
      expect((error as AcpKitError).message).not.toContain('wrong-token');
      const good = await connectClient(url, { profile, token: 'right-token' });
      clients.push(good);
      await openSession(good);
    }
    expect((await post(url, INITIALIZE_FRAME)).status).toBe(401);
    expect((await post(url, INITIALIZE_FRAME, { Authorization: 'Bearer right-token-and-more' })).status).toBe(
      401,
    );
  });

  it('refuses cross-origin requests unless the origin is allowed, and foreign Host names on loopback', async () => {
    harness = await startHarness({ listen: { allowedOrigins: ['http://good.example'] } });
    const url = harness.listener.url;
    expect((await post(url, INITIALIZE_FRAME, { Origin: 'http://evil.example' })).status).toBe(403);
    const allowed = await post(url, INITIALIZE_FRAME, { Origin: 'http://good.example' });
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('access-control-allow-origin')).toBe('http://good.example');
    await fetch(url, {
      method: 'DELETE',
      headers: { 'Acp-Connection-Id': allowed.headers.get('acp-connection-id') ?? '' },
    });
    const error = await failure(
      connectClient(url, { profile: 'websocket', headers: { Origin: 'http://evil.example' } }),
    );
    expect((error as AcpKitError).code).toBe('REMOTE_REFUSED');
    expect(await raw(url, { Host: 'attacker.example', Accept: 'text/event-stream' })).toBe(403);
  });

  it('takes loopback Host names in any case (host names are case-insensitive)', async () => {
    harness = await startHarness();
    const url = harness.listener.url;
    const port = harness.listener.port;
    // Past the gate, a GET without Acp-Connection-Id is 400: the Host was accepted.
    for (const host of [`LOCALHOST:${port}`, `LocalHost:${port}`, 'localhost', `[::1]:${port}`])
      expect(await raw(url, { Host: host, Accept: 'text/event-stream' }), host).toBe(400);
    expect(await raw(url, { Host: `LOCALHOST.attacker.example:${port}`, Accept: 'text/event-stream' })).toBe(
      403,
    );
  });
});

describe('the RFD status codes', () => {
  it('answers 415, 406, 400, 404, 501 and 202 where the RFD says', async () => {
    harness = await startHarness();
    const url = harness.listener.url;
    expect(
      (
        await fetch(url, {
          method: 'POST',
          headers: { 'Content-Type': 'text/plain' },
          body: INITIALIZE_FRAME,
        })
      ).status,
    ).toBe(415);
    expect((await fetch(url, { method: 'GET', headers: { 'Acp-Connection-Id': 'x' } })).status).toBe(406);
    expect((await fetch(url, { method: 'GET', headers: { Accept: 'text/event-stream' } })).status).toBe(400);
    expect(
      (
        await fetch(url, {
          method: 'GET',
          headers: { Accept: 'text/event-stream', 'Acp-Connection-Id': 'nope' },
        })
      ).status,
    ).toBe(404);
    const init = await post(url, INITIALIZE_FRAME);
    expect(init.status).toBe(200);
    expect(init.headers.get('acp-resumable')).toBe('1');
    const id = init.headers.get('acp-connection-id') ?? '';
    expect(
      (await post(url, '[{"jsonrpc":"2.0","id":1,"method":"session/new"}]', { 'Acp-Connection-Id': id }))
        .status,
    ).toBe(501);
    expect(
      (
        await post(url, '{"jsonrpc":"2.0","id":1,"method":"session/prompt","params":{"sessionId":"s"}}', {
          'Acp-Connection-Id': id,
        })
      ).status,
    ).toBe(400);
    expect((await post(url, INITIALIZE_FRAME, { 'Acp-Connection-Id': id })).status).toBe(202);
    expect((await fetch(url, { method: 'DELETE' })).status).toBe(400);
    expect((await fetch(url, { method: 'DELETE', headers: { 'Acp-Connection-Id': id } })).status).toBe(202);
    expect((await fetch(url, { method: 'DELETE', headers: { 'Acp-Connection-Id': id } })).status).toBe(404);
  });

  it('takes a POST retried with the same Acp-Message-Seq once', async () => {
    harness = await startHarness();
    const url = harness.listener.url;
    const init = await post(url, INITIALIZE_FRAME);
    const id = init.headers.get('acp-connection-id') ?? '';
    const newSession =
      '{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/tmp","mcpServers":[]}}';
    const headers = { 'Acp-Connection-Id': id, 'Acp-Message-Seq': '1' };
    expect((await post(url, newSession, headers)).status).toBe(202);
    expect((await post(url, newSession, headers)).status).toBe(202);
    const prompt1 =
      '{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":"s-1","prompt":[{"type":"text","text":"hi"}]}}';
    expect(
      (await post(url, prompt1, { ...headers, 'Acp-Message-Seq': '3', 'Acp-Session-Id': 's-1' })).status,
    ).toBe(409);
    expect(
      (await post(url, prompt1, { ...headers, 'Acp-Message-Seq': '2', 'Acp-Session-Id': 's-1' })).status,
    ).toBe(202);
    expect(
      (await post(url, prompt1, { ...headers, 'Acp-Message-Seq': '2', 'Acp-Session-Id': 's-1' })).status,
    ).toBe(202);
    await waitFor(() => harness?.agents[0]?.prompts.length === 1);
    expect(harness.agents[0]?.prompts).toEqual(['hi']);
    // session/new ran once: the second session the agent would have made is not there.
    await fetch(url, { method: 'DELETE', headers: { 'Acp-Connection-Id': id } });
  });
});

describe('limits', () => {
  it('refuses connections past maxConnections with 503', async () => {
    harness = await startHarness({ limits: { maxConnections: 2 } });
    const url = harness.listener.url;
    const a = await connectClient(url, { profile: 'websocket' });
    const b = await connectClient(url, { profile: 'http' });
    clients.push(a, b);
    await openSession(a);
    await openSession(b);
    const error = await failure(connectClient(url, { profile: 'websocket', busyRetries: 0 }));
    expect((error as AcpKitError).code).toBe('REMOTE_REFUSED');
    expect((error as AcpKitError).message).toMatch(/server is full/);
    expect((await post(url, INITIALIZE_FRAME)).status).toBe(503);
  });

  it.each(['websocket', 'http'] as const)(
    'refuses sessions past maxSessionsPerConnection over %s',
    async (profile) => {
      harness = await startHarness({ limits: { maxSessionsPerConnection: 2 } });
      const c = await connectClient(harness.listener.url, { profile });
      clients.push(c);
      await openSession(c);
      await c.connection.newSession({ cwd: '/tmp', mcpServers: [] });
      const error = await failure(c.connection.newSession({ cwd: '/tmp', mcpServers: [] }));
      expect(error).toBeInstanceOf(ProtocolError);
      expect((error as ProtocolError).message).toBe('Session limit reached');
    },
  );

  it('an oversize POST gets 413 and the connection goes on; an oversize WebSocket frame closes it', async () => {
    harness = await startHarness({ limits: { maxMessageBytes: 4096 } });
    const http = await connectClient(harness.listener.url, { profile: 'http' });
    clients.push(http);
    const sessionId = await openSession(http);
    const error = await failure(prompt(http, sessionId, 'x'.repeat(8192)));
    expect(error).toBeInstanceOf(ProtocolError);
    expect((error as ProtocolError).message).toMatch(/HTTP 413/);
    expect((await prompt(http, sessionId, 'count 2')).stopReason).toBe('end_turn');
    expect(harness.agents[0]?.prompts).toEqual(['count 2']);

    const ws = await connectClient(harness.listener.url, { profile: 'websocket' });
    clients.push(ws);
    const wsSession = await openSession(ws);
    const wsError = await failure(prompt(ws, wsSession, 'x'.repeat(8192)));
    expect((wsError as AcpKitError).code).toBe('CONNECTION_CLOSED');
    expect((wsError as AcpKitError).message).toMatch(/1009/);
    expect(harness.agents[1]?.prompts).toEqual([]);
  });

  it.each(['websocket', 'http'] as const)(
    'an agent message over the client’s limit is MESSAGE_TOO_LARGE over %s',
    async (profile) => {
      harness = await startHarness();
      const c = await connectClient(harness.listener.url, { profile, maxMessageBytes: 4096 });
      clients.push(c);
      const sessionId = await openSession(c);
      const error = await failure(prompt(c, sessionId, 'big 10000'));
      expect((error as AcpKitError).code).toBe('MESSAGE_TOO_LARGE');
    },
  );

  it('an agent message over the server’s limit closes the connection', async () => {
    harness = await startHarness({ limits: { maxMessageBytes: 4096 } });
    const c = await connectClient(harness.listener.url, { profile: 'websocket' });
    clients.push(c);
    const sessionId = await openSession(c);
    const error = await failure(prompt(c, sessionId, 'big 10000'));
    expect(error).toBeInstanceOf(AcpKitError);
    expect((error as AcpKitError).message).toMatch(/connection closed|closed the connection/);
  });

  it('a remote URL that is not http(s) is refused before connecting', async () => {
    await expect(connectRemoteAgent('ftp://example/acp')).rejects.toThrow(/http:\/\/ or https:\/\//);
  });
});
