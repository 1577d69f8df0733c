/* global setImmediate */
/**
 * `node bench/run-flood.mjs [--updates 50000] [--size 1024] [--long 300000] [--stall 3000] [--requests 10000] [--runs 3]`
 * (after `npm run build`; Linux: it reads /proc)
 *
 * `acp run` (the built CLI, transcript and trace on) under a flood from the raw agent of `bench/impl/raw-agent.js`,
 * its stdout read by this process, side by side in one run with the bare protocol client
 * (`ClientSideConnection` over `spawnPeer`, counting updates, printing nothing) and with an idle
 * `acp run` (a turn without updates). Peak RSS (`VmHWM`) and CPU (user + system) are each
 * process's own, sampled from /proc every 20 ms; CPU per update subtracts the idle run's (startup).
 * Scenarios: N × SIZE updates with a fast reader, with the reader stalled for `--stall` ms, with an
 * agent that ignores backpressure; a long turn of `--long` 60-character updates; and `--requests`
 * requests of 10 KB each to a peer that never reads (the outbound bound). Every run checks that
 * every byte of the answer arrived.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, option } from './common.js';
import { AGENT, acpRun, measured } from './lib/acp-run.mjs';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const SELF = fileURLToPath(import.meta.url);

/**
 * The bare protocol client in a process of its own; `flags`: `lines` (the agent's text in lines
 * of 80), `trace` (a trace hook on the connection, which then gets every line's exact text).
 */
function bare(n, size, flags = []) {
  return measured([process.execPath, SELF, '--bare', String(n), String(size), ...flags]);
}

// ---- child modes ----

async function bareClient(n, size, flags) {
  const { ClientSideConnection, PROTOCOL_VERSION } = await import('@acp-kit/protocol');
  const { spawnPeer } = await import('@acp-kit/protocol/node');
  const peer = spawnPeer(process.execPath, [AGENT, 'await']);
  let received = 0;
  let chars = 0;
  let traced = 0;
  // Reads only the length (a long line's text is a concatenation of its pieces: no copy).
  const trace = flags.includes('trace') ? (_direction, text) => (traced += text.length) : undefined;
  const conn = new ClientSideConnection(
    peer.channel,
    {
      sessionUpdate: (params) => {
        received++;
        chars += params.update.content.text.length;
      },
      requestPermission: () => ({ outcome: { outcome: 'cancelled' } }),
    },
    { trace },
  ).start();
  await conn.initialize({ protocolVersion: PROTOCOL_VERSION, clientCapabilities: {} });
  const { sessionId } = await conn.newSession({ cwd: tmpdir(), mcpServers: [] });
  const lines = flags.includes('lines') ? ' lines' : '';
  await conn.promptSession({ sessionId, prompt: [{ type: 'text', text: `flood ${n} ${size}${lines}` }] });
  await peer.shutdown();
  if (received !== n || chars !== n * size)
    throw new Error(`bare client got ${received} updates, ${chars} chars`);
  if (trace && traced < n * size) throw new Error(`the trace saw ${traced} characters`);
}

/** `n` requests of `size` bytes to a peer that never reads its stdin; prints what happened. */
async function outbound(n, size) {
  const { spawnPeer } = await import('@acp-kit/protocol/node');
  const { JsonRpcConnection } = await import('@acp-kit/protocol');
  const peer = spawnPeer(process.execPath, ['-e', 'setInterval(() => {}, 1e9)']);
  const connection = new JsonRpcConnection(peer.channel, { peerName: 'agent' });
  connection.start();
  const before = process.memoryUsage().rss;
  const params = { data: 'x'.repeat(size) };
  let refused = 0;
  let maxBuffered = 0;
  for (let i = 0; i < n; i++) {
    connection.request('_bench/take', params).catch((error) => {
      if (error.code === 'OUTBOUND_BUFFER_FULL') refused++;
    });
    maxBuffered = Math.max(maxBuffered, peer.channel.bufferedAmount);
  }
  // Refusals are settled at once; what was accepted waits for an answer that never comes.
  await new Promise((resolve) => setImmediate(resolve));
  const after = process.memoryUsage().rss;
  const result = {
    accepted: n - refused,
    refused,
    maxBufferedMiB: maxBuffered / 2 ** 20,
    rssDeltaMiB: (after - before) / 2 ** 20,
  };
  process.stdout.write(JSON.stringify(result));
  await peer.shutdown({ graceMs: 0 });
}

// ---- main ----

