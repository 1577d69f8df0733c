/**
 * acp-kit as a user gets it: every publishable package packed (scripts/pack.ts), `acp-kit`
 * installed globally into a fresh npm prefix and the libraries into a fresh project (their
 * third-party dependencies from the registry), then used from a directory outside the clone.
 *
 * Mocked only at the model boundary: the model agent talks to a local OpenAI-compatible stub, and
 * the demo agent connects to a real MCP server over HTTP on 127.0.0.1.
 * Slow and needs the registry, so it runs when ACP_KIT_INSTALL_TEST=1 (`npm run test:install`,
 * and always in CI: .ci/run).
 */
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpMcpServer } from '../packages/agent/src/test-support/mcp-test-server.ts';
import { startOpenAIStub } from '../packages/cli/src/test-support/openai-stub.ts';
import { TuiHarness } from '../packages/tui/src/e2e/tmux-harness.ts';
import { ROOT } from './bundle.ts';
import { installGlobal } from './install-global.ts';
import { packAll, type PackedPackage } from './pack.ts';

const enabled = process.env.ACP_KIT_INSTALL_TEST === '1';

let dir: string;
let packed: PackedPackage[];
let acp: string;
let app: string;
let env: NodeJS.ProcessEnv;

function npm(args: readonly string[], cwd: string): void {
  const result = spawnSync('npm', [...args, '--no-audit', '--no-fund', '--prefer-offline'], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, npm_config_loglevel: 'error' },
  });
  if (result.status !== 0) throw new Error(`npm ${args.join(' ')} failed:\n${result.stderr}`);
}

/** Runs a command without blocking this process (where the stub servers answer). */
async function runAsync(
  command: string,
  args: readonly string[],
  options: { cwd: string; env: NodeJS.ProcessEnv },
): Promise<{ code: number; stdout: string; stderr: string }> {
  const child = spawn(command, args, options);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const [code] = (await once(child, 'close')) as [number];
  return { code, stdout, stderr };
}

function run(command: string, args: readonly string[], input?: string) {
  return spawnSync(command, args, { cwd: join(dir, 'work'), env, encoding: 'utf8', input, timeout: 60_000 });
}

const tarball = (name: string): string => {
  const found = packed.find((pkg) => pkg.name === name);
  if (!found) throw new Error(`${name} was not packed`);
  return found.tarball;
};

