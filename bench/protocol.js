/**
 * `node bench/protocol.js [--quick] [--runs N] [--no-sdk] [--no-v2] [--only throughput|rtt] [--with IMPL,...] [--no-pin] [--profile]`
 * (one suite of `npm run bench`)
 *
 * The protocol engine against its floor: acp-kit, a raw JSON.parse/JSON.stringify peer writing one
 * frame per write (raw per-line) and one gathering a streamed answer into 64 KiB writes (raw
 * batched), and the official SDK as context; each a pair of processes (the client spawns the agent
 * over a pipe). The measurements alternate (every implementation once per run, the order reversed
 * from one run to the next) and every budget is the ratio of acp-kit to the floor of the same run:
 *
 * - throughput (msg/s) vs raw batched ≥ 0.9, and both sides' CPU per message vs raw batched ≤ 1.1;
 * - round-trip p50 vs raw per-line ≤ 1.1, and both sides' CPU per call vs raw per-line ≤ 1.1.
 *
 * ACP v2 (unless `--no-v2`): acp-kit's v2 connections and the SDK's experimental v2 API run in the
 * same alternation (the turn ends at its `idle` state update; the round trip sets a config option,
 * v2 having no modes), judged against our own v1 of the same run (throughput ≥ 0.9, round-trip p50
 * ≤ 1.1) and against the SDK's v2 (at least as far ahead as v1 is of the SDK's v1: ≥ 3×, ≤ 0.5×).
 *
 * Round trips run with every pair (a client and the agent it spawns) pinned to one CPU, the same
 * CPU for every implementation, floors included (`taskset`, where there is one and more than one
 * CPU; `--no-pin` leaves placement to the scheduler). In a round trip one side waits while the
 * other works, so one CPU costs it no parallelism; unpinned on a 2-vCPU machine, each process's
 * CPU per call tripled or not from one pair to the next as its wakeups crossed to the other CPU
 * or not, the raw peer's too, and the ratio followed whichever pair it happened to
 * (docs/performance.md, "What is measured (protocol suite)"). Throughput runs unpinned: a stream
 * keeps both processes busy at once.
 *
 * `--with IMPL,...` adds `bench/impl/IMPL-client.js` pairs as context (say, a build of the
 * previous commit, for a before/after measured in the same run).
 *
 * Writes `.bench-out/results.json` (every run) and the verdicts. `--profile` also records CPU
 * profiles of one acp-kit run of each scenario under `.bench-out/profiles/` and prints their top
 * frames.
 */
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { percentile } from './common.js';
import { summarizeProfiles } from './profile-summary.js';
import { alternate, machineInfo, ratioRow, reportVerdicts, stats } from './lib/verdict.mjs';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const outDir = join(root, '.bench-out');
const RUN_TIMEOUT_MS = 300_000;

function parseArgs(argv) {
  const opts = {
    quick: false,
    runs: 5,
    sdk: true,
    v2: true,
    pin: true,
    profile: false,
    only: undefined,
    with: [],
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--quick') opts.quick = true;
    else if (a === '--profile') opts.profile = true;
    else if (a === '--no-sdk') opts.sdk = false;
    else if (a === '--no-v2') opts.v2 = false;
    else if (a === '--no-pin') opts.pin = false;
    else if (a === '--runs') opts.runs = Number(argv[++i]);
    else if (a === '--only') opts.only = argv[++i];
    else if (a === '--with') opts.with = argv[++i].split(',');
    else throw new Error(`unknown option ${a}`);
  }
  if (!(opts.runs >= 1)) throw new Error('--runs must be at least 1');
  for (const impl of opts.with)
    if (!existsSync(join(root, 'bench/impl', `${impl}-client.js`)))
      throw new Error(`--with ${impl}: no bench/impl/${impl}-client.js`);
  if (opts.only !== undefined && opts.only !== 'throughput' && opts.only !== 'rtt')
    throw new Error('--only takes throughput or rtt');
  return opts;
}

const opts = parseArgs(process.argv.slice(2));
/** Per implementation and run: `blocks` blocks of `size` updates or round trips. */
const BLOCKS = opts.quick
  ? { throughput: { blocks: 4, size: 5_000 }, rtt: { blocks: 4, size: 500 } }
  : { throughput: { blocks: 10, size: 20_000 }, rtt: { blocks: 20, size: 1_000 } };
