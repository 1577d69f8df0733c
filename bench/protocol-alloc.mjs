/**
 * `node --expose-gc --min-semi-space-size=64 --max-semi-space-size=64 bench/protocol-alloc.mjs
 *   [--side agent|client] [--calls N] [--rounds R] [--warmup N] [--only IMPL] [--base DIR] [--profile]`
 *
 * Bytes of JavaScript heap allocated per round trip (`session/set_mode` answered with `{}`), in
 * one process, on one side: acp-kit (the built `@acp-kit/protocol`, its typed connection over a
 * Node stream channel) against the raw peer of `bench/impl` (lines split by hand, `JSON.parse`,
 * `JSON.stringify` + one `write`), both over the same in-memory streams driven by the same loop.
 * What the loop itself allocates is paid by both; the difference is acp-kit's own. A diagnostic,
 * not a suite: the budgets are judged by `bench/protocol.js` over real pipes.
 *
 * The young generation is made large enough that no collection runs while a block is measured
 * (a block that saw one is reported as such), so `used_heap_size` after minus before is what the
 * block allocated. `--base DIR` adds a third implementation, `base`: the protocol package built in
 * DIR (say, the previous commit's, for a before/after in the same run). `--profile` also prints where acp-kit's bytes are allocated (V8's sampling heap
 * profiler, collected objects included; run it with `--no-turbo-inlining` too, or optimised code
 * charges what it inlined to its caller).
 */
import { Session } from 'node:inspector/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import os from 'node:os';
import { PerformanceObserver, performance } from 'node:perf_hooks';
import { Readable, Writable } from 'node:stream';
import { setImmediate } from 'node:timers';
import { TextEncoder } from 'node:util';
import v8 from 'node:v8';
import * as acpKit from '@acp-kit/protocol';
import * as acpKitNode from '@acp-kit/protocol/node';
import { AGENT_INFO, CLIENT_INFO, CWD, MODES, MODE_ID, SESSION_ID } from './common.js';
import { readLines, writeFrame } from './impl/raw-framing.js';

function parseArgs(argv) {
  const opts = { side: 'agent', calls: 5_000, rounds: 7, warmup: 20_000, profile: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--side') opts.side = argv[++i];
    else if (a === '--calls') opts.calls = Number(argv[++i]);
    else if (a === '--rounds') opts.rounds = Number(argv[++i]);
    else if (a === '--warmup') opts.warmup = Number(argv[++i]);
    else if (a === '--profile') opts.profile = true;
    else if (a === '--only') opts.only = argv[++i];
    else if (a === '--base') opts.base = argv[++i];
    else throw new Error(`unknown option ${a}`);
  }
  if (opts.side !== 'agent' && opts.side !== 'client') throw new Error('--side takes agent or client');
  if (typeof globalThis.gc !== 'function') throw new Error('run with node --expose-gc (see the header)');
  return opts;
}

const opts = parseArgs(process.argv.slice(2));
const encoder = new TextEncoder();
const frameBytes = (message) => encoder.encode(`${JSON.stringify(message)}\n`);
const MODE_PARAMS = { sessionId: SESSION_ID, modeId: MODE_ID };

/**
 * In-memory streams standing for the pipe: `push(bytes)` delivers a read, `written()` resolves at
 * the next write (strings kept as strings, as a pipe's stream takes them).
 */
function memoryPipe() {
  const readable = new Readable({ read() {} });
  let wake;
  const writable = new Writable({
    decodeStrings: false,
    write(_chunk, _encoding, callback) {
      const w = wake;
      wake = undefined;
      w?.();
      callback();
    },
  });
  return {
    readable,
    writable,
    push: (bytes) => readable.push(bytes),
    written: () =>
      new Promise((resolve) => {
        wake = resolve;
      }),
  };
}

