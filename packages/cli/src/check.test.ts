/**
 * `acp check` end to end: the checker against our demo agent, our model agent on a stub model,
 * an agent built on the official SDK and the broken fixture, all as real processes.
 */
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CheckReport } from '@acp-kit/check';
import { runCli, testHome, type TestHome } from './test-support/cli-harness.js';
import { startServe } from './test-support/serve-harness.js';
import { wantsColour } from './commands/check.js';
import { startOpenAIStub, type OpenAIStub } from './test-support/openai-stub.js';

const FIXTURE = fileURLToPath(new URL('../../check/src/test-support/fixture-agent.mjs', import.meta.url));
const SDK_AGENT = fileURLToPath(new URL('../../client/src/test-support/sdk-agent.mjs', import.meta.url));

let home: TestHome;
let stub: OpenAIStub | undefined;
beforeEach(async () => {
  home = await testHome();
});
afterEach(async () => {
  await stub?.close();
  stub = undefined;
  await home.cleanup();
});

function statuses(report: CheckReport): Record<string, string> {
  return Object.fromEntries(report.results.map((r) => [r.name, r.status]));
}

function notPassing(report: CheckReport): string[] {
  return report.results.filter((r) => r.status !== 'pass').map((r) => `${r.name}:${r.status}: ${r.summary}`);
}

describe('acp check', () => {
  it('passes every check against the demo agent (acp check --agent demo)', async () => {
    const result = await runCli(['check', '--agent', 'demo', '--format', 'json'], home);
    const report = JSON.parse(result.stdout) as CheckReport;
    expect(notPassing(report)).toEqual([]);
    expect(result.code).toBe(0);
    expect(report.counts.pass).toBe(report.results.length);
  });

  it('passes every check against the model agent on a stub model (acp check --agent acp-kit)', async () => {
    // Turn 1: a write (asked, allowed), then text; the cancelled turn: a write (asked, then
    // cancelled); the v2 turn: text. Spares in case the cancel lands after the model's answer.
    stub = await startOpenAIStub([
      { tool: 'write_file', args: { path: 'acp-check.txt', content: 'ok\n' } },
      { text: 'Created it.' },
      { tool: 'write_file', args: { path: 'acp-check.txt', content: 'ok\n' } },
      { text: 'Hello from v2.' },
      { text: 'Spare.' },
      { text: 'Spare.' },
    ]);
    const env = {
      ...home.env,
      ACP_KIT_BASE_URL: stub.baseUrl,
      ACP_KIT_MODEL: 'stub-model',
      ACP_KIT_API_KEY: 'test-key-not-secret',
    };
    const result = await runCli(['check', '--agent', 'acp-kit', '--format', 'json'], { ...home, env });
    const report = JSON.parse(result.stdout) as CheckReport;
    expect(notPassing(report)).toEqual([]);
    expect(result.code).toBe(0);
  });

  it('completes a report against an agent built on the official SDK', async () => {
    const result = await runCli(['check', '--format', 'json', '--', process.execPath, SDK_AGENT], home);
    const report = JSON.parse(result.stdout) as CheckReport;
    expect(report.results.length).toBeGreaterThan(20);
    expect(statuses(report)).toMatchObject({
      'handshake.v1': 'pass',
      'handshake.v2': 'pass',
      'schema.strict': 'pass',
    });
    // It reads files through fs/* whether or not the client advertised them: reported, with the frame.
    const honoured = report.results.find((r) => r.name === 'capabilities.honoured');
    expect(honoured).toMatchObject({ status: 'fail' });
    expect(honoured?.evidence).toContain('fs/read_text_file');
    expect(result.code).toBe(1);
  });

  it('reports a seeded defect as a table with the rule and the evidence, exit code 1', async () => {
    const result = await runCli(
      ['check', '--offline', '--', process.execPath, FIXTURE, 'unknown-method-wrong-code'],
      {
        ...home,
        env: { ...home.env, NO_COLOR: '1' },
      },
    );
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(
      /^FAIL {2}errors\.unknown-method +an unknown method answered -32603, not -32601$/m,
    );
    expect(result.stdout).toContain('rule: MUST answer a request for an unknown method with -32601');
    expect(result.stdout).toMatch(
      /evidence: agent→ \{"jsonrpc":"2\.0","id":"check-check\/no_such_method","error":/,
    );
    expect(result.stdout).toMatch(/^n\/a {3}turn\.prompt +--offline$/m);
    expect(result.stdout).not.toContain('\u001b[');
  });

  it('checks a remote agent (acp check --url, against acp serve --agent demo)', async () => {
    const served = await startServe(home, ['--agent', 'demo']);
    try {
      const result = await runCli(['check', '--url', served.url, '--offline', '--format', 'json'], home);
      const report = JSON.parse(result.stdout) as CheckReport;
      expect(report.target).toBe(served.url);
      expect(report.results.filter((r) => r.status === 'fail' || r.status === 'warn')).toEqual([]);
      expect(report.counts.pass).toBeGreaterThan(15);
      expect(result.code).toBe(0);
    } finally {
      await served.stop();
    }
  });

  it('colours the table only on a terminal, and never under NO_COLOR', () => {
    expect(wantsColour({ isTTY: true }, {})).toBe(true);
    expect(wantsColour({ isTTY: true }, { NO_COLOR: '1' })).toBe(false);
    expect(wantsColour({ isTTY: true }, { NO_COLOR: '' })).toBe(true);
    expect(wantsColour({ isTTY: false }, {})).toBe(false);
  });

  it('refuses an unknown check name and two agents at once (usage, exit code 2)', async () => {
    const unknown = await runCli(['check', '--agent', 'demo', '--only', 'turn.promt'], home);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no check named "turn.promt"');
    const both = await runCli(['check', '--agent', 'demo', '--', 'my-agent'], home);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('give one of --agent NAME, --url URL or a command after --');
  });
});
