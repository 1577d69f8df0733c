import { mkdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ClientError } from '../errors.js';
import type { PermissionSubject } from '../permissions/rules.js';
import { tempDir, waitGone } from '../test-support/harness.js';
import { OutputBuffer } from './output-buffer.js';
import { TerminalService, type TerminalCallContext, type TerminalEvent } from './terminal-service.js';

let root: string;
let outside: string;
let cleanup: () => Promise<void>;
let asked: PermissionSubject[];
let events: TerminalEvent[];
let listeners: ((e: TerminalEvent) => void)[];
let service: TerminalService;

beforeEach(async () => {
  const t = await tempDir();
  cleanup = t.cleanup;
  root = join(t.dir, 'project');
  outside = join(t.dir, 'outside');
  await mkdir(root);
  await mkdir(outside);
  asked = [];
  events = [];
  listeners = [];
  service = new TerminalService({
    killGraceMs: 500,
    maxRunningPerSession: 3,
    onEvent: (e) => {
      events.push(e);
      for (const l of listeners) l(e);
    },
  });
});
afterEach(async () => {
  await service.releaseAll();
  await cleanup();
});

function ctx(sessionId = 's1', allow: (s: PermissionSubject) => boolean = () => true): TerminalCallContext {
  return {
    sessionId,
    agentId: 'test',
    cwd: root,
    roots: [root],
    authorize: async (s) => {
      asked.push(s);
      return allow(s);
    },
  };
}

async function run(
  params: {
    command: string;
    args?: string[];
    env?: { name: string; value: string }[];
    cwd?: string;
    outputByteLimit?: number;
  },
  context = ctx(),
) {
  const { terminalId } = await service.create({ sessionId: context.sessionId, ...params }, context);
  const exit = await service.waitForExit({ sessionId: context.sessionId, terminalId });
  return { terminalId, exit, ...service.output({ sessionId: context.sessionId, terminalId }) };
}

async function code(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'ok';
  } catch (error) {
    return (error as ClientError).code;
  }
}

function outputMatching(pattern: RegExp): Promise<RegExpMatchArray> {
  let seen = '';
  return new Promise((resolve) => {
    listeners.push((e) => {
      if (e.type !== 'terminal_output') return;
      seen += e.data;
      const match = seen.match(pattern);
      if (match) resolve(match);
    });
  });
}

