/**
 * A. Framing over real pipes: A3 the seeded wire fuzz into `acp agent --demo` (agent side), into
 * the v2 face of a negotiated connection (serveAgent after a v2 initialize), and from a hostile
 * agent into `acp run` (client side), A4 the 100 MB line in both directions, A6 a
 * truncated last frame, and A7/A8 through the client engine's store and records.
 */
import { describe, expect, it } from 'vitest';
import { createFuzzer } from './fixtures/fuzz-frames.mjs';
import { ReplyLedger, type LedgerSummary } from './fixtures/reply-ledger.mjs';
import { fileWatch } from './support/canary.js';
import { atMost, figure, holds, mib, zero } from './support/figures.js';
import { LinePeer, type Frame } from './support/line-peer.js';
import {
  Collected,
  CRASH,
  exitOf,
  isAlive,
  makeHome,
  PeakMemory,
  pollUntil,
  spawnAcp,
  spawnDemoAgent,
  spawnNegotiatingAgent,
  within,
} from './support/procs.js';
import {
  readStatus,
  relayCommand,
  script,
  statusFile,
  waitForStatus,
  type StatusRecord,
} from './support/relay.js';
import { COUNTS, seedOf, timeoutMs } from './support/size.js';

const watch = fileWatch('a-wire');

const DEFAULT_LIMIT = 64 * 1024 * 1024;

/** What one fuzz run into a real process found. */
type Side = 'agent' | 'agent-v2' | 'demo-v2' | 'client';

interface FuzzOutcome {
  side: Side;
  seed: number;
  frames: number;
  crashed: boolean;
  alive: boolean;
  /** Clean exit afterwards (agent: 0 after stdin closed; acp run: 0 for end_turn). */
  cleanExit: boolean;
  summary: LedgerSummary | undefined;
  /** Output tail for failure messages. */
  detail: string;
}

/** An agent-side target of the fuzz: the process and the handshake that opens a session on it. */
interface AgentTarget {
  side: Exclude<Side, 'client'>;
  seed: number;
  /** Which frames: a v1 client's, or a v2 client's (its own methods too). */
  fuzz: 'agent' | 'agent-v2';
  spawn(home: ReturnType<typeof makeHome>): ReturnType<typeof spawnDemoAgent>;
  initialize: Record<string, unknown>;
  newSession(cwd: string): Record<string, unknown>;
}

const DEMO_AGENT: AgentTarget = {
  side: 'agent',
  seed: seedOf(301),
  fuzz: 'agent',
  spawn: spawnDemoAgent,
  initialize: { protocolVersion: 1, clientCapabilities: {} },
  newSession: (cwd) => ({ cwd, mcpServers: [] }),
};

const V2_INITIALIZE = { protocolVersion: 2, info: { name: 'battery', version: '1' } };

/** The same fuzz (v1-shaped methods included) into a connection negotiated in v2: the v2 face's turn. */
const V2_FACE: AgentTarget = {
  side: 'agent-v2',
  seed: seedOf(302),
  fuzz: 'agent',
  spawn: spawnNegotiatingAgent,
  initialize: V2_INITIALIZE,
  newSession: (cwd) => ({ cwd }),
};

/**
 * The demo agent itself negotiated in v2, fuzzed with a v2 client's frames: its own files and
 * terminals run (prompts that read, run, start background commands), cancels per call and terminal.
 */
const DEMO_V2: AgentTarget = {
  side: 'demo-v2',
  seed: seedOf(303),
  fuzz: 'agent-v2',
  spawn: spawnDemoAgent,
  initialize: V2_INITIALIZE,
  newSession: (cwd) => ({ cwd }),
};

