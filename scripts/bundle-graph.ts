/**
 * What a start of `acp` loads, from esbuild's metafile: the chunks an entry or dynamic-import
 * chunk pulls in through static imports, and the source files and npm packages in them.
 */
import type { Metafile } from 'esbuild';
import { packageDirOf } from './third-party-licenses.ts';

/** The output chunk whose entry point (static or dynamic import) is `input`. */
export function chunkOf(metafile: Metafile, input: string): string {
  const found = Object.entries(metafile.outputs).find(([, output]) => output.entryPoint === input);
  if (!found) throw new Error(`no chunk has the entry point ${input}`);
  return found[0];
}

/** `chunks` and every chunk they import statically: what loading them evaluates. */
export function staticClosure(metafile: Metafile, chunks: readonly string[]): Set<string> {
  const seen = new Set<string>();
  const queue = [...chunks];
  while (queue.length > 0) {
    const chunk = queue.pop() as string;
    if (seen.has(chunk)) continue;
    seen.add(chunk);
    const output = metafile.outputs[chunk];
    if (!output) throw new Error(`${chunk} is not an output of the bundle`);
    for (const edge of output.imports)
      if (!edge.external && edge.kind === 'import-statement') queue.push(edge.path);
  }
  return seen;
}

/** The source files with code in `chunks`. */
export function inputsOf(metafile: Metafile, chunks: Iterable<string>): Set<string> {
  const inputs = new Set<string>();
  for (const chunk of chunks) {
    for (const [input, { bytesInOutput }] of Object.entries(metafile.outputs[chunk]?.inputs ?? {}))
      if (bytesInOutput > 0) inputs.add(input);
  }
  return inputs;
}

/** npm package names among `inputs` (`ai`, `@ai-sdk/openai`…); our workspace sources have none. */
export function packagesOf(inputs: Iterable<string>): Set<string> {
  const names = new Set<string>();
  for (const input of inputs) {
    const dir = packageDirOf(input);
    if (dir) names.add(dir.slice(dir.lastIndexOf('node_modules/') + 'node_modules/'.length));
  }
  return names;
}

/** Bytes of `chunks` together. */
export function bytesOf(metafile: Metafile, chunks: Iterable<string>): number {
  let bytes = 0;
  for (const chunk of chunks) bytes += metafile.outputs[chunk]?.bytes ?? 0;
  return bytes;
}

/** Imports left outside the bundle (only Node built-ins are allowed: the package has no dependencies). */
export function externalImports(metafile: Metafile): Set<string> {
  const external = new Set<string>();
  for (const output of Object.values(metafile.outputs))
    for (const edge of output.imports) if (edge.external) external.add(edge.path);
  return external;
}

/**
 * The chain of static imports (module by module) from `from` to the first input matching `to`,
 * to explain why a chunk loads something: `['packages/cli/src/cli.ts', …, 'node_modules/zod/…']`.
 */
export function importChain(metafile: Metafile, from: string, to: (input: string) => boolean): string[] {
  const previous = new Map<string, string | undefined>([[from, undefined]]);
  const queue = [from];
  for (let i = 0; i < queue.length; i++) {
    const input = queue[i] as string;
    if (to(input)) {
      const chain: string[] = [];
      for (let at: string | undefined = input; at !== undefined; at = previous.get(at)) chain.unshift(at);
      return chain;
    }
    for (const edge of metafile.inputs[input]?.imports ?? []) {
      if (edge.external || edge.kind === 'dynamic-import' || previous.has(edge.path)) continue;
      previous.set(edge.path, input);
      queue.push(edge.path);
    }
  }
  return [];
}