/** The agent side: requests pushed in, answers written. `call(i)` makes round trip `i`. */
async function agentSide(lib) {
  const pipe = memoryPipe();
  if (lib) {
    const { AgentSideConnection, nodeStreamChannel } = lib;
    // The handlers of bench/impl/acp-kit-agent.js.
    new AgentSideConnection(nodeStreamChannel(pipe.readable, pipe.writable), () => ({
      initialize: () => ({ protocolVersion: 1, agentCapabilities: {}, agentInfo: AGENT_INFO }),
      newSession: () => ({ sessionId: SESSION_ID, modes: MODES }),
      setSessionMode: () => ({}),
      promptSession: () => ({ stopReason: 'end_turn' }),
      cancelSession: () => {},
    })).start();
  } else {
    // What bench/impl/raw-agent.js does for these methods: an async handler, a fresh result.
    const results = {
      initialize: () => ({ protocolVersion: 1, agentCapabilities: {}, agentInfo: AGENT_INFO }),
      'session/new': () => ({ sessionId: SESSION_ID, modes: MODES }),
      'session/set_mode': () => ({}),
    };
    const handle = async (msg) => {
      if (msg.id !== undefined && msg.method !== undefined)
        writeFrame(pipe.writable, { jsonrpc: '2.0', id: msg.id, result: results[msg.method]() });
    };
    readLines(pipe.readable, (msg) => void handle(msg));
  }
  const roundTrip = async (bytes) => {
    const answered = pipe.written();
    pipe.push(bytes);
    await answered;
  };
  const init = { protocolVersion: 1, clientCapabilities: {}, clientInfo: CLIENT_INFO };
  await roundTrip(frameBytes({ jsonrpc: '2.0', id: 0, method: 'initialize', params: init }));
  await roundTrip(
    frameBytes({ jsonrpc: '2.0', id: 1, method: 'session/new', params: { cwd: CWD, mcpServers: [] } }),
  );
  let nextId = 2;
  return {
    /** Frames for the next `n` calls, made before a block is measured. */
    prepare: (n) =>
      Array.from({ length: n }, () =>
        frameBytes({ jsonrpc: '2.0', id: nextId++, method: 'session/set_mode', params: MODE_PARAMS }),
      ),
    call: roundTrip,
  };
}

/** The client side: requests written, answers pushed in. */
async function clientSide(lib) {
  const pipe = memoryPipe();
  let request;
  if (lib) {
    const { ClientSideConnection, nodeStreamChannel } = lib;
    const conn = new ClientSideConnection(nodeStreamChannel(pipe.readable, pipe.writable), () => ({
      requestPermission: () => ({ outcome: { outcome: 'cancelled' } }),
      sessionUpdate: () => {},
    }));
    conn.start();
    request = (method, params) => {
      if (method === 'initialize') return conn.initialize(params);
      if (method === 'session/new') return conn.newSession(params);
      return conn.setSessionMode(params);
    };
  } else {
    // bench/impl/raw-connect.js's request path.
    const pending = new Map();
    let nextId = 1;
    readLines(pipe.readable, (msg) => {
      if (msg.id !== undefined && msg.method === undefined) {
        const p = pending.get(msg.id);
        pending.delete(msg.id);
        if (msg.error) p.reject(new Error(msg.error.message));
        else p.resolve(msg.result);
      }
    });
    request = (method, params) =>
      new Promise((resolve, reject) => {
        const id = nextId++;
        pending.set(id, { resolve, reject });
        writeFrame(pipe.writable, { jsonrpc: '2.0', id, method, params });
      });
  }
  // Both number their requests from 1.
  let nextId = 1;
  const roundTrip = async (method, params, answer) => {
    const sent = pipe.written();
    const done = request(method, params);
    await sent;
    pipe.push(answer);
    return done;
  };
  const init = { protocolVersion: 1, agentCapabilities: {}, agentInfo: AGENT_INFO };
  await roundTrip(
    'initialize',
    { protocolVersion: 1, clientCapabilities: {}, clientInfo: CLIENT_INFO },
    frameBytes({ jsonrpc: '2.0', id: nextId++, result: init }),
  );
  await roundTrip(
    'session/new',
    { cwd: CWD, mcpServers: [] },
    frameBytes({ jsonrpc: '2.0', id: nextId++, result: { sessionId: SESSION_ID, modes: MODES } }),
  );
  return {
    prepare: (n) => Array.from({ length: n }, () => frameBytes({ jsonrpc: '2.0', id: nextId++, result: {} })),
    call: (answer) => roundTrip('session/set_mode', MODE_PARAMS, answer),
  };
}

const gcTimes = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) gcTimes.push(entry.startTime);
}).observe({ entryTypes: ['gc'] });
const settle = () => new Promise((resolve) => setImmediate(resolve));

/**
 * Bytes allocated per call over one block of `n` calls (undefined when a collection ran), and the
 * block's CPU time per call in µs (what the loop costs included).
 */
