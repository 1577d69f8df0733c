/**
 * `npm run bench [-- SUITE ...] [-- --quick] [-- --runs N] [-- --bundle FILE] [-- --before-bundle FILE]`
 *
 * Runs every benchmark suite (or those named), each in its own process, and prints every budget
 * they report as a ratio to the floor measured in the same run, with min/median/max and a verdict
 * (bench/lib/verdict.mjs). Exit code 1 when a verdict is missed. `--quick` and `--runs` are passed
 * to every suite; `--bundle FILE` to the suites that run the `acp` bundle (point it at an installed
 * package's `lib/node_modules/acp-kit/bin/acp.cjs` to judge what users run); `--before-bundle FILE`
 * to the stream suite (the build before its work: its flood and loop-delay goals are then
 * measured in the same run, see bench/stream.mjs).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, VERDICT_DIR, formatVerdicts, machineInfo } from './lib/verdict.mjs';

/** Each suite: its script and the budgets it judges (see docs/performance.md). */
const SUITES = [
  { name: 'protocol', script: 'bench/protocol.js', bundle: false },
  { name: 'remote-turn', script: 'bench/remote-turn.mjs', bundle: true },
  { name: 'large-message', script: 'bench/large-message.mjs', bundle: false },
  { name: 'stream', script: 'bench/stream.mjs', bundle: true },
  { name: 'reopen', script: 'bench/reopen.mjs', bundle: true },
  { name: 'startup', script: 'bench/startup.mjs', bundle: true },
  { name: 'chain', script: 'bench/chain.mjs', bundle: false },
];

const argv = process.argv.slice(2);
const chosen = argv.filter(
  (a, i) => !a.startsWith('--') && !(i > 0 && argv[i - 1].match(/^--(runs|bundle|before-bundle)$/)),
);
for (const name of chosen)
  if (!SUITES.some((s) => s.name === name))
    throw new Error(`unknown suite ${name} (suites: ${SUITES.map((s) => s.name).join(', ')})`);
const passOn = [];
for (let i = 0; i < argv.length; i++) {
  if (argv[i] === '--quick') passOn.push('--quick');
  else if (argv[i] === '--runs') passOn.push('--runs', argv[++i]);
}
const bundleIndex = argv.indexOf('--bundle');
const bundle = bundleIndex >= 0 ? argv[bundleIndex + 1] : undefined;
const beforeIndex = argv.indexOf('--before-bundle');
const before = beforeIndex >= 0 ? argv[beforeIndex + 1] : undefined;

const started = Date.now();
const machine = machineInfo();
console.log(
  `acp-kit bench: ${machine.cpus}, ${machine.cores} cores, Node ${machine.node}, load ${machine.loadAverage.join(' ')}`,
);
const rows = [];
const failedSuites = [];
for (const suite of SUITES.filter((s) => chosen.length === 0 || chosen.includes(s.name))) {
  console.log(`\n=== ${suite.name} (${suite.script}) ===`);
  const args = [
    join(ROOT, suite.script),
    ...passOn,
    ...(suite.bundle && bundle ? ['--bundle', bundle] : []),
    ...(suite.name === 'stream' && before ? ['--before-bundle', before] : []),
  ];
  const result = spawnSync(process.execPath, args, { cwd: ROOT, stdio: 'inherit' });
  const file = join(VERDICT_DIR, `${suite.name}.json`);
  if (result.status !== 0 || !existsSync(file) || statSync(file).mtimeMs < started) {
    failedSuites.push(suite.name);
    continue;
  }
  for (const row of JSON.parse(readFileSync(file, 'utf8')).rows)
    rows.push({ ...row, what: `${suite.name}: ${row.what}` });
}

console.log(`\n=== every budget (load at the end: ${machineInfo().loadAverage.join(' ')}) ===\n`);
if (rows.length > 0) console.log(formatVerdicts(rows));
for (const name of failedSuites) console.log(`suite ${name} did not complete: no verdicts`);
const missed = rows.filter((row) => !row.pass).length;
console.log(
  `\n${rows.length - missed} met, ${missed} missed${failedSuites.length ? `, ${failedSuites.length} suite(s) failed` : ''}`,
);
process.exit(missed > 0 || failedSuites.length > 0 ? 1 : 0);
