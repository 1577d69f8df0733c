/**
 * R. The remote server under attack, on the wire (issue 17): `acp serve --agent demo` as a real
 * process on 127.0.0.1. R1 the seeded wire fuzz of A3, sent as WebSocket text frames and as
 * Streamable HTTP POSTs, then a liveness request; R7 bodies and frames over the size limit. The
 * checks are A3's: no crash, every request-shaped frame answered exactly once (over HTTP a refusal
 * status is the answer), nothing else answered, no canary in an error reply or the server's logs.
 */
import { describe, expect, it } from 'vitest';
import { request } from 'node:http';
import { createFuzzer } from './fixtures/fuzz-frames.mjs';
import { ReplyLedger, type LedgerSummary } from './fixtures/reply-ledger.mjs';
import { fileWatch } from './support/canary.js';
import { atMost, figure, holds, mib, zero } from './support/figures.js';
import { makeHome, PeakMemory, pollUntil, within } from './support/procs.js';
import { RawHttp, RawSocket, startServe, type Served } from './support/serve.js';
import { COUNTS, seedOf, timeoutMs } from './support/size.js';

const watch = fileWatch('r-remote-wire');

/** A stack trace or an unhandled error in the server's stderr: a crash. */
const CRASH =
  /Uncaught|UnhandledPromiseRejection|unhandledRejection|FATAL ERROR|Maximum call stack|\n\s+at .+:\d+:\d+\)/;

interface FuzzOutcome {
  seed: number;
  frames: number;
  crashed: boolean;
  alive: boolean;
  summary: LedgerSummary;
  /** HTTP: the statuses of the POSTs (a refusal answers its frame). */
  statuses: Record<string, number>;
  detail: string;
}

/** The session id a frame names, when it names one as a string (a client sends it as a header). */
function sessionOf(text: string): string | undefined {
  try {
    const id = (JSON.parse(text) as { params?: { sessionId?: unknown } }).params?.sessionId;
    return typeof id === 'string' ? id : undefined;
  } catch {
    return undefined;
  }
}

async function fuzz(profile: 'websocket' | 'http'): Promise<FuzzOutcome> {
  const seed = seedOf(profile === 'websocket' ? 1701 : 1702);
  const frames = COUNTS.remoteFuzzFrames;
  const home = makeHome(`r1-${profile}`);
  let served: Served | undefined;
  const canary = watch.contentCanary();
  const ledger = new ReplyLedger(seed, canary);
  const onFrame = (line: string, frame: Record<string, unknown>): void => void ledger.reply(line, frame);
  const statuses: Record<string, number> = {};
  try {
    served = await startServe(home, ['--agent', 'demo']);
    const memory = new PeakMemory(served.child.pid as number);
    const socket = profile === 'websocket' ? await RawSocket.open(served.url, { onFrame }) : undefined;
    const http = profile === 'http' ? new RawHttp(served.url, onFrame) : undefined;
    const client = (socket ?? http) as RawSocket | RawHttp;
    const sessionId = await within(client.openSession(home.work), 60_000, 'initialize and session/new');
    memory.markBaseline();
    const fuzzer = createFuzzer({ seed, side: 'agent', sessionId, cwd: home.work, canary });
    const started = performance.now();
    for (let i = 0; i < frames; i++) {
      const frame = fuzzer.next();
      // Expected before it is sent: its answer may come on a stream before the POST's own answer.
      ledger.expect(frame.expect);
      if (socket) {
        await socket.send(frame.text);
        continue;
      }
      // A frame that names another session than its header is refused (400): name ours.
      const status = await (http as RawHttp).post(frame.text, sessionOf(frame.text) ? sessionId : undefined);
      statuses[status] = (statuses[status] ?? 0) + 1;
      // Taken (202): its answer comes on a stream. Refused: the status was the answer.
      if (status !== 202) ledger.retract(frame.expect);
    }
    const live = client.received.reply('live');
    const probe = JSON.stringify({
      jsonrpc: '2.0',
      id: 'live',
      method: 'session/set_mode',
      params: { sessionId, modeId: 'ask' },
    });
    if (socket) await socket.send(probe);
    else await (http as RawHttp).post(probe, sessionId);
    const alive = await within(live, 120_000, 'liveness').then(
      () => true,
      () => false,
    );
    await pollUntil(() => ledger.missing === 0, 'every request answered', 60_000).catch(() => undefined);
    const wallMs = performance.now() - started;
    memory.stop();
    if (socket) socket.ws.close();
    else await (http as RawHttp).close();
    const crashed = served.child.exitCode !== null || CRASH.test(served.stderr());
    watch.see(`acp serve stderr (R1 ${profile})`, served.stderr());
    figure({ case: 'R1', name: `${profile}: wall time`, value: Math.round(wallMs), unit: 'ms', seed });
    figure({
      case: 'R1',
      name: `${profile}: acp serve peak RSS over idle (agent process apart)`,
      value: mib(memory.delta),
      unit: 'MiB',
      seed,
    });
    return {
      seed,
      frames,
      crashed,
      alive,
      summary: ledger.summary(),
      statuses,
      detail: served.stderr().slice(-2000),
    };
  } finally {
    await served?.stop();
    home.cleanup();
  }
}

