/**
 * Writes docs/compatibility.md: `acp check` run against real ACP agents, each on a local stub
 * model (no network, no account), and against our own agents. The table is a committed document;
 * CI never runs this (the adapters are not dependencies).
 *
 *   npm run compat                      # every agent found
 *   npm run compat -- claude demo       # some of them
 *
 * The adapters are looked up in `ACP_AGENTS_BIN` (default `/tmp/agents/bin`, as for
 * scripts/record-agent-frames.ts):
 * `npm i -g --prefix /tmp/agents @agentclientprotocol/claude-agent-acp @agentclientprotocol/codex-acp @google/gemini-cli`.
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import { ALL_CHECKS, runChecks, type CheckReport } from '@acp-kit/check';
import { anthropicStub, geminiStub, responsesStub, type Step } from './agent-frames-stubs.js';
import { startOpenAIStub } from '../packages/cli/src/test-support/openai-stub.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = process.env.ACP_AGENTS_BIN ?? '/tmp/agents/bin';
const TSX = createRequire(import.meta.url).resolve('tsx');
const CLI = [
  process.execPath,
  '--conditions=@acp-kit/source',
  `--import=${TSX}`,
  join(ROOT, 'packages/cli/src/cli.ts'),
];

/** One agent to check: how to run it against its stub, and what it is. */
interface Subject {
  id: string;
  name: string;
  version: string;
  command: string;
  args: string[];
  env: Record<string, string>;
  close(): Promise<void>;
}