if (process.argv[2] === '--bare') {
  await bareClient(Number(process.argv[3]), Number(process.argv[4]), process.argv.slice(5));
} else if (process.argv[2] === '--outbound') {
  await outbound(Number(process.argv[3]), Number(process.argv[4]));
} else {
  const N = Number(option('--updates', 50_000));
  const SIZE = Number(option('--size', 1024));
  const LONG = Number(option('--long', 300_000));
  const STALL = Number(option('--stall', 3000));
  const REQUESTS = Number(option('--requests', 10_000));
  const RUNS = Number(option('--runs', 3));
  /** Each measurement `RUNS` times, interleaved with the others; the median of each figure. */
  const plan = [
    ['idle', 'acp run, idle (no updates)', () => acpRun(0, SIZE), 0],
    ['fast', `acp run, ${N} × ${SIZE} B, fast reader`, () => acpRun(N, SIZE), N],
    [
      'stalled',
      `acp run, ${N} × ${SIZE} B, reader stalled ${STALL} ms`,
      () => acpRun(N, SIZE, { stallMs: STALL }),
      N,
    ],
    [
      'ignores',
      `acp run, ${N} × ${SIZE} B, agent ignores backpressure, reader stalled ${STALL} ms`,
      () => acpRun(N, SIZE, { mode: 'ignore', stallMs: STALL }),
      N,
    ],
    ['long', `acp run, ${LONG} × 60 B`, () => acpRun(LONG, 60), LONG],
    ['bareIdle', 'bare protocol client, idle', () => bare(0, 60), 0],
    ['bareLong', `bare protocol client, ${LONG} × 60 B`, () => bare(LONG, 60), LONG],
    ['bareFlood', `bare protocol client, ${N} × ${SIZE} B`, () => bare(N, SIZE), N],
  ];
  const results = Object.fromEntries(plan.map(([key]) => [key, []]));
  for (let run = 0; run < RUNS; run++)
    for (const [key, , measure] of plan) results[key].push(await measure());
  const med = (key) => ({
    cpuS: median(results[key].map((r) => r.cpuS)),
    rssMiB: median(results[key].map((r) => r.rssMiB)),
    wallS: median(results[key].map((r) => r.wallS)),
  });
  const rows = plan.map(([key, name, , n]) => {
    const r = med(key);
    const idle = med(key.startsWith('bare') ? 'bareIdle' : 'idle');
    return {
      key,
      name,
      peakRssMiB: r.rssMiB,
      overIdleMiB: r.rssMiB - idle.rssMiB,
      cpuS: r.cpuS,
      cpuPerUpdateUs: n > 0 ? ((r.cpuS - idle.cpuS) * 1e6) / n : undefined,
      wallS: r.wallS,
    };
  });
  const idle = med('idle');
  const out = await measured([process.execPath, SELF, '--outbound', String(REQUESTS), String(10 * 1024)]);
  const outboundResult = JSON.parse(out.tail);

  console.log(`node ${process.version}, ${new Date().toISOString()}, median of ${RUNS} runs`);
  console.log('| run | peak RSS (MiB) | over idle (MiB) | CPU (s) | CPU per update (µs) | wall (s) |');
  console.log('| --- | --- | --- | --- | --- | --- |');
  for (const r of rows) {
    console.log(
      `| ${r.name} | ${r.peakRssMiB.toFixed(1)} | ${r.overIdleMiB.toFixed(1)} | ${r.cpuS.toFixed(2)} | ${r.cpuPerUpdateUs?.toFixed(2) ?? '-'} | ${r.wallS.toFixed(1)} |`,
    );
  }
  const longRow = rows.find((r) => r.key === 'long');
  const bareRow = rows.find((r) => r.key === 'bareLong');
  console.log(
    `\nlong turn: peak RSS ${(longRow.peakRssMiB / idle.rssMiB).toFixed(2)}× the idle run (target ≤ 1.5×); ` +
      `CPU per update ${(longRow.cpuPerUpdateUs / bareRow.cpuPerUpdateUs).toFixed(2)}× the bare client (target ≤ 3×)`,
  );
  console.log(
    `outbound: ${REQUESTS} requests of 10 KB to a peer that does not read: ${outboundResult.accepted} queued ` +
      `(${outboundResult.maxBufferedMiB.toFixed(1)} MiB buffered), ${outboundResult.refused} refused with OUTBOUND_BUFFER_FULL, ` +
      `RSS +${outboundResult.rssDeltaMiB.toFixed(1)} MiB, process peak ${out.rssMiB.toFixed(1)} MiB`,
  );
  mkdirSync(join(root, '.bench-out'), { recursive: true });
  writeFileSync(
    join(root, '.bench-out/run-flood.json'),
    JSON.stringify({ rows, outbound: outboundResult }, null, 2),
  );
}