describe('R1 wire fuzz into acp serve', () => {
  const runs: Partial<Record<'websocket' | 'http', Promise<FuzzOutcome>>> = {};
  const outcome = (profile: 'websocket' | 'http') => (runs[profile] ??= fuzz(profile));
  const RUN_TIMEOUT = timeoutMs(300_000, 3_600_000);

  for (const profile of ['websocket', 'http'] as const) {
    it(
      `${profile}: acp serve does not crash and answers a liveness request afterwards`,
      async () => {
        const o = await outcome(profile);
        figure({
          case: 'R1',
          name: `${profile}: frames fuzzed`,
          value: o.frames,
          unit: 'frames',
          seed: o.seed,
        });
        zero({ case: 'R1', name: `${profile}: crashes`, seed: o.seed }, o.crashed ? 1 : 0);
        holds({ case: 'R1', name: `${profile}: alive afterwards`, seed: o.seed }, o.alive);
        if (profile === 'http')
          figure({
            case: 'R1',
            name: `http: POST statuses ${JSON.stringify(o.statuses)}`,
            value: o.frames,
            seed: o.seed,
          });
        expect(o.crashed, `seed ${o.seed}: ${o.detail}`).toBe(false);
        expect(o.alive, `seed ${o.seed}: ${o.detail}`).toBe(true);
        // A 500 would be an error of ours; every refusal is a 4xx (501 for batches).
        expect(o.statuses['500'] ?? 0, `seed ${o.seed}`).toBe(0);
      },
      RUN_TIMEOUT,
    );

    it(
      `${profile}: every request-shaped frame answered exactly once, nothing else answered, no canary echoed`,
      async () => {
        const o = await outcome(profile);
        const s = o.summary;
        zero({ case: 'R1', name: `${profile}: requests missing a reply`, seed: o.seed }, s.missing);
        zero({ case: 'R1', name: `${profile}: unexpected replies`, seed: o.seed }, s.unexpected);
        zero(
          { case: 'R1', name: `${profile}: error replies echoing the canary`, seed: o.seed },
          s.canaryEchoes,
        );
        figure({
          case: 'R1',
          name: `${profile}: replies by code ${JSON.stringify(s.byCode)}`,
          value: s.replies,
          seed: o.seed,
        });
        expect(s.missing, `seed ${o.seed}`).toBe(0);
        expect(s.unexpected, `seed ${o.seed}: ${s.samples.join('\n')}`).toBe(0);
        expect(s.canaryEchoes, `seed ${o.seed}: ${s.samples.join('\n')}`).toBe(0);
        expect(s.largestReply, `seed ${o.seed}: an error reply echoes its frame`).toBeLessThanOrEqual(2048);
      },
      RUN_TIMEOUT,
    );
  }
});

