/**
 * What each start of the `acp` bundle loads, read from esbuild's metafile: `--version`/`--help`
 * only the command definitions, `acp run` and the UI never the agent's SDKs, the demo agent no
 * AI SDK. A failure names the import chain that pulls the module in. And the patch of Ink's
 * frame output the bundle carries draws what Ink draws, and its text measuring cache is bounded.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Metafile } from 'esbuild';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  chunkOf,
  externalImports,
  importChain,
  inputsOf,
  packagesOf,
  staticClosure,
} from './bundle-graph.ts';
import { AFTER_FRAME_ENTRY, bundleOptions, ENTRY, quickBundleOptions, ROOT, START_ENTRY } from './bundle.ts';
import { INK_CACHE_ENTRIES, patchInk } from './ink-frame-patch.ts';
import { VALIDATOR_SETS, validatorSetsBuildOptions } from './lazy-schema.ts';
import { bundledPackages, thirdPartyLicenses } from './third-party-licenses.ts';

/** What only `acp agent` may load. */
const AGENT_ONLY = /^(ai|zod|@ai-sdk\/.+|@modelcontextprotocol\/.+)$/;
const MODEL_SDKS = /^(ai|@ai-sdk\/.+|@modelcontextprotocol\/.+)$/;
const RUN = 'packages/cli/src/commands/run.ts';
const AGENT_SERVE = 'packages/cli/src/commands/agent-serve.ts';
const SERVE = 'packages/cli/src/commands/serve.ts';
const MODEL_ENGINE = 'packages/agent/src/model/model-engine.ts';

let metafile: Metafile;
/** The bundle's files (both builds) and their text. */
let outputs: { path: string; text: string }[];
/** The validator sets' CommonJS files (lazy-schema.ts). */
let validatorFiles: { path: string; text: string }[];

