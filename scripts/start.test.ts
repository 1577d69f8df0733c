/**
 * `acp` with options only, through bin/acp.cjs and dist/start.cjs (the whole bundle built here into
 * a temp package): the terminal UI's first frame is drawn by the CommonJS start before any ES
 * module loads, V8's code cache is used from the second start on, the UI takes the drawing over in
 * one write; and what the argument parser decides is not the UI goes to the bundle's program, with
 * the output that program gives.
 */
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeScenarioDirs, scenarioEnv, TuiHarness } from '../packages/tui/src/e2e/tmux-harness.ts';
import { ROOT, writeBundle } from './bundle.ts';
import { inProcessProgram } from './in-process-program.ts';

let pkg: string;
/** The code cache bin/acp.cjs keeps of dist/FILE, made under the V8 flags it names ('' for none). */
const cacheOf = (file: string, flags = ''): string =>
  join(pkg, 'dist', `${file}.${process.version}-${process.arch}${flags ? `-${flags}` : ''}.v8-cache`);
const cache = (): string => cacheOf('start.cjs');
/** The flags of `acp run` and the other commands, and of the UI (bin/acp.cjs). */
const COMMAND_FLAGS = 'interrupt-budget+heap-growing';
const UI_FLAGS = 'interrupt-budget';

beforeAll(async () => {
  pkg = mkdtempSync(join(tmpdir(), 'acp-start-'));
  mkdirSync(join(pkg, 'bin'));
  copyFileSync(join(ROOT, 'packages/cli/bin/acp.cjs'), join(pkg, 'bin/acp.cjs'));
  await writeBundle({ outdir: join(pkg, 'dist') });
}, 120_000);
afterAll(() => rmSync(pkg, { recursive: true, force: true }));

/** `acp ARGS` through the bin, output through pipes (no terminal). */
function acp(args: string[], env: NodeJS.ProcessEnv = {}) {
  const result = spawnSync(process.execPath, [join(pkg, 'bin/acp.cjs'), ...args], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH, HOME: pkg, ACP_KIT_CONFIG_DIR: join(pkg, 'config'), ...env },
  });
  return { code: result.status, out: result.stdout, err: result.stderr };
}

const program = inProcessProgram;

/** Text without escape sequences. */
const plain = (text: string): string => text.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, ''); // eslint-disable-line no-control-regex

/**
 * A `--require` module that writes the process's loaded modules to `log` when the drawing of the
 * first frame is written (it starts by hiding the cursor).
 */
function recordModulesAtDrawing(log: string): string {
  const recorder = join(pkg, 'record-at-drawing.cjs');
  writeFileSync(
    recorder,
    `const out = process.stdout;
const write = out.write;
let done = false;
out.write = function (data, ...rest) {
  if (!done && typeof data === 'string' && data.startsWith('\\x1b[?25l')) {
    done = true;
    const files = Object.keys(require.cache).map((file) => 'file ' + file);
    require('node:fs').writeFileSync(${JSON.stringify(log)}, [...process.moduleLoadList, ...files].join('\\n'));
  }
  return write.call(this, data, ...rest);
};
`,
  );
  return recorder;
}

/**
 * A `--require` module (written into `dir`) that appends to `log` each call of V8's
 * `setFlagsFromString` and, at exit, the modules the process loaded after the first of them.
 */
function recordBuiltinsAfterFlags(dir: string, log: string): string {
  const recorder = join(dir, 'record-flags.cjs');
  writeFileSync(
    recorder,
    `const v8 = require('node:v8');
const fs = require('node:fs');
const set = v8.setFlagsFromString;
let at;
v8.setFlagsFromString = function (flags) {
  at ??= process.moduleLoadList.length;
  fs.appendFileSync(${JSON.stringify(log)}, 'flags ' + flags + '\\n');
  return set.call(this, flags);
};
process.on('exit', () => fs.appendFileSync(${JSON.stringify(log)}, process.moduleLoadList.slice(at).join('\\n')));
`,
  );
  return recorder;
}

/** `acp --agent scenario` in tmux (node given `nodeFlags`) until its agent is connected, then quit. */
async function connectAndQuit(dirs: ReturnType<typeof makeScenarioDirs>, nodeFlags: string[] = []) {
  const h = TuiHarness.launch({
    program: [process.execPath, ...nodeFlags, join(pkg, 'bin/acp.cjs')],
    args: ['--agent', 'scenario'],
    env: scenarioEnv(dirs),
    dirs,
  });
  try {
    await h.waitFor(/connected │ Scenario/, { timeoutMs: 60_000 });
    h.press('C-q');
    expect(await h.exitStatus()).toBe(0);
  } finally {
    h.close();
  }
}

/** Node's code cache of its built-ins is rejected after a V8 flag changes (bin/acp.cjs). */
const UNCACHED_HEAVY = /crypto|perf|child_process|readline|streams|fs\/promises/;