/**
 * A POST of `bytes` to `url`. Declared: only the headers are sent (the server must answer from
 * `Content-Length` alone, without waiting for a body). Chunked: the body is written as fast as the
 * server takes it; the outcome is its status, or 0 when the server reset the connection first (it
 * stops reading at the limit, and a client still writing may see the reset before the 413).
 */
function postHuge(url: string, bytes: number, declared: boolean): Promise<{ status: number; sent: number }> {
  return new Promise((resolve) => {
    const headers: Record<string, string | number> = { 'Content-Type': 'application/json' };
    if (declared) headers['Content-Length'] = bytes;
    const req = request(url, { method: 'POST', headers });
    let sent = 0;
    let answered = false;
    req.on('response', (res) => {
      answered = true;
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, sent }));
      res.on('error', () => resolve({ status: res.statusCode ?? 0, sent }));
    });
    req.on('error', () => (answered ? undefined : resolve({ status: 0, sent })));
    if (declared) {
      req.flushHeaders();
      return;
    }
    const block = Buffer.alloc(1024 * 1024, 'x');
    const pump = (): void => {
      while (sent < bytes && !answered && !req.destroyed) {
        sent += block.length;
        if (!req.write(block)) {
          req.once('drain', pump);
          return;
        }
      }
      if (!answered && !req.destroyed) req.end();
    };
    pump();
  });
}

describe('R7 bodies and frames over the size limit', () => {
  it('a 100 MB POST is refused (413 from its declared length; a chunked one at the limit) and a 100 MB frame closes its socket (1009); memory stays bounded and the server serves the next client', async () => {
    const home = makeHome('r7');
    const limit = 8 * 1024 * 1024;
    let served: Served | undefined;
    try {
      served = await startServe(home, ['--agent', 'demo', '--max-message-bytes', String(limit)]);
      const memory = new PeakMemory(served.child.pid as number);
      const declared = await postHuge(served.url, 100 * 1024 * 1024, true);
      const chunked = await postHuge(served.url, 100 * 1024 * 1024, false);
      const socket = await RawSocket.open(served.url);
      await socket.openSession(home.work);
      void socket.send('x'.repeat(100 * 1024 * 1024)).catch(() => undefined);
      const closed = await within(socket.closed, 60_000, 'the socket closing');
      memory.stop();
      const next = new RawHttp(served.url);
      const alive = await within(next.openSession(home.work), 60_000, 'the next client').then(
        () => true,
        () => false,
      );
      await next.close();
      figure({ case: 'R7', name: 'POST with Content-Length 100 MB: status', value: declared.status });
      figure({
        case: 'R7',
        name: `chunked POST of 100 MB: status, 0 for a reset (after ${mib(chunked.sent)} MiB written)`,
        value: chunked.status,
      });
      figure({ case: 'R7', name: '100 MB WebSocket frame: close code', value: closed.code });
      atMost(
        { case: 'R7', name: `acp serve peak RSS over idle (limit ${mib(limit)} MiB)`, unit: 'MiB' },
        mib(memory.delta),
        3 * mib(limit) + 64,
      );
      holds({ case: 'R7', name: 'the next client is served' }, alive);
      watch.see('acp serve stderr (R7)', served.stderr());
      expect(declared.status).toBe(413);
      // Refused at the limit: 413, or a reset the writer saw first; never the whole body read.
      expect([413, 0]).toContain(chunked.status);
      expect(chunked.sent).toBeLessThan(100 * 1024 * 1024);
      expect(closed.code).toBe(1009);
      expect(alive).toBe(true);
      expect(memory.delta).toBeLessThanOrEqual(3 * limit + 64 * 1024 * 1024);
      expect(CRASH.test(served.stderr()), served.stderr().slice(-2000)).toBe(false);
    } finally {
      await served?.stop();
      home.cleanup();
    }
  }, 300_000);
});
