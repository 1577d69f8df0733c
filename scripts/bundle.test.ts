/**
 * What each start of the `acp` bundle loads, read from esbuild's metafile: `--version`/`--help`
 * only the command definitions, `acp run` and the UI never the agent's SDKs, the demo agent no
 * AI SDK. A failure names the import chain that pulls the module in.
 */
import { builtinModules } from 'node:module';
import { build, type Metafile } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  chunkOf,
  externalImports,
  importChain,
  inputsOf,
  packagesOf,
  staticClosure,
} from './bundle-graph.ts';
import { bundleOptions, ENTRY, ROOT } from './bundle.ts';
import { bundledPackages, thirdPartyLicenses } from './third-party-licenses.ts';

/** What only `acp agent` may load. */
const AGENT_ONLY = /^(ai|zod|@ai-sdk\/.+|@modelcontextprotocol\/.+)$/;
const MODEL_SDKS = /^(ai|@ai-sdk\/.+|@modelcontextprotocol\/.+)$/;
const RUN = 'packages/cli/src/commands/run.ts';
const AGENT_SERVE = 'packages/cli/src/commands/agent-serve.ts';
const SERVE = 'packages/cli/src/commands/serve.ts';
const MODEL_ENGINE = 'packages/agent/src/model/model-engine.ts';

let metafile: Metafile;

beforeAll(async () => {
  metafile = (await build({ ...bundleOptions(), write: false })).metafile as Metafile;
});

/** The packages loaded by starting with `chunks`, each with the import chain that loads it. */
function loaded(chunks: string[], match: RegExp): Record<string, string> {
  const inputs = inputsOf(metafile, staticClosure(metafile, chunks));
  const found: Record<string, string> = {};
  for (const name of packagesOf(inputs)) {
    if (!match.test(name)) continue;
    const origin = chunks.map((chunk) => metafile.outputs[chunk]?.entryPoint).find(Boolean) ?? ENTRY;
    found[name] = importChain(metafile, origin, (input) => input.includes(`node_modules/${name}/`)).join(
      ' → ',
    );
  }
  return found;
}

function tuiChunk(): string {
  const found = Object.entries(metafile.outputs).find(([, output]) =>
    output.entryPoint?.startsWith('packages/tui/src/'),
  );
  if (!found) throw new Error('no chunk starts the terminal UI');
  return found[0];
}

describe('the acp bundle', () => {
  it('loads only the command definitions and commander for --version and --help', () => {
    const entry = chunkOf(metafile, ENTRY);
    const inputs = [...inputsOf(metafile, staticClosure(metafile, [entry]))];
    const allowed = (input: string): boolean =>
      input.startsWith('packages/cli/src/') ||
      input === 'packages/agent/src/cli-options.ts' ||
      input.startsWith('node_modules/commander/');
    // One line per package or workspace package, with the chain that loads its first module.
    const extra: Record<string, string> = {};
    for (const input of inputs.filter((i) => !allowed(i))) {
      const owner = [...packagesOf([input])][0] ?? input.split('/').slice(0, 2).join('/');
      extra[owner] ??= importChain(metafile, ENTRY, (i) => i === input).join(' → ');
    }
    // Import what a command needs inside its action (`await import(…)`), and nothing from a
    // package's index in modules the entry loads: esbuild splits by file, so one named import
    // from an index loads every module the index exports.
    expect(extra).toEqual({});
  });

  it('keeps the AI SDK, the MCP SDK and zod out of `acp run` and the terminal UI', () => {
    const entry = chunkOf(metafile, ENTRY);
    expect(loaded([entry, chunkOf(metafile, RUN)], AGENT_ONLY)).toEqual({});
    expect(loaded([entry, tuiChunk()], AGENT_ONLY)).toEqual({});
  });

  it('loads the remote transport (ws, HTTP server and client) only for acp serve and remote agents', () => {
    const entry = chunkOf(metafile, ENTRY);
    const remote = (input: string): boolean =>
      input.startsWith('packages/protocol/src/remote/') || input.includes('node_modules/ws/');
    for (const start of [[entry], [entry, chunkOf(metafile, RUN)], [entry, tuiChunk()]]) {
      const inputs = [...inputsOf(metafile, staticClosure(metafile, start))].filter(remote);
      expect(inputs).toEqual([]);
    }
    const serve = [...inputsOf(metafile, staticClosure(metafile, [entry, chunkOf(metafile, SERVE)]))];
    expect(serve.some((input) => input.includes('node_modules/ws/'))).toBe(true);
    expect(serve).toContain('packages/protocol/src/remote/node/listen.ts');
  });

  it('starts the demo agent without the AI SDK or the MCP SDK, which only the model agent loads', () => {
    const entry = chunkOf(metafile, ENTRY);
    expect(loaded([entry, chunkOf(metafile, AGENT_SERVE)], MODEL_SDKS)).toEqual({});
    // The same check sees them where they are.
    expect(Object.keys(loaded([chunkOf(metafile, MODEL_ENGINE)], MODEL_SDKS))).toContain('ai');
  });

  it('leaves only Node built-ins outside (the package has no dependencies)', () => {
    const builtins = new Set(builtinModules);
    const external = [...externalImports(metafile)].filter(
      (name) => !name.startsWith('node:') && !builtins.has(name),
    );
    expect(external).toEqual([]);
  });

  it('ships the license of every bundled package', () => {
    const packages = bundledPackages(metafile, ROOT);
    const names = packages.map((pkg) => pkg.name);
    for (const name of ['commander', 'ink', 'react', 'zod', 'ai', '@modelcontextprotocol/sdk'])
      expect(names).toContain(name);
    const text = thirdPartyLicenses(metafile, ROOT);
    for (const pkg of packages) expect(text).toContain(`## ${pkg.name} ${pkg.version} (${pkg.license})`);
    expect(text).toContain('Permission is hereby granted'); // the MIT text itself, not only its name
  });
});