/** A3 agent side: frames into an agent process, read back by a raw peer that keeps the ledger. */
async function fuzzAgent(target: AgentTarget): Promise<FuzzOutcome> {
  const { seed, side } = target;
  const frames = COUNTS.fuzzFrames;
  const home = makeHome(`a3-${side}`);
  const child = target.spawn(home);
  const stderr = new Collected(child.stderr);
  const canary = watch.contentCanary();
  const ledger = new ReplyLedger(seed, canary);
  const peer = new LinePeer(child, (line, frame) => ledger.reply(line, frame));
  try {
    await within(peer.request('init', 'initialize', target.initialize), 60_000, 'initialize');
    const created = await within(
      peer.request('new', 'session/new', target.newSession(home.work)),
      30_000,
      'session/new',
    );
    const sessionId = (created.result as { sessionId: string }).sessionId;
    const memory = new PeakMemory(child.pid as number);
    const fuzzer = createFuzzer({ seed, side: target.fuzz, sessionId, cwd: home.work, canary });
    const started = performance.now();
    for (let i = 0; i < frames; i++) {
      const frame = fuzzer.next();
      ledger.expect(frame.expect);
      await peer.write(frame.text + '\n');
    }
    const live = await within(
      peer.request('live', 'session/new', target.newSession(home.work)),
      120_000,
      'liveness',
    ).catch(() => undefined);
    await pollUntil(() => ledger.missing === 0, 'every request answered', 30_000).catch(() => undefined);
    const wallMs = performance.now() - started;
    memory.stop();
    const crashed = child.exitCode !== null || child.signalCode !== null || CRASH.test(stderr.text);
    child.stdin?.end();
    const exit = await exitOf(child, 30_000).catch(() => undefined);
    watch.see(`${side} stderr (fuzz)`, stderr.text);
    figure({ case: 'A3', name: `${side} side: wall time`, value: Math.round(wallMs), unit: 'ms', seed });
    figure({
      case: 'A3',
      name: `${side} side: agent peak RSS over idle`,
      value: mib(memory.delta),
      unit: 'MiB',
      seed,
    });
    return {
      side,
      seed,
      frames,
      crashed,
      alive: live?.result !== undefined,
      cleanExit: exit?.code === 0,
      summary: ledger.summary(),
      detail: stderr.text.slice(-2000),
    };
  } finally {
    child.kill('SIGKILL');
    home.cleanup();
  }
}

/** A3 client side: the relay agent fuzzes `acp run` and writes its ledger to the status file. */
async function fuzzClient(): Promise<FuzzOutcome> {
  const seed = seedOf(302);
  const frames = COUNTS.fuzzFrames;
  const home = makeHome('a3-client');
  const status = statusFile(home);
  const canary = watch.contentCanary();
  const prompt = script([{ fuzz: { seed, frames, canary, cwd: home.work } }]);
  const child = spawnAcp(
    ['run', '--format', 'json', '--approve', 'reads', prompt, '--', ...relayCommand({ status })],
    {
      cwd: home.work,
      env: home.env,
    },
  );
  let updates = 0;
  const stdout = new Collected(child.stdout, 64 * 1024);
  child.stdout?.on('data', (text: string) => (updates += text.split('"type":"update"').length - 1));
  const stderr = new Collected(child.stderr);
  try {
    await waitForStatus(status, (r) => r.event === 'started', 60_000);
    const memory = new PeakMemory(child.pid as number);
    const exit = await exitOf(child, timeoutMs(150_000, 3_600_000));
    memory.stop();
    const report = readStatus(status).find((r) => r.event === 'fuzz-report') as
      (StatusRecord & LedgerSummary) | undefined;
    watch.see('acp run stderr (fuzz)', stderr.text);
    watch.see('acp run stdout (fuzz)', stdout.text, { output: true });
    if (report)
      figure({ case: 'A3', name: 'client side: wall time', value: Number(report.wallMs), unit: 'ms', seed });
    figure({
      case: 'A3',
      name: `client side: acp run peak RSS over idle (${updates} updates printed)`,
      value: mib(memory.delta),
      unit: 'MiB',
      seed,
    });
    return {
      side: 'client',
      seed,
      frames,
      crashed: exit.signal !== null || CRASH.test(stderr.text),
      alive: report?.alive === true,
      cleanExit: exit.code === 0,
      summary: report,
      detail: `exit ${JSON.stringify(exit)}\n${stderr.text.slice(-1000)}\n${stdout.text.slice(-1000)}`,
    };
  } finally {
    child.kill('SIGKILL');
    home.cleanup();
  }
}

