/**
 * `node bench/remote.mjs [--quick] [--runs N]` (after `npm run build`; never part of npm test)
 *
 * The remote transport side by side with stdio, in one run, on this machine (127.0.0.1):
 * 1. update throughput and round-trip p50/p99 (`session/set_mode`) over stdio (client spawns the
 *    agent), WebSocket and Streamable HTTP (client → a RemoteServer process that spawns the same
 *    agent per connection, as `acp serve` does: one more hop than stdio);
 * 2. 100 concurrent remote connections each streaming a turn (server memory, update latency p50/p99);
 * 3. time to resume after a cut (a TCP proxy drops the connection mid-turn): from the cut to the
 *    next update, with every update checked to arrive exactly once.
 * Writes `.bench-out/remote.json` and prints a table.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { URL, fileURLToPath } from 'node:url';
import { ClientSideConnection } from '@acp-kit/protocol';
import { spawnPeer } from '@acp-kit/protocol/node';
import { connectRemoteAgent } from '@acp-kit/protocol/remote/node';
import { CWD, MODE_ID, SESSION_ID, median, percentile, promptParams } from './common.js';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const quick = process.argv.includes('--quick');
const runs = Number(process.argv[process.argv.indexOf('--runs') + 1]) || 3;
const SIZES = quick
  ? { throughput: 10_000, rtt: 500, concurrent: 100, perConnection: 200, resumes: 5, resumeTurn: 4000 }
  : {
      throughput: 50_000,
      rtt: 2_000,
      concurrent: 100,
      perConnection: 1_000,
      resumes: 10,
      resumeTurn: 20_000,
    };
const AGENT = join(root, 'bench/impl/acp-kit-agent.js');
const SERVER = join(root, 'bench/remote-server.mjs');

/** Starts the server process; resolves with its URL and a stop() that returns its peak RSS. */
async function startServer(agents) {
  const child = spawn(process.execPath, [SERVER, '--agents', agents], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout });
  const next = () => new Promise((resolve) => lines.once('line', (line) => resolve(JSON.parse(line))));
  const { url } = await next();
  return {
    url,
    stop: async () => {
      const stats = next();
      child.stdin.end();
      const { maxRssKiB } = await stats;
      await new Promise((resolve) => child.once('exit', resolve));
      return maxRssKiB;
    },
  };
}

/** A client on `transport`: stdio spawns the agent; the others connect to `url`. */
async function openClient(transport, url, onUpdate = () => {}, options = {}) {
  let channel;
  let peer;
  if (transport === 'stdio') {
    peer = spawnPeer(process.execPath, [AGENT]);
    channel = peer.channel;
  } else {
    channel = await connectRemoteAgent(url, { profile: transport, ...options });
  }
  const conn = new ClientSideConnection(channel, {
    sessionUpdate: (params) => onUpdate(params),
    requestPermission: () => ({ outcome: { outcome: 'cancelled' } }),
  }).start();
  await conn.initialize({ protocolVersion: 1, clientCapabilities: {} });
  await conn.newSession({ cwd: CWD, mcpServers: [] });
  return {
    conn,
    close: async () => {
      await conn.close();
      if (peer) await peer.shutdown({ graceMs: 1000 });
    },
  };
}

async function throughputAndRtt(transport, url) {
  let updates = 0;
  const client = await openClient(transport, url, () => updates++);
  // Warm-up (JIT, socket buffers).
  await client.conn.promptSession(promptParams(2000));
  for (let i = 0; i < 200; i++) await client.conn.setSessionMode({ sessionId: SESSION_ID, modeId: MODE_ID });
  updates = 0;
  const t0 = performance.now();
  await client.conn.promptSession(promptParams(SIZES.throughput));
  const seconds = (performance.now() - t0) / 1000;
  if (updates !== SIZES.throughput)
    throw new Error(`${transport}: ${updates} updates of ${SIZES.throughput}`);
  const rtts = [];
  for (let i = 0; i < SIZES.rtt; i++) {
    const start = performance.now();
    await client.conn.setSessionMode({ sessionId: SESSION_ID, modeId: MODE_ID });
    rtts.push((performance.now() - start) * 1000);
  }
  rtts.sort((a, b) => a - b);
  await client.close();
  return {
    updatesPerSec: SIZES.throughput / seconds,
    rttP50Us: percentile(rtts, 50),
    rttP99Us: percentile(rtts, 99),
  };
}

async function concurrent(transport) {
  const server = await startServer('inline');
  const latencies = [];
  const clients = await Promise.all(
    Array.from({ length: SIZES.concurrent }, () =>
      openClient(transport, server.url, (params) => {
        const sent = Number(params.update.content.text.split(' ')[1]);
        latencies.push(performance.timeOrigin + performance.now() - sent);
      }),
    ),
  );
  const rssBefore = process.memoryUsage().rss;
  const t0 = performance.now();
  await Promise.all(clients.map((c) => c.conn.promptSession(promptParams(SIZES.perConnection))));
  const seconds = (performance.now() - t0) / 1000;
  const clientRss = process.memoryUsage().rss;
  for (const c of clients) await c.close();
  const serverRssKiB = await server.stop();
  latencies.sort((a, b) => a - b);
  return {
    connections: SIZES.concurrent,
    updates: latencies.length,
    seconds,
    latencyP50Ms: percentile(latencies, 50),
    latencyP99Ms: percentile(latencies, 99),
    serverPeakRssMiB: serverRssKiB / 1024,
    clientRssMiB: clientRss / 1048576,
    clientRssGrowthMiB: (clientRss - rssBefore) / 1048576,
  };
}

