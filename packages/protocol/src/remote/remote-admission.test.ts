/**
 * Who holds an agent on the server (issue 17): a WebSocket gets its agent at `initialize`, not at
 * connect, and is dropped when it stays silent past the handshake timeout; a connection without a
 * session is closed as soon as its client drops; a full server's 503 + `Retry-After` (or 1013 at
 * `initialize`) is asked again a bounded number of times, with a `busy` event each time.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { AcpKitError } from '@acp-kit/protocol';
import type { RemoteEvent } from './client-types.js';
import { CLOSE_NO_INITIALIZE } from './node/socket-receiver.js';
import {
  connectClient,
  failure,
  INITIALIZE_FRAME,
  waitFor,
  openSession,
  startHarness,
  type Harness,
  type TestClient,
} from './test-support/remote-harness.js';

let harness: Harness | undefined;
const clients: TestClient[] = [];
const sockets: WebSocket[] = [];

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.terminate();
  for (const c of clients.splice(0)) await c.connection.close();
  await harness?.close();
  harness = undefined;
});

/** A raw WebSocket to the endpoint, open. */
async function rawSocket(url: string, headers: Record<string, string> = {}): Promise<WebSocket> {
  const ws = new WebSocket(url.replace(/^http/, 'ws'), { headers });
  sockets.push(ws);
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  return ws;
}

function closeOf(ws: WebSocket): Promise<{ code: number; reason: string }> {
  return new Promise((resolve) =>
    ws.once('close', (code: number, reason: Buffer) => resolve({ code, reason: reason.toString() })),
  );
}

function nextFrame(ws: WebSocket): Promise<Record<string, unknown>> {
  return new Promise((resolve) =>
    ws.once('message', (data: Buffer) => resolve(JSON.parse(data.toString()) as Record<string, unknown>)),
  );
}

