/**
 * `acp check`: runs the conformance checks of `@acp-kit/check` against an agent (a catalog agent,
 * a command after --, or a remote URL) and prints the report. Exit code 0 only when no check
 * failed (warnings and not-applicable checks do not fail a run).
 */
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { AcpKitError } from '@acp-kit/protocol';
import { formatReport, reportJson, runChecks, type CheckTarget } from '@acp-kit/check';
import { AgentCatalog, agentEnvironment, lookupCommand, resolveClientPaths } from '@acp-kit/client';
import { EXIT_CODES, UsageError } from '../exit-codes.js';
import type { CliIo } from '../io.js';
import type { OutputFormat } from '../output-format.js';
import { chooseAgent } from './run.js';

export interface CheckOptions {
  agent?: string;
  url?: string;
  cwd?: string;
  offline?: boolean;
  only?: string[];
  skip?: string[];
  prompt?: string;
  timeout?: string;
  verbose?: boolean;
  /** Be the agent of a client under test (`acp check --client` as its agent command). */
  client?: boolean;
  /** With --client: where the JSON report goes (default: a file in the temp directory). */
  report?: string;
  format: OutputFormat;
}

function seconds(value: string | undefined, option: string): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!(number > 0)) throw new UsageError(`${option} takes a number of seconds above 0`);
  return number * 1000;
}

/** Splits `--only a,b --only c` into names. */
function names(values: readonly string[] | undefined): string[] {
  return (values ?? [])
    .flatMap((value) => value.split(','))
    .map((name) => name.trim())
    .filter(Boolean);
}

/** Colours on a terminal, unless `NO_COLOR` is set to anything but the empty string. */
export function wantsColour(stdout: { isTTY?: boolean }, env: NodeJS.ProcessEnv): boolean {
  return stdout.isTTY === true && (env.NO_COLOR ?? '') === '';
}

export async function checkCommand(
  tail: readonly string[] | undefined,
  options: CheckOptions,
  io: CliIo,
): Promise<number> {
  if (options.client) return clientCheck(tail, options, io);
  const given = [options.agent, options.url, tail?.length ? tail : undefined].filter((v) => v !== undefined);
  if (given.length > 1) throw new UsageError('give one of --agent NAME, --url URL or a command after --');
  const turnTimeoutMs = seconds(options.timeout, '--timeout');
  const cwd = resolve(io.cwd, options.cwd ?? '.');
  if (!(await stat(cwd).catch(() => undefined))?.isDirectory())
    throw new UsageError(`--cwd ${cwd} is not a directory`);
  // The agent runs here (its relative paths mean what they meant to the user), but the sessions
  // are opened in a scratch directory unless --cwd says where: the turns ask for a new file.
  const scratch = options.cwd === undefined ? await mkdtemp(join(tmpdir(), 'acp-check-')) : undefined;
  try {
    const target = await checkTarget(tail, options, io, cwd);
    const report = await runChecks({
      target,
      sessionCwd: scratch ?? cwd,
      offline: options.offline === true,
      only: names(options.only),
      skip: names(options.skip),
      ...(options.prompt ? { prompt: options.prompt } : {}),
      ...(turnTimeoutMs ? { turnTimeoutMs } : {}),
    }).catch((error: unknown) => {
      if (error instanceof AcpKitError && error.code === 'INVALID_ARGUMENT') {
        throw new UsageError(error.message, { hint: 'acp check --help lists the checks' });
      }
      throw error;
    });
    if (options.format === 'json') io.stdout.write(reportJson(report));
    else {
      const colour = wantsColour(io.stdout, io.env);
      io.stdout.write(formatReport(report, { colour, verbose: options.verbose === true }));
    }
    return report.counts.fail > 0 ? EXIT_CODES.ERROR : EXIT_CODES.OK;
  } finally {
    if (scratch) await rm(scratch, { recursive: true, force: true });
  }
}

/**
 * `acp check --client`: stdin/stdout belong to the client under test, so the report goes to
 * stderr (plain) and to a JSON file.
 */
async function clientCheck(
  tail: readonly string[] | undefined,
  options: CheckOptions,
  io: CliIo,
): Promise<number> {
  if (options.agent || options.url || tail?.length) {
    throw new UsageError(
      "--client takes no agent: it is the agent (give acp check --client as the client's agent command)",
    );
  }
  const { serveClientChecks } = await import('@acp-kit/check');
  const { stdioChannel } = await import('@acp-kit/protocol/node');
  const report = await serveClientChecks(stdioChannel());
  const file = resolve(io.cwd, options.report ?? join(tmpdir(), `acp-check-client-${process.pid}.json`));
  await writeFile(file, reportJson(report));
  io.stderr.write(
    `${formatReport(report, { colour: false, verbose: options.verbose === true })}report: ${file}\n`,
  );
  return report.counts.fail > 0 ? EXIT_CODES.ERROR : EXIT_CODES.OK;
}

/** The agent to check, as the checker runs it: its command resolved, its environment filtered. */
async function checkTarget(
  tail: readonly string[] | undefined,
  options: CheckOptions,
  io: CliIo,
  cwd: string,
): Promise<CheckTarget> {
  const paths = resolveClientPaths(io.env);
  const catalog = await AgentCatalog.load({ agentsFile: paths.agentsFile, self: io.self, env: io.env });
  if (!options.agent && !options.url && !tail?.length) {
    throw new UsageError('no agent to check', {
      hint: 'acp check --agent demo, acp check --url URL, or acp check -- COMMAND [ARGS…]',
    });
  }
  const entry = chooseAgent({ catalog }, options.agent, tail, io.cwd, undefined, options.url);
  if (entry.url !== undefined) return { kind: 'url', url: entry.url, cwd };
  const { env } = agentEnvironment(io.env, entry, catalog.passEnv);
  const found = await lookupCommand(entry.command, env, cwd);
  if (!found.found)
    throw new UsageError(`${entry.command} was not found${entry.command.includes('/') ? '' : ' on PATH'}`);
  return { kind: 'command', command: found.path, args: entry.args ?? [], cwd, env };
}
