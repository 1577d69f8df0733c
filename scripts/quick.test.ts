/**
 * `acp --version` and `acp --help` through bin/acp.cjs and dist/quick.cjs (built here into a temp
 * package): the same output as the command line's program, no ES module loader and no stream
 * modules started for it, and V8's code cache kept beside the file.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commanderLazyChildProcess, quickBundleOptions, ROOT } from './bundle.ts';
import { inProcessProgram } from './in-process-program.ts';

let pkg: string;
const cache = (): string => join(pkg, 'dist', `quick.cjs.${process.version}-${process.arch}.v8-cache`);

beforeAll(async () => {
  pkg = mkdtempSync(join(tmpdir(), 'acp-quick-'));
  mkdirSync(join(pkg, 'bin'));
  copyFileSync(join(ROOT, 'packages/cli/bin/acp.cjs'), join(pkg, 'bin/acp.cjs'));
  copyFileSync(join(ROOT, 'packages/cli/package.json'), join(pkg, 'package.json'));
  await build(quickBundleOptions({ outdir: join(pkg, 'dist') }));
});
afterAll(() => rmSync(pkg, { recursive: true, force: true }));

/** `acp ARGS` through the bin, output through pipes. */
function acp(args: string[], env: NodeJS.ProcessEnv = {}, nodeArgs: string[] = []) {
  const result = spawnSync(process.execPath, [...nodeArgs, join(pkg, 'bin/acp.cjs'), ...args], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH, ...env },
  });
  return { code: result.status, out: result.stdout, err: result.stderr };
}

const program = inProcessProgram;

describe('acp --version and acp --help', () => {
  it('print what the program prints, warnings included', async () => {
    const env = { ACP_KIT_LOG: 'debug' };
    for (const flag of ['--version', '-V', '--help', '-h'])
      expect(acp([flag], env), flag).toEqual(await program([flag], env));
  });

  it('start neither the ES module loader nor the stream modules when their output is a pipe', () => {
    const log = join(pkg, 'modules.log');
    const recorder = join(pkg, 'record.cjs');
    writeFileSync(
      recorder,
      `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(log)}, process.moduleLoadList.join('\\n')));\n`,
    );
    for (const flag of ['--version', '--help']) {
      expect(acp([flag], {}, ['--require', recorder]).code).toBe(0);
      const loaded = readFileSync(log, 'utf8').split('\n');
      // (Node's bootstrap loads the loader's utilities; a loader at work loads these.)
      const started = /modules\/esm\/(translators|module_job|resolve|load)$|NativeModule (net|tty|stream)$/;
      expect(loaded.filter((name) => started.test(name))).toEqual([]);
    }
  });

  it("keep V8's code cache beside the file: written after a run, written again when V8 rejects it", async () => {
    rmSync(cache(), { force: true });
    const help = await program(['--help']);
    expect(acp(['--help'])).toEqual(help);
    const written = readFileSync(cache());
    expect(written.length).toBeGreaterThan(1000);
    expect(acp(['--help'])).toEqual(help);
    writeFileSync(cache(), 'not a code cache');
    expect(acp(['--help'])).toEqual(help);
    expect(readFileSync(cache()).length).toBeGreaterThan(1000);
  });

  it('run without a cache where none can be read or written', async () => {
    rmSync(cache(), { force: true });
    mkdirSync(cache());
    try {
      expect(acp(['--help'])).toEqual(await program(['--help']));
    } finally {
      rmSync(cache(), { recursive: true, force: true });
    }
  });
});

describe('the patch of commander (no child_process until an executable subcommand runs)', () => {
  it('fails loudly when commander is not the text it was written for', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'acp-commander-'));
    try {
      mkdirSync(join(dir, 'node_modules/commander/lib'), { recursive: true });
      writeFileSync(
        join(dir, 'node_modules/commander/lib/command.js'),
        "const cp = require('child_process');\n",
      );
      writeFileSync(join(dir, 'entry.js'), "require('commander/lib/command.js');\n");
      await expect(
        build({
          absWorkingDir: dir,
          entryPoints: ['entry.js'],
          bundle: true,
          write: false,
          platform: 'node',
          logLevel: 'silent',
          plugins: [commanderLazyChildProcess],
        }),
      ).rejects.toThrow(/commander changed/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
