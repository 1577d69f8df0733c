/**
 * `node bench/install.mjs [--runs 10] [--tui-runs 10] [--extra[-ui] NAME=PATH]… [--no-baseline]`
 *
 * acp as a user gets it, side by side with the clone's build, in one run: packs every
 * publishable package (scripts/pack.ts, after `npm run build`), installs the `acp-kit` tarball
 * into a fresh global npm prefix, then measures, interleaving the variants round by round:
 * - `acp --version`: from spawn to exit (budget ≤ 150 ms);
 * - `acp run --agent demo --format json "hello"`: from spawn to the first update on stdout
 *   (budget ≤ 400 ms), and to exit;
 * - the terminal UI's first frame in tmux (`ACP_KIT_TUI_METRICS`, since process start; budget
 *   ≤ 300 ms), and as seen from outside through `capture-pane`;
 * - the installed footprint: the prefix's node_modules (budget ≤ half of ~105 MB), with, as the
 *   named baseline, what the unbundled `acp` needed: the library tarballs plus the UI's and the
 *   command line's own dependencies, installed into another fresh prefix (`--no-baseline` skips it).
 * Variants: `installed` (the tarball, run as `acp` from the prefix's bin), `clone`
 * (packages/cli/bin/acp.cjs), any `--extra NAME=PATH` (another `acp` or a build's cli.cjs) and
 * `--extra-ui NAME=PATH` (a program measured for the UI's first frame only).
 * Besides wall-clock times, CPU times (user + system: /usr/bin/time, /proc/PID/schedstat on
 * Linux), steadier on a shared machine. Public tools only: child_process timing, npm, du, tmux,
 * /usr/bin/time. Results also in .bench-out/install.json.
 */
import { spawn, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { join } from 'node:path';
import { ACP, machine, median, option, percentile, ROOT, TuiRun } from './tui-common.mjs';

const runs = Number(option('--runs', 10));
const tuiRuns = Number(option('--tui-runs', 10));
const work = realpathSync(mkdtempSync(join(os.tmpdir(), 'acp-bench-install-')));
const say = (text) => process.stdout.write(`${text}\n`);

function npm(args, cwd = work) {
  const started = performance.now();
  const result = spawnSync('npm', [...args, '--no-audit', '--no-fund', '--prefer-offline'], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, npm_config_loglevel: 'error' },
  });
  if (result.status !== 0) throw new Error(`npm ${args.join(' ')} failed:\n${result.stderr}`);
  return performance.now() - started;
}

/** Disk usage (du -sk, KiB) and apparent size (bytes) of a tree, and the packages in it. */
function footprint(dir) {
  const du = spawnSync('du', ['-sk', dir], { encoding: 'utf8' });
  let bytes = 0;
  let packages = 0;
  const walk = (at) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) {
        bytes += statSync(path).size;
        if (entry.name === 'package.json' && /node_modules\/(@[^/]+\/)?[^/@]+$/.test(at)) packages++;
      }
    }
  };
  walk(dir);
  return { diskKiB: du.status === 0 ? Number(du.stdout.split('\t')[0]) : NaN, bytes, packages };
}

// 1. Pack and install.
say(`packing (npm run build, scripts/pack.ts) and installing into ${work}`);
const tarballs = join(work, 'tarballs');
const pack = spawnSync('npx', ['tsx', join(ROOT, 'scripts/pack.ts'), '--build', '--out', tarballs], {
  cwd: ROOT,
  encoding: 'utf8',
});
if (pack.status !== 0) throw new Error(`packing failed:\n${pack.stdout}${pack.stderr}`);
const isCli = (name) => /^acp-kit-\d/.test(name);
const cliTarball = join(tarballs, readdirSync(tarballs).find(isCli));
const prefix = join(work, 'prefix');
const installMs = npm(['install', '--global', '--prefix', prefix, cliTarball]);
const installed = join(prefix, 'bin', 'acp');
const sizes = { installed: footprint(join(prefix, 'lib/node_modules')) };
if (!process.argv.includes('--no-baseline')) {
  // What `@acp-kit/cli` needed before it was bundled: the libraries, the UI's and its own dependencies.
  const base = join(work, 'baseline');
  mkdirSync(base);
  const libraries = readdirSync(tarballs)
    .filter((name) => !isCli(name))
    .map((name) => join(tarballs, name));
  const uiDependencies = [
    'ink@~6.8.0',
    'react@~19.2.0',
    'marked@^18.0.0',
    'diff@^9.0.0',
    'highlight.js@^11.11.0',
  ];
  npm(['install', '--global', '--prefix', base, ...libraries, ...uiDependencies, 'commander@^14.0.0']);
  sizes.baseline = footprint(join(base, 'lib/node_modules'));
}

