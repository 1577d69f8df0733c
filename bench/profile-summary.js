/**
 * Summarises V8 `.cpuprofile` files (from `node --cpu-prof`): top frames by self time, and self
 * time per source (our dist, the SDK, node internals, GC, ...). Also usable on its own:
 * `node bench/profile-summary.js <dir-or-file.cpuprofile> [top]`.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function sourceOf(url, functionName) {
  if (!url) return functionName.startsWith('(') ? functionName : '(native/builtin)';
  if (url.startsWith('node:')) return 'node internals';
  const m = /packages\/protocol\/dist\/(.+)$/.exec(url);
  if (m) return `acp-kit ${m[1]}`;
  const sdk = /@agentclientprotocol\/sdk\/dist\/(.+)$/.exec(url);
  if (sdk) return `sdk ${sdk[1]}`;
  if (url.includes('/node_modules/')) return url.replace(/^.*\/node_modules\//, '');
  if (url.includes('/bench/')) return `bench ${url.replace(/^.*\/bench\//, '')}`;
  return url;
}

/** Self time per frame of one profile. */
export function summarizeProfile(file, top = 15) {
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfUs = new Map();
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i];
    selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  }
  const frames = new Map();
  const sources = new Map();
  let total = 0;
  let idle = 0;
  let role = 'process';
  for (const [id, us] of selfUs) {
    const { functionName, url, lineNumber } = byId.get(id).callFrame;
    if (functionName === '(idle)') {
      idle += us;
      continue;
    }
    total += us;
    const name = functionName || '(anonymous)';
    const file = url.startsWith('node:') ? url : sourceOf(url, name);
    const where = url ? `${file}:${lineNumber + 1}` : '';
    const key = `${name} ${where}`.trim();
    frames.set(key, (frames.get(key) ?? 0) + us);
    const src = sourceOf(url, name);
    sources.set(src, (sources.get(src) ?? 0) + us);
  }
  for (const n of profile.nodes) {
    const m = /bench\/impl\/([\w-]+)-(client|agent)\.js$/.exec(n.callFrame.url);
    if (m) {
      role = m[2];
      break;
    }
  }
  const rank = (map) =>
    [...map.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, us]) => ({
        name,
        selfMs: +(us / 1000).toFixed(1),
        pct: +((100 * us) / total).toFixed(1),
      }));
  return {
    file: basename(file),
    role,
    busyMs: +(total / 1000).toFixed(1),
    idleMs: +(idle / 1000).toFixed(1),
    topFrames: rank(frames),
    bySource: rank(sources),
  };
}

/** Summarises every profile in a directory (or one file); optionally prints them. */
export function summarizeProfiles(path, { top = 15, print = false } = {}) {
  const files = statSync(path).isDirectory()
    ? readdirSync(path)
        .filter((f) => f.endsWith('.cpuprofile'))
        .map((f) => join(path, f))
    : [path];
  const out = files.map((f) => summarizeProfile(f, top));
  if (print) {
    for (const s of out) {
      console.log(`\n  ${s.role} (${s.file}): busy ${s.busyMs} ms, idle ${s.idleMs} ms`);
      console.log('    self time by source:');
      for (const f of s.bySource.slice(0, 8)) console.log(`      ${String(f.pct).padStart(5)}%  ${f.name}`);
      console.log('    top frames (self time):');
      for (const f of s.topFrames) console.log(`      ${String(f.pct).padStart(5)}%  ${f.name}`);
    }
  }
  return out;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const target = process.argv[2];
  if (!target) throw new Error('usage: node bench/profile-summary.js <dir-or-file.cpuprofile> [top]');
  summarizeProfiles(target, { top: Number(process.argv[3] ?? 15), print: true });
}