/** A TCP proxy whose cut() drops every connection. */
async function proxy(target) {
  const pairs = new Set();
  const server = createServer((client) => {
    const upstream = connect(target.port, '127.0.0.1');
    const pair = { client, upstream };
    pairs.add(pair);
    client.on('error', () => {});
    upstream.on('error', () => {});
    client.pipe(upstream);
    upstream.pipe(client);
    const drop = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('close', drop);
    upstream.on('close', drop);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/acp`,
    cut: () => {
      for (const { client, upstream } of pairs) {
        client.destroy();
        upstream.destroy();
      }
    },
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

async function resumeTimes(transport) {
  const server = await startServer('inline');
  const times = [];
  for (let run = 0; run < SIZES.resumes; run++) {
    const p = await proxy(new URL(server.url));
    let cutAt;
    const seen = new Map();
    let afterCut;
    let resumedAt;
    let markResumed;
    const resumed = new Promise((resolve) => (markResumed = resolve));
    let newest = -1;
    let newestAtCut = -1;
    const client = await openClient(
      transport,
      p.url,
      (params) => {
        const index = Number(params.update.content.text.split(' ')[0]);
        seen.set(index, (seen.get(index) ?? 0) + 1);
        newest = Math.max(newest, index);
        if (cutAt === undefined && seen.size === SIZES.resumeTurn / 4) {
          cutAt = performance.now();
          newestAtCut = newest;
          p.cut();
        } else if (resumedAt !== undefined && afterCut === undefined && index > newestAtCut) {
          // The first update the server sent after the connection was resumed.
          afterCut = performance.now() - cutAt;
        }
      },
      {
        resumeTimeoutMs: 30_000,
        onEvent: (event) => {
          if (event.type === 'resumed' && cutAt !== undefined) {
            resumedAt = performance.now() - cutAt;
            markResumed();
          }
        },
      },
    );
    await client.conn.promptSession(promptParams(SIZES.resumeTurn));
    // The turn may end from what was already buffered before the client noticed the cut.
    await resumed;
    const once = [...seen.values()].every((count) => count === 1);
    if (seen.size !== SIZES.resumeTurn || !once)
      throw new Error(`${transport}: lost or duplicated updates after a cut`);
    times.push({ resumed: resumedAt, nextUpdate: afterCut ?? resumedAt });
    await client.close();
    await p.close();
  }
  await server.stop();
  const resumed = times.map((t) => t.resumed).sort((a, b) => a - b);
  const next = times.map((t) => t.nextUpdate).sort((a, b) => a - b);
  return {
    cuts: times.length,
    resumedMedianMs: median(resumed),
    resumedMaxMs: resumed.at(-1),
    nextUpdateMedianMs: median(next),
    nextUpdateMaxMs: next.at(-1),
    everyUpdateOnce: true,
  };
}

const results = {
  machine: { cpus: os.cpus().length, cpu: os.cpus()[0]?.model, node: process.version, quick },
  runs,
  stream: {},
  concurrent: {},
  resume: {},
};
const processServer = await startServer('process');
for (const transport of ['stdio', 'websocket', 'http']) {
  const samples = [];
  for (let i = 0; i < runs; i++) samples.push(await throughputAndRtt(transport, processServer.url));
  results.stream[transport] = {
    updatesPerSec: median(samples.map((s) => s.updatesPerSec)),
    rttP50Us: median(samples.map((s) => s.rttP50Us)),
    rttP99Us: median(samples.map((s) => s.rttP99Us)),
  };
}
results.relayPeakRssMiB = (await processServer.stop()) / 1024;
for (const transport of ['websocket', 'http']) results.concurrent[transport] = await concurrent(transport);
for (const transport of ['websocket', 'http']) results.resume[transport] = await resumeTimes(transport);

mkdirSync(join(root, '.bench-out'), { recursive: true });
writeFileSync(join(root, '.bench-out/remote.json'), JSON.stringify(results, null, 2));
const f = (n, d = 0) => n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });
console.log(
  `\n${results.machine.cpu}, ${results.machine.cpus} cores, Node ${results.machine.node}${quick ? ' (quick)' : ''}, median of ${runs}`,
);
console.log('\n| transport | updates/s | round trip p50 | p99 |\n| --- | ---: | ---: | ---: |');
for (const [t, r] of Object.entries(results.stream))
  console.log(`| ${t} | ${f(r.updatesPerSec)} | ${f(r.rttP50Us)} µs | ${f(r.rttP99Us)} µs |`);
console.log(
  `\n${SIZES.concurrent} connections × ${SIZES.perConnection} updates at once:\n| transport | wall | latency p50 | p99 | server peak RSS | client RSS |\n| --- | ---: | ---: | ---: | ---: | ---: |`,
);
for (const [t, r] of Object.entries(results.concurrent))
  console.log(
    `| ${t} | ${f(r.seconds, 2)} s | ${f(r.latencyP50Ms, 1)} ms | ${f(r.latencyP99Ms, 1)} ms | ${f(r.serverPeakRssMiB)} MiB | ${f(r.clientRssMiB)} MiB |`,
  );
console.log(
  '\nResume after a cut, every update exactly once:\n| transport | cuts | cut → resumed (median / max) | cut → first new update (median / max) |\n| --- | ---: | ---: | ---: |',
);
for (const [t, r] of Object.entries(results.resume))
  console.log(
    `| ${t} | ${r.cuts} | ${f(r.resumedMedianMs, 1)} / ${f(r.resumedMaxMs, 1)} ms | ${f(r.nextUpdateMedianMs, 1)} / ${f(r.nextUpdateMaxMs, 1)} ms |`,
  );