/** The SDK (context only) streams ten times slower: its throughput blocks are a tenth of the size. */
const SDK_SHARE = 10;
/** What each scenario measures, the subject first; the SDK is context, never a floor. */
const V2 = opts.v2 ? ['acp-kit-v2', ...(opts.sdk ? ['sdk-v2'] : [])] : [];
/** v1 making v2's round trip (set_config_option, answered with the option list): v2's fair floor. */
const V1_CONFIG = opts.v2 ? ['acp-kit-config'] : [];
const IMPLS = {
  throughput: ['acp-kit', 'raw-batched', 'raw', ...V2, ...opts.with, ...(opts.sdk ? ['sdk'] : [])],
  rtt: ['acp-kit', 'raw', ...V1_CONFIG, ...V2, ...opts.with, ...(opts.sdk ? ['sdk'] : [])],
};
/** The SDK's implementations (context, and v2's comparison): smaller throughput blocks. */
const isSdk = (impl) => impl === 'sdk' || impl === 'sdk-v2';
const SCENARIOS = opts.only ? [opts.only] : ['throughput', 'rtt'];

/**
 * The CPU the round trips' pairs are pinned to (see the header), or undefined: the last CPU this
 * process may run on, so the orchestrator (idle while a block runs) and the rest of the machine
 * keep CPU 0 as they tend to.
 */
function roundTripCpu() {
  if (!opts.pin || process.platform !== 'linux') return undefined;
  const probe = spawnSync('taskset', ['-pc', String(process.pid)], { encoding: 'utf8' });
  if (probe.status !== 0) return undefined;
  const cpus = expandCpuList(probe.stdout.slice(probe.stdout.lastIndexOf(':') + 1).trim());
  return cpus.length > 1 ? cpus[cpus.length - 1] : undefined;
}

/** `0-2,5` → [0, 1, 2, 5]. */
function expandCpuList(list) {
  return list.split(',').flatMap((range) => {
    const [from, to = from] = range.split('-').map(Number);
    return Array.from({ length: to - from + 1 }, (_, i) => from + i);
  });
}

const PIN = { rtt: roundTripCpu() };

/** Newest modification time of the non-test files under `dir` (0 when it does not exist). */
function newestMtime(dir) {
  if (!existsSync(dir)) return 0;
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(path));
    else if (!entry.name.includes('.test.')) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

/** The benchmark runs the built package: build it when dist is missing, warn when it looks stale. */
function ensureBuilt() {
  const pkg = join(root, 'packages/protocol');
  if (!existsSync(join(pkg, 'dist/node/index.js')) || !existsSync(join(pkg, 'dist/v2/index.js'))) {
    console.log('packages/protocol/dist is missing: running npm run build ...');
    const r = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
    if (!existsSync(join(pkg, 'dist/node/index.js')))
      throw new Error('npm run build did not produce packages/protocol/dist');
    if (r.status !== 0)
      console.log('warning: npm run build reported errors; benching the protocol dist it produced');
  } else if (newestMtime(join(pkg, 'src')) > newestMtime(join(pkg, 'dist'))) {
    console.log(
      'warning: packages/protocol/src is newer than dist; run `npm run build` to bench the current code',
    );
  }
}

