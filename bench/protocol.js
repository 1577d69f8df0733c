/**
 * `node bench/protocol.js [--quick] [--runs N] [--impl acp-kit,sdk,raw,acp-kit-v2,sdk-v2] [--profile]`
 * (one suite of `npm run bench`)
 *
 * Runs the throughput and round-trip benchmarks for acp-kit, the official SDK and a raw
 * JSON.parse/JSON.stringify baseline in ACP v1, and acp-kit and the SDK's experimental v2 API in
 * ACP v2 (the turn ends at its `idle` state update; the round trip sets a config option, v2 having
 * no modes), each in its own pair of processes (the client spawns the agent
 * over a pipe), takes the median of the runs, prints a table and the target ratios, and writes
 * `.bench-out/results.json`. `--profile` additionally records CPU profiles of one acp-kit
 * throughput run and one round-trip run under `.bench-out/profiles/` and prints their top frames.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from './common.js';
import { summarizeProfiles } from './profile-summary.js';
import { boundRow, reportVerdicts } from './lib/verdict.mjs';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const outDir = join(root, '.bench-out');
const IMPLS = ['acp-kit', 'sdk', 'raw', 'acp-kit-v2', 'sdk-v2'];
const RUN_TIMEOUT_MS = 180_000;

function parseArgs(argv) {
  const opts = { quick: false, runs: 3, impls: IMPLS, profile: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--quick') opts.quick = true;
    else if (a === '--profile') opts.profile = true;
    else if (a === '--runs') opts.runs = Number(argv[++i]);
    else if (a === '--impl') opts.impls = argv[++i].split(',');
    else throw new Error(`unknown option ${a}`);
  }
  for (const impl of opts.impls) if (!IMPLS.includes(impl)) throw new Error(`unknown implementation ${impl}`);
  if (!(opts.runs >= 1)) throw new Error('--runs must be at least 1');
  return opts;
}

const opts = parseArgs(process.argv.slice(2));
const sizes = opts.quick ? { throughput: 20_000, rtt: 2_000 } : { throughput: 200_000, rtt: 20_000 };

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
  if (!opts.impls.some((impl) => impl.startsWith('acp-kit'))) return;
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

/** Runs one client process; resolves with its JSON result. */
function runOnce(impl, scenario, n, nodeFlags = []) {
  const script = join(root, 'bench/impl', `${impl}-client.js`);
  return new Promise((resolve, reject) => {
    // The client passes its own node flags (process.execArgv) on to the agent it spawns.
    const child = spawn(process.execPath, [...nodeFlags, script, scenario, String(n)], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (d) => (out += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), RUN_TIMEOUT_MS);
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      const line = out.trim().split('\n').pop();
      if (code !== 0 || !line) {
        reject(new Error(`${impl} ${scenario} failed (exit ${code ?? signal})`));
        return;
      }
      resolve(JSON.parse(line));
    });
  });
}

function machine() {
  let cpuModel = os.cpus()[0]?.model ?? 'unknown';
  try {
    const m = /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'));
    if (m) cpuModel = m[1].trim();
  } catch {
    // not Linux
  }
  return {
    cpuModel,
    cores: os.availableParallelism(),
    node: process.version,
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    totalMemMiB: Math.round(os.totalmem() / 2 ** 20),
  };
}

const fmtInt = (v) => (Number.isFinite(v) ? Math.round(v).toLocaleString('en-US') : 'n/a');
const fmtUs = (ms) => (Number.isFinite(ms) ? (ms * 1000).toFixed(1) : 'n/a');
const fmtMiB = (kib) => (Number.isFinite(kib) ? (kib / 1024).toFixed(1) : 'n/a');
const fmtRatio = (r) => (Number.isFinite(r) ? `${r.toFixed(2)}x` : 'n/a');

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

