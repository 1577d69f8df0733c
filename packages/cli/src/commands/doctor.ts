/**
 * `acp doctor [--probe] [--format text|json]`: versions, paths, configuration files, catalog agents
 * (installed, version, signed in) and the terminal, as text to paste into a bug report or as JSON.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveConfigPath, resolveDataDir } from '@acp-kit/agent';
import {
  AcpClient,
  AgentCatalog,
  agentEnvironment,
  parsePassEnv,
  ClientError,
  describeError,
  isAuthRequiredError,
  parseRulesDocument,
  resolveClientPaths,
  type DetectedAgent,
} from '@acp-kit/client';
import { deprecatedEnvWarnings } from '../deprecated-env.js';
import { oneLine, table } from '../format.js';
import type { CliIo } from '../io.js';
import { VERSION } from '../version.js';
import type { OutputFormat } from '../output-format.js';
import {
  checkDirectory,
  checkJsonFile,
  checkTerminal,
  guessSignIn,
  nodeMeetsRequirement,
  packageVersionOf,
  type DirectoryCheck,
  type FileCheck,
  type SignInGuess,
  type TerminalCheck,
} from './doctor-checks.js';

/** Options of `acp doctor`. */
export interface DoctorOptions {
  probe?: boolean;
  format?: OutputFormat;
}

/** What a probe found: `initialize` and `session/new` really tried. */
export interface ProbeResult {
  readonly result: 'signed in' | 'authentication required' | 'failed';
  readonly detail?: string;
  readonly ms: number;
  /** The ACP version negotiated with the agent (when it answered `initialize`). */
  readonly protocolVersion?: 1 | 2;
}

/** One catalog agent in the report. */
export interface AgentReport {
  readonly id: string;
  readonly name: string;
  readonly source: string;
  readonly default: boolean;
  readonly installed: boolean;
  readonly path?: string;
  /** When not installed because the file found is not executable: its path. */
  readonly notExecutable?: string;
  readonly version?: string;
  readonly install?: string;
  /** A heuristic: known credential variables and files (see `checked`). */
  readonly signIn: SignInGuess;
  readonly probe?: ProbeResult;
}

/** The whole report (`--format json` prints it as is). */
export interface DoctorReport {
  readonly acp: { readonly version: string; readonly script: string | undefined; readonly execPath: string };
  readonly node: { readonly version: string; readonly required: string; readonly ok: boolean };
  readonly platform: string;
  readonly paths: {
    readonly configDir: DirectoryCheck;
    readonly dataDir: DirectoryCheck;
    readonly sessionsDir: string;
    readonly agentDataDir: DirectoryCheck;
    readonly files: Readonly<Record<'agents' | 'rules' | 'tuiSettings' | 'agentConfig', FileCheck>>;
  };
  readonly environment: {
    readonly set: readonly string[];
    readonly deprecated: readonly string[];
    /** Credential variables of yours that agents do not see unless passed (names only). */
    readonly heldBack: readonly string[];
    /** The global `passEnv` (agents.json and ACP_KIT_PASS_ENV). */
    readonly passEnv: readonly string[];
  };
  readonly agents: readonly AgentReport[];
  readonly terminal: TerminalCheck;
  readonly problems: readonly string[];
}

const PROBE_TIMEOUT_MS = 8000;

/** Runs `acp doctor`; exit code 1 when a check fails. */
export async function doctor(options: DoctorOptions, io: CliIo): Promise<number> {
  const report = await buildReport(io, options.probe === true);
  if (options.format === 'json') io.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  else io.stdout.write(renderReport(report));
  return report.problems.length > 0 ? 1 : 0;
}

