import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { removeDir, tempDir } from '../test-support/harness.js';
import { toolHarness, type ToolHarness } from '../test-support/tool-harness.js';

let work: string;
let data: string;
let h: ToolHarness;

beforeEach(async () => {
  work = await tempDir('ws');
  data = await tempDir('data');
});

afterEach(async () => {
  await h.close();
  await removeDir(work);
  await removeDir(data);
});

/** Whether `pid` runs (a zombie nobody reaped yet counts as gone). */
async function alive(pid: number): Promise<boolean> {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  return !/^\d+ \(.*\) Z/.test(stat);
}

/** Resolves with the pid a command wrote to `pid.txt` once the file is complete. */
async function pidOf(client: ToolHarness['client'], sessionId: string): Promise<number> {
  await client.waitForUpdate(sessionId, (u) => (u as { status?: string }).status === 'in_progress');
  for (;;) {
    const text = await readFile(join(work, 'pid.txt'), 'utf8').catch(() => '');
    if (text.endsWith('\n')) return Number(text.trim());
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe('run_command locally (client without terminals)', () => {
  beforeEach(async () => {
    h = await toolHarness({ cwd: work, dataDir: data });
  });

  it('asks permission keyed by program, runs, and reports exit code and output', async () => {
    const result = await h.runner.run(
      'run_command',
      { command: 'echo out; echo err >&2; exit 3' },
      new AbortController().signal,
    );
    expect(result.status).toBe('failed');
    expect(result.output).toMatch(/^Exit code 3\./);
    expect(result.output).toContain('out');
    const request = h.client.permissionRequests[0];
    expect(request?.toolCall).toMatchObject({
      kind: 'execute',
      title: 'Run `echo out; echo err >&2; exit 3`',
    });
    expect(request?.options.find((o) => o.kind === 'allow_always')?.name).toBe(
      'Always allow `echo` commands in this session',
    );
    const call = h.client.toolCalls(h.sessionId)[0] as {
      rawOutput: Record<string, unknown>;
      content: { content: { text: string } }[];
    };
    expect(call.rawOutput).toMatchObject({ exitCode: 3, timedOut: false, cwd: work });
    expect(call.content[0]?.content.text).toMatch(/out\n(err\n)?/);
  });

  it('streams output into the tool call while the command runs', async () => {
    const controller = new AbortController();
    const running = h.runner.run('run_command', { command: 'echo first; sleep 30' }, controller.signal);
    const streamed = await h.client.waitForUpdate(
      h.sessionId,
      (u) => u.sessionUpdate === 'tool_call_update' && JSON.stringify(u).includes('first'),
    );
    expect(streamed).toMatchObject({ content: [{ type: 'content' }] });
    controller.abort();
    expect((await running).status).toBe('cancelled');
  });

  it('cancelling kills the whole process group promptly and ends the call as failed', async () => {
    const controller = new AbortController();
    const running = h.runner.run(
      'run_command',
      { command: 'sh -c "echo $$ > pid.txt; exec sleep 30"' },
      controller.signal,
    );
    const pid = await pidOf(h.client, h.sessionId);
    expect(await alive(pid)).toBe(true);
    const started = Date.now();
    controller.abort();
    const result = await running;
    expect(result.status).toBe('cancelled');
    expect(Date.now() - started).toBeLessThan(1500);
    expect(await alive(pid)).toBe(false);
    expect(h.client.toolCalls(h.sessionId)[0]).toMatchObject({
      status: 'failed',
      rawOutput: { cancelled: true },
    });
  });

  it('stops a command at its timeout', async () => {
    const result = await h.runner.run(
      'run_command',
      { command: 'sleep 20', timeoutSeconds: 1 },
      new AbortController().signal,
    );
    expect(result).toMatchObject({ status: 'failed', output: expect.stringMatching(/^Timed out/) });
  });
});

describe('run_command with _meta.terminal_output', () => {
  beforeEach(async () => {
    h = await toolHarness({ cwd: work, dataDir: data, capabilities: { _meta: { terminal_output: true } } });
  });

  it('streams through the terminal_output meta channel', async () => {
    await h.runner.run('run_command', { command: 'echo hello' }, new AbortController().signal);
    const updates = h.client.updates(h.sessionId) as {
      _meta?: Record<string, { terminal_id: string; data?: string }>;
    }[];
    const info = updates.find((u) => u._meta?.terminal_info)?._meta?.terminal_info;
    expect(info?.terminal_id).toMatch(/^local-/);
    const data = updates
      .flatMap((u) => (u._meta?.terminal_output ? [u._meta.terminal_output.data] : []))
      .join('');
    expect(data).toBe('hello\n');
    expect(updates.at(-1)?._meta?.terminal_exit).toMatchObject({
      terminal_id: info?.terminal_id,
      exit_code: 0,
    });
    expect(h.client.toolCalls(h.sessionId)[0]).toMatchObject({
      content: [{ type: 'terminal', terminalId: info?.terminal_id }],
    });
  });
});

describe('run_command in a client terminal', () => {
  beforeEach(async () => {
    h = await toolHarness({ cwd: work, dataDir: data, capabilities: { terminal: true } });
  });

  it('embeds the terminal, honours the byte limit and always releases it', async () => {
    const result = await h.runner.run(
      'run_command',
      { command: 'echo from-terminal' },
      new AbortController().signal,
    );
    expect(result).toMatchObject({ status: 'completed', output: 'Exit code 0.\nfrom-terminal\n' });
    const [terminalId, terminal] = [...h.client.terminals.all.entries()][0] ?? [];
    expect(terminal?.request).toMatchObject({
      command: '/bin/sh',
      args: ['-c', 'echo from-terminal'],
      cwd: work,
      outputByteLimit: 65536,
    });
    expect(terminal?.released).toBe(true);
    expect(h.client.toolCalls(h.sessionId)[0]).toMatchObject({
      status: 'completed',
      content: [{ type: 'terminal', terminalId }],
    });
  });

  it('kills and releases the terminal on cancel', async () => {
    const controller = new AbortController();
    const running = h.runner.run(
      'run_command',
      { command: 'echo $$ > pid.txt; exec sleep 30' },
      controller.signal,
    );
    const pid = await pidOf(h.client, h.sessionId);
    await h.client.waitForUpdate(h.sessionId, (u) => JSON.stringify(u).includes('"terminal"'));
    controller.abort();
    expect((await running).status).toBe('cancelled');
    const terminal = [...h.client.terminals.all.values()][0];
    expect(terminal).toMatchObject({ killed: true, released: true });
    await terminal?.exit;
    expect(await alive(pid)).toBe(false);
    const call = h.client.toolCalls(h.sessionId)[0] as { status: string; content: { type: string }[] };
    expect(call.status).toBe('failed');
    expect(call.content.map((c) => c.type)).toEqual(['terminal', 'content']);
  });
});