describe('TerminalService', () => {
  it('runs argv without a shell: metacharacters stay literal', async () => {
    const r = await run({ command: 'printf', args: ['%s|', 'a; echo pwned', '$(id)', '`id`', '*', '>out'] });
    expect(r.output).toBe('a; echo pwned|$(id)|`id`|*|>out|');
    expect(r.exit).toEqual({ exitCode: 0, signal: null });
    expect(asked[0]?.command).toEqual({
      argv: ['printf', '%s|', 'a; echo pwned', '$(id)', '`id`', '*', '>out'],
    });
  });

  it('runs a bare command line through sh -c, and shows it whole for approval', async () => {
    const r = await run({ command: 'echo one && echo two' });
    expect(r.output).toBe('one\ntwo\n');
    expect(asked[0]).toMatchObject({
      command: { line: 'echo one && echo two' },
      commandText: 'echo one && echo two',
      source: 'terminal',
      kind: 'execute',
    });
    const pwd = await run({ command: 'pwd' });
    expect(pwd.output.trim()).toBe(root);
  });

  it('refuses what the policy refuses', async () => {
    expect(
      await code(
        service.create(
          { sessionId: 's1', command: 'true' },
          ctx('s1', () => false),
        ),
      ),
    ).toBe('PERMISSION_DENIED');
  });

  it('passes env; every variable off the allow list needs approval, shown with its value and the cwd', async () => {
    const r = await run({
      command: 'sh',
      args: ['-c', 'printf %s "$GREETING $NO_COLOR"'],
      env: [
        { name: 'GREETING', value: 'hi there' },
        { name: 'NO_COLOR', value: '1' },
      ],
      cwd: root,
    });
    expect(r.output).toBe('hi there 1');
    expect(asked[0]).toMatchObject({
      env: [
        { name: 'GREETING', value: 'hi there' },
        { name: 'NO_COLOR', value: '1' },
      ],
      sensitiveEnv: ['GREETING'],
      commandCwd: root,
    });
    // Duplicates: the last value wins; a value the command inherits anyway changes nothing.
    await run({
      command: 'true',
      env: [
        { name: 'GREETING', value: 'a' },
        { name: 'GREETING', value: 'b' },
        { name: 'PATH', value: process.env.PATH ?? '' },
      ],
    });
    expect(asked.at(-1)).toMatchObject({
      env: [{ name: 'GREETING', value: 'b' }],
      sensitiveEnv: ['GREETING'],
    });
    expect(asked.at(-1)?.commandCwd).toBeUndefined();
    const denied = ctx('s1', (s) => (s.sensitiveEnv?.length ?? 0) === 0);
    expect(
      await code(
        service.create(
          { sessionId: 's1', command: 'true', env: [{ name: 'LD_PRELOAD', value: '/tmp/x.so' }] },
          denied,
        ),
      ),
    ).toBe('PERMISSION_DENIED');
    expect(asked.at(-1)?.sensitiveEnv).toEqual(['LD_PRELOAD']);
    expect(
      await code(
        service.create({ sessionId: 's1', command: 'true', env: [{ name: 'A=B', value: 'x' }] }, ctx()),
      ),
    ).toBe('INVALID_ARGUMENT');
  });

  it('keeps cwd inside the roots', async () => {
    expect(await code(service.create({ sessionId: 's1', command: 'true', cwd: outside }, ctx()))).toBe(
      'PATH_OUTSIDE_ROOTS',
    );
    expect(await code(service.create({ sessionId: 's1', command: 'true', cwd: 'relative' }, ctx()))).toBe(
      'PATH_INVALID',
    );
    await symlink(outside, join(root, 'escape'));
    expect(
      await code(service.create({ sessionId: 's1', command: 'true', cwd: join(root, 'escape') }, ctx())),
    ).toBe('PATH_OUTSIDE_ROOTS');
    await mkdir(join(root, 'sub'));
    expect((await run({ command: 'pwd', cwd: join(root, 'sub') })).output.trim()).toBe(join(root, 'sub'));
  });

  it('truncates output from the start at a character boundary, under the host ceiling', async () => {
    const r = await run({ command: 'printf', args: ['%s', 'aé€😀end'], outputByteLimit: 9 });
    expect(r.truncated).toBe(true);
    expect(Buffer.byteLength(r.output)).toBeLessThanOrEqual(9);
    expect(r.output).toBe('😀end');
    const capped = new TerminalService({ outputCeilingBytes: 64 });
    const { terminalId } = await capped.create(
      { sessionId: 's', command: 'head', args: ['-c', '100000', '/dev/zero'], outputByteLimit: 1e9 },
      ctx('s'),
    );
    await capped.waitForExit({ sessionId: 's', terminalId });
    const out = capped.output({ sessionId: 's', terminalId });
    expect(out.truncated).toBe(true);
    expect(Buffer.byteLength(out.output)).toBe(64);
    await capped.releaseAll();
  });

  it('retains nothing with outputByteLimit 0, and says the output was truncated', async () => {
    const r = await run({ command: 'printf', args: ['%s', 'hello'], outputByteLimit: 0 });
    expect(r.exit).toMatchObject({ exitCode: 0 });
    expect(r).toMatchObject({ output: '', truncated: true });
    const silent = await run({ command: 'true', outputByteLimit: 0 });
    expect(silent).toMatchObject({ output: '', truncated: false });
  });

  it('kills the whole process group, background children included', async () => {
    const pidLine = outputMatching(/pid (\d+)\n/);
    const { terminalId } = await service.create(
      { sessionId: 's1', command: 'sh', args: ['-c', 'sleep 1000 & echo "pid $!"; wait'] },
      ctx(),
    );
    const grandchild = Number((await pidLine)[1]);
    await service.kill({ sessionId: 's1', terminalId });
    const exit = await service.waitForExit({ sessionId: 's1', terminalId });
    expect(exit.signal).toBe('SIGTERM');
    expect(await waitGone(grandchild)).toBe(true);
    expect(service.output({ sessionId: 's1', terminalId }).exitStatus).toEqual({
      exitCode: null,
      signal: 'SIGTERM',
    });
  });

  it('releaseAll(0) hurries a release that waits for a command ignoring SIGTERM', async () => {
    const patient = new TerminalService({
      killGraceMs: 60_000,
      onEvent: (e) => listeners.forEach((l) => l(e)),
    });
    const ready = outputMatching(/ready\n/);
    const { terminalId } = await patient.create(
      { sessionId: 's1', command: 'sh', args: ['-c', 'trap "" TERM; echo ready; while :; do sleep 1; done'] },
      ctx(),
    );
    await ready;
    const releasing = patient.release({ sessionId: 's1', terminalId });
    await patient.releaseAll(0);
    await releasing;
    expect(patient.openCount).toBe(0);
  });

  it('kills what a finished command left behind when released', async () => {
    const r = await run({ command: 'sh', args: ['-c', 'sleep 1000 >/dev/null 2>&1 & echo $!'] });
    const orphan = Number(r.output.trim());
    await service.release({ sessionId: 's1', terminalId: r.terminalId });
    expect(await waitGone(orphan)).toBe(true);
    expect(
      await code(Promise.resolve().then(() => service.output({ sessionId: 's1', terminalId: r.terminalId }))),
    ).toBe('TERMINAL_NOT_FOUND');
  });

  it('limits terminals per session and releases a session’s terminals together', async () => {
    const started: { terminalId: string }[] = [];
    for (let i = 0; i < 3; i++)
      started.push(await service.create({ sessionId: 's1', command: 'sleep', args: ['1000'] }, ctx()));
    expect(await code(service.create({ sessionId: 's1', command: 'sleep', args: ['1000'] }, ctx()))).toBe(
      'TERMINAL_LIMIT',
    );
    const other = await service.create({ sessionId: 's2', command: 'sleep', args: ['1000'] }, ctx('s2'));
    expect(
      await code(
        Promise.resolve().then(() => service.output({ sessionId: 's2', terminalId: started[0]!.terminalId })),
      ),
    ).toBe('TERMINAL_NOT_FOUND');
    await service.releaseSession('s1');
    expect(service.openCount).toBe(1);
    await service.release({ sessionId: 's2', terminalId: other.terminalId });
    expect(events.filter((e) => e.type === 'terminal_released')).toHaveLength(4);
  });

  it('reports a missing program', async () => {
    expect(
      await code(service.create({ sessionId: 's1', command: 'definitely-not-a-program-xyz' }, ctx())),
    ).toBe('INVALID_ARGUMENT');
  });
});

describe('OutputBuffer', () => {
  it('keeps the newest bytes and starts on a character', () => {
    const out = new OutputBuffer(5);
    out.push(Buffer.from('héllo!'));
    expect(out.text()).toBe('llo!');
    expect(out.truncated).toBe(true);
    const whole = new OutputBuffer(100);
    whole.push(Buffer.from('€').subarray(0, 2));
    expect(whole.text(false)).toBe('');
    whole.push(Buffer.from('€').subarray(2));
    expect(whole.text(false)).toBe('€');
    expect(whole.truncated).toBe(false);
  });
});