// 2. Time the variants, interleaved.
const variants = { installed: [installed], clone: [ACP] };
/** Programs measured for the UI only (`--extra-ui`: e.g. an older UI-only bundle). */
const uiOnly = new Set();
for (const flag of ['--extra', '--extra-ui']) {
  for (let i = process.argv.indexOf(flag); i >= 0; i = process.argv.indexOf(flag, i + 1)) {
    const [name, path] = (process.argv[i + 1] ?? '').split('=');
    if (!name || !path) throw new Error(`${flag} NAME=PATH`);
    variants[name] = [process.execPath, path];
    if (flag === '--extra-ui') uiOnly.add(name);
  }
}
const home = join(work, 'home');
const env = {
  ...process.env,
  HOME: home,
  XDG_CONFIG_HOME: join(home, 'config'),
  XDG_DATA_HOME: join(home, 'data'),
  ACP_KIT_CONFIG_DIR: join(home, 'acp-config'),
  ACP_KIT_DATA_DIR: join(home, 'acp-data'),
};
const cwd = join(work, 'project');
mkdirSync(cwd, { recursive: true });
writeFileSync(join(cwd, 'README.md'), '# A project\n\nhello\n');

/** CPU time (user + system, ms) a live process has used so far, from /proc (Linux; else NaN). */
function cpuMs(pid) {
  try {
    return Number(readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
  } catch {
    return NaN;
  }
}

/** Its children's pids (Linux; else none). */
function childrenOf(pid) {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
  } catch {
    return [];
  }
}

const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;

/** Spawn → exit, and the CPU time /usr/bin/time reports (10 ms resolution; NaN without it). */
function timeVersion([command, ...args]) {
  const argv = TIME ? [TIME, '-f', '%U %S', command, ...args, '--version'] : [command, ...args, '--version'];
  const started = performance.now();
  const result = spawnSync(argv[0], argv.slice(1), { cwd, env, encoding: 'utf8' });
  const wall = performance.now() - started;
  if (result.status !== 0) throw new Error(`${command} --version: ${result.stderr}`);
  const [user, system] = TIME ? result.stderr.trim().split('\n').at(-1).split(' ').map(Number) : [NaN, NaN];
  return { wall, cpu: (user + system) * 1000 };
}

/** Spawn → first `update` line on stdout, and → exit. */
function timeRun([command, ...args]) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let firstUpdate;
    let buffer = '';
    const child = spawn(command, [...args, 'run', '--agent', 'demo', '--format', 'json', 'hello'], {
      cwd,
      env,
    });
    let cpu;
    child.stdout.on('data', (chunk) => {
      buffer += chunk;
      if (firstUpdate === undefined && buffer.includes('"type":"update"')) {
        firstUpdate = performance.now() - started;
        // acp and the agent it started, until the first update.
        cpu = [child.pid, ...childrenOf(child.pid)].reduce((sum, pid) => sum + cpuMs(pid), 0);
      }
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0 || firstUpdate === undefined)
        reject(new Error(`acp run exited ${code}: ${buffer.slice(-500)}`));
      else resolve({ firstUpdate, cpu, exit: performance.now() - started });
    });
  });
}