beforeAll(async () => {
  const program = await build({ ...bundleOptions(), write: false });
  const quick = await build({ ...quickBundleOptions(), write: false });
  const schema = await build({
    ...validatorSetsBuildOptions(ROOT, join(ROOT, 'packages/cli/dist'), true),
    write: false,
  });
  metafile = program.metafile as Metafile;
  outputs = [...program.outputFiles, ...quick.outputFiles].map(({ path, text }) => ({ path, text }));
  validatorFiles = schema.outputFiles.map(({ path, text }) => ({ path, text }));
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

/** The UI's small entry (it draws the first frame and starts the agent), then the UI itself. */
const UI_ENTRY = 'packages/tui/src/bin-entry.ts';
const UI = 'packages/tui/src/app/run-tui.tsx';

/** The chunks the terminal UI loads: the command line's, the UI's entry, the UI. */
function tuiStart(): string[] {
  return [chunkOf(metafile, ENTRY), chunkOf(metafile, UI_ENTRY), chunkOf(metafile, UI)];
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
    expect(loaded(tuiStart(), AGENT_ONLY)).toEqual({});
  });

  it('draws the first frame of the terminal UI and starts its agent before loading React, Ink or the engine', () => {
    const closure = staticClosure(metafile, [chunkOf(metafile, ENTRY), chunkOf(metafile, UI_ENTRY)]);
    const inputs = [...inputsOf(metafile, closure)];
    const heavy = (input: string): boolean =>
      /node_modules\/(react|react-reconciler|ink|yoga-layout|marked|highlight\.js|diff|zod)\//.test(input) ||
      input.startsWith('packages/protocol/src/schema/') ||
      input.startsWith('packages/client/src/session/') ||
      input.startsWith('packages/client/src/agent/') ||
      input.startsWith('packages/tui/src/app/services/');
    const found: Record<string, string> = {};
    for (const input of inputs.filter(heavy))
      found[input] = importChain(metafile, UI_ENTRY, (i) => i === input).join(' → ');
    expect(found).toEqual({});
    // The UI itself is loaded after that, by the entry.
    const later = [...closure].flatMap((chunk) =>
      (metafile.outputs[chunk]?.imports ?? []).filter((i) => i.kind === 'dynamic-import').map((i) => i.path),
    );
    expect(later).toContain(chunkOf(metafile, UI));
  });

  it("draws the first frame from start.cjs, which holds the drawing and the parser, not the agent's process, React, Ink or the engine", async () => {
    const quick = (await build({ ...quickBundleOptions(), write: false })).metafile as Metafile;
    const start = Object.values(quick.outputs).find((output) => output.entryPoint === START_ENTRY);
    const inputs = Object.keys(start?.inputs ?? {});
    expect(inputs).toContain('packages/tui/src/first-frame/early-draw.ts');
    expect(inputs).toContain('packages/cli/src/main.ts');
    // The error classes and the agents' environment rules are in (the catalog's); nothing that
    // starts or talks to an agent is.
    const kept = new Set([
      'packages/protocol/src/jsonrpc/errors.ts',
      'packages/client/src/process/agent-env.ts',
    ]);
    const notHere = (input: string): boolean =>
      !kept.has(input) &&
      (/node_modules\/(react|react-reconciler|ink|yoga-layout|marked|highlight\.js|diff|zod)\//.test(input) ||
        /^packages\/(protocol|client|tui)\/src\/(schema|jsonrpc|connection|node|session|agent|process|app\/services)\//.test(
          input,
        ) ||
        input === 'packages/tui/src/first-frame/early-start.ts');
    expect(inputs.filter(notHere)).toEqual([]);
    // What it loads after the drawing is the ES module entry after-frame.ts, which starts the agent
    // with the client's launch code before it loads anything of the UI's.
    const afterFrame = chunkOf(metafile, AFTER_FRAME_ENTRY);
    expect(afterFrame).toBe('packages/cli/dist/after-frame.js');
    const beforeAgent = [...inputsOf(metafile, staticClosure(metafile, [afterFrame]))];
    expect(beforeAgent.filter((input) => input.startsWith('packages/tui/'))).toEqual([
      'packages/tui/src/first-frame/early-start.ts',
    ]);
  });

  it('loads the remote transport (ws, HTTP server and client) only for acp serve and remote agents', () => {
    const entry = chunkOf(metafile, ENTRY);
    const remote = (input: string): boolean =>
      input.startsWith('packages/protocol/src/remote/') || input.includes('node_modules/ws/');
    for (const start of [[entry], [entry, chunkOf(metafile, RUN)], tuiStart()]) {
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

  it('holds the generated validators in no ES module chunk: the terminal UI compiles none of them to show a session (scripts/lazy-schema.ts)', () => {
    // Every generated set reports a value that fits no member of a union so; the stubs only call.
    const body = 'does not match any allowed shape';
    for (const set of VALIDATOR_SETS) expect(readFileSync(join(ROOT, set.source), 'utf8')).toContain(body);
    for (const file of validatorFiles) expect(file.text).toContain(body);
    expect(
      outputs.filter((output) => output.text.includes(body)).map((output) => basename(output.path)),
    ).toEqual([]);
    // What the UI loads to show a session names them only in stubs.
    const inUi = [...inputsOf(metafile, staticClosure(metafile, tuiStart()))].filter((input) =>
      input.endsWith('validators.gen.ts'),
    );
    for (const input of inUi) expect(metafile.inputs[input]?.bytes ?? 0).toBeLessThan(60_000);
  });

  it('leaves only Node built-ins outside (the package has no dependencies)', () => {
    const builtins = new Set(builtinModules);
    const validatorSets = new Set(VALIDATOR_SETS.map((set) => `./${set.file}`));
    const external = [...externalImports(metafile)].filter(
      (name) => !name.startsWith('node:') && !builtins.has(name) && !validatorSets.has(name),
    );
    expect(external).toEqual([]);
    // The validator sets' files are built beside the chunks, and import nothing.
    expect(validatorFiles.map((file) => basename(file.path)).sort()).toEqual(
      VALIDATOR_SETS.map((set) => set.file).sort(),
    );
    for (const file of validatorFiles) expect(file.text).not.toMatch(/\brequire\(/);
  });

  it('is ASCII only: one character past it (esbuild escapes strings, not regular expressions) makes V8 hold and scan the whole file as two-byte text', () => {
    const wide = [...outputs, ...validatorFiles]
      .filter((output) => output.path.endsWith('js'))
      .flatMap(({ path, text }) => {
        // eslint-disable-next-line no-control-regex
        const at = text.search(/[^\x00-\x7f]/);
        return at === -1 ? [] : [`${basename(path)}: …${text.slice(Math.max(0, at - 40), at + 10)}`];
      });
    expect(wide).toEqual([]);
  });

  it('ships the license of every bundled package', () => {
    const packages = bundledPackages(metafile, ROOT);
    const names = packages.map((pkg) => pkg.name);
    for (const name of [
      'commander',
      'ink',
      'react',
      'zod',
      'ai',
      '@modelcontextprotocol/client',
      '@modelcontextprotocol/server',
    ])
      expect(names).toContain(name);
    const text = thirdPartyLicenses(metafile, ROOT);
    for (const pkg of packages) expect(text).toContain(`## ${pkg.name} ${pkg.version} (${pkg.license})`);
    expect(text).toContain('Permission is hereby granted'); // the MIT text itself, not only its name
  });
});

/** An Ink module's text, bundled with its dependencies from Ink's own folder, imported from a temp file. */
async function importInkModule<T>(source: string, name: string): Promise<T> {
  const result = await build({
    stdin: { contents: source, resolveDir: join(ROOT, 'node_modules/ink/build'), loader: 'js' },
    bundle: true,
    format: 'esm',
    platform: 'node',
    write: false,
  });
  const file = join(mkdtempSync(join(tmpdir(), 'acp-ink-module-')), `${name}.mjs`);
  writeFileSync(file, result.outputFiles[0]?.text ?? '');
  return ((await import(pathToFileURL(file).href)) as { default: T }).default;
}

describe('the patch of Ink’s frames (ink-frame-patch.ts)', () => {
  const inkOutput = join(ROOT, 'node_modules/ink/build/output.js');
  type OutputClass = new (options: { width: number; height: number }) => {
    write(x: number, y: number, text: string, options: { transformers: ((line: string) => string)[] }): void;
    clip(clip: { x1?: number; x2?: number; y1?: number; y2?: number }): void;
    unclip(): void;
    get(): { output: string; height: number };
  };
  let original: OutputClass;
  let patched: OutputClass;

  const load = (source: string, name: string): Promise<OutputClass> =>
    importInkModule<OutputClass>(source, name);

  beforeAll(async () => {
    const source = readFileSync(inkOutput, 'utf8');
    original = await load(source, 'original');
    patched = await load(patchInk('output.js', source), 'patched');
  });

  it('fails loudly when Ink is not the version it was written for', () => {
    const source = readFileSync(inkOutput, 'utf8');
    expect(() =>
      patchInk('output.js', source.replace('caches = new OutputCaches();', 'caches = new Caches();')),
    ).toThrow(/ink\/build\/output\.js is not the text this patch was written for.*caches = new OutputCaches/);
    expect(() => patchInk('output.js', patchInk('output.js', source))).toThrow(/ink-frame-cache/);
    const renderNode = readFileSync(join(ROOT, 'node_modules/ink/build/render-node-to-output.js'), 'utf8');
    expect(patchInk('render-node-to-output.js', renderNode)).toContain('measuredWidestLine(text)');
    expect(() =>
      patchInk('render-node-to-output.js', renderNode.replace('widestLine(text)', 'width(text)')),
    ).toThrow(/render-node-to-output\.js is not the text/);
  });

  it('throttles Ink’s frames and writes with lazyThrottle, which starts no idle timers', () => {
    const ink = readFileSync(join(ROOT, 'node_modules/ink/build/ink.js'), 'utf8');
    const patchedInk = patchInk('ink.js', ink);
    expect(patchedInk).not.toContain('es-toolkit');
    expect(patchedInk).toMatch(/^import \{ lazyThrottle as throttle \} from ".*ink-lazy-throttle\.ts";$/m);
    expect(() => patchInk('ink.js', ink.replace("from 'es-toolkit/compat'", "from 'lodash'"))).toThrow(
      /ink\/build\/ink\.js is not the text this patch was written for/,
    );
  });

  it('draws every frame as Ink does, also when rows and lines come back from earlier frames', () => {
    const text = fc
      .array(
        fc.constantFrom(
          'a',
          'b',
          ' ',
          '界',
          '👍',
          'e\u0301',
          '\n',
          '\x1b[1m',
          '\x1b[22m',
          '\x1b[31m',
          '\x1b[39m',
          '\x1b[38;2;1;2;3m',
          '\x1b[1;31m',
          '\x1b[',
          '\x1b[m',
          '\x1b]8;;https://x\x07',
          '•',
          '─',
          '©',
          '\ufe0f',
          '\u00ad',
          '◽',
        ),
        { maxLength: 30 },
      )
      .map((parts) => parts.join(''));
    const operation = fc.oneof(
      fc.record({
        kind: fc.constant('write' as const),
        x: fc.integer({ min: -2, max: 24 }),
        y: fc.integer({ min: -2, max: 9 }),
        text,
        bold: fc.boolean(),
      }),
      fc.record({
        kind: fc.constant('clip' as const),
        x1: fc.integer({ min: 0, max: 10 }),
        x2: fc.integer({ min: 5, max: 24 }),
        y1: fc.option(fc.integer({ min: 0, max: 4 }), { nil: undefined }),
        y2: fc.option(fc.integer({ min: 3, max: 9 }), { nil: undefined }),
      }),
      fc.constant({ kind: 'unclip' as const }),
    );
    const bold = (line: string): string => `\x1b[1m${line}\x1b[22m`;
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 20 }),
        fc.integer({ min: 0, max: 8 }),
        fc.array(operation, { maxLength: 12 }),
        (width, height, operations) => {
          const frame = (Output: OutputClass): string => {
            const output = new Output({ width, height });
            for (const op of operations) {
              if (op.kind === 'write')
                output.write(op.x, op.y, op.text, { transformers: op.bold ? [bold] : [] });
              else if (op.kind === 'clip')
                output.clip({
                  x1: op.x1,
                  x2: op.x2,
                  ...(op.y1 !== undefined && op.y2 !== undefined ? { y1: op.y1, y2: op.y2 } : {}),
                });
              else output.unclip();
            }
            return JSON.stringify(output.get());
          };
          const expected = frame(original);
          expect(frame(patched)).toBe(expected);
          // Again: now every row and line is known from the frame before.
          expect(frame(patched)).toBe(expected);
        },
      ),
      { seed: 6, numRuns: 1500 },
    );
  });
});