const TARGETS: Record<AgentTarget['side'], AgentTarget> = {
  agent: DEMO_AGENT,
  'agent-v2': V2_FACE,
  'demo-v2': DEMO_V2,
};

describe('A3 wire fuzz into real processes', () => {
  const runs: Partial<Record<Side, Promise<FuzzOutcome>>> = {};
  const outcome = (side: Side) =>
    (runs[side] ??= side === 'client' ? fuzzClient() : fuzzAgent(TARGETS[side]));
  const RUN_TIMEOUT = timeoutMs(180_000, 3_600_000);

  const WHO: Record<Side, string> = {
    agent: 'acp agent --demo',
    'agent-v2': 'serveAgent, negotiated in v2',
    'demo-v2': 'acp agent --demo, negotiated in v2',
    client: 'acp run (reading a hostile agent)',
  };
  for (const side of ['agent', 'agent-v2', 'demo-v2', 'client'] as const) {
    const who = WHO[side];
    it(
      `${side} side: ${who} does not crash and answers a liveness request afterwards`,
      async () => {
        const o = await outcome(side);
        figure({
          case: 'A3',
          name: `${side} side: frames fuzzed`,
          value: o.frames,
          unit: 'frames',
          target: '≥ 1,000,000 (full size)',
          pass: o.frames >= 1_000_000,
          seed: o.seed,
        });
        zero({ case: 'A3', name: `${side} side: crashes`, seed: o.seed }, o.crashed ? 1 : 0);
        holds({ case: 'A3', name: `${side} side: alive afterwards`, seed: o.seed }, o.alive);
        expect(o.crashed, `seed ${o.seed}: ${o.detail}`).toBe(false);
        expect(o.alive, `seed ${o.seed}: ${o.detail}`).toBe(true);
        expect(o.cleanExit, `seed ${o.seed}: ${o.detail}`).toBe(true);
      },
      RUN_TIMEOUT,
    );

    it(
      `${side} side: every request-shaped frame answered exactly once, nothing else answered`,
      async () => {
        const o = await outcome(side);
        const s = o.summary;
        zero({ case: 'A3', name: `${side} side: requests missing a reply`, seed: o.seed }, s?.missing ?? -1);
        zero({ case: 'A3', name: `${side} side: unexpected replies`, seed: o.seed }, s?.unexpected ?? -1);
        figure({
          case: 'A3',
          name: `${side} side: replies by code ${JSON.stringify(s?.byCode ?? {})}`,
          value: s?.replies ?? 0,
          seed: o.seed,
        });
        expect(s, `seed ${o.seed}: ${o.detail}`).toBeDefined();
        expect(s?.missing, `seed ${o.seed}`).toBe(0);
        expect(s?.unexpected, `seed ${o.seed}: ${s?.samples.join('\n')}`).toBe(0);
        expect(s?.largestReply, `seed ${o.seed}: an error reply echoes its frame`).toBeLessThanOrEqual(2048);
      },
      RUN_TIMEOUT,
    );

    it(
      `J2 ${side} side: no error reply to a fuzz frame echoes the canary it carried`,
      async () => {
        const o = await outcome(side);
        const echoes = o.summary?.canaryEchoes ?? -1;
        zero({ case: 'J2', name: `${side} side: error replies echoing the canary`, seed: o.seed }, echoes);
        expect(echoes, `seed ${o.seed}: ${o.summary?.samples.join('\n')}`).toBe(0);
      },
      RUN_TIMEOUT,
    );
  }
});

