/** `acp doctor`: the bug-report text and JSON, sign-in guesses, probes, and no secrets. */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeCommand, runCli, testHome, type TestHome } from '../test-support/cli-harness.js';
import type { DoctorReport } from './doctor.js';

let home: TestHome;
beforeEach(async () => {
  home = await testHome();
});
afterEach(() => home.cleanup());

const CANARY = 'ACP-CANARY-5e0d3b7a';

describe('acp doctor', () => {
  it('reports versions, paths, agents and the terminal, naming credentials but never their values', async () => {
    home.env.ANTHROPIC_API_KEY = CANARY;
    home.env.ACP_KIT_API_KEY = CANARY;
    home.env.TERM = 'xterm-256color';
    home.env.COLORTERM = 'truecolor';
    home.env.LANG = 'en_US.UTF-8';
    home.env.NO_COLOR = '1';
    const text = await runCli(['doctor'], home);
    expect(text.code, text.stdout).toBe(0);
    expect(text.stdout).toMatch(/^acp\n {2}version +0\.1\.0\n/);
    expect(text.stdout).toContain(`node      ${process.version}`);
    expect(text.stdout).toMatch(
      new RegExp(`config dir +${join(home.dir, 'config')} +not created yet \\(can be\\)`),
    );
    expect(text.stdout).toMatch(/\n {2}demo +\S+ +0\.1\.0 +not needed\n/);
    expect(text.stdout).toMatch(
      /\n {2}ACP_KIT_\* +ACP_KIT_API_KEY, ACP_KIT_CONFIG_DIR, ACP_KIT_DATA_DIR, ACP_KIT_DEMO_DELAY_MS\n/,
    );
    expect(text.stdout).toMatch(/\n {2}NO_COLOR +set: no colours\n/);
    expect(text.stdout).toMatch(/\n {2}UTF-8 locale +yes \(en_US\.UTF-8\)\n/);
    expect(text.stdout).toMatch(/\n {2}acp opens +nothing \(not a terminal; use acp run\)\n/);
    expect(text.stdout).toMatch(/Problems\n {2}none\n$/);
    expect(text.stdout + text.stderr).not.toContain(CANARY);
    expect(text.stdout).not.toMatch(/\x1b/); // eslint-disable-line no-control-regex

    const json = await runCli(['doctor', '--format', 'json'], home);
    const report = JSON.parse(json.stdout) as DoctorReport;
    expect(json.stdout).not.toContain(CANARY);
    expect(report.node.ok).toBe(true);
    expect(report.paths.files.agents).toEqual({
      path: join(home.dir, 'config', 'agents.json'),
      exists: false,
    });
    expect(report.paths.agentDataDir.path).toBe(join(home.dir, 'data', 'agent'));
    const claude = report.agents.find((agent) => agent.id === 'claude');
    expect(claude?.signIn).toMatchObject({ status: 'likely', found: ['ANTHROPIC_API_KEY set'] });
    expect(claude?.signIn.checked).toContain(join(home.dir, '.claude', '.credentials.json'));
    const codex = report.agents.find((agent) => agent.id === 'codex');
    expect(codex?.signIn.status).toBe('none-found');
    expect(report.terminal).toMatchObject({ noColor: true, truecolor: true, utf8: true, tmux: false });
  });

  it('finds credential files, and fails on invalid configuration', async () => {
    await mkdir(join(home.dir, '.codex'));
    await writeFile(join(home.dir, '.codex', 'auth.json'), '{}');
    await mkdir(join(home.dir, 'config'));
    await writeFile(join(home.dir, 'config', 'rules.json'), '{ "rules": [ { "action": "sometimes" } ] }');
    await writeFile(join(home.dir, 'config', 'tui.json'), '{ not json');
    const result = await runCli(['doctor', '--json'], home);
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as DoctorReport;
    expect(report.agents.find((agent) => agent.id === 'codex')?.signIn.found).toEqual([
      join(home.dir, '.codex', 'auth.json'),
    ]);
    expect(report.paths.files.rules.problem).toBeDefined();
    expect(report.paths.files.tuiSettings.problem).toMatch(/^not valid JSON/);
    expect(report.problems).toHaveLength(2);
    const text = await runCli(['doctor'], home);
    expect(text.stdout).toMatch(/tui\.json +\S+ +INVALID: not valid JSON/);
  });

  it('reports an agents.json that is not JSON, or holds what the catalog skips, and goes on', async () => {
    await mkdir(join(home.dir, 'config'));
    const agentsFile = join(home.dir, 'config', 'agents.json');
    await writeFile(agentsFile, '{"agents":{"x":{"command":"foo",}}}');
    const broken = await runCli(['doctor', '--json'], home);
    expect(broken.code).toBe(1);
    const report = JSON.parse(broken.stdout) as DoctorReport;
    expect(report.paths.files.agents.problem).toMatch(/^not valid JSON/);
    expect(report.problems).toEqual([expect.stringMatching(/agents\.json: not valid JSON/)]);
    expect(report.agents.map((agent) => agent.id)).toContain('demo');

    await writeFile(agentsFile, '[]');
    const wrong = await runCli(['doctor'], home);
    expect(wrong.code).toBe(1);
    expect(wrong.stdout).toMatch(/agents\.json +\S+ +INVALID: expected an object/);
    // The path once, not twice.
    expect(wrong.stdout).toContain(`${agentsFile}: expected an object`);
    expect(wrong.stdout).not.toContain(`${agentsFile}: ${agentsFile}`);
  });

  it('says which variables have new names', async () => {
    home.env.ACP_KIT_LOG = 'debug';
    const result = await runCli(['doctor'], home);
    expect(result.stderr).toBe(
      'acp: warning: ACP_KIT_LOG is deprecated: rename it to ACP_KIT_AGENT_LOG_LEVEL (docs/configuration.md)\n',
    );
    expect(result.stdout).toMatch(
      /\n {2}deprecated +ACP_KIT_LOG is deprecated: rename it to ACP_KIT_AGENT_LOG_LEVEL/,
    );
  });

  it('--probe opens a session with each installed agent and names the ACP version negotiated', async () => {
    await runCli(['agents', 'add', 'locked', '--', ...fakeCommand({ requireAuth: true })], home);
    await runCli(['agents', 'add', 'broken', '--', process.execPath, '-e', 'process.exit(3)'], home);
    await runCli(['agents', 'add', 'fine', '--', ...fakeCommand()], home);
    const result = await runCli(['doctor', '--probe', '--json'], home);
    const report = JSON.parse(result.stdout) as DoctorReport;
    const probe = (id: string) => report.agents.find((agent) => agent.id === id)?.probe;
    // The demo agent speaks both versions: v2 is chosen; the fake agent speaks v1 only.
    expect(probe('demo')).toMatchObject({ result: 'signed in', protocolVersion: 2 });
    expect(probe('fine')).toMatchObject({ result: 'signed in', protocolVersion: 1 });
    expect(probe('locked')).toMatchObject({ result: 'authentication required', protocolVersion: 1 });
    expect(probe('broken')).toMatchObject({ result: 'failed' });
    expect(probe('broken')?.protocolVersion).toBeUndefined();
    expect(probe('broken')?.detail).toMatch(/exited with code 3/);
    const text = await runCli(['doctor', '--probe'], home);
    expect(text.stdout).toMatch(
      /\n {2}locked +\S+ +- +probe: authentication required over ACP v1; unknown\n/,
    );
  }, 60_000);
});
