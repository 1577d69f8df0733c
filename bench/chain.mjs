/**
 * `node bench/chain.mjs [--quick] [--runs N]` (`npm run bench -- chain`)
 *
 * The cost of a proxy chain: the same client talking to the same agent directly (the floor) and
 * through a conductor process with 1 and 3 pass-through proxies (each a process, as `acp chain`
 * runs them), side by side, alternated. Two measures per run: round trip of a small request
 * (median of sequential `echo`s) and throughput of a stream of agent → client notifications
 * (the shape of a turn's updates). Budgets, per pipe hop: a direct round trip crosses one hop
 * each way; through one proxy it crosses four (client → conductor → proxy → conductor → agent)
 * and wakes three processes more. A hop through the chain may cost 1.5× a direct one: one proxy
 * ≤ 6× the direct round trip, three proxies (8 hops) ≤ 12×. A stream is pipelined, so the hops
 * overlap: one proxy keeps ≥ 0.6× the direct rate, three ≥ 0.3×.
 *
 * Each connection first runs the round trips and the stream once unmeasured: a process's first
 * ~20,000 frames run mostly before the JIT has compiled the routing code (3-4× the CPU of later
 * ones), and a chain has two to four more processes to warm up than the floor; that one-off cost
 * is printed apart (`cold`), not counted as the per-hop cost. Beside each figure, the CPU all
 * processes of the path spent per round trip or update (`/proc/PID/task/N/schedstat`, client
 * included), which the load inflates far less than the times: budgets by the same rule (a hop
 * ≤ 1.5× a direct one: 1 proxy ≤ 6×, 3 proxies ≤ 12× the direct CPU per round trip or update).
 * On a machine with fewer free cores than the chain has processes, the hops of a stream cannot
 * overlap and its rate follows the CPU per update, not the 0.6 / 0.3 that pipelining would give.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { JsonRpcConnection } from '../packages/protocol/dist/index.js';
import { spawnPeer } from '../packages/protocol/dist/node/index.js';
import { alternate, ratioRow, reportVerdicts, stats } from './lib/verdict.mjs';

const quick = process.argv.includes('--quick');
const runsAt = process.argv.indexOf('--runs');
const runs = Number(runsAt >= 0 ? process.argv[runsAt + 1] : quick ? 3 : 5);
const ECHOES = quick ? 200 : 500;
const STREAM = { count: quick ? 5000 : 20000, size: 200 };
const file = (name) => join(dirname(fileURLToPath(import.meta.url)), 'chain', name);

/** CPU time (ns) of a process and its descendants, every thread (JIT and GC threads too). Linux. */
function treeCpuNs(pid) {
  const read = (path) => {
    try {
      return readFileSync(path, 'utf8');
    } catch {
      return ''; // gone meanwhile (or not Linux): what it spent is not counted
    }
  };
  let tasks;
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return 0;
  }
  let total = 0;
  for (const task of tasks) {
    total += Number(read(`/proc/${pid}/task/${task}/schedstat`).split(' ')[0]) || 0;
    for (const child of read(`/proc/${pid}/task/${task}/children`).split(' '))
      if (child.trim()) total += treeCpuNs(child.trim());
  }
  return total;
}

/** CPU of this process (the client) in ns. */
const ownCpuNs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) * 1000;
};

/** A client connected to the agent directly (proxies 0) or through a conductor with `proxies`. */
async function connect(proxies) {
  const peer =
    proxies === 0
      ? spawnPeer(process.execPath, [file('agent.mjs')])
      : spawnPeer(process.execPath, [file('conductor.mjs'), String(proxies)]);
  let updates = 0;
  const connection = new JsonRpcConnection(peer.channel, { peerName: 'agent' });
  connection.onNotification('session/update', () => {
    updates++;
  });
  connection.start();
  await connection.request('echo', { warm: true });
  return { peer, connection, updates: () => updates };
}