describe('A4 a 100 MB line with no newline', () => {
  it('client side (acp run reading the agent): closed at the limit, pending rejected, agent killed, bounded memory', async () => {
    const home = makeHome('a4-client');
    const status = statusFile(home);
    const child = spawnAcp(
      [
        'run',
        '--format',
        'json',
        script([{ waitSignal: 'SIGUSR2' }, { hugeLine: 100 * 1024 * 1024 }]),
        '--',
        ...relayCommand({ status }),
      ],
      { cwd: home.work, env: home.env },
    );
    const stdout = new Collected(child.stdout);
    const stderr = new Collected(child.stderr);
    try {
      const waiting = await waitForStatus(status, (r) => r.event === 'waiting-for-signal', 60_000);
      const memory = new PeakMemory(child.pid as number);
      process.kill(waiting.pid, 'SIGUSR2');
      const exit = await exitOf(child, 60_000);
      const exitedAt = Date.now();
      memory.stop();
      const crossed = readStatus(status).find(
        (r) => r.event === 'huge-line-progress' && Number(r.bytes) >= DEFAULT_LIMIT,
      );
      const lines = stdout.text
        .split('\n')
        .filter((l) => l.trim() !== '')
        .map((l) => JSON.parse(l) as Frame);
      const error = lines.find((l) => l.type === 'error');
      const parseErrors = lines.filter((l) => JSON.stringify(l).includes('-32700')).length;
      await pollUntil(() => !isAlive(waiting.pid), 'the agent is killed', 5_000).catch(() => undefined);
      const agentAlive = isAlive(waiting.pid);
      watch.see('acp run stderr (A4)', stderr.text);
      atMost(
        { case: 'A4', name: 'client side: acp run peak RSS over idle (limit 64 MiB)', unit: 'MiB' },
        mib(memory.delta),
        256,
      );
      figure({
        case: 'A4',
        name: 'client side: ms from crossing the limit to acp run exiting',
        value: crossed ? exitedAt - crossed.t : -1,
        unit: 'ms',
      });
      holds(
        { case: 'A4', name: 'client side: pending prompt rejected with a too-large error, agent killed' },
        Boolean(error) && !agentAlive,
      );
      expect(exit.signal).toBeNull();
      expect(error, stdout.text.slice(-2000)).toBeDefined();
      expect(String(error?.message)).toMatch(/too large|exceeds|limit/i);
      expect(parseErrors).toBe(0);
      expect(agentAlive).toBe(false);
      expect(memory.delta).toBeLessThanOrEqual(256 * 1024 * 1024);
    } finally {
      child.kill('SIGKILL');
      for (const r of readStatus(status)) if (isAlive(r.pid)) process.kill(r.pid, 'SIGKILL');
      home.cleanup();
    }
  }, 120_000);

  for (const target of [DEMO_AGENT, DEMO_V2]) {
    const version = target === DEMO_V2 ? ' in v2' : '';
    it(`agent side (acp agent --demo${version} reading the client): closed at the limit, bounded memory`, async () => {
      const home = makeHome(`a4-${target.side}`);
      const child = spawnDemoAgent(home);
      const stderr = new Collected(child.stderr);
      const peer = new LinePeer(child);
      try {
        await within(peer.request('init', 'initialize', target.initialize), 60_000, 'initialize');
        const memory = new PeakMemory(child.pid as number);
        const block = '{"jsonrpc":"2.0","method":"session/update","params":{"x":"' + 'x'.repeat(1024 * 1024);
        let written = 0;
        let crossedAt = 0;
        const closed = peer.stdoutEnded();
        let ended = false;
        void closed.then(() => (ended = true));
        while (written < 100 * 1024 * 1024 && !ended && !child.stdin?.destroyed) {
          await peer.write(block);
          written += block.length;
          if (!crossedAt && written >= DEFAULT_LIMIT) crossedAt = performance.now();
        }
        await within(closed, 30_000, 'the agent closing its side after the limit');
        const closeMs = performance.now() - crossedAt;
        memory.stop();
        watch.see('demo agent stderr (A4)', stderr.text);
        atMost(
          { case: 'A4', name: `agent side${version}: agent peak RSS over idle (limit 64 MiB)`, unit: 'MiB' },
          mib(memory.delta),
          256,
        );
        figure({
          case: 'A4',
          name: `agent side${version}: ms from crossing the limit to the agent closing`,
          value: Math.round(closeMs),
          unit: 'ms',
        });
        expect(CRASH.test(stderr.text), stderr.text.slice(-2000)).toBe(false);
        expect(memory.delta).toBeLessThanOrEqual(256 * 1024 * 1024);
      } finally {
        child.kill('SIGKILL');
        home.cleanup();
      }
    }, 120_000);
  }
});