async function main() {
  ensureBuilt();
  const info = machine();
  const load = os.loadavg()[0];
  console.log(
    `acp-kit bench: ${info.cpuModel}, ${info.cores} cores, Node ${info.node}; ` +
      `${fmtInt(sizes.throughput)} updates, ${fmtInt(sizes.rtt)} round trips, ${opts.runs} run(s) each` +
      (opts.quick ? ' (quick)' : ''),
  );
  if (load > 0.5 * info.cores) {
    console.log(`warning: load average is ${load.toFixed(2)}; other processes will make the numbers noisy`);
  }
  const runs = [];
  for (let r = 1; r <= opts.runs; r++) {
    for (const scenario of ['throughput', 'rtt']) {
      for (const impl of opts.impls) {
        const res = await runOnce(impl, scenario, sizes[scenario]);
        runs.push({ run: r, ...res });
        const what =
          scenario === 'throughput'
            ? `${fmtInt(res.msgsPerSec)} msg/s`
            : `p50 ${fmtUs(res.p50Ms)} us, p99 ${fmtUs(res.p99Ms)} us`;
        console.log(`  run ${r}  ${scenario.padEnd(10)}  ${impl.padEnd(10)}  ${what}`);
      }
    }
  }

  const summary = {};
  for (const impl of opts.impls) {
    const tp = runs.filter((x) => x.impl === impl && x.scenario === 'throughput');
    const rt = runs.filter((x) => x.impl === impl && x.scenario === 'rtt');
    summary[impl] = {
      msgsPerSec: median(tp.map((x) => x.msgsPerSec)),
      throughputElapsedMs: median(tp.map((x) => x.elapsedMs)),
      rttP50Ms: median(rt.map((x) => x.p50Ms)),
      rttP99Ms: median(rt.map((x) => x.p99Ms)),
      rttMeanMs: median(rt.map((x) => x.meanMs)),
      throughputClientCpuUsPerMsg: median(tp.map((x) => x.clientCpuUsPerOp)),
      rttClientCpuUsPerCall: median(rt.map((x) => x.clientCpuUsPerOp)),
      throughputAgentCpuUsPerMsg: median(tp.map((x) => x.agentCpuUsPerOp)),
      rttAgentCpuUsPerCall: median(rt.map((x) => x.agentCpuUsPerOp)),
      clientMaxRssKiB: median(tp.map((x) => x.clientMaxRssKiB)),
      agentMaxRssKiB: median(tp.map((x) => x.agentMaxRssKiB)),
    };
  }

  const fmtCpu = (us) => (Number.isFinite(us) ? us.toFixed(2) : 'n/a');
  const tpRows = [
    [
      'throughput',
      'msg/s',
      'client CPU/msg (us)',
      'agent CPU/msg (us)',
      'client RSS (MiB)',
      'agent RSS (MiB)',
    ],
  ];
  const rtRows = [
    ['round trip', 'p50 (us)', 'p99 (us)', 'mean (us)', 'client CPU/call (us)', 'agent CPU/call (us)'],
  ];
  for (const impl of opts.impls) {
    const s = summary[impl];
    tpRows.push([
      impl,
      fmtInt(s.msgsPerSec),
      fmtCpu(s.throughputClientCpuUsPerMsg),
      fmtCpu(s.throughputAgentCpuUsPerMsg),
      fmtMiB(s.clientMaxRssKiB),
      fmtMiB(s.agentMaxRssKiB),
    ]);
    rtRows.push([
      impl,
      fmtUs(s.rttP50Ms),
      fmtUs(s.rttP99Ms),
      fmtUs(s.rttMeanMs),
      fmtCpu(s.rttClientCpuUsPerCall),
      fmtCpu(s.rttAgentCpuUsPerCall),
    ]);
  }
  console.log(`\nMedian of ${opts.runs} run(s):\n`);
  console.log(table(tpRows) + '\n\n' + table(rtRows));

  const k = summary['acp-kit'];
  const sdk = summary.sdk;
  const raw = summary.raw;
  const targets = [];
  if (k && sdk) {
    targets.push(
      { name: 'throughput vs SDK', ratio: k.msgsPerSec / sdk.msgsPerSec, op: '>=', target: 3 },
      { name: 'rtt p50 vs SDK', ratio: k.rttP50Ms / sdk.rttP50Ms, op: '<=', target: 0.5 },
      { name: 'client peak RSS vs SDK', ratio: k.clientMaxRssKiB / sdk.clientMaxRssKiB, op: '<=', target: 1 },
      { name: 'agent peak RSS vs SDK', ratio: k.agentMaxRssKiB / sdk.agentMaxRssKiB, op: '<=', target: 1 },
    );
  }
  if (k && raw) {
    targets.splice(1, 0, {
      name: 'throughput vs raw',
      ratio: k.msgsPerSec / raw.msgsPerSec,
      op: '>=',
      target: 0.7,
    });
  }
  // ACP v2: as far ahead of the SDK's v2 as v1 is of its v1, and no slower than our own v1.
  const k2 = summary['acp-kit-v2'];
  const sdk2 = summary['sdk-v2'];
  if (k2 && sdk2) {
    targets.push(
      { name: 'v2 throughput vs SDK v2', ratio: k2.msgsPerSec / sdk2.msgsPerSec, op: '>=', target: 3 },
      { name: 'v2 rtt p50 vs SDK v2', ratio: k2.rttP50Ms / sdk2.rttP50Ms, op: '<=', target: 0.5 },
    );
  }
  if (k2 && k) {
    targets.push(
      { name: 'v2 throughput vs v1', ratio: k2.msgsPerSec / k.msgsPerSec, op: '>=', target: 0.9 },
      { name: 'v2 rtt p50 vs v1', ratio: k2.rttP50Ms / k.rttP50Ms, op: '<=', target: 1.1 },
    );
  }
  for (const t of targets) t.pass = t.op === '>=' ? t.ratio >= t.target : t.ratio <= t.target;
  if (targets.length > 0) {
    const trows = [['acp-kit target', 'ratio', 'target', 'result']];
    for (const t of targets)
      trows.push([t.name, fmtRatio(t.ratio), `${t.op} ${t.target}x`, t.pass ? 'PASS' : 'MISS']);
    console.log('\n' + table(trows));
  }

  let profiles;
  if (opts.profile && opts.impls.includes('acp-kit')) {
    profiles = {};
    for (const scenario of ['throughput', 'rtt']) {
      const dir = join(outDir, 'profiles', `acp-kit-${scenario}`);
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir, { recursive: true });
      await runOnce('acp-kit', scenario, sizes[scenario], ['--cpu-prof', `--cpu-prof-dir=${dir}`]);
      console.log(`\nCPU profiles of one acp-kit ${scenario} run (${dir}):`);
      profiles[scenario] = summarizeProfiles(dir, { print: true });
    }
  }

  mkdirSync(outDir, { recursive: true });
  const file = join(outDir, 'results.json');
  writeFileSync(
    file,
    JSON.stringify(
      {
        date: new Date().toISOString(),
        machine: info,
        loadAverageAtStart: load,
        quick: opts.quick,
        sizes,
        runsPerMeasurement: opts.runs,
        summary,
        targets,
        runs,
        profiles,
      },
      null,
      2,
    ) + '\n',
  );
  console.log(`\nResults written to ${file}`);
  reportVerdicts(
    'protocol',
    targets.map((t) =>
      boundRow({ id: t.name, what: t.name, values: [t.ratio], goal: { op: t.op, target: t.target } }),
    ),
  );
}

await main();