async function measure(proxies) {
  const { peer, connection, updates } = await connect(proxies);
  const cpuNs = () => treeCpuNs(peer.pid) + ownCpuNs();
  const roundTrips = async () => {
    const times = [];
    const cpuBefore = cpuNs();
    for (let i = 0; i < ECHOES; i++) {
      const started = performance.now();
      await connection.request('echo', { i, text: 'hello' });
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    return { rttMs: times[Math.floor(times.length / 2)], cpuUs: (cpuNs() - cpuBefore) / 1000 / ECHOES };
  };
  const stream = async () => {
    const before = updates();
    const cpuBefore = cpuNs();
    const started = performance.now();
    await connection.request('stream', STREAM);
    const seconds = (performance.now() - started) / 1000;
    if (updates() - before !== STREAM.count)
      throw new Error(`${proxies} proxies: ${updates() - before} updates`);
    return { perSecond: STREAM.count / seconds, cpuUs: (cpuNs() - cpuBefore) / 1000 / STREAM.count };
  };
  // The first pass of each warms the processes up; the second is measured.
  const cold = { rtt: await roundTrips(), stream: await stream() };
  const rtt = await roundTrips();
  const warm = await stream();
  await connection.close();
  await peer.shutdown({ graceMs: 2000 });
  return { rttMs: rtt.rttMs, rttCpuUs: rtt.cpuUs, perSecond: warm.perSecond, cpuUs: warm.cpuUs, cold };
}

const results = await alternate(
  runs,
  { direct: () => measure(0), one: () => measure(1), three: () => measure(3) },
  (name, value, run) =>
    console.log(
      `run ${run + 1} ${name}: rtt ${value.rttMs.toFixed(3)} ms (${value.rttCpuUs.toFixed(0)} µs CPU), ` +
        `${Math.round(value.perSecond)} updates/s (${value.cpuUs.toFixed(1)} µs CPU each); cold: rtt ` +
        `${value.cold.rtt.rttMs.toFixed(3)} ms, ${Math.round(value.cold.stream.perSecond)} updates/s`,
    ),
);
const pick = (name, key) => results[name].map((result) => result[key]);
/** Informational (no budget): min / median / max of a per-run ratio of `name` to the floor. */
const ratioLine = (what, name, get) => {
  const ratios = results[name].map((result, run) => get(result) / get(results.direct[run]));
  const { min, median, max } = stats(ratios);
  const medianOf = (key) => stats(results[key].map(get)).median;
  console.log(
    `${what}: ${min.toFixed(2)} / ${median.toFixed(2)} / ${max.toFixed(2)} ` +
      `(medians ${medianOf(name).toFixed(1)} vs direct ${medianOf('direct').toFixed(1)})`,
  );
};
for (const [name, label] of [
  ['one', '1 proxy'],
  ['three', '3 proxies'],
]) {
  ratioLine(`cold round trip, ${label} / direct (ms)`, name, (result) => result.cold.rtt.rttMs);
  ratioLine(`cold stream, ${label} / direct (updates/s)`, name, (result) => result.cold.stream.perSecond);
}
const rtt = (id, name, what, target) =>
  ratioRow({
    id,
    what,
    floorName: 'direct',
    unit: 'ms',
    subject: pick(name, 'rttMs'),
    floor: pick('direct', 'rttMs'),
    goal: { op: '<=', target },
  });
const rate = (id, name, what, target) =>
  ratioRow({
    id,
    what,
    floorName: 'direct',
    unit: 'updates/s',
    subject: pick(name, 'perSecond'),
    floor: pick('direct', 'perSecond'),
    goal: { op: '>=', target },
  });
/** CPU of the whole path per round trip or update: the hop rule (≤ 1.5× a direct hop) without the scheduler's queues. */
const cpu = (id, name, what, key, target) =>
  ratioRow({
    id,
    what,
    floorName: 'direct',
    unit: 'µs CPU',
    subject: pick(name, key),
    floor: pick('direct', key),
    goal: { op: '<=', target },
  });
reportVerdicts('chain', [
  rtt('rtt-1', 'one', 'round trip through 1 proxy / direct', 6),
  rtt('rtt-3', 'three', 'round trip through 3 proxies / direct', 12),
  rate('rate-1', 'one', 'update stream through 1 proxy / direct', 0.6),
  rate('rate-3', 'three', 'update stream through 3 proxies / direct', 0.3),
  cpu('cpu-rtt-1', 'one', 'CPU per round trip, 1 proxy / direct', 'rttCpuUs', 6),
  cpu('cpu-rtt-3', 'three', 'CPU per round trip, 3 proxies / direct', 'rttCpuUs', 12),
  cpu('cpu-update-1', 'one', 'CPU per update, 1 proxy / direct', 'cpuUs', 6),
  cpu('cpu-update-3', 'three', 'CPU per update, 3 proxies / direct', 'cpuUs', 12),
]);
