/**
 * R. The remote server against clients that misbehave (issue 17), `acp serve` as a real process on
 * 127.0.0.1 with real agent processes: R3 connections cut mid-turn (every update exactly once,
 * in order), R4 silent clients (no agent, no place taken, dropped after the handshake timeout),
 * R5 slow clients (a reader that stalls: bounded memory; a body trickled byte by byte: no agent),
 * R6 clients that connect and drop at every stage (no agent left behind; resume grace only for
 * connections with a session).
 */
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ClientSideConnection } from '@acp-kit/protocol';
import type { RemoteEvent } from '@acp-kit/protocol/remote';
import { CLOSE_NO_INITIALIZE, connectRemoteAgent } from '@acp-kit/protocol/remote/node';
import {
  startCuttingProxy,
  type CuttingProxy,
} from '../../packages/protocol/src/remote/test-support/cutting-proxy.js';
import { fileWatch } from './support/canary.js';
import { atMost, figure, holds, mib, percentile, zero } from './support/figures.js';
import {
  Collected,
  exitOf,
  makeHome,
  orphanToken,
  PeakMemory,
  pollUntil,
  processesWith,
  spawnAcp,
  within,
} from './support/procs.js';
import { relayCommand } from './support/relay.js';
import { INITIALIZE, promptFrame, RawHttp, RawSocket, startServe, type Served } from './support/serve.js';
import { COUNTS, sized } from './support/size.js';

const watch = fileWatch('r-remote-clients');

/** A prompt the relay agent runs as a script: `count` numbered updates of about `bytes` each. */
function floodScript(count: number, bytes: number): string {
  return JSON.stringify([{ flood: { count, bytes } }]);
}