describe.runIf(enabled)('acp-kit installed from its tarballs', () => {
  beforeAll(() => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'acp-kit-install-')));
    for (const sub of ['work', 'prefix', 'app', 'home']) mkdirSync(join(dir, sub));
    // Packs the build in the tree (npm ci and `npm run test:install` build it first): building
    // here would rewrite dist/ under the other test files running meanwhile.
    packed = packAll({ outDir: join(dir, 'tarballs') });
    const prefix = join(dir, 'prefix');
    // What README's `npm run install:global` runs on the packed acp-kit.
    acp = installGlobal(tarball('acp-kit'), {
      prefix,
      npmArgs: ['--prefer-offline'],
      env: { ...process.env, npm_config_loglevel: 'error' },
    });
    app = join(dir, 'app');
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
    const libraries = packed.filter((pkg) => pkg.name !== 'acp-kit').map((pkg) => pkg.tarball);
    npm(['install', ...libraries], app);
    // Nothing of the clone is reachable: own HOME and config/data directories, PATH without the
    // workspace's node_modules/.bin.
    const home = join(dir, 'home');
    env = {
      PATH: `${join(prefix, 'bin')}:${process.env.PATH ?? ''}`
        .split(':')
        .filter((entry) => !entry.startsWith(ROOT))
        .join(':'),
      HOME: home,
      XDG_CONFIG_HOME: join(home, '.config'),
      XDG_DATA_HOME: join(home, '.local/share'),
      XDG_STATE_HOME: join(home, '.local/state'),
      ACP_KIT_DEMO_DELAY_MS: '0',
    };
  }, 600_000);

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('packs every publishable package with README and LICENSE, without tests or build info', () => {
    expect(packed.map((pkg) => pkg.name).sort()).toEqual(
      expect.arrayContaining([
        '@acp-kit/agent',
        '@acp-kit/check',
        '@acp-kit/client',
        '@acp-kit/protocol',
        'acp-kit',
      ]),
    );
    expect(Object.fromEntries(packed.map((pkg) => [pkg.name, pkg.problems]))).toEqual(
      Object.fromEntries(packed.map((pkg) => [pkg.name, []])),
    );
  });

  it('installs acp-kit as one package with no dependencies', () => {
    expect(readdirSync(join(dir, 'prefix/lib/node_modules'))).toEqual(['acp-kit']);
    expect(readdirSync(join(dir, 'prefix/lib/node_modules/acp-kit'))).not.toContain('node_modules');
  });

  it('prints its version', () => {
    const result = run(acp, ['--version']);
    expect(result.stderr).toBe('');
    expect(result.stdout.trim()).toBe(packed.find((pkg) => pkg.name === 'acp-kit')?.version);
  });

  it('runs a headless turn with the demo agent: acp run --agent demo --format json "hello"', () => {
    const result = run(acp, ['run', '--agent', 'demo', '--format', 'json', 'hello']);
    expect(result.status, result.stderr).toBe(0);
    const lines = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; stopReason?: string });
    expect(lines.filter((line) => line.type === 'update').length).toBeGreaterThan(5);
    expect(lines.at(-1)).toMatchObject({ type: 'result', stopReason: 'end_turn' });
  });

  it('checks the demo agent: acp check --agent demo --offline --format json', () => {
    const result = run(acp, ['check', '--agent', 'demo', '--offline', '--format', 'json']);
    expect(result.status, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as { counts: Record<string, number> };
    expect(report.counts).toMatchObject({ fail: 0, warn: 0 });
    expect(report.counts.pass).toBeGreaterThan(15);
  });

  it('runs the model agent, AI SDK bundled, against a local OpenAI-compatible endpoint', async () => {
    const stub = await startOpenAIStub([
      { tool: 'write_file', args: { path: 'model.txt', content: 'written by the model\n' } },
      { text: 'All done.' },
    ]);
    try {
      const result = await runAsync(
        acp,
        ['run', '--agent', 'acp-kit', '--approve', 'all', 'write model.txt'],
        {
          cwd: join(dir, 'work'),
          env: {
            ...env,
            ACP_KIT_BASE_URL: stub.baseUrl,
            ACP_KIT_MODEL: 'stub-model',
            ACP_KIT_API_KEY: 'test-key-not-secret',
          },
        },
      );
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toContain('All done.');
      expect(readFileSync(join(dir, 'work/model.txt'), 'utf8')).toBe('written by the model\n');
      expect(stub.requests).toHaveLength(2);
    } finally {
      await stub.close();
    }
  });

  it('serves `acp agent --demo`, MCP servers included, to a client on the installed @acp-kit/protocol', async () => {
    writeFileSync(
      join(app, 'drive-agent.mjs'),
      `import { ClientSideConnection, PROTOCOL_VERSION } from '@acp-kit/protocol';
import { spawnPeer } from '@acp-kit/protocol/node';

const [acp, cwd, mcpUrl] = process.argv.slice(2);
const peer = spawnPeer(acp, ['agent', '--demo']);
const updates = {};
let text = '';
const conn = new ClientSideConnection(peer.channel, {
  sessionUpdate: ({ update }) => {
    updates[update.sessionUpdate] = (updates[update.sessionUpdate] ?? 0) + 1;
    if (update.sessionUpdate === 'agent_message_chunk' && update.content.type === 'text') text += update.content.text;
  },
  requestPermission: ({ options }) => ({ outcome: { outcome: 'selected', optionId: options[0].optionId } }),
}).start();
const init = await conn.initialize({ protocolVersion: PROTOCOL_VERSION, clientCapabilities: {} });
const mcpServers = [{ type: 'http', name: 'docs', url: mcpUrl, headers: [] }];
const { sessionId } = await conn.newSession({ cwd, mcpServers });
const { stopReason } = await conn.promptSession({ sessionId, prompt: [{ type: 'text', text: 'hello' }] });
await peer.shutdown();
console.log(JSON.stringify({ agent: init.agentInfo?.name, stopReason, updates, text }));
`,
    );
    // The MCP server answers from this process, so the client runs asynchronously.
    const mcp = await startHttpMcpServer(join(dir, 'work'));
    try {
      const result = await runAsync(process.execPath, ['drive-agent.mjs', acp, join(dir, 'work'), mcp.url], {
        cwd: app,
        env,
      });
      expect(result.code, result.stderr).toBe(0);
      const report = JSON.parse(result.stdout) as {
        agent: string;
        stopReason: string;
        updates: Record<string, number>;
        text: string;
      };
      expect(report).toMatchObject({ agent: 'acp-kit-agent', stopReason: 'end_turn' });
      expect(report.updates).toMatchObject({
        agent_message_chunk: expect.any(Number),
        tool_call: expect.any(Number),
        plan: expect.any(Number),
      });
      // The demo names the tools of the MCP servers it connected (the bundled MCP SDK's chunk).
      expect(report.text).toContain('`mcp__docs__echo`');
    } finally {
      await mcp.close();
    }
  });

  it('imports every entry of the installed libraries, with types', () => {
    // Every subpath each installed library exports (read from its published manifest).
    const entries = packed
      .filter((pkg) => pkg.name !== 'acp-kit')
      .flatMap((pkg) => {
        const manifest = JSON.parse(
          readFileSync(join(app, 'node_modules', pkg.name, 'package.json'), 'utf8'),
        ) as { exports: Record<string, unknown> };
        return Object.keys(manifest.exports)
          .filter((key) => key !== './package.json')
          .map((key) => pkg.name + key.slice(1));
      });
    expect(entries).toEqual(
      expect.arrayContaining(['@acp-kit/protocol', '@acp-kit/protocol/node', '@acp-kit/client']),
    );
    const imports = entries.map((entry, i) => `import * as e${i} from '${entry}';`).join('\n');
    writeFileSync(
      join(app, 'imports.mjs'),
      `${imports}\nfor (const [entry, ns] of ${JSON.stringify(entries)}.map((e, i) => [e, [${entries.map((_, i) => `e${i}`).join(', ')}][i]]))\n  console.log(entry, Object.keys(ns).length);\n`,
    );
    writeFileSync(
      join(app, 'imports.ts'),
      `${imports}\nexport const all = [${entries.map((_, i) => `e${i}`).join(', ')}];\n`,
    );
    const result = spawnSync(process.execPath, ['imports.mjs'], { cwd: app, env, encoding: 'utf8' });
    expect(result.status, result.stderr).toBe(0);
    const counts = Object.fromEntries(
      result.stdout
        .trim()
        .split('\n')
        .map((line) => line.split(' ')),
    );
    for (const entry of entries) expect(Number(counts[entry]), entry).toBeGreaterThan(0);
    // The published declarations resolve through `exports` under the strictest module setting.
    writeFileSync(
      join(app, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          module: 'nodenext',
          moduleResolution: 'nodenext',
          target: 'es2023',
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          types: ['node'],
          typeRoots: [join(ROOT, 'node_modules/@types')],
        },
        files: ['imports.ts'],
      }),
    );
    const tsc = spawnSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', app], {
      cwd: app,
      encoding: 'utf8',
    });
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.status).toBe(0);
  });

  it('opens the terminal UI on the demo agent and answers a prompt (tmux)', async () => {
    const h = TuiHarness.launch({
      program: [acp],
      args: ['--agent', 'demo'],
      env: env as Record<string, string>,
    });
    try {
      writeFileSync(join(h.dirs.workspace, 'README.md'), '# Installed\n\nfrom the tarball\n');
      await h.waitFor('Connected to demo: new session');
      await h.submit('read README.md');
      const answer = await h.waitFor(/✓ ≡ Read README\.md/, { history: true });
      expect(answer).toContain('Demo agent (no model): running read_file as you asked.');
      await h.waitFor('Message · / for commands');
      h.press('C-q');
      expect(await h.exitStatus()).toBe(0);
    } finally {
      h.close();
    }
  }, 120_000);
});