describe('the patch of Ink’s sanitizing of texts (ink-frame-patch.ts)', () => {
  it('gives what Ink gives for any text, returning a text of only SGR sequences at once', async () => {
    const inkSanitize = join(ROOT, 'node_modules/ink/build/sanitize-ansi.js');
    type Sanitize = (text: string) => string;
    const source = readFileSync(inkSanitize, 'utf8');
    const original = await importInkModule<Sanitize>(source, 'original');
    const patched = await importInkModule<Sanitize>(patchInk('sanitize-ansi.js', source), 'patched');
    const styled = '\x1b[1m\x1b[38;2;1;2;3mbold\x1b[22m \x1b[4:3mcurly\x1b[m 界';
    expect(patched(styled)).toBe(styled);
    expect(patched('a\x1b[2Jb\x1b[?25lc\x1b]8;;https://x\x07link\x1b]8;;\x07')).toBe(
      original('a\x1b[2Jb\x1b[?25lc\x1b]8;;https://x\x07link\x1b]8;;\x07'),
    );
    fc.assert(
      fc.property(
        fc
          .array(
            fc.constantFrom(
              'a',
              ' ',
              '界',
              '\x1b',
              '[',
              ']',
              '1',
              '38',
              ';',
              ':',
              'm',
              'H',
              '?',
              ' ',
              '\x07',
              '\x9b',
              '\x85',
              '\n',
            ),
            { maxLength: 24 },
          )
          .map((parts) => parts.join('')),
        (text) => {
          expect(patched(text)).toBe(original(text));
        },
      ),
      { seed: 11, numRuns: 3000 },
    );
    expect(() => patchInk('sanitize-ansi.js', source.replace('const sanitizeAnsi', 'const clean'))).toThrow(
      /sanitize-ansi\.js is not the text/,
    );
  });
});