describe('a WebSocket before initialize', () => {
  it('starts no agent, and is closed (4408) when it stays silent past the handshake timeout', async () => {
    harness = await startHarness({ limits: { handshakeTimeoutMs: 300 } });
    const ws = await rawSocket(harness.listener.url);
    expect(harness.server.handshakes).toBe(1);
    expect(harness.agents).toHaveLength(0);
    expect(harness.server.size).toBe(0);
    const closed = await closeOf(ws);
    expect(closed.code).toBe(CLOSE_NO_INITIALIZE);
    expect(closed.reason).toMatch(/initialize/);
    expect(harness.agents).toHaveLength(0);
    expect(harness.server.handshakes).toBe(0);
  });

  it('silent sockets do not take the agent places: a real client still gets one', async () => {
    harness = await startHarness({ limits: { maxConnections: 2 } });
    const url = harness.listener.url;
    for (let i = 0; i < 6; i++) await rawSocket(url);
    expect(harness.server.handshakes).toBe(6);
    for (const profile of ['websocket', 'http'] as const) {
      const c = await connectClient(url, { profile });
      clients.push(c);
      await openSession(c);
    }
    expect(harness.agents).toHaveLength(2);
  });

  it('past maxHandshakes waiting sockets, another is refused with 503 and Retry-After', async () => {
    harness = await startHarness({ limits: { maxHandshakes: 2 } });
    const url = harness.listener.url;
    await rawSocket(url);
    await rawSocket(url);
    const refused = await new Promise<{ status: number; retryAfter: unknown }>((resolve) => {
      const ws = new WebSocket(url.replace(/^http/, 'ws'));
      ws.on('error', () => undefined);
      ws.once('unexpected-response', (_req, res) =>
        resolve({ status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'] }),
      );
    });
    expect(refused).toEqual({ status: 503, retryAfter: '5' });
  });

  it('gives its waiting place back at once when it drops', async () => {
    harness = await startHarness({ limits: { maxHandshakes: 1 } });
    const ws = await rawSocket(harness.listener.url);
    expect(harness.server.handshakes).toBe(1);
    ws.terminate();
    await waitFor(() => harness?.server.handshakes === 0);
    const again = await rawSocket(harness.listener.url);
    again.send(INITIALIZE_FRAME);
    expect((await nextFrame(again)).id).toBe(0);
    expect(harness.agents).toHaveLength(1);
  });

  it('a first frame that is not initialize closes it (1002) without starting an agent', async () => {
    harness = await startHarness();
    const ws = await rawSocket(harness.listener.url);
    ws.send('{"jsonrpc":"2.0","id":1,"method":"session/new","params":{}}');
    expect((await closeOf(ws)).code).toBe(1002);
    expect(harness.agents).toHaveLength(0);
    expect(harness.server.handshakes).toBe(0);
  });
});

describe('resume grace', () => {
  it('a WebSocket connection without a session is closed as soon as its client drops', async () => {
    let closed!: () => void;
    const connectionClosed = new Promise<void>((resolve) => (closed = resolve));
    harness = await startHarness({
      limits: { resumeGraceMs: 600_000 },
      onConnectionClosed: () => closed(),
    });
    const ws = await rawSocket(harness.listener.url);
    ws.send(INITIALIZE_FRAME);
    await nextFrame(ws);
    expect(harness.server.size).toBe(1);
    ws.terminate();
    await connectionClosed;
    expect(harness.agents[0]?.stops).toBe(1);
    expect(harness.server.size).toBe(0);
  });

  it('one with a session waits for its client to resume', async () => {
    harness = await startHarness({ limits: { resumeGraceMs: 600_000 } });
    const url = harness.listener.url;
    const ws = await rawSocket(url);
    ws.send(INITIALIZE_FRAME);
    await nextFrame(ws);
    ws.send('{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/tmp","mcpServers":[]}}');
    await nextFrame(ws);
    const connectionId = harness.server.list()[0]?.id ?? '';
    ws.terminate();
    const back = await rawSocket(url, { 'Acp-Connection-Id': connectionId, 'Last-Event-ID': '2' });
    back.send('{"jsonrpc":"2.0","id":2,"method":"session/new","params":{"cwd":"/tmp","mcpServers":[]}}');
    expect((await nextFrame(back)).id).toBe(2);
    expect(harness.agents).toHaveLength(1);
  });

  it('an HTTP client that does not open its stream within the handshake timeout loses the connection', async () => {
    let closed!: () => void;
    const connectionClosed = new Promise<void>((resolve) => (closed = resolve));
    harness = await startHarness({
      limits: { handshakeTimeoutMs: 300, resumeGraceMs: 600_000 },
      onConnectionClosed: () => closed(),
    });
    const init = await fetch(harness.listener.url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: INITIALIZE_FRAME,
    });
    expect(init.status).toBe(200);
    await connectionClosed;
    expect(harness.agents[0]?.stops).toBe(1);
  });
});

describe('a full server', () => {
  it.each(['websocket', 'http'] as const)(
    'is asked again after its Retry-After over %s, and the client says so',
    async (profile) => {
      harness = await startHarness({ limits: { maxConnections: 1, retryAfterSeconds: 1 } });
      const url = harness.listener.url;
      const holder = await connectClient(url, { profile: 'websocket' });
      await openSession(holder);
      const busy: RemoteEvent[] = [];
      const onEvent = (event: RemoteEvent): void => {
        if (event.type !== 'busy') return;
        busy.push(event);
        // The place frees up while the client waits.
        if (busy.length === 1) void holder.connection.close();
      };
      const c = await connectClient(url, { profile, onEvent });
      clients.push(c);
      await openSession(c);
      expect(busy[0]).toEqual({ type: 'busy', profile, retryInMs: 1000, attempt: 1, attempts: 3 });
      expect(harness.agents).toHaveLength(2);
    },
  );

  it.each(['websocket', 'http'] as const)(
    'gives up over %s after busyRetries, with the server’s words and how often it was asked',
    async (profile) => {
      harness = await startHarness({ limits: { maxConnections: 1, retryAfterSeconds: 0 } });
      const url = harness.listener.url;
      const holder = await connectClient(url, { profile: 'websocket' });
      clients.push(holder);
      await openSession(holder);
      const busy: RemoteEvent[] = [];
      const error = await failure(
        (async () => {
          const c = await connectClient(url, { profile, busyRetries: 2, onEvent: (e) => void busy.push(e) });
          clients.push(c);
          await openSession(c);
        })(),
      );
      expect(error).toBeInstanceOf(AcpKitError);
      expect((error as AcpKitError).code).toBe('REMOTE_REFUSED');
      expect((error as AcpKitError).message).toMatch(/server is full.*Too many connections.*asked 3 times/);
      expect(busy.filter((e) => e.type === 'busy').map((e) => (e as { attempt: number }).attempt)).toEqual([
        1, 2,
      ]);
    },
  );

  it('stops waiting for the Retry-After at once when its signal aborts', async () => {
    // A wait the test would not sit out: the client must not wait for it.
    harness = await startHarness({ limits: { maxConnections: 1, retryAfterSeconds: 30 } });
    const url = harness.listener.url;
    const holder = await connectClient(url, { profile: 'websocket' });
    clients.push(holder);
    await openSession(holder);
    const stop = new AbortController();
    const busy: RemoteEvent[] = [];
    const error = await failure(
      connectClient(url, {
        profile: 'websocket',
        signal: stop.signal,
        onEvent: (event) => {
          if (event.type !== 'busy') return;
          busy.push(event);
          stop.abort();
        },
      }),
    );
    expect(busy).toHaveLength(1);
    expect(error).toBeInstanceOf(AcpKitError);
    expect((error as AcpKitError).code).toBe('CONNECTION_CLOSED');
    expect((error as AcpKitError).message).toMatch(
      /stopped while waiting to ask .* again \(the server is full\)/,
    );
    expect(harness.agents).toHaveLength(1);
  });

  it('a WebSocket refused at initialize (1013) starts over on a new connection once there is room', async () => {
    harness = await startHarness({ limits: { maxConnections: 1, retryAfterSeconds: 0 } });
    const url = harness.listener.url;
    const held: { holder?: TestClient } = {};
    const busy: RemoteEvent[] = [];
    // Admitted while no agent runs: its agent would start at initialize.
    const late = await connectClient(url, {
      profile: 'websocket',
      onEvent: (event) => {
        if (event.type !== 'busy') return;
        busy.push(event);
        if (busy.length === 1) void held.holder?.connection.close();
      },
    });
    clients.push(late);
    const firstId = late.channel.connectionId;
    held.holder = await connectClient(url, { profile: 'websocket' });
    await openSession(held.holder);
    const sessionId = await openSession(late);
    expect(sessionId).toBe('s-1');
    expect(busy[0]).toMatchObject({ type: 'busy', profile: 'websocket', attempt: 1 });
    expect(late.channel.connectionId).not.toBe(firstId);
    expect(harness.agents).toHaveLength(2);
  });
});