/** The numbers of the flood's updates, in arrival order (`#N|…`). */
function floodNumber(text: string): number {
  return Number(/^#(\d+)\|/.exec(text)?.[1] ?? -1);
}

/** Lost, duplicated and out-of-order updates of a flood of `count`. */
function sequenceFaults(
  seen: readonly number[],
  count: number,
): { lost: number; duplicated: number; outOfOrder: number } {
  const unique = new Set(seen);
  let outOfOrder = 0;
  for (let i = 1; i < seen.length; i++) if ((seen[i] as number) <= (seen[i - 1] as number)) outOfOrder++;
  return { lost: count - unique.size, duplicated: seen.length - unique.size, outOfOrder };
}

describe('R3 connections cut mid-turn', () => {
  it.each(['websocket', 'http'] as const)(
    '%s: every update of a turn cut several times arrives exactly once, in order',
    async (profile) => {
      const home = makeHome(`r3-${profile}`);
      const count = COUNTS.remoteCutUpdates;
      const cuts = COUNTS.remoteCuts;
      let served: Served | undefined;
      let proxy: CuttingProxy | undefined;
      try {
        served = await startServe(home, ['--', ...relayCommand({ token: orphanToken() })]);
        const cutting = (proxy = await startCuttingProxy(served.port));
        const events: RemoteEvent[] = [];
        const cutAt: number[] = [];
        const downtimes: number[] = [];
        const seen: number[] = [];
        const channel = await connectRemoteAgent(cutting.url, {
          profile,
          onEvent: (event) => {
            events.push(event);
            if (event.type === 'resumed') downtimes.push(event.downtimeMs);
          },
        });
        const connection = new ClientSideConnection(channel, {
          sessionUpdate: ({ update }) => {
            const text = (update as { content?: { text?: string } }).content?.text ?? '';
            seen.push(floodNumber(text));
            // Cut at even steps through the turn (a cut may come while the last one is resumed).
            const next = Math.round(((cutAt.length + 1) * count) / (cuts + 1));
            if (cutAt.length < cuts && seen.length >= next) {
              cutAt.push(seen.length);
              cutting.cut();
            }
          },
          requestPermission: async () => ({ outcome: { outcome: 'cancelled' } }),
        }).start();
        await connection.initialize({ protocolVersion: 1, clientCapabilities: {} });
        const { sessionId } = await connection.newSession({ cwd: home.work, mcpServers: [] });
        const result = await within(
          connection.promptSession({ sessionId, prompt: [{ type: 'text', text: floodScript(count, 200) }] }),
          sized(180_000, 900_000),
          'the cut turn',
        );
        // A cut near the end may come after the last update arrived: it is resumed all the same.
        await pollUntil(() => events.at(-1)?.type === 'resumed', 'the last cut resumed', 60_000);
        await connection.close();
        const faults = sequenceFaults(seen, count);
        figure({ case: 'R3', name: `${profile}: cuts mid-turn (${count} updates)`, value: cutAt.length });
        figure({
          case: 'R3',
          name: `${profile}: resumptions (cuts during a resumption make one)`,
          value: downtimes.length,
        });
        zero({ case: 'R3', name: `${profile}: updates lost` }, faults.lost);
        zero({ case: 'R3', name: `${profile}: updates duplicated` }, faults.duplicated);
        zero({ case: 'R3', name: `${profile}: updates out of order` }, faults.outOfOrder);
        figure({
          case: 'R3',
          name: `${profile}: cut → resumed, median / max`,
          value: `${Math.round(percentile(downtimes, 50))} / ${Math.round(percentile(downtimes, 100))}`,
          unit: 'ms',
        });
        watch.see(`acp serve stderr (R3 ${profile})`, served.stderr());
        expect(result.stopReason).toBe('end_turn');
        expect(cutAt.length).toBe(cuts);
        // Cuts that come while one is being resumed are one outage.
        expect(downtimes.length).toBeGreaterThanOrEqual(1);
        expect(downtimes.length).toBeLessThanOrEqual(cuts);
        expect(faults).toEqual({ lost: 0, duplicated: 0, outOfOrder: 0 });
      } finally {
        proxy?.release();
        await proxy?.close();
        await served?.stop();
        home.cleanup();
      }
    },
    sized(300_000, 1_200_000),
  );
});

describe('R4 silent clients', () => {
  it('20 WebSockets that never send initialize start no agent and do not keep acp run --url out (2 places)', async () => {
    const home = makeHome('r4-held');
    let served: Served | undefined;
    const silent: RawSocket[] = [];
    try {
      served = await startServe(home, [
        '--agent',
        'demo',
        '--max-connections',
        '2',
        '--handshake-timeout',
        '600',
      ]);
      for (let i = 0; i < 20; i++) silent.push(await RawSocket.open(served.url));
      const run = spawnAcp(['run', '--url', served.url, 'hello'], { cwd: home.work, env: home.env });
      const stderr = new Collected(run.stderr);
      const exit = await exitOf(run, 180_000);
      const stillOpen = silent.filter((socket) => socket.ws.readyState === socket.ws.OPEN).length;
      figure({ case: 'R4', name: 'silent WebSockets held open during the turn', value: stillOpen });
      zero({ case: 'R4', name: 'agents started for silent WebSockets' }, served.started() - 1);
      holds(
        { case: 'R4', name: 'acp run --url served past 20 silent sockets (--max-connections 2)' },
        exit.code === 0,
      );
      watch.see('acp run stderr (R4)', stderr.text);
      watch.see('acp serve stderr (R4)', served.stderr());
      expect(exit.code, stderr.text.slice(-2000)).toBe(0);
      expect(stillOpen).toBe(20);
      expect(served.started()).toBe(1);
    } finally {
      for (const socket of silent) socket.ws.terminate();
      await served?.stop();
      home.cleanup();
    }
  }, 300_000);

  it('silent WebSockets are dropped (4408) after --handshake-timeout; an HTTP client that never opens its stream loses its agent', async () => {
    const home = makeHome('r4-timeout');
    let served: Served | undefined;
    try {
      served = await startServe(home, ['--agent', 'demo', '--handshake-timeout', '1']);
      const opened = performance.now();
      const sockets = await Promise.all(
        Array.from({ length: 20 }, () => RawSocket.open((served as Served).url)),
      );
      const http = Array.from({ length: 3 }, () => new RawHttp((served as Served).url));
      for (const client of http) await client.initializeOnly();
      const closes = await within(
        Promise.all(sockets.map((socket) => socket.closed)),
        60_000,
        'the silent sockets being dropped',
      );
      const droppedMs = Math.max(...sockets.map((socket) => socket.closedAt ?? Infinity)) - opened;
      await pollUntil(
        () => http.every((client) => served?.hasClosed(client.connectionId)),
        'HTTP connections closed',
        60_000,
      );
      const dropped = closes.filter((close) => close.code === CLOSE_NO_INITIALIZE).length;
      figure({ case: 'R4', name: 'silent WebSockets dropped with 4408 (of 20)', value: dropped });
      figure({
        case: 'R4',
        name: 'ms from opening 20 silent WebSockets to the last drop (timeout 1 s)',
        value: Math.round(droppedMs),
        unit: 'ms',
      });
      figure({
        case: 'R4',
        name: 'agents started (3 HTTP initialize without a stream), all stopped',
        value: served.started(),
      });
      expect(dropped).toBe(20);
      expect(served.started()).toBe(3);
    } finally {
      await served?.stop();
      home.cleanup();
    }
  }, 300_000);
});

describe('R5 slow clients', () => {
  it('a WebSocket reader that stalls 3 s in a 20 MB turn: bounded server memory, then every update once; a body trickled byte by byte starts no agent', async () => {
    const home = makeHome('r5');
    let served: Served | undefined;
    const trickles: ReturnType<typeof connect>[] = [];
    try {
      served = await startServe(home, ['--', ...relayCommand({ token: orphanToken() })]);
      const memory = new PeakMemory(served.child.pid as number);
      const seen: number[] = [];
      const socket = await RawSocket.open(served.url, {
        onFrame: (_line, frame) => {
          const params = frame.params as { update?: { content?: { text?: string } } } | undefined;
          const text = params?.update?.content?.text;
          if (frame.method === 'session/update' && text) seen.push(floodNumber(text));
        },
      });
      const sessionId = await socket.openSession(home.work);
      memory.markBaseline();
      const count = 20_000;
      const done = socket.received.reply('flood');
      await socket.send(promptFrame('flood', sessionId, floodScript(count, 1024)));
      socket.ws.pause();
      // The case: the reader stalls for 3 s while the agent floods (RELIABILITY D1).
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      memory.sample();
      const stalledPeak = memory.delta;
      socket.ws.resume();
      await within(done, 180_000, 'the flood turn');
      // Slowloris: headers and a body a byte at a time while another client is served.
      const startedBefore = served.started();
      for (const body of [true, false]) {
        const trickle = connect(served.port, '127.0.0.1');
        trickle.on('error', () => undefined);
        trickles.push(trickle);
        const head = `POST /acp HTTP/1.1\r\nHost: 127.0.0.1:${served.port}\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n`;
        const text = body ? head + '{"jsonrpc":"2.0"' : head;
        let at = 0;
        const timer = setInterval(
          () => (at < text.length ? trickle.write(text[at++] as string) : undefined),
          20,
        );
        trickle.once('close', () => clearInterval(timer));
      }
      const other = await RawSocket.open(served.url);
      await within(other.openSession(home.work), 60_000, 'another client during the trickle');
      other.ws.close();
      memory.stop();
      const faults = sequenceFaults(seen, count);
      atMost(
        { case: 'R5', name: 'acp serve peak RSS over idle, reader stalled 3 s in a 20 MB turn', unit: 'MiB' },
        mib(stalledPeak),
        64,
      );
      zero(
        { case: 'R5', name: 'updates lost or duplicated after the stall' },
        faults.lost + faults.duplicated + faults.outOfOrder,
      );
      zero({ case: 'R5', name: 'agents started by trickled requests' }, served.started() - startedBefore - 1);
      expect(faults).toEqual({ lost: 0, duplicated: 0, outOfOrder: 0 });
      expect(stalledPeak).toBeLessThanOrEqual(64 * 1024 * 1024);
      expect(served.started() - startedBefore).toBe(1);
    } finally {
      for (const trickle of trickles) trickle.destroy();
      await served?.stop();
      home.cleanup();
    }
  }, 300_000);
});

describe('R6 clients that connect and drop', () => {
  it('no agent outlives its client; connections without a session go at once, ones with a session wait for a resume', async () => {
    const home = makeHome('r6');
    const token = orphanToken();
    // Longer than the case: a connection with a session still waiting at the end is waiting for its resume.
    const graceS = 600;
    let served: Served | undefined;
    try {
      served = await startServe(home, [
        '--resume-grace',
        String(graceS),
        '--handshake-timeout',
        '3',
        '--max-connections',
        '64',
        '--',
        ...relayCommand({ token }),
      ]);
      const url = served.url;
      const started = performance.now();
      // Before initialize: no agent, nothing to free.
      for (let i = 0; i < 20; i++) (await RawSocket.open(url)).ws.terminate();
      // After initialize, no session: closed as soon as the socket drops.
      const noSession: string[] = [];
      let dropped = 0;
      for (let i = 0; i < 10; i++) {
        const socket = await RawSocket.open(url);
        const init = socket.received.reply('init');
        await socket.send(INITIALIZE);
        await init;
        noSession.push(socket.connectionId);
        socket.ws.terminate();
        dropped = performance.now();
      }
      await pollUntil(
        () => noSession.every((id) => served?.hasClosed(id)),
        'session-less connections closed',
        60_000,
      );
      const noSessionClosedMs = performance.now() - dropped;
      // With a session: kept for the resume grace.
      const withSession: string[] = [];
      for (let i = 0; i < 5; i++) {
        const socket = await RawSocket.open(url);
        await socket.openSession(home.work);
        withSession.push(socket.connectionId);
        socket.ws.terminate();
      }
      for (let i = 0; i < 5; i++) {
        const http = new RawHttp(url);
        await http.openSession(home.work);
        withSession.push(http.connectionId);
        http.drop();
      }
      const waiting = (): number => withSession.filter((id) => !served?.hasClosed(id)).length;
      // HTTP initialize and nothing more: dropped after the handshake timeout.
      const noStream: string[] = [];
      for (let i = 0; i < 10; i++) {
        const http = new RawHttp(url);
        await http.initializeOnly();
        noStream.push(http.connectionId);
      }
      await pollUntil(
        () => noStream.every((id) => served?.hasClosed(id)),
        'stream-less connections closed',
        60_000,
      );
      const stillWaiting = waiting();
      // Their clients end them (DELETE, as a client that came back and left would).
      for (const id of withSession)
        await fetch(url, { method: 'DELETE', headers: { 'Acp-Connection-Id': id } }).then((r) =>
          r.arrayBuffer(),
        );
      const all = [...noSession, ...withSession, ...noStream];
      await pollUntil(() => all.every((id) => served?.hasClosed(id)), 'every connection closed', 120_000);
      const freedMs = performance.now() - started;
      // Agent processes carry the token (acp serve does too, in its command line).
      const agents = (): number[] => processesWith(token).filter((pid) => pid !== served?.child.pid);
      const left = await pollUntil(() => agents().length === 0, 'agent processes gone', 30_000).then(
        () => 0,
        () => agents().length,
      );
      figure({
        case: 'R6',
        name: 'agents started (20 sockets dropped before initialize started none)',
        value: served.started(),
      });
      zero({ case: 'R6', name: 'agent processes left after every client dropped' }, left);
      atMost(
        {
          case: 'R6',
          name: `ms from the last of 10 session-less connections dropping to all 10 closed (grace ${graceS} s)`,
          unit: 'ms',
        },
        Math.round(noSessionClosedMs),
        graceS * 1000,
      );
      figure({
        case: 'R6',
        name: 'connections with a session still waiting for a resume after the others were closed (of 10)',
        value: stillWaiting,
      });
      figure({
        case: 'R6',
        name: 'ms until every connection was closed',
        value: Math.round(freedMs),
        unit: 'ms',
      });
      watch.see('acp serve stderr (R6)', served.stderr());
      expect(served.started()).toBe(all.length);
      expect(left).toBe(0);
      expect(noSessionClosedMs).toBeLessThan(graceS * 1000);
      expect(stillWaiting).toBe(withSession.length);
    } finally {
      await served?.stop();
      for (const pid of processesWith(token)) process.kill(pid, 'SIGKILL');
      home.cleanup();
    }
  }, 300_000);
});