async function buildReport(io: CliIo, probe: boolean): Promise<DoctorReport> {
  const env = io.env;
  const paths = resolveClientPaths(env);
  const agentConfigFile = resolveConfigPath(env);
  const configDir = await checkDirectory(paths.configDir);
  const dataDir = await checkDirectory(paths.dataDir);
  const agentDataDir = await checkDirectory(resolveDataDir(env));
  const catalog = await AgentCatalog.load({
    agentsFile: paths.agentsFile,
    self: io.self,
    env,
    tolerant: true,
  });
  const files = {
    // Valid JSON can still hold entries the catalog skips: its problems say what (and name the file).
    agents: await checkJsonFile(paths.agentsFile, () =>
      catalog.problems.length > 0
        ? catalog.problems.map((problem) => problem.replace(`${paths.agentsFile}: `, '')).join('; ')
        : undefined,
    ),
    rules: await checkJsonFile(paths.rulesFile, (document) => {
      try {
        parseRulesDocument(document, paths.rulesFile);
        return undefined;
      } catch (error) {
        return describeError(error);
      }
    }),
    tuiSettings: await checkJsonFile(join(paths.configDir, 'tui.json')),
    agentConfig: await checkJsonFile(agentConfigFile),
  };
  const passEnv = [...catalog.passEnv, ...parsePassEnv(env.ACP_KIT_PASS_ENV)];
  const detected = await catalog.detectAll();
  const agents = await Promise.all(
    detected.map(async (agent): Promise<AgentReport> => {
      const version = agent.detection.path ? await packageVersionOf(agent.detection.path) : undefined;
      const own = agent.id === 'demo' || agent.id === 'acp-kit';
      return {
        id: agent.id,
        name: agent.name,
        source: agent.source,
        default: agent.id === catalog.defaultAgent,
        installed: agent.detection.installed,
        ...(agent.detection.path ? { path: agent.detection.path } : {}),
        ...(agent.detection.notExecutable ? { notExecutable: agent.detection.notExecutable } : {}),
        ...(own ? { version: VERSION } : version ? { version } : {}),
        ...(agent.install ? { install: agent.install } : {}),
        signIn: await guessSignIn(agent, env, agentConfigFile),
      };
    }),
  );
  const probed = probe ? await probeAll(detected, agents, io) : agents;
  const node = { version: process.version, required: '>=20.19', ok: nodeMeetsRequirement(process.version) };
  const report = {
    acp: { version: VERSION, script: io.self.args.at(-1), execPath: io.self.command },
    node,
    platform: `${process.platform} ${process.arch}`,
    paths: { configDir, dataDir, sessionsDir: paths.sessionsDir, agentDataDir, files },
    environment: {
      set: Object.keys(env)
        .filter((name) => name.startsWith('ACP_KIT_') && env[name] !== '')
        .sort(),
      deprecated: deprecatedEnvWarnings(env),
      heldBack: agentEnvironment(env, {}, passEnv).withheld,
      passEnv,
    },
    agents: probed,
    terminal: checkTerminal(env, {
      stdin: io.interactive === true,
      stdout: io.stdout,
      stderr: io.stderr.isTTY === true,
    }),
  };
  return { ...report, problems: problemsOf(report) };
}

function problemsOf(report: Omit<DoctorReport, 'problems'>): string[] {
  const problems: string[] = [];
  if (!report.node.ok)
    problems.push(`Node ${report.node.version} is too old: acp needs ${report.node.required}`);
  for (const [what, dir] of [
    ['config dir', report.paths.configDir],
    ['data dir', report.paths.dataDir],
    ['agent data dir', report.paths.agentDataDir],
  ] as const)
    if (!dir.writable)
      problems.push(`the ${what} ${dir.path} cannot be ${dir.exists ? 'written' : 'created'}`);
  for (const file of Object.values(report.paths.files))
    if (file.problem) problems.push(`${file.path}: ${file.problem}`);
  return problems;
}

/** Probes every installed agent at once, each with its own time limit, in a scratch directory. */
async function probeAll(detected: DetectedAgent[], agents: AgentReport[], io: CliIo): Promise<AgentReport[]> {
  const cwd = await mkdtemp(join(tmpdir(), 'acp-doctor-'));
  const client = await AcpClient.create({
    paths: resolveClientPaths(io.env),
    env: io.env,
    self: io.self,
    mode: 'none',
    record: false,
    trace: false,
    terminalAuth: false,
    timeouts: { initializeMs: PROBE_TIMEOUT_MS, sessionOpenMs: PROBE_TIMEOUT_MS },
  });
  try {
    return await Promise.all(
      agents.map(async (agent, i) =>
        agent.installed ? { ...agent, probe: await probe(client, detected[i] as DetectedAgent, cwd) } : agent,
      ),
    );
  } finally {
    await client.close().catch(() => undefined);
    await rm(cwd, { recursive: true, force: true });
  }
}

async function probe(client: AcpClient, agent: DetectedAgent, cwd: string): Promise<ProbeResult> {
  const started = Date.now();
  const elapsed = (): number => Date.now() - started;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new ClientError('AGENT_START_FAILED', `no answer within ${PROBE_TIMEOUT_MS / 1000} s`)),
      PROBE_TIMEOUT_MS,
    );
  });
  // The version the agent answered, once it did (kept when the session then fails).
  let protocolVersion: 1 | 2 | undefined;
  const attempt = (async () => {
    const connection = await client.connect(agent, { cwd });
    protocolVersion = connection.protocolVersion;
    try {
      const session = await connection.newSession({ cwd });
      await session.close().catch(() => undefined);
    } finally {
      await connection.close(500).catch(() => undefined);
    }
  })();
  try {
    await Promise.race([attempt, timeout]);
    return { result: 'signed in', ms: elapsed(), ...(protocolVersion ? { protocolVersion } : {}) };
  } catch (error) {
    const auth =
      isAuthRequiredError(error) || (error instanceof ClientError && error.code === 'AUTH_REQUIRED');
    const version = protocolVersion ? { protocolVersion } : {};
    return auth
      ? { result: 'authentication required', ms: elapsed(), ...version }
      : { result: 'failed', detail: oneLine(describeError(error), 200), ms: elapsed(), ...version };
  } finally {
    clearTimeout(timer);
    attempt.catch(() => undefined);
  }
}

const yesNo = (value: boolean): string => (value ? 'yes' : 'no');