/** A client process in `serve` mode: its agent spawned, it runs one block per command. */
function startClient(impl, scenario, nodeFlags = []) {
  const script = join(root, 'bench/impl', `${impl}-client.js`);
  // The client passes its own node flags (process.execArgv) on to the agent it spawns, and its
  // CPU affinity is inherited by it.
  const argv = [process.execPath, ...nodeFlags, script, 'serve', scenario];
  const cpu = PIN[scenario];
  const [file, ...args] = cpu === undefined ? argv : ['taskset', '-c', String(cpu), ...argv];
  const child = spawn(file, args, {
    cwd: root,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  // One JSON line per command, read as it comes; `next` waits for the following one.
  const lines = [];
  const waiting = [];
  let buffer = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (text) => {
    buffer += text;
    let newline;
    while ((newline = buffer.indexOf('\n')) !== -1) {
      lines.push(buffer.slice(0, newline));
      buffer = buffer.slice(newline + 1);
    }
    while (lines.length > 0 && waiting.length > 0) waiting.shift().resolve(lines.shift());
  });
  const exited = once(child, 'exit');
  void exited.then(([code, signal]) => {
    for (const w of waiting.splice(0))
      w.reject(new Error(`${impl} ${scenario}: the client exited (${code ?? signal})`));
  });
  const next = async (what) => {
    if (lines.length > 0) return JSON.parse(lines.shift());
    const timer = setTimeout(() => child.kill('SIGKILL'), RUN_TIMEOUT_MS);
    try {
      const line = await new Promise((resolve, reject) => {
        if (child.exitCode !== null || child.signalCode !== null)
          reject(new Error(`${impl} ${scenario}: the client exited before ${what}`));
        else waiting.push({ resolve, reject });
      });
      return JSON.parse(line);
    } finally {
      clearTimeout(timer);
    }
  };
  const command = (line) => {
    child.stdin.write(line + '\n');
    return next(line);
  };
  return {
    ready: next('ready'),
    command,
    end: async () => {
      const result = await command('end');
      await exited;
      return result;
    },
  };
}

/**
 * One run of a scenario: a fresh client (and agent) per implementation, warmed up, then
 * `blocks` blocks each, taking turns (the order reversed every block). Resolves with each
 * implementation's totals over its blocks.
 */
async function runScenario(scenario, run) {
  const impls = IMPLS[scenario];
  const clients = Object.fromEntries(impls.map((impl) => [impl, startClient(impl, scenario)]));
  for (const impl of impls) await clients[impl].ready;
  for (const impl of impls) await clients[impl].command('warmup');
  const { blocks, size } = BLOCKS[scenario];
  const steps = Object.fromEntries(
    impls.map((impl) => [
      impl,
      () => clients[impl].command(`block ${isSdk(impl) ? size / SDK_SHARE : size}`),
    ]),
  );
  const perBlock = await alternate(blocks, steps);
  const totals = {};
  for (const impl of impls) {
    const done = perBlock[impl];
    const n = done.reduce((sum, b) => sum + b.n, 0);
    const sum = (field) => done.reduce((total, b) => total + b[field], 0);
    const end = await clients[impl].end();
    const total = {
      impl,
      scenario,
      run,
      n,
      clientCpuUsPerOp: sum('clientCpuUs') / n,
      agentCpuUsPerOp: sum('agentCpuUs') / n,
      clientMaxRssKiB: end.clientMaxRssKiB,
      agentMaxRssKiB: end.agentMaxRssKiB,
    };
    if (scenario === 'throughput') {
      total.msgsPerSec = n / (sum('elapsedMs') / 1000);
    } else {
      const latencies = done.flatMap((b) => b.latencies).sort((a, b) => a - b);
      total.p50Ms = percentile(latencies, 50);
      total.p99Ms = percentile(latencies, 99);
      total.meanMs = latencies.reduce((a, b) => a + b, 0) / latencies.length;
    }
    totals[impl] = total;
  }
  return totals;
}

/** A profile of one acp-kit client and its agent, one block of the scenario. */
function profileOnce(scenario, dir) {
  const script = join(root, 'bench/impl', 'acp-kit-client.js');
  const n = BLOCKS[scenario].size * BLOCKS[scenario].blocks;
  const child = spawn(
    process.execPath,
    ['--cpu-prof', `--cpu-prof-dir=${dir}`, script, scenario, String(n)],
    {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  return once(child, 'exit');
}

const fmtInt = (v) => (Number.isFinite(v) ? Math.round(v).toLocaleString('en-US') : 'n/a');
const fmtUs = (ms) => (Number.isFinite(ms) ? (ms * 1000).toFixed(1) : 'n/a');
const fmtCpu = (us) => (Number.isFinite(us) ? us.toFixed(2) : 'n/a');
const fmtMiB = (kib) => (Number.isFinite(kib) ? (kib / 1024).toFixed(1) : 'n/a');

function table(rows) {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => String(r[c]).length)));
  return rows
    .map((r, i) => {
      const line = r.map((cell, c) =>
        c === 0 ? String(cell).padEnd(widths[c]) : String(cell).padStart(widths[c]),
      );
      const text = line.join('  ');
      return i === 0 ? `${text}\n${widths.map((w) => '-'.repeat(w)).join('  ')}` : text;
    })
    .join('\n');
}