/** The installed version of an npm package under the adapters' prefix. */
function installedVersion(pkg: string): string {
  const file = join(dirname(BIN), 'lib/node_modules', pkg, 'package.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version : '?';
}

/** The model's turns: a write (the first turn), a write (the cancelled turn), text for the rest. */
function writes(tool: string, input: (n: number) => Record<string, unknown>): Step[] {
  return [
    { tool, id: 'toolu_c1', input: input(1) },
    { text: 'Created acp-check.txt.' },
    { tool, id: 'toolu_c2', input: input(2) },
    { text: 'Done.' },
    { text: 'Done.' },
  ];
}

const SUBJECTS: Record<string, (ws: string, home: string) => Promise<Subject | undefined>> = {
  async demo() {
    const version = (
      JSON.parse(readFileSync(join(ROOT, 'packages/cli/package.json'), 'utf8')) as { version: string }
    ).version;
    const [command, ...args] = CLI as [string, ...string[]];
    return {
      id: 'demo',
      name: 'acp-kit demo agent',
      version,
      command,
      args: [...args, 'agent', '--demo'],
      env: { ACP_KIT_DEMO_DELAY_MS: '0' },
      close: async () => undefined,
    };
  },
  async 'acp-kit'(ws) {
    const stub = await startOpenAIStub([
      { tool: 'write_file', args: { path: join(ws, 'acp-check.txt'), content: 'ok\n' } },
      { text: 'Created it.' },
      { tool: 'write_file', args: { path: join(ws, 'acp-check.txt'), content: 'ok\n' } },
      ...Array.from({ length: 4 }, () => ({ text: 'Done.' })),
    ]);
    const [command, ...args] = CLI as [string, ...string[]];
    const version = (
      JSON.parse(readFileSync(join(ROOT, 'packages/agent/package.json'), 'utf8')) as { version: string }
    ).version;
    return {
      id: 'acp-kit',
      name: 'acp-kit agent (model: OpenAI-compatible stub)',
      version,
      command,
      args: [...args, 'agent'],
      env: { ACP_KIT_BASE_URL: stub.baseUrl, ACP_KIT_MODEL: 'stub-model', ACP_KIT_API_KEY: 'stub-key' },
      close: () => stub.close(),
    };
  },
  async claude(ws, home) {
    if (!existsSync(join(BIN, 'claude-agent-acp'))) return undefined;
    const stub = await anthropicStub(
      writes('Write', (n) => ({ file_path: join(ws, `acp-check-${n}.txt`), content: 'ok\n' })),
    );
    return {
      id: 'claude',
      name: 'Claude (@agentclientprotocol/claude-agent-acp)',
      version: installedVersion('@agentclientprotocol/claude-agent-acp'),
      command: join(BIN, 'claude-agent-acp'),
      args: [],
      env: {
        ANTHROPIC_BASE_URL: stub.url,
        ANTHROPIC_API_KEY: 'sk-ant-stub',
        CLAUDE_CONFIG_DIR: join(home, '.claude'),
        IS_SANDBOX: '1',
        DISABLE_TELEMETRY: '1',
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      },
      close: () => stub.close(),
    };
  },
  async codex(ws, home) {
    if (!existsSync(join(BIN, 'codex-acp'))) return undefined;
    const stub = await responsesStub(
      writes('exec_command', (n) => ({ cmd: `echo ok > acp-check-${n}.txt`, workdir: ws })),
    );
    const codexHome = join(home, '.codex');
    mkdirSync(codexHome, { recursive: true });
    writeFileSync(
      join(codexHome, 'config.toml'),
      [
        'model = "gpt-5.5"',
        'model_provider = "stub"',
        '[model_providers.stub]',
        'name = "stub"',
        `base_url = "${stub.url}/v1"`,
        'env_key = "OPENAI_API_KEY"',
        'wire_api = "responses"',
        '',
      ].join('\n'),
    );
    return {
      id: 'codex',
      name: 'Codex (@agentclientprotocol/codex-acp)',
      version: installedVersion('@agentclientprotocol/codex-acp'),
      command: join(BIN, 'codex-acp'),
      args: [],
      env: { CODEX_HOME: codexHome, OPENAI_API_KEY: 'sk-stub' },
      close: () => stub.close(),
    };
  },
  async gemini(ws) {
    if (!existsSync(join(BIN, 'gemini'))) return undefined;
    const stub = await geminiStub(
      writes('write_file', (n) => ({ file_path: join(ws, `acp-check-${n}.txt`), content: 'ok\n' })),
    );
    return {
      id: 'gemini',
      name: 'Gemini CLI (@google/gemini-cli --acp)',
      version: installedVersion('@google/gemini-cli'),
      command: join(BIN, 'gemini'),
      args: ['--acp', '--model', 'gemini-2.5-flash'],
      env: { GEMINI_API_KEY: 'stub-key', GOOGLE_GEMINI_BASE_URL: stub.url, GEMINI_CLI_NO_RELAUNCH: 'true' },
      close: () => stub.close(),
    };
  },
};

async function check(id: string): Promise<{ subject: Subject; report: CheckReport } | undefined> {
  const base = realpathSync(mkdtempSync(join(tmpdir(), `acp-compat-${id}-`)));
  const ws = join(base, 'ws');
  const home = join(base, 'home');
  mkdirSync(ws);
  mkdirSync(home);
  const subject = await SUBJECTS[id]!(ws, home);
  if (!subject) {
    process.stderr.write(`compat: ${id} is not installed in ${BIN}; skipped\n`);
    rmSync(base, { recursive: true, force: true });
    return undefined;
  }
  try {
    process.stderr.write(`compat: checking ${subject.name} ${subject.version}\n`);
    const report = await runChecks({
      target: {
        kind: 'command',
        command: subject.command,
        args: subject.args,
        cwd: ws,
        env: {
          PATH: process.env.PATH ?? '/usr/bin:/bin',
          HOME: home,
          XDG_CONFIG_HOME: join(home, '.config'),
          XDG_DATA_HOME: join(home, '.local/share'),
          ...subject.env,
        },
      },
      sessionCwd: ws,
      turnTimeoutMs: 60_000,
    });
    return { subject, report };
  } finally {
    await subject.close();
    rmSync(base, { recursive: true, force: true });
  }
}

const CELL = { pass: 'pass', fail: '**FAIL**', warn: 'warn', 'n/a': '—' } as const;

function markdown(runs: { subject: Subject; report: CheckReport }[]): string {
  const header = ['check', ...runs.map((r) => `${r.subject.id} ${r.subject.version}`)];
  const rows = ALL_CHECKS.map((c) => [
    `\`${c.name}\``,
    ...runs.map((r) => CELL[r.report.results.find((x) => x.name === c.name)?.status ?? 'n/a']),
  ]);
  const table = [header, header.map(() => '---'), ...rows].map((row) => `| ${row.join(' | ')} |`).join('\n');
  const findings = runs
    .map(({ subject, report }) => {
      const problems = report.results.filter((r) => r.status === 'fail' || r.status === 'warn');
      const items = problems.map(
        (r) =>
          `- \`${r.name}\` (${r.status}): ${r.summary}${r.evidence ? `\n  \`${r.evidence.replace(/`/g, "'")}\`` : ''}`,
      );
      const counts = `${report.counts.pass} pass, ${report.counts.fail} fail, ${report.counts.warn} warn, ${report.counts['n/a']} n/a`;
      return `### ${subject.name} ${subject.version}\n\n${counts}.\n\n${items.join('\n') || 'Nothing to report.'}\n`;
    })
    .join('\n');
  return `# Compatibility: \`acp check\` against real agents

Produced by \`npm run compat\` (scripts/compat.ts) on ${new Date().toISOString().slice(0, 10)}: each agent runs
against a local stub model on 127.0.0.1 (no network, no account) with scripted answers — a file
write in the first turn, a write in the cancelled turn, text after — so the turn checks exercise
tool calls, permission questions and cancellation. The checker's rules are in [check.md](check.md).
A stub is not the real model: timings say nothing about the real service, and an agent that asks
its model something else than the stub expects may behave differently than here. Cells: pass,
**FAIL**, warn, — (not applicable).

${table}

## Findings

${findings}`;
}

const wanted = process.argv.slice(2);
const ids = wanted.length > 0 ? wanted : Object.keys(SUBJECTS);
const runs: { subject: Subject; report: CheckReport }[] = [];
for (const id of ids) {
  if (!SUBJECTS[id]) throw new Error(`unknown agent ${id}; known: ${Object.keys(SUBJECTS).join(', ')}`);
  const run = await check(id);
  if (run) runs.push(run);
}
// Formatted as the repository's prettier wants it, so that `npm run format:check` stays green.
const formatted = await format(markdown(runs), {
  ...(await resolveConfig(join(ROOT, 'docs/compatibility.md'))),
  parser: 'markdown',
});
writeFileSync(join(ROOT, 'docs/compatibility.md'), formatted);
process.stderr.write(`compat: wrote docs/compatibility.md (${runs.length} agents)\n`);
