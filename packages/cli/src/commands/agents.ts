/**
 * `acp agents [list|add|remove]`: the agent catalog.
 */
import { resolve } from 'node:path';
import { AgentCatalog, commandText, resolveClientPaths } from '@acp-kit/client';
import { warningText } from '../errors.js';
import { UsageError } from '../exit-codes.js';
import { table } from '../format.js';
import type { CliIo } from '../io.js';
import type { OutputFormat } from '../output-format.js';

async function load(io: CliIo): Promise<AgentCatalog> {
  const catalog = await AgentCatalog.load({
    agentsFile: resolveClientPaths(io.env).agentsFile,
    self: io.self,
    env: io.env,
  });
  for (const problem of catalog.problems) io.stderr.write(warningText(problem));
  return catalog;
}

/** `acp agents list [--format text|json|names]`. */
export async function listAgents(options: { format: OutputFormat }, io: CliIo): Promise<number> {
  const catalog = await load(io);
  if (options.format === 'names') {
    // For shell completion: no detection (it runs `which` for every agent), ids only.
    io.stdout.write(
      catalog
        .list()
        .map((agent) => `${agent.id}\n`)
        .join(''),
    );
    return 0;
  }
  const agents = await catalog.detectAll();
  if (options.format === 'json') {
    io.stdout.write(
      `${JSON.stringify(agents.map((a) => ({ ...a, default: a.id === catalog.defaultAgent })))}\n`,
    );
    return 0;
  }
  const rows = agents.map((a) => [
    a.id + (a.id === catalog.defaultAgent ? ' *' : ''),
    a.detection.installed ? 'yes' : a.detection.notExecutable ? 'no (not executable)' : 'no',
    a.source,
    commandText({ argv: [a.command, ...a.args] }),
    a.detection.installed
      ? a.name
      : a.detection.notExecutable
        ? `${a.detection.notExecutable} is not executable (chmod +x)`
        : a.install
          ? `install: ${a.install}`
          : a.name,
  ]);
  io.stdout.write(table([['NAME', 'INSTALLED', 'SOURCE', 'COMMAND', 'NOTES'], ...rows]));
  if (catalog.defaultAgent) io.stdout.write(`\n* default agent\n`);
  return 0;
}

/** Options of `acp agents add`. */
export interface AddAgentOptions {
  name?: string;
  description?: string;
  env?: string[];
  passEnv?: string[];
  cwd?: string;
  default?: boolean;
  registry?: string;
}

/** `acp agents add ID [options] -- COMMAND ARGS…` or `acp agents add --registry FILE|URL [ID…]`. */
export async function addAgent(
  ids: string[],
  command: readonly string[] | undefined,
  options: AddAgentOptions,
  io: CliIo,
): Promise<number> {
  const catalog = await load(io);
  if (options.registry) {
    if (command && command.length > 0)
      throw new UsageError('--registry imports commands from the registry; do not give one after --');
    const source = /^https?:\/\//i.test(options.registry)
      ? options.registry
      : resolve(io.cwd, options.registry);
    const result = await catalog.importRegistry(source, { ids });
    for (const agent of result.agents)
      io.stderr.write(`added ${agent.id}: ${commandText({ argv: [agent.command, ...agent.args] })}\n`);
    for (const skipped of result.skipped) io.stderr.write(`skipped ${skipped.id}: ${skipped.reason}\n`);
    return result.agents.length > 0 ? 0 : 1;
  }
  const [id, ...extra] = ids;
  if (!id || extra.length > 0)
    throw new UsageError('give one agent name: acp agents add NAME -- COMMAND [ARGS…]');
  if (!command || command.length === 0)
    throw new UsageError('give the command after --: acp agents add NAME -- COMMAND [ARGS…]');
  const env: Record<string, string> = {};
  for (const pair of options.env ?? []) {
    const at = pair.indexOf('=');
    if (at <= 0) throw new UsageError(`--env takes NAME=VALUE, not "${pair}"`);
    env[pair.slice(0, at)] = pair.slice(at + 1);
  }
  const [program, ...args] = command as [string, ...string[]];
  const added = await catalog.add({
    id,
    name: options.name ?? id,
    command: program,
    args,
    ...(options.description ? { description: options.description } : {}),
    ...(Object.keys(env).length > 0 ? { env } : {}),
    ...(options.passEnv && options.passEnv.length > 0 ? { passEnv: options.passEnv } : {}),
    ...(options.cwd ? { cwd: resolve(io.cwd, options.cwd) } : {}),
  });
  if (options.default) await catalog.setDefault(added.id);
  const detection = await catalog.detect(added);
  io.stderr.write(
    `added ${added.id}: ${commandText({ argv: [added.command, ...added.args] })}${
      detection.installed
        ? ''
        : detection.notExecutable
          ? ` (${detection.notExecutable} is not executable yet: chmod +x)`
          : ' (not found on PATH yet)'
    }\n`,
  );
  return 0;
}

/** `acp agents remove ID`. */
export async function removeAgent(id: string, io: CliIo): Promise<number> {
  const catalog = await load(io);
  if (!(await catalog.remove(id))) {
    const builtin = catalog.get(id)?.source === 'builtin';
    throw new UsageError(builtin ? `${id} is built in and cannot be removed` : `no user agent named ${id}`);
  }
  io.stderr.write(`removed ${id}\n`);
  return 0;
}