describe('acp --agent NAME and acp, from the CommonJS start', () => {
  it('draw the first frame before any chunk or ES module (or the agent, crypto, V8 flags) loads; the UI takes it over in one write', async () => {
    const dirs = makeScenarioDirs();
    const rawLog = join(dirs.root, 'raw.log');
    const modulesLog = join(dirs.root, 'modules.log');
    const h = TuiHarness.launch({
      program: [process.execPath, '--require', recordModulesAtDrawing(modulesLog), join(pkg, 'bin/acp.cjs')],
      args: ['--agent', 'scenario'],
      env: scenarioEnv(dirs),
      dirs,
      rawLog,
    });
    try {
      await h.waitFor('Message · / for commands', { timeoutMs: 60_000 });
      await h.waitFor(/connected │ Scenario/, { timeoutMs: 60_000 });
      const loaded = readFileSync(modulesLog, 'utf8').split('\n');
      const notYet =
        /modules\/esm\/(translators|module_job|resolve|load)$|NativeModule (child_process|crypto|v8)$/;
      expect(loaded.filter((name) => notYet.test(name))).toEqual([]);
      // Of the bundle's files, only the start itself (the chunks come after the drawing).
      const distFiles = loaded.filter((line) => line.startsWith(`file ${join(pkg, 'dist')}`));
      expect(distFiles.map((line) => line.slice(line.lastIndexOf('/') + 1))).toEqual(['start.cjs']);
      // One copy of each line in the whole history: the UI's first write replaced the drawing.
      const history = h.history();
      for (const line of [/^ 1 Scenario/m, /Message · \/ for commands/])
        expect(history.match(new RegExp(line.source, 'gm'))).toHaveLength(1);
      const raw = readFileSync(rawLog, 'utf8');
      expect(plain(raw.slice(0, raw.indexOf('\x1b[2K')))).toMatch(/^. Starting Scenario…\r\n/);
      h.press('C-q');
      expect(await h.exitStatus()).toBe(0);
    } finally {
      h.close();
      rmSync(dirs.root, { recursive: true, force: true });
    }
  }, 120_000);

  it('set the UI’s V8 flags once the first frame is drawn, after the built-in modules it uses', async () => {
    // After a V8 flag changes, Node's code cache of its built-in modules is rejected: each one
    // loaded then is compiled from its source.
    const dirs = makeScenarioDirs();
    const log = join(dirs.root, 'flags.log');
    try {
      await connectAndQuit(dirs, ['--require', recordBuiltinsAfterFlags(dirs.root, log)]);
      const lines = readFileSync(log, 'utf8').split('\n');
      expect(lines[0]).toBe('flags --interrupt-budget=540672');
      const after = lines.filter((line) => line.startsWith('NativeModule '));
      // What the UI's modules and the agent's start use is loaded before (bin/acp.cjs loads them
      // first; without, 34 were loaded after the flags, node:crypto's 16 among them); a few small
      // ones that later work loads on first use (the workspace's walk, a deep comparison) may
      // come after.
      expect(after.filter((name) => UNCACHED_HEAVY.test(name))).toEqual([]);
      expect(after.length, after.join(', ')).toBeLessThanOrEqual(4);
    } finally {
      rmSync(dirs.root, { recursive: true, force: true });
    }
  }, 120_000);

  it("read the UI's chunks with V8's code cache: written by the first start, kept as they are by the next", async () => {
    const dist = join(pkg, 'dist');
    for (const file of readdirSync(dist)) if (file.endsWith('.v8-cache')) rmSync(join(dist, file));
    const run = async () => {
      const dirs = makeScenarioDirs();
      try {
        await connectAndQuit(dirs);
      } finally {
        rmSync(dirs.root, { recursive: true, force: true });
      }
    };
    await run();
    const caches = new Map(
      readdirSync(dist)
        .filter((file) => file.endsWith('.v8-cache'))
        .map((file) => [file, readFileSync(join(dist, file))]),
    );
    // The UI's entry and its chunks are read, and cached, under the UI's flags; start.cjs under none.
    const names = [...caches.keys()];
    expect(names).toContain(cacheOf('start.cjs').slice(dist.length + 1));
    expect(names).toContain(cacheOf('after-frame.cjs', UI_FLAGS).slice(dist.length + 1));
    expect(
      names.some((name) => /^run-tui-\w+\.cjs\.v[\d.]+-\w+-interrupt-budget\.v8-cache$/.test(name)),
      names.join(' '),
    ).toBe(true);
    await run();
    // V8 took every one (a cache it rejects is written again).
    for (const [file, bytes] of caches) expect(readFileSync(join(dist, file)).equals(bytes), file).toBe(true);
  }, 120_000);

  it('keep a key typed over the drawing of the picker for the UI', async () => {
    const dirs = makeScenarioDirs();
    const h = TuiHarness.launch({
      program: [process.execPath, join(pkg, 'bin/acp.cjs')],
      env: scenarioEnv(dirs),
      dirs,
    });
    try {
      await h.waitFor(/❯ 2 Scenario \[installed\]/, { timeoutMs: 60_000 });
      h.press('Down');
      expect(await h.waitFor(/❯ 3 Claude Agent/, { timeoutMs: 60_000 })).toMatch(/^│ {3}2 Scenario/m);
      expect(h.history().match(/Choose an agent/g)).toHaveLength(1);
    } finally {
      h.close();
      rmSync(dirs.root, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('acp with options only, when the parser decides it is not the UI', () => {
  it('gives what the bundle’s program (dist/cli.cjs) gives, warnings once', async () => {
    const env = { ACP_KIT_LOG: 'debug' };
    for (const args of [
      ['--agent', 'demo'], // no terminal
      ['--bogus'],
      ['--cwd', '/tmp', 'run', 'hello'],
      ['--agent', 'demo', '--help'],
      ['--protocol', '3'],
      ['--', 'node', 'agent.js'],
    ])
      expect(acp(args, env), args.join(' ')).toEqual(await program(args, env));
  });

  it("keeps V8's code cache of start.cjs: written after the first start, used (kept as it is) by the next", () => {
    rmSync(cache(), { force: true });
    expect(acp(['--agent', 'demo']).code).toBe(2);
    const written = readFileSync(cache());
    const { mtimeMs } = statSync(cache());
    expect(written.length).toBeGreaterThan(1000);
    expect(acp(['--agent', 'demo']).code).toBe(2);
    expect(statSync(cache()).mtimeMs).toBe(mtimeMs);
    expect(readFileSync(cache()).equals(written)).toBe(true);
  });
});

describe('the validators acp loads on first use (scripts/lazy-schema.ts)', () => {
  it("are read with V8's code cache, written beside them by the first run that loads them", () => {
    const sets = ['schema-v2.cjs', 'schema-v2-unstable.cjs'].map((file) => cacheOf(file, COMMAND_FLAGS));
    for (const file of sets) rmSync(file, { force: true });
    const env = { ACP_KIT_DEMO_DELAY_MS: '0', ACP_KIT_DATA_DIR: join(pkg, 'data') };
    const first = acp(['run', '--agent', 'demo', 'hello'], env);
    expect(first.code, first.err).toBe(0);
    const written = sets.map((file) => readFileSync(file));
    for (const cache of written) expect(cache.length).toBeGreaterThan(10_000);
    // The next run (the client and the demo agent both validate v2) takes them as they are.
    expect(acp(['run', '--agent', 'demo', 'hello'], env).code).toBe(0);
    sets.forEach((file, i) => expect(readFileSync(file).equals(written[i] as Buffer)).toBe(true));
  });
});

describe('the terminal UI’s code as it loads (scripts/lazy-intl.ts)', () => {
  it('makes no grapheme segmenter and compiles no emoji expression until text needs them', () => {
    const chunk = readdirSync(join(pkg, 'dist')).find((file) => /^run-tui-.*\.cjs$/.test(file));
    expect(chunk).toBeDefined();
    const counter = join(pkg, 'count-intl.mjs');
    writeFileSync(
      counter,
      `globalThis.__intl = { segmenters: 0, emoji: 0 };
const Segmenter = Intl.Segmenter;
Intl.Segmenter = class extends Segmenter { constructor(...a) { super(...a); globalThis.__intl.segmenters++; } };
globalThis.RegExp = new Proxy(RegExp, { construct(target, args) { if (String(args[0]).includes('RGI_Emoji')) globalThis.__intl.emoji++; return Reflect.construct(target, args); } });`,
    );
    const result = spawnSync(
      process.execPath,
      [
        '--import',
        counter,
        '-e',
        `require(${JSON.stringify(join(pkg, 'dist', chunk as string))}); console.log(JSON.stringify(globalThis.__intl));`,
      ],
      { encoding: 'utf8' },
    );
    expect(result.status, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ segmenters: 0, emoji: 0 });
  });
});

describe('acp run and the other commands, from bin/acp.cjs', () => {
  it('load the built-in modules a session needs before V8’s flags change', () => {
    const dir = mkdtempSync(join(tmpdir(), 'acp-flags-'));
    try {
      const log = join(dir, 'flags.log');
      const result = spawnSync(
        process.execPath,
        [
          '--require',
          recordBuiltinsAfterFlags(dir, log),
          join(pkg, 'bin/acp.cjs'),
          'run',
          '--agent',
          'demo',
          'hi',
        ],
        {
          encoding: 'utf8',
          env: {
            PATH: process.env.PATH,
            HOME: dir,
            ACP_KIT_CONFIG_DIR: join(dir, 'config'),
            ACP_KIT_DATA_DIR: join(dir, 'data'),
            ACP_KIT_DEMO_DELAY_MS: '0',
          },
        },
      );
      expect(result.status, result.stderr).toBe(0);
      const lines = readFileSync(log, 'utf8').split('\n');
      expect(lines.slice(0, 2)).toEqual([
        'flags --interrupt-budget=540672',
        'flags --heap-growing-percent=50',
      ]);
      const after = lines.filter((line) => line.startsWith('NativeModule '));
      expect(after.filter((name) => UNCACHED_HEAVY.test(name))).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