/** The absolute medians per implementation: context for the verdicts, never judged. */
function printContext(results) {
  const med = (key, field) => stats((results[key] ?? []).map((r) => r[field])).median;
  const tp = [
    [
      'throughput',
      'msg/s',
      'client CPU/msg (us)',
      'agent CPU/msg (us)',
      'client RSS (MiB)',
      'agent RSS (MiB)',
    ],
  ];
  for (const impl of IMPLS.throughput) {
    const key = `throughput ${impl}`;
    tp.push([
      impl,
      fmtInt(med(key, 'msgsPerSec')),
      fmtCpu(med(key, 'clientCpuUsPerOp')),
      fmtCpu(med(key, 'agentCpuUsPerOp')),
      fmtMiB(med(key, 'clientMaxRssKiB')),
      fmtMiB(med(key, 'agentMaxRssKiB')),
    ]);
  }
  const rt = [
    ['round trip', 'p50 (us)', 'p99 (us)', 'mean (us)', 'client CPU/call (us)', 'agent CPU/call (us)'],
  ];
  for (const impl of IMPLS.rtt) {
    const key = `rtt ${impl}`;
    rt.push([
      impl,
      fmtUs(med(key, 'p50Ms')),
      fmtUs(med(key, 'p99Ms')),
      fmtUs(med(key, 'meanMs')),
      fmtCpu(med(key, 'clientCpuUsPerOp')),
      fmtCpu(med(key, 'agentCpuUsPerOp')),
    ]);
  }
  console.log(`\nMedians of ${opts.runs} run(s) (context):\n`);
  console.log(
    [SCENARIOS.includes('throughput') ? table(tp) : '', SCENARIOS.includes('rtt') ? table(rt) : '']
      .filter(Boolean)
      .join('\n\n'),
  );
  if (opts.sdk && SCENARIOS.length === 2) {
    const ratio = (a, b) => (a / b).toFixed(2);
    console.log(
      `\nacp-kit vs the SDK (context): throughput ${ratio(med('throughput acp-kit', 'msgsPerSec'), med('throughput sdk', 'msgsPerSec'))}x, ` +
        `round-trip p50 ${ratio(med('rtt acp-kit', 'p50Ms'), med('rtt sdk', 'p50Ms'))}x`,
    );
  }
}

/** The budgets: acp-kit over the floor of the same run, pair by pair. */
function verdictRows(results) {
  const series = (key, field) => (results[key] ?? []).map((r) => r[field]);
  const cpuGoal = { op: '<=', target: 1.1 };
  const rows = [
    ratioRow({
      id: 'throughput',
      what: 'throughput, msg/s',
      floorName: 'raw batched',
      unit: 'msg/s',
      subject: series('throughput acp-kit', 'msgsPerSec'),
      floor: series('throughput raw-batched', 'msgsPerSec'),
      goal: { op: '>=', target: 0.9 },
    }),
    ratioRow({
      id: 'throughput-client-cpu',
      what: 'throughput, client CPU per message',
      floorName: 'raw batched',
      unit: 'us',
      subject: series('throughput acp-kit', 'clientCpuUsPerOp'),
      floor: series('throughput raw-batched', 'clientCpuUsPerOp'),
      goal: cpuGoal,
    }),
    ratioRow({
      id: 'throughput-agent-cpu',
      what: 'throughput, agent CPU per message',
      floorName: 'raw batched',
      unit: 'us',
      subject: series('throughput acp-kit', 'agentCpuUsPerOp'),
      floor: series('throughput raw-batched', 'agentCpuUsPerOp'),
      goal: cpuGoal,
    }),
    ratioRow({
      id: 'rtt-p50',
      what: 'round trip, p50',
      floorName: 'raw per-line',
      unit: 'ms',
      subject: series('rtt acp-kit', 'p50Ms'),
      floor: series('rtt raw', 'p50Ms'),
      goal: { op: '<=', target: 1.1 },
    }),
    ratioRow({
      id: 'rtt-client-cpu',
      what: 'round trip, client CPU per call',
      floorName: 'raw per-line',
      unit: 'us',
      subject: series('rtt acp-kit', 'clientCpuUsPerOp'),
      floor: series('rtt raw', 'clientCpuUsPerOp'),
      goal: cpuGoal,
    }),
    ratioRow({
      id: 'rtt-agent-cpu',
      what: 'round trip, agent CPU per call',
      floorName: 'raw per-line',
      unit: 'us',
      subject: series('rtt acp-kit', 'agentCpuUsPerOp'),
      floor: series('rtt raw', 'agentCpuUsPerOp'),
      goal: cpuGoal,
    }),
  ];
  if (opts.v2) {
    rows.push(
      ratioRow({
        id: 'v2-throughput-vs-v1',
        what: 'ACP v2 throughput, msg/s',
        floorName: 'acp-kit v1',
        unit: 'msg/s',
        subject: series('throughput acp-kit-v2', 'msgsPerSec'),
        floor: series('throughput acp-kit', 'msgsPerSec'),
        goal: { op: '>=', target: 0.9 },
      }),
      ratioRow({
        id: 'rtt-v2-p50-vs-v1',
        what: 'ACP v2 round trip, p50',
        floorName: 'acp-kit v1',
        unit: 'ms',
        subject: series('rtt acp-kit-v2', 'p50Ms'),
        floor: series('rtt acp-kit', 'p50Ms'),
        goal: { op: '<=', target: 1.1 },
      }),
      // The row above compares unlike requests: v1's set_mode is answered `{}` (40 bytes), v2's
      // set_config_option with the option list (219 bytes; the request 151 vs 113). This one
      // compares v2 with v1 making the same request.
      ratioRow({
        id: 'rtt-v2-p50-vs-v1-config',
        what: 'ACP v2 round trip, p50, vs v1 setting a config option',
        floorName: 'acp-kit v1 set_config_option',
        unit: 'ms',
        subject: series('rtt acp-kit-v2', 'p50Ms'),
        floor: series('rtt acp-kit-config', 'p50Ms'),
        goal: { op: '<=', target: 1.1 },
      }),
    );
    if (opts.sdk)
      rows.push(
        ratioRow({
          id: 'v2-throughput-vs-sdk-v2',
          what: 'ACP v2 throughput vs the SDK v2, msg/s',
          floorName: 'SDK v2',
          unit: 'msg/s',
          subject: series('throughput acp-kit-v2', 'msgsPerSec'),
          floor: series('throughput sdk-v2', 'msgsPerSec'),
          goal: { op: '>=', target: 3 },
        }),
        ratioRow({
          id: 'rtt-v2-p50-vs-sdk-v2',
          what: 'ACP v2 round trip p50 vs the SDK v2',
          floorName: 'SDK v2',
          unit: 'ms',
          subject: series('rtt acp-kit-v2', 'p50Ms'),
          floor: series('rtt sdk-v2', 'p50Ms'),
          goal: { op: '<=', target: 0.5 },
        }),
      );
  }
  return rows.filter((row) => SCENARIOS.includes(row.id.startsWith('rtt') ? 'rtt' : 'throughput'));
}

