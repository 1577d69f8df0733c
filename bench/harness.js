/**
 * The client-side driver shared by every implementation of the protocol bench, so that all of
 * them are timed the same way. A client process opens its connection (spawning its agent), then
 * runs blocks on command: bench/protocol.js starts one client per implementation and has them take
 * turns, block by block, so that every implementation runs under the same load on this shared
 * machine.
 *
 * `node bench/impl/<impl>-client.js serve <throughput|rtt>`: prints `{"ready":true}`, then reads one
 * command per line on stdin (`warmup N`, `block N`, `end`) and prints one JSON line per command.
 * `node bench/impl/<impl>-client.js <throughput|rtt> N`: one warm-up and one block of N, then exits
 * (for profiling: `node --cpu-prof ...`).
 *
 * CPU time is each process's own (user + system, all threads): the client's from
 * `process.cpuUsage()`, the agent's from `/proc/PID/task/*\/schedstat` (Linux; nanoseconds), both
 * read outside the timed part.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { performance } from 'node:perf_hooks';
import { peakRssKiB } from './common.js';

/**
 * Round trips made before the measured ones (JIT warm-up), and updates streamed. A fresh pair of
 * Node processes needs a few thousand round trips before a call costs what it will: on this
 * machine (load ~10) the 1,000 after the first 1,000 took ~100 us of CPU each in both processes,
 * raw and acp-kit alike, against ~25-30 us from the 4,000th on; acp-kit, running more code per
 * call, gets there ~1,000 calls later. With 1,000 here, `--quick` (4 x 500 calls) measured
 * mostly that ramp.
 */
const WARMUP = { rtt: 5000, throughput: 20_000 };

/**
 * @typedef {object} Adapter
 * @property {number | undefined} pid the agent process's id
 * @property {() => Promise<unknown>} initialize
 * @property {() => Promise<unknown>} newSession
 * @property {(n: number) => Promise<string>} prompt resolves with the stop reason
 * @property {() => Promise<unknown>} setMode
 * @property {() => Promise<void>} close closes the connection and waits for the agent to exit
 */

/** CPU time of every thread of process `pid`, in µs (NaN where /proc is not there). */
function processCpuUs(pid) {
  try {
    let ns = 0;
    for (const task of readdirSync(`/proc/${pid}/task`))
      ns += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]);
    return ns / 1000;
  } catch {
    return NaN;
  }
}

/** Peak RSS of process `pid` in KiB (`VmHWM`; NaN where /proc is not there). */
function processPeakRssKiB(pid) {
  try {
    return Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
  } catch {
    return NaN;
  }
}

/** The timed part of one block, between two readings of both processes' CPU. */
async function timed(adapter, body) {
  const agent0 = processCpuUs(adapter.pid);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const result = await body();
  const elapsedMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const agentCpuUs = processCpuUs(adapter.pid) - agent0;
  return { ...result, elapsedMs, clientCpuUs: cpu.user + cpu.system, agentCpuUs };
}

/**
 * @param {string} impl
 * @param {(opts: { agentScript: string, onUpdate: (params: any) => void }) => Promise<Adapter>} open
 * @param {string} agentScript absolute path of the agent process script
 */
export async function runClient(impl, open, agentScript) {
  const serving = process.argv[2] === 'serve';
  const scenario = serving ? process.argv[3] : process.argv[2];
  if (scenario !== 'throughput' && scenario !== 'rtt')
    throw new Error(`usage: <client> [serve] throughput|rtt [N] (got ${process.argv.slice(2).join(' ')})`);

  let received = 0;
  let textChars = 0;
  const onUpdate = (params) => {
    received++;
    textChars += params.update.content.text.length;
  };
  const adapter = await open({ agentScript, onUpdate });
  await adapter.initialize();
  await adapter.newSession();

  /** One block of n updates or round trips; checks that every update arrived. */
  const block = (n) =>
    scenario === 'throughput'
      ? timed(adapter, async () => {
          received = 0;
          textChars = 0;
          const stopReason = await adapter.prompt(n);
          if (stopReason !== 'end_turn') throw new Error(`${impl}: unexpected stop reason ${stopReason}`);
          if (received !== n)
            throw new Error(`${impl}: received ${received} of ${n} updates before the response`);
          if (textChars !== n * 60) throw new Error(`${impl}: received ${textChars} text characters`);
          return { n };
        })
      : timed(adapter, async () => {
          const latencies = new Array(n);
          for (let i = 0; i < n; i++) {
            const t = performance.now();
            await adapter.setMode();
            latencies[i] = performance.now() - t;
          }
          return { n, latencies };
        });
  const finish = async () => {
    const agentMaxRssKiB = processPeakRssKiB(adapter.pid);
    const clientMaxRssKiB = peakRssKiB();
    await adapter.close();
    return { impl, scenario, clientMaxRssKiB, agentMaxRssKiB };
  };
  const print = (value) => process.stdout.write(JSON.stringify(value) + '\n');

  if (!serving) {
    await block(WARMUP[scenario]);
    const result = await block(Number(process.argv[3]));
    print({ ...result, latencies: undefined, ...(await finish()) });
    return;
  }
  print({ ready: true });
  for await (const line of createInterface({ input: process.stdin })) {
    const [command, count] = line.trim().split(' ');
    if (command === 'warmup') {
      await block(WARMUP[scenario]);
      print({ warm: true });
    } else if (command === 'block') {
      print(await block(Number(count)));
    } else if (command === 'end') {
      print(await finish());
      break;
    } else throw new Error(`unknown command ${line}`);
  }
  // The orchestrator keeps its end of the pipe open: let this process exit.
  process.stdin.destroy();
}