describe('the patch of Ink’s text measuring (ink-frame-patch.ts)', () => {
  it('keeps a bounded number of texts’ sizes, where Ink kept every text it ever laid out', async () => {
    const inkMeasureText = join(ROOT, 'node_modules/ink/build/measure-text.js');
    type Measure = (text: string) => { width: number; height: number };
    const load = (source: string, name: string) => importInkModule<Measure>(source, name);
    const source = readFileSync(inkMeasureText, 'utf8');
    // Whether the first text's size is still the object cached for it after `others` more texts.
    const remembered = async (measure: (text: string) => object, others: number) => {
      const first = measure('first line\nsecond');
      for (let i = 0; i < others; i++) measure(`text ${i}`);
      return measure('first line\nsecond') === first;
    };
    const original = await load(source, 'original');
    const patched = await load(patchInk('measure-text.js', source), 'patched');
    expect(patched('first line\nsecond')).toEqual({ width: 10, height: 2 });
    expect(await remembered(original, INK_CACHE_ENTRIES * 2)).toBe(true);
    expect(await remembered(patched, INK_CACHE_ENTRIES / 2)).toBe(true);
    expect(await remembered(patched, INK_CACHE_ENTRIES * 2)).toBe(false);
    expect(() => patchInk('measure-text.js', source.replace('cache.set(', 'cache.put('))).toThrow(
      /measure-text\.js is not the text/,
    );
  });
});