async function main() {
  ensureBuilt();
  const machine = machineInfo();
  const per = (scenario) => {
    const { blocks, size } = BLOCKS[scenario];
    return `${fmtInt(blocks)} x ${fmtInt(size)}`;
  };
  console.log(
    `protocol: ${machine.cpus}, ${machine.cores} cores, Node ${machine.node}, load ${machine.loadAverage.join(' ')}; ` +
      `${opts.runs} run(s), each implementation in turn, block by block: ${per('throughput')} updates, ` +
      `${per('rtt')} round trips` +
      (PIN.rtt === undefined ? ', unpinned' : `, every round-trip pair pinned to CPU ${PIN.rtt}`) +
      (opts.quick ? ' (quick)' : ''),
  );
  const results = {};
  for (let run = 0; run < opts.runs; run++) {
    for (const scenario of SCENARIOS) {
      const totals = await runScenario(scenario, run);
      for (const [impl, total] of Object.entries(totals)) {
        (results[`${scenario} ${impl}`] ??= []).push(total);
        const what =
          scenario === 'throughput'
            ? `${fmtInt(total.msgsPerSec)} msg/s, CPU/msg client ${fmtCpu(total.clientCpuUsPerOp)} us, agent ${fmtCpu(total.agentCpuUsPerOp)} us`
            : `p50 ${fmtUs(total.p50Ms)} us, p99 ${fmtUs(total.p99Ms)} us, CPU/call client ${fmtCpu(total.clientCpuUsPerOp)} us, agent ${fmtCpu(total.agentCpuUsPerOp)} us`;
        console.log(`  run ${run + 1}  ${`${scenario} ${impl}`.padEnd(22)}  ${what}`);
      }
    }
  }
  printContext(results);

  let profiles;
  if (opts.profile) {
    profiles = {};
    for (const scenario of SCENARIOS) {
      const dir = join(outDir, 'profiles', `acp-kit-${scenario}`);
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir, { recursive: true });
      await profileOnce(scenario, dir);
      console.log(`\nCPU profiles of one acp-kit ${scenario} run (${dir}):`);
      profiles[scenario] = summarizeProfiles(dir, { print: true });
    }
  }

  const rows = verdictRows(results);
  mkdirSync(outDir, { recursive: true });
  const file = join(outDir, 'results.json');
  writeFileSync(
    file,
    JSON.stringify(
      {
        date: new Date().toISOString(),
        machine,
        quick: opts.quick,
        blocks: BLOCKS,
        runs: opts.runs,
        pinned: PIN,
        results,
        rows,
        profiles,
      },
      null,
      2,
    ) + '\n',
  );
  console.log(`\nEvery run written to ${file}`);
  reportVerdicts('protocol', rows, { blocks: BLOCKS, quick: opts.quick, pinned: PIN });
}

await main();