async function measureBlock(side, n) {
  const frames = side.prepare(n);
  globalThis.gc();
  await settle();
  const start = performance.now();
  const before = v8.getHeapStatistics().used_heap_size;
  const cpu = process.cpuUsage();
  for (let i = 0; i < n; i++) await side.call(frames[i]);
  const used = process.cpuUsage(cpu);
  const after = v8.getHeapStatistics().used_heap_size;
  const end = performance.now();
  await settle();
  const gc = gcTimes.some((t) => t >= start && t <= end);
  return { bytes: gc ? undefined : (after - before) / n, cpuUs: (used.user + used.system) / n };
}

async function profileBlock(impl, side, n) {
  const frames = side.prepare(n);
  const session = new Session();
  session.connect();
  await session.post('HeapProfiler.startSampling', {
    samplingInterval: 64,
    includeObjectsCollectedByMinorGC: true,
    includeObjectsCollectedByMajorGC: true,
  });
  for (let i = 0; i < n; i++) await side.call(frames[i]);
  const { profile } = await session.post('HeapProfiler.stopSampling');
  session.disconnect();
  const bySite = new Map();
  const walk = (node, stack) => {
    const { functionName, url, lineNumber } = node.callFrame;
    const file = url.replace(/^.*\/(packages|node_modules|bench)\//, '$1/').replace(/^node:/, '');
    const site = `${functionName || '(anonymous)'} ${file}:${lineNumber + 1}`;
    const here = [...stack, site].slice(-3);
    if (node.selfSize > 0) {
      const key = here.join(' < ');
      bySite.set(key, (bySite.get(key) ?? 0) + node.selfSize);
    }
    for (const child of node.children) walk(child, here);
  };
  walk(profile.head, []);
  const rows = [...bySite].sort((a, b) => b[1] - a[1]).slice(0, 25);
  console.log(`  where ${impl} allocates (sampled, bytes per call, innermost frame first):`);
  for (const [site, bytes] of rows)
    console.log(`  ${(bytes / n).toFixed(0).padStart(6)}  ${site.split(' < ').reverse().join(' < ')}`);
}

/** The protocol package an implementation runs (undefined: the raw peer). */
const libs = { raw: undefined, 'acp-kit': { ...acpKit, ...acpKitNode } };
if (opts.base !== undefined) {
  const dist = resolve(opts.base, 'dist');
  libs.base = {
    ...(await import(pathToFileURL(join(dist, 'index.js')).href)),
    ...(await import(pathToFileURL(join(dist, 'node/index.js')).href)),
  };
}
// `--only IMPL`: that implementation alone in the process (no other code shares its call sites).
const IMPLS = Object.keys(libs).filter((impl) => opts.only === undefined || impl === opts.only);
const make = opts.side === 'agent' ? agentSide : clientSide;
const sides = {};
for (const impl of IMPLS) sides[impl] = await make(libs[impl]);
for (const side of Object.values(sides)) {
  const frames = side.prepare(opts.warmup);
  for (let i = 0; i < opts.warmup; i++) await side.call(frames[i]);
}
const bytes = Object.fromEntries(IMPLS.map((impl) => [impl, []]));
const cpu = Object.fromEntries(IMPLS.map((impl) => [impl, []]));
for (let round = 0; round < opts.rounds; round++) {
  const order = round % 2 === 0 ? IMPLS : [...IMPLS].reverse();
  for (const impl of order) {
    const block = await measureBlock(sides[impl], opts.calls);
    if (block.bytes !== undefined) bytes[impl].push(block.bytes);
    cpu[impl].push(block.cpuUs);
  }
}
const summary = (values, digits) => {
  const s = [...values].sort((a, b) => a - b);
  if (s.length === 0) return 'every block saw a collection';
  return [s[0], s[Math.floor(s.length / 2)], s.at(-1)].map((v) => v.toFixed(digits)).join(' / ');
};
console.log(
  `${opts.side} side, per round trip, min / median / max of ${opts.rounds} blocks of ${opts.calls} (load ${os.loadavg()[0].toFixed(1)}):`,
);
for (const impl of IMPLS)
  console.log(`  ${impl.padEnd(8)} bytes ${summary(bytes[impl], 0)}   CPU µs ${summary(cpu[impl], 2)}`);
if (opts.profile) for (const impl of IMPLS) await profileBlock(impl, sides[impl], opts.calls);
process.exit(0);
