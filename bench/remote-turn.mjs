/**
 * `node bench/remote-turn.mjs [--quick] [--runs N] [--bundle FILE]` (`npm run bench -- remote-turn`)
 *
 * A demo turn over the network against the same turn run locally, side by side in one run, from
 * the `acp` bundle as users run it: `acp run --agent demo "…"` (the floor) against `acp run --url`
 * to an `acp serve --agent demo` on 127.0.0.1, over WebSocket and over Streamable HTTP. Budget:
 * a remote turn takes at most 1.2× the local one (issue 17: read pacing let one message through
 * per 100 ms rest, so the remote turn took 14.4 s against 4.35 s). Each turn is a fresh `acp run`
 * process from spawn to exit; the server runs throughout (it starts an agent per connection, as
 * the local run starts its own). The demo agent keeps its own pacing (about 4 s a turn).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { alternate, ratioRow, reportVerdicts } from './lib/verdict.mjs';
import { ACP, ensureBundle, option } from './tui-common.mjs';

const quick = process.argv.includes('--quick');
const runs = Number(option('--runs', quick ? '3' : '5'));
const bundle = option('--bundle', undefined);
const PROMPT = 'look around this workspace';

if (!bundle) ensureBundle();
const acp = bundle ?? ACP;
const root = mkdtempSync(join(os.tmpdir(), 'acp-bench-remote-turn-'));
const workspace = join(root, 'workspace');
for (const dir of ['workspace', 'config', 'data', 'xdg']) mkdirSync(join(root, dir));
const env = {
  PATH: process.env.PATH,
  HOME: root,
  LANG: 'C.UTF-8',
  ACP_KIT_CONFIG_DIR: join(root, 'config'),
  ACP_KIT_DATA_DIR: join(root, 'data'),
  XDG_CONFIG_HOME: join(root, 'xdg'),
  XDG_DATA_HOME: join(root, 'xdg'),
};

/** `acp serve --agent demo` on a free port; resolves with its URL. */
function startServe() {
  const child = spawn(process.execPath, [acp, 'serve', '--agent', 'demo', '--port', '0'], {
    cwd: workspace,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    let stdout = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      const url = /at (http:\/\/\S+\/acp)/.exec(stdout)?.[1];
      if (url) resolve({ url, child });
    });
    child.once('exit', (code) => reject(new Error(`acp serve ended (${code}): ${stderr.slice(-500)}`)));
  });
}

/** One `acp run` from spawn to exit: its wall time in ms and how many updates it printed. */
function runTurn(args, extraEnv = {}) {
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [acp, 'run', '--format', 'json', '--cwd', workspace, ...args, PROMPT],
    { cwd: workspace, env: { ...env, ...extraEnv }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve, reject) =>
    child.once('exit', (code) => {
      const ms = performance.now() - started;
      if (code !== 0)
        return reject(new Error(`acp run ${args.join(' ')} exited ${code}: ${stderr.slice(-800)}`));
      const updates = stdout.split('\n').filter((line) => line.includes('"type":"update"')).length;
      resolve({ ms, updates });
    }),
  );
}

const served = await startServe();
const counts = {};
try {
  const turn = (name, args, extraEnv) => async () => {
    const { ms, updates } = await runTurn(args, extraEnv);
    (counts[name] ??= new Set()).add(updates);
    return ms;
  };
  // One turn of each first: the JIT, the page cache and the demo agent's first start.
  for (const warm of [
    turn('local', ['--agent', 'demo']),
    turn('websocket', ['--url', served.url], { ACP_KIT_REMOTE_TRANSPORT: 'websocket' }),
  ])
    await warm();
  const results = await alternate(
    runs,
    {
      local: turn('local', ['--agent', 'demo']),
      websocket: turn('websocket', ['--url', served.url], { ACP_KIT_REMOTE_TRANSPORT: 'websocket' }),
      http: turn('http', ['--url', served.url], { ACP_KIT_REMOTE_TRANSPORT: 'http' }),
    },
    (name, ms, run) => console.log(`run ${run + 1}/${runs}: ${name} ${(ms / 1000).toFixed(2)} s`),
  );
  // The same turn everywhere: the same updates printed (the demo agent is scripted).
  const seen = new Set(Object.values(counts).flatMap((set) => [...set]));
  if (seen.size !== 1) throw new Error(`the turns differ: updates printed ${JSON.stringify(counts)}`);
  const row = (profile) =>
    ratioRow({
      id: `remote-turn-${profile}`,
      what: `demo turn over acp serve (${profile}) vs locally`,
      floorName: 'local',
      unit: 'ms',
      subject: results[profile],
      floor: results.local,
      goal: { op: '<=', target: 1.2 },
      note: `acp run --url (${profile}) against acp run --agent demo, ${[...seen][0]} updates a turn`,
    });
  reportVerdicts('remote-turn', [row('websocket'), row('http')], { runs, bundle: acp });
} finally {
  served.child.kill('SIGINT');
  await new Promise((resolve) => served.child.once('exit', resolve));
  rmSync(root, { recursive: true, force: true });
}
