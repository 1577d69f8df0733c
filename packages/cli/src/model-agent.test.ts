import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { jsonLines, runCli, testHome, type TestHome } from './test-support/cli-harness.js';
import { startOpenAIStub, type OpenAIStub } from './test-support/openai-stub.js';

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

function withModel(baseUrl: string): TestHome {
  return {
    ...home,
    env: {
      ...home.env,
      ACP_KIT_BASE_URL: baseUrl,
      ACP_KIT_MODEL: 'stub-model',
      ACP_KIT_API_KEY: 'test-key-not-secret',
    },
  };
}

describe('acp run --agent acp-kit (the model agent, on a stub model)', () => {
  it('runs a turn with a tool call; --approve decides the write', async () => {
    stub = await startOpenAIStub([
      { tool: 'write_file', args: { path: 'out.txt', content: 'written by the model\n' } },
      { text: 'All done.' },
      { tool: 'write_file', args: { path: 'denied.txt', content: 'x' } },
      { text: 'Could not write.' },
    ]);
    const allowed = await runCli(
      ['run', '--agent', 'acp-kit', '--approve', 'all', 'write out.txt'],
      withModel(stub.baseUrl),
    );
    expect(allowed.code).toBe(0);
    expect(allowed.stdout).toContain('All done.');
    expect(await readFile(join(home.work, 'out.txt'), 'utf8')).toBe('written by the model\n');

    const denied = await runCli(
      ['run', '--agent', 'acp-kit', '--format', 'json', 'write denied.txt'],
      withModel(stub.baseUrl),
    );
    expect(denied.code).toBe(0);
    const lines = jsonLines(denied.stdout);
    expect(lines.filter((l) => l.type === 'permission').map((l) => [l.kind, l.decision])).toContainEqual([
      'edit',
      'deny',
    ]);
    expect(await stat(join(home.work, 'denied.txt')).catch(() => undefined)).toBeUndefined();
    expect(lines.at(-1)).toMatchObject({ stopReason: 'end_turn' });
  });

  it('explains what to configure when no model is set (authentication required, 6)', async () => {
    const r = await runCli(['run', '--agent', 'acp-kit', 'hi'], home);
    expect(r.code).toBe(6);
    expect(r.stderr).toContain('ACP_KIT_MODEL');
  });
});
