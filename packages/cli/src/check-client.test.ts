/**
 * `acp check --client`: the checker as the agent of a client under test, run by our own client
 * (`acp run`) and by a client built on the official SDK, both against real processes.
 */
import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CheckReport } from '@acp-kit/check';
import { SELF, runCli, testHome, type TestHome } from './test-support/cli-harness.js';

const CLIENT_CHECKS = [
  'client.initialize',
  'client.fs-read',
  'client.fs-read-outside',
  'client.fs-write',
  'client.fs-write-outside',
  'client.terminal',
  'client.permission',
  'client.unknown-variants',
  'client.large-deep',
  'client.unknown-method',
];

let home: TestHome;
beforeEach(async () => {
  home = await testHome();
});
afterEach(async () => {
  await home.cleanup();
});

const statuses = (report: CheckReport): string[] => report.results.map((r) => `${r.name}:${r.status}`);

describe('acp check --client', () => {
  it('checks our own client (acp run): a complete report, every scenario passing', async () => {
    const reportFile = join(home.dir, 'client.json');
    const result = await runCli(
      [
        'run',
        '--approve',
        'all',
        'check me',
        '--',
        SELF.command,
        ...SELF.args,
        'check',
        '--client',
        '--report',
        reportFile,
      ],
      home,
    );
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(await readFile(reportFile, 'utf8')) as CheckReport;
    expect(report.target).toMatch(/^client acp-kit /);
    expect(statuses(report)).toEqual(CLIENT_CHECKS.map((name) => `${name}:pass`));
    // The turn ends with the summary, which the client shows.
    expect(result.stdout).toContain('acp check --client: 10 passed, 0 failed, 0 warned, 0 not applicable.');
  });

  it('reports refusals by the client policy as warnings, not failures', async () => {
    const reportFile = join(home.dir, 'client.json');
    await runCli(
      ['run', 'check me', '--', SELF.command, ...SELF.args, 'check', '--client', '--report', reportFile],
      home,
    );
    const report = JSON.parse(await readFile(reportFile, 'utf8')) as CheckReport;
    expect(report.results.map((r) => r.name)).toEqual(CLIENT_CHECKS);
    const write = report.results.find((r) => r.name === 'client.fs-write');
    expect(write).toMatchObject({ status: 'warn' });
    expect(write?.summary).toMatch(/^refused by the client: /);
    expect(report.counts.fail).toBe(0);
  });

  it('checks a client built on the official SDK: a complete report', async () => {
    const reportFile = join(home.dir, 'sdk-client.json');
    const child = spawn(SELF.command, [...SELF.args, 'check', '--client', '--report', reportFile], {
      cwd: home.work,
      env: home.env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
    const stream = acp.ndJsonStream(
      Writable.toWeb(child.stdin) as WritableStream<Uint8Array>,
      Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>,
    );
    const app = acp
      .client({ name: 'official-sdk-client' })
      .onNotification('session/update', () => undefined)
      .onRequest('fs/read_text_file', async ({ params }) => ({
        content: await readFile(params.path, 'utf8'),
      }))
      .onRequest('fs/write_text_file', async ({ params }) => {
        await writeFile(params.path, params.content);
        return {};
      })
      .onRequest('session/request_permission', ({ params }) => ({
        outcome: { outcome: 'selected', optionId: params.options[0]?.optionId ?? '' },
      }));
    const stop = await app.connectWith(stream, async (agent) => {
      await agent.request('initialize', {
        protocolVersion: acp.PROTOCOL_VERSION,
        clientCapabilities: { fs: { readTextFile: true, writeTextFile: true } },
        clientInfo: { name: 'official-sdk-client', version: '1.0.0' },
      });
      const created = await agent.request('session/new', { cwd: home.work, mcpServers: [] });
      return agent.request('session/prompt', {
        sessionId: created.sessionId,
        prompt: [{ type: 'text', text: 'check me' }],
      });
    });
    expect(stop.stopReason).toBe('end_turn');
    child.stdin.end();
    expect(await exited, stderr).toBe(0);
    const report = JSON.parse(await readFile(reportFile, 'utf8')) as CheckReport;
    expect(report.target).toBe('client official-sdk-client 1.0.0');
    expect(report.results.map((r) => r.name)).toEqual(CLIENT_CHECKS);
    // This client serves any path it is asked for: reported as warnings; no terminal advertised.
    expect(statuses(report)).toEqual(
      CLIENT_CHECKS.map((name) =>
        name === 'client.terminal'
          ? `${name}:n/a`
          : name.endsWith('-outside')
            ? `${name}:warn`
            : `${name}:pass`,
      ),
    );
    expect(stderr).toContain(`report: ${reportFile}`);
  });
});