function directoryState(dir: DirectoryCheck): string {
  if (dir.exists) return dir.writable ? 'exists, writable' : 'exists, NOT writable';
  return dir.writable ? 'not created yet (can be)' : 'missing, CANNOT be created';
}

function fileState(file: FileCheck, missing: string): string {
  if (!file.exists) return `missing (${missing})`;
  return file.problem ? `INVALID: ${oneLine(file.problem, 120)}` : 'ok';
}

function signInText(agent: AgentReport): string {
  const probe = agent.probe
    ? `probe: ${agent.probe.result}${agent.probe.protocolVersion ? ` over ACP v${agent.probe.protocolVersion}` : ''}${agent.probe.detail ? ` (${agent.probe.detail})` : ''}; `
    : '';
  const guess = agent.signIn;
  const text =
    guess.status === 'not-needed'
      ? 'not needed'
      : guess.status === 'likely'
        ? `likely (${guess.found.join(', ')})`
        : guess.status === 'none-found'
          ? 'no credentials found'
          : 'unknown';
  return `${probe}${text}${guess.note ? ` (${guess.note})` : ''}`;
}

/** The report as text: plain, aligned, no colours. */
export function renderReport(report: DoctorReport): string {
  const { paths, terminal } = report;
  const section = (title: string, rows: string[][]): string =>
    `${title}\n${table(rows)
      .trimEnd()
      .split('\n')
      .map((line) => (line ? `  ${line}` : line))
      .join('\n')}`;
  const out = [
    section('acp', [
      ['version', report.acp.version],
      ['script', report.acp.script ?? '-'],
      [
        'node',
        `${report.node.version} at ${report.acp.execPath} (acp needs ${report.node.required}: ${report.node.ok ? 'ok' : 'TOO OLD'})`,
      ],
      ['platform', report.platform],
    ]),
    section('Paths', [
      ['config dir', paths.configDir.path, directoryState(paths.configDir)],
      ['  agents.json', paths.files.agents.path, fileState(paths.files.agents, 'only the built-in agents')],
      ['  rules.json', paths.files.rules.path, fileState(paths.files.rules, 'no saved rules')],
      ['  tui.json', paths.files.tuiSettings.path, fileState(paths.files.tuiSettings, 'default settings')],
      [
        '  agent.json',
        paths.files.agentConfig.path,
        fileState(paths.files.agentConfig, 'the acp-kit agent uses variables only'),
      ],
      ['data dir', paths.dataDir.path, directoryState(paths.dataDir)],
      ['  sessions', paths.sessionsDir, ''],
      ['agent data dir', paths.agentDataDir.path, directoryState(paths.agentDataDir)],
    ]),
    section('Environment (names only)', [
      ['ACP_KIT_*', report.environment.set.join(', ') || 'none set'],
      ...report.environment.deprecated.map((warning) => ['deprecated', warning]),
      [
        'held back from agents',
        report.environment.heldBack.length > 0
          ? `${report.environment.heldBack.join(', ')} (each agent sees only the credentials its entry passes; passEnv in agents.json or ACP_KIT_PASS_ENV passes more)`
          : 'none',
      ],
      ...(report.environment.passEnv.length > 0
        ? [['passed to every agent', report.environment.passEnv.join(', ')]]
        : []),
    ]),
    section(
      "Agents (signed in: a guess from each agent's credential files and variables; --probe asks the agents)",
      [
        ['NAME', 'INSTALLED', 'VERSION', 'SIGNED IN'],
        ...report.agents.map((agent) => [
          agent.id + (agent.default ? ' *' : ''),
          agent.installed
            ? (agent.path ?? 'yes')
            : agent.notExecutable
              ? `no (${agent.notExecutable} is not executable: chmod +x)`
              : agent.install
                ? `no (install: ${agent.install})`
                : 'no',
          agent.version ?? '-',
          agent.installed ? signInText(agent) : '-',
        ]),
      ],
    ),
    section('Terminal', [
      ['tty (stdin/stdout/stderr)', [terminal.stdin, terminal.stdout, terminal.stderr].map(yesNo).join('/')],
      ['TERM', terminal.term ?? '(not set)'],
      ['COLORTERM', terminal.colorterm ?? '(not set)'],
      ['TERM_PROGRAM', terminal.termProgram ?? '(not set)'],
      ['NO_COLOR', terminal.noColor ? 'set: no colours' : '(not set)'],
      ['size', terminal.columns && terminal.rows ? `${terminal.columns}x${terminal.rows}` : '-'],
      ['tmux', yesNo(terminal.tmux)],
      ['UTF-8 locale', `${yesNo(terminal.utf8)}${terminal.locale ? ` (${terminal.locale})` : ''}`],
      ['truecolor', yesNo(terminal.truecolor)],
      ['acp opens', terminal.opens],
    ]),
    `Problems\n${report.problems.length > 0 ? report.problems.map((p) => `  ${oneLine(p, 300)}`).join('\n') : '  none'}`,
  ];
  return `${out.join('\n\n')}\n`;
}
