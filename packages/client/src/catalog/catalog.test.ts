import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ClientError } from '../errors.js';
import { tempDir } from '../test-support/harness.js';
import { AgentCatalog } from './catalog.js';
import { convertRegistry, readRegistry } from './registry.js';
import { lookupCommand, which } from './which.js';

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
});
afterEach(() => cleanup());

describe('AgentCatalog', () => {
  it('reads remote entries (a url, a token variable, a transport), keeps them on save, and refuses bad ones', async () => {
    const agentsFile = join(dir, 'agents.json');
    await writeFile(
      agentsFile,
      JSON.stringify({
        agents: {
          devbox: {
            url: 'https://devbox.example/acp',
            tokenEnv: 'DEVBOX_TOKEN',
            transport: 'http',
            name: 'Dev box',
          },
          broken: { url: 'ftp://nope/acp' },
          odd: { url: 'http://x/acp', transport: 'pigeon' },
        },
      }),
    );
    const catalog = await AgentCatalog.load({ agentsFile });
    expect(catalog.get('devbox')).toEqual({
      id: 'devbox',
      name: 'Dev box',
      source: 'user',
      command: 'https://devbox.example/acp',
      args: [],
      url: 'https://devbox.example/acp',
      tokenEnv: 'DEVBOX_TOKEN',
      transport: 'http',
    });
    expect(catalog.problems).toEqual([
      `${agentsFile}: agent "broken": "url" must be an http:// or https:// URL`,
      `${agentsFile}: agent "odd": "transport" must be auto, websocket or http`,
    ]);
    expect(await catalog.detect(catalog.require('devbox'))).toEqual({ installed: true });
    await catalog.setDefault('devbox');
    const saved = JSON.parse(await readFile(agentsFile, 'utf8')) as { agents: Record<string, unknown> };
    expect(saved.agents.devbox).toEqual({
      name: 'Dev box',
      url: 'https://devbox.example/acp',
      tokenEnv: 'DEVBOX_TOKEN',
      transport: 'http',
    });
  });

  it('reads an entry\'s "protocol" (the ACP version to speak), keeps it on save, and refuses others', async () => {
    const agentsFile = join(dir, 'agents.json');
    await writeFile(
      agentsFile,
      JSON.stringify({
        agents: {
          old: { command: 'old-agent', protocol: 1 },
          remote: { url: 'https://devbox.example/acp', protocol: 2 },
          bad: { command: 'x', protocol: '2' },
        },
      }),
    );
    const catalog = await AgentCatalog.load({ agentsFile });
    expect(catalog.get('old')?.protocol).toBe(1);
    expect(catalog.get('remote')?.protocol).toBe(2);
    expect(catalog.get('bad')).toBeUndefined();
    expect(catalog.problems).toEqual([
      `${agentsFile}: agent "bad": "protocol" must be 1 or 2 (the ACP version to speak)`,
    ]);
    await catalog.setDefault('old');
    const saved = JSON.parse(await readFile(agentsFile, 'utf8')) as { agents: Record<string, unknown> };
    expect(saved.agents.old).toEqual({ name: 'old', command: 'old-agent', args: [], protocol: 1 });
  });

  it('has the built-in agents with their documented commands', async () => {
    const catalog = await AgentCatalog.load({
      agentsFile: join(dir, 'agents.json'),
      self: { command: '/usr/bin/node', args: ['/x/acp.js'] },
    });
    const commands = Object.fromEntries(catalog.list().map((e) => [e.id, [e.command, ...e.args].join(' ')]));
    expect(commands).toMatchObject({
      demo: '/usr/bin/node /x/acp.js agent --demo',
      'acp-kit': '/usr/bin/node /x/acp.js agent',
      claude: 'claude-agent-acp',
      codex: 'codex-acp',
      gemini: 'gemini --acp',
      qwen: 'qwen --acp',
      goose: 'goose acp',
      opencode: 'opencode acp',
      pi: 'pi-acp',
      copilot: 'copilot --acp',
    });
    expect(catalog.get('claude-code')?.id).toBe('claude');
    // What the picker and `acp agents` tell to install: the packages that provide these commands.
    const install = Object.fromEntries(catalog.list().map((e) => [e.id, e.install]));
    expect(install).toMatchObject({
      codex: 'npm install -g @agentclientprotocol/codex-acp',
      copilot: 'npm install -g @github/copilot',
    });
    expect(install.pi).toMatch(
      /^npm install -g pi-acp @earendil-works\/pi-coding-agent \(pi needs Node\.js 22\.19/,
    );
    expect(catalog.get('copilot')?.authHint).toContain('COPILOT_PROVIDER_BASE_URL');
    expect(() => catalog.require('nope')).toThrow(/no agent named "nope"/);
  });

  it('reads, adds, overrides and removes user agents, and reports bad entries', async () => {
    const file = join(dir, 'agents.json');
    await writeFile(
      file,
      JSON.stringify({
        defaultAgent: 'mine',
        agents: { mine: { command: '/opt/mine', args: ['--acp'], env: { A: '1' } }, broken: { args: 'x' } },
      }),
    );
    const catalog = await AgentCatalog.load({ agentsFile: file });
    expect(catalog.defaultAgent).toBe('mine');
    expect(catalog.get('mine')).toMatchObject({
      command: '/opt/mine',
      args: ['--acp'],
      env: { A: '1' },
      source: 'user',
    });
    expect(catalog.problems).toEqual([`${file}: agent "broken": "command" must be a non-empty string`]);
    await catalog.add({ id: 'gemini', name: 'My Gemini', command: 'gemini', args: ['--experimental-acp'] });
    await catalog.remove('mine');
    const reloaded = await AgentCatalog.load({ agentsFile: file });
    expect(reloaded.get('gemini')?.args).toEqual(['--experimental-acp']);
    expect(reloaded.get('mine')).toBeUndefined();
    expect(reloaded.defaultAgent).toBeUndefined();
    expect(await reloaded.remove('claude')).toBe(false);
    await expect(reloaded.add({ id: '../evil', name: 'x', command: 'x', args: [] })).rejects.toThrow(
      /invalid agent name/,
    );
  });

  it('detects installed agents through PATH', async () => {
    const bin = join(dir, 'bin');
    await mkdir(bin);
    await writeFile(join(bin, 'codex-acp'), '#!/bin/sh\n');
    await chmod(join(bin, 'codex-acp'), 0o755);
    await writeFile(join(bin, 'gemini'), 'not executable');
    const catalog = await AgentCatalog.load({ agentsFile: join(dir, 'a.json'), env: { PATH: bin } });
    const detected = Object.fromEntries(
      (await catalog.detectAll()).map((e) => [e.id, e.detection.installed]),
    );
    expect(detected).toMatchObject({ codex: true, gemini: false, claude: false });
    expect(await which('codex-acp', { PATH: `/nonexistent:${bin}` })).toBe(join(bin, 'codex-acp'));
    expect(await which('./bin/codex-acp', {}, dir)).toBe(join(bin, 'codex-acp'));
  });

  it('tells a file that is not executable (with its path) from a missing command', async () => {
    const bin = join(dir, 'bin');
    await mkdir(bin);
    await writeFile(join(bin, 'gemini'), '#!/bin/sh\n');
    await chmod(join(bin, 'gemini'), 0o644);
    expect(await lookupCommand('gemini', { PATH: bin })).toEqual({
      found: false,
      reason: 'not-executable',
      path: join(bin, 'gemini'),
    });
    expect(await lookupCommand('./bin/gemini', {}, dir)).toMatchObject({ reason: 'not-executable' });
    expect(await lookupCommand('no-such-agent', { PATH: bin })).toEqual({
      found: false,
      reason: 'not-found',
    });
    // An executable later on PATH still wins, as in a shell.
    const later = join(dir, 'later');
    await mkdir(later);
    await writeFile(join(later, 'gemini'), '#!/bin/sh\n');
    await chmod(join(later, 'gemini'), 0o755);
    expect(await lookupCommand('gemini', { PATH: `${bin}:${later}` })).toEqual({
      found: true,
      path: join(later, 'gemini'),
    });
    const catalog = await AgentCatalog.load({ agentsFile: join(dir, 'a.json'), env: { PATH: bin } });
    expect(await catalog.detect(catalog.require('gemini'))).toEqual({
      installed: false,
      notExecutable: join(bin, 'gemini'),
    });
  });
});

describe('registry import', () => {
  const registry = {
    version: '1.0.0',
    agents: [
      {
        id: 'gemini',
        name: 'Gemini CLI',
        version: '1',
        description: 'd',
        distribution: { npx: { package: '@google/gemini-cli@0.37.1', args: ['--acp'] } },
      },
      {
        id: 'pyagent',
        name: 'Py',
        version: '1',
        description: 'd',
        distribution: { uvx: { package: 'py-agent', cmd: 'py-acp', args: ['serve'] } },
      },
      {
        id: 'goose',
        name: 'goose',
        version: '1',
        description: 'd',
        distribution: {
          binary: { 'linux-x86_64': { archive: 'https://x/goose.tar.bz2', cmd: './goose', args: ['acp'] } },
        },
      },
      { id: 'Bad Id', name: 'x', distribution: {} },
    ],
  };

  it('maps npx, uvx and binary distributions', () => {
    const result = convertRegistry(registry, { platform: 'linux-x86_64' });
    expect(result.agents.map((a) => [a.id, a.command, ...a.args])).toEqual([
      ['gemini', 'npx', '-y', '@google/gemini-cli@0.37.1', '--acp'],
      ['pyagent', 'uvx', '--from', 'py-agent', 'py-acp', 'serve'],
      ['goose', 'goose', 'acp'],
    ]);
    expect(result.skipped).toEqual([{ id: 'Bad Id', reason: 'invalid id' }]);
    expect(
      convertRegistry(registry, { platform: 'darwin-aarch64', ids: ['goose', 'missing'] }).skipped,
    ).toEqual([
      { id: 'goose', reason: 'no binary for darwin-aarch64' },
      { id: 'missing', reason: 'not in the registry' },
    ]);
  });

  it('imports from a file and from a URL into the user file', async () => {
    const file = join(dir, 'registry.json');
    await writeFile(file, JSON.stringify(registry));
    const catalog = await AgentCatalog.load({ agentsFile: join(dir, 'agents.json') });
    await catalog.importRegistry(file, { ids: ['pyagent'] });
    expect(catalog.get('pyagent')?.source).toBe('registry');
    const server = createServer((req, res) => {
      if (req.url === '/registry.json') res.end(JSON.stringify(registry));
      else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const result = await catalog.importRegistry(`${base}/registry.json`, { ids: ['gemini'] });
      expect(result.agents.map((a) => a.id)).toEqual(['gemini']);
      expect(
        ((await readRegistry(`${base}/missing.json`).catch((e: unknown) => e)) as ClientError).code,
      ).toBe('REGISTRY_FETCH_FAILED');
    } finally {
      server.close();
    }
    const saved = JSON.parse(await readFile(join(dir, 'agents.json'), 'utf8'));
    expect(Object.keys(saved.agents)).toEqual(['pyagent', 'gemini']);
    expect(saved.agents.gemini.source).toBe('registry');
  });
});