async function timeTui(program) {
  const run = new TuiRun({ program });
  try {
    const outside = await run.waitFor(
      (s) => s.includes('Choose an agent') || s.includes('Looking for agents'),
      { everyMs: 5 },
    );
    const cpu = cpuMs(run.tmux('display-message', '-p', '-t', 'main', '#{pane_pid}').trim());
    const metrics = await run.quit();
    return { inside: metrics.firstFrameMs, outside, cpu };
  } finally {
    run.close();
  }
}

const results = Object.fromEntries(
  Object.keys(variants).map((name) => [
    name,
    {
      version: [],
      versionCpu: [],
      firstUpdate: [],
      firstUpdateCpu: [],
      runExit: [],
      tuiInside: [],
      tuiOutside: [],
      tuiCpu: [],
    },
  ]),
);
const loadAtStart = machine().load;
say(`timing ${Object.keys(variants).join(', ')}: ${runs} rounds of --version and run, ${tuiRuns} of the UI`);
for (let round = 0; round < Math.max(runs, tuiRuns); round++) {
  for (const [name, program] of Object.entries(variants)) {
    const r = results[name];
    if (round < runs && !uiOnly.has(name)) {
      const version = timeVersion(program);
      r.version.push(version.wall);
      r.versionCpu.push(version.cpu);
      const run = await timeRun(program);
      r.firstUpdate.push(run.firstUpdate);
      r.firstUpdateCpu.push(run.cpu);
      r.runExit.push(run.exit);
    }
    if (round < tuiRuns) {
      // tmux runs the program through `env`, so a bin is run by path like a user's `acp`.
      const tui = await timeTui(program);
      r.tuiInside.push(tui.inside);
      r.tuiOutside.push(tui.outside);
      r.tuiCpu.push(tui.cpu);
    }
  }
}

// 3. Report.
const stat = (values) =>
  values.length === 0 || values.some(Number.isNaN)
    ? '–'
    : `${median(values).toFixed(0)} / ${percentile(values, 90).toFixed(0)}`;
const names = Object.keys(variants);
const mib = (bytes) => (bytes / 2 ** 20).toFixed(1);
say(`\nload average at the start and the end: ${loadAtStart} → ${machine().load}`);
say(`| ms, median / p90 | budget | ${names.join(' | ')} |`);
say(`| --- | --- | ${names.map(() => '---').join(' | ')} |`);
const row = (label, budget, key) =>
  say(`| ${label} | ${budget} | ${names.map((n) => stat(results[n][key])).join(' | ')} |`);
row('`acp --version`, spawn → exit', '≤ 150', 'version');
row('… its CPU time (user + system, /usr/bin/time)', '', 'versionCpu');
row('`acp run --agent demo "hello"`, spawn → first update', '≤ 400', 'firstUpdate');
row('… CPU time of acp and the agent until then', '', 'firstUpdateCpu');
row('`acp run --agent demo "hello"`, spawn → exit (the whole paced demo turn)', '', 'runExit');
row('UI first frame, in the UI (since process start)', '≤ 300', 'tuiInside');
row('UI first frame, seen in tmux (since spawn)', '', 'tuiOutside');
row('… CPU time of the UI when tmux shows it', '', 'tuiCpu');
say('');
say('| installed footprint | disk (du) | files | packages |');
say('| --- | --- | --- | --- |');
for (const [name, size] of Object.entries(sizes))
  say(
    `| ${name === 'installed' ? '`acp-kit` tarball, global prefix' : 'baseline: libraries + UI deps, unbundled'} | ${(size.diskKiB / 1024).toFixed(1)} MiB | ${mib(size.bytes)} MiB | ${size.packages} |`,
  );
say(`\ninstall of the acp-kit tarball: ${(installMs / 1000).toFixed(1)} s`);
mkdirSync(join(ROOT, '.bench-out'), { recursive: true });
writeFileSync(
  join(ROOT, '.bench-out/install.json'),
  JSON.stringify({ machine: machine(), runs, tuiRuns, installMs, sizes, results }, null, 1),
);
rmSync(work, { recursive: true, force: true });
