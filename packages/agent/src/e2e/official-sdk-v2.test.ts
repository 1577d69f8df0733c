/**
 * The demo agent in ACP v2, driven by the official SDK's experimental v2 client over a real child
 * process: the tour with every v2 update kind the agent sends, permissions, the agent's own files
 * and terminals, sessions listed, closed and resumed with a replay; then cancelling one tool call
 * and one terminal while the turn goes on.
 */
import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk';
import * as acp2 from '@agentclientprotocol/sdk/experimental/v2';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { agentCommand, cleanEnv, removeDir, tempDir } from '../test-support/harness.js';

type Update = acp2.SessionUpdate & { [key: string]: unknown };

let work: string;
let home: string;

beforeEach(async () => {
  work = await tempDir('ws');
  home = await tempDir('home');
  await writeFile(join(work, 'README.md'), '# Official SDK v2\n');
});

afterEach(async () => {
  await removeDir(work);
  await removeDir(home);
});

/** The demo agent as a child process, with an SDK v2 client on its pipes. */
function startDemo() {
  const { command, args } = agentCommand(['--demo']);
  const child = spawn(command, args, { cwd: work, env: cleanEnv(home), stdio: ['pipe', 'pipe', 'inherit'] });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const updates: Update[] = [];
  const waiters: { test: (u: Update) => boolean; resolve: (u: Update) => void }[] = [];
  const permissions: acp2.RequestPermissionRequest[] = [];
  const stream = acp.ndJsonStream(
    Writable.toWeb(child.stdin) as WritableStream<Uint8Array>,
    Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>,
  );
  const connection = acp2
    .client({ name: 'official-sdk-v2-test' })
    .onNotification('session/update', ({ params }) => {
      const update = params.update as Update;
      updates.push(update);
      for (const waiter of waiters.splice(0)) {
        if (waiter.test(update)) waiter.resolve(update);
        else waiters.push(waiter);
      }
    })
    .onRequest('session/request_permission', ({ params }) => {
      permissions.push(params);
      const option = params.options.find((o) => o.kind === 'allow_always');
      return { outcome: { outcome: 'selected', optionId: option?.optionId ?? '' } };
    })
    .connect(stream);
  /** The first update from now on that passes `test` (or one already seen since `from`). */
  const next = (test: (u: Update) => boolean, from = updates.length): Promise<Update> => {
    const seen = updates.slice(from).find(test);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve) => waiters.push({ test, resolve }));
  };
  const idle = (from: number) => next((u) => u.sessionUpdate === 'state_update' && u.state === 'idle', from);
  /** Initializes in v2 and opens a session in the workspace. */
  const open = async (): Promise<string> => {
    await connection.agent.request('initialize', {
      protocolVersion: 2,
      info: { name: 't', version: '1' },
      capabilities: {},
    });
    return (await connection.agent.request('session/new', { cwd: work })).sessionId;
  };
  const stop = async () => {
    connection.close();
    child.stdin.end();
    await exited;
  };
  return { agent: connection.agent, updates, permissions, next, idle, open, stop };
}

const isEmptyList = (value: unknown): boolean => Array.isArray(value) && value.length === 0;

const decode = (chunks: Update[]) =>
  chunks.map((u) => Buffer.from(String(u.data), 'base64').toString('utf8')).join('');

describe('official SDK v2 client', () => {
  it('runs the tour in v2 with every update kind, then lists, closes and resumes with a replay', async () => {
    const demo = startDemo();
    const { agent, updates } = demo;
    try {
      const init = await agent.request('initialize', {
        protocolVersion: 2,
        info: { name: 'official-sdk-v2-test', version: '1.0.0' },
        capabilities: {},
      });
      expect(init.protocolVersion).toBe(2);
      expect(init.capabilities?.session).toBeDefined();
      const created = await agent.request('session/new', { cwd: work });
      const { sessionId } = created;
      expect(created.configOptions?.[0]).toMatchObject({ configId: 'mode', currentValue: 'ask' });

      const from = updates.length;
      const ended = demo.idle(from);
      const prompt = await agent.request('session/prompt', {
        sessionId,
        prompt: [{ type: 'text', text: 'Tour please' }],
      });
      expect(prompt.messageId).toEqual(expect.any(String));
      const end = await ended;
      expect(end).toMatchObject({ state: 'idle', stopReason: 'end_turn' });
      const turn = updates.slice(from);
      const kinds = new Set(turn.map((u) => u.sessionUpdate));
      for (const kind of [
        'user_message',
        'agent_message_chunk',
        'agent_thought_chunk',
        'tool_call_update',
        'terminal_update',
        'terminal_output_chunk',
        'plan_update',
        'state_update',
        'usage_update',
        'session_info_update',
        'notice',
      ]) {
        expect(kinds, kind).toContain(kind);
      }
      // The user's message carries the id the prompt was answered with.
      expect(turn.find((u) => u.sessionUpdate === 'user_message')).toMatchObject({
        messageId: prompt.messageId,
      });
      // Running, waiting for the user's answer while asked, and idle at the end.
      const states = turn.filter((u) => u.sessionUpdate === 'state_update').map((u) => u.state);
      expect(states[0]).toBe('running');
      expect(states).toContain('requires_action');
      expect(states.at(-1)).toBe('idle');

      // Permission questions about tool calls, the edit with its diff as changes and a git patch.
      expect(permissions(demo)).toEqual(['edit', 'execute', 'execute']);
      const diff = turn
        .filter((u) => u.sessionUpdate === 'tool_call_update')
        .flatMap((u) => (u.content as { type: string }[] | undefined) ?? [])
        .find((c) => c.type === 'diff') as unknown as {
        changes: unknown[];
        patch: { format: string; text: string };
      };
      expect(diff.changes).toEqual([{ operation: 'add', path: join(work, 'ACP_DEMO.md') }]);
      expect(diff.patch.format).toBe('git_patch');
      expect(diff.patch.text).toContain(`+++ ${join(work, 'ACP_DEMO.md')}`);
      expect(await readFile(join(work, 'ACP_DEMO.md'), 'utf8')).toContain('# acp-kit demo notes');

      // The command ran in the agent's own terminal: announced, streamed as base64, ended.
      const terminal = turn.find((u) => u.sessionUpdate === 'terminal_update' && u.command) as Update;
      expect(terminal).toMatchObject({ command: 'ls -la', cwd: work, capabilities: { cancel: {} } });
      const output = decode(
        turn.filter(
          (u) => u.sessionUpdate === 'terminal_output_chunk' && u.terminalId === terminal.terminalId,
        ),
      );
      expect(output).toContain('README.md');
      expect(
        turn.find(
          (u) =>
            u.sessionUpdate === 'terminal_update' && u.terminalId === terminal.terminalId && u.exitStatus,
        ),
      ).toMatchObject({ exitStatus: { exitCode: 0 } });
      const calls = turn.filter((u) => u.sessionUpdate === 'tool_call_update');
      // Five steps and the background command's call, which completes once the command started.
      expect(calls.filter((u) => u.status === 'completed')).toHaveLength(6);
      await demo.next((u) => u.sessionUpdate === 'state_update' && isEmptyList(u.background), from);
      // A call advertises that it can be cancelled while it runs, and stops saying so when it ends.
      expect(calls.find((u) => u.status === 'pending')).toMatchObject({ capabilities: { cancel: {} } });
      expect(calls.find((u) => u.status === 'completed')).toMatchObject({ capabilities: null });

      const listed = await agent.request('session/list', { cwd: work });
      expect(listed.sessions.map((s) => s.title)).toEqual(['Tour please']);
      // Closing reports the state once more (background work was listed): seen before the replay.
      const closed = demo.next((u) => u.sessionUpdate === 'state_update', updates.length);
      await agent.request('session/close', { sessionId });
      await closed;

      const replayFrom = updates.length;
      const resumed = await agent.request('session/resume', {
        sessionId,
        cwd: work,
        replayFrom: { type: 'start' },
      });
      expect(resumed.configOptions?.[0]).toMatchObject({ configId: 'mode' });
      // The SDK may hand over the answer before the last notifications ahead of it: wait for the
      // state, which the agent sends after the history and before the answer.
      await demo.idle(replayFrom);
      const replayed = updates.slice(replayFrom);
      expect(replayed[0]).toMatchObject({
        sessionUpdate: 'user_message',
        messageId: prompt.messageId,
        content: [{ type: 'text', text: 'Tour please' }],
      });
      expect(
        replayed.filter((u) => u.sessionUpdate === 'tool_call_update' && u.status === 'completed'),
      ).toHaveLength(6);
      // The current state closes the replay, before the answer.
      expect(replayed.at(-1)).toMatchObject({ sessionUpdate: 'state_update', state: 'idle' });
    } finally {
      await demo.stop();
    }
  });

  it('one session shows every v2 update kind the agent sends: open, the tour and its background command, an option, /compact', async () => {
    const demo = startDemo();
    const { agent, updates } = demo;
    try {
      const sessionId = await demo.open();
      const ended = demo.idle(0);
      await agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'Tour please' }] });
      const end = await ended;
      // The turn ends while the background command goes on: listed in the idle state.
      expect(end).toMatchObject({ stopReason: 'end_turn', background: [{ type: 'terminal' }] });
      const backgroundId = (end.background as { terminalId: string }[])[0]?.terminalId;
      const after = updates.length;
      // It ends by itself: its exit, a note appended to its call, and a state without it.
      await demo.next((u) => u.sessionUpdate === 'state_update' && isEmptyList(u.background), after);
      const late = updates.slice(after);
      expect(late.find((u) => u.sessionUpdate === 'terminal_update' && u.exitStatus)).toMatchObject({
        terminalId: backgroundId,
        exitStatus: { exitCode: 0 },
      });
      expect(
        decode(
          updates.filter((u) => u.sessionUpdate === 'terminal_output_chunk' && u.terminalId === backgroundId),
        ),
      ).toContain('tick 3');
      expect(late.find((u) => u.sessionUpdate === 'tool_call_content_chunk')).toMatchObject({
        content: {
          type: 'content',
          content: { type: 'text', text: expect.stringContaining('background command') },
        },
      });
      // The progress message was replaced at each step and ends complete; the thought was rewritten.
      const progress = updates.filter((u) => u.sessionUpdate === 'agent_message');
      expect(new Set(progress.map((u) => u.messageId)).size).toBe(1);
      expect(progress.at(-1)).toMatchObject({
        content: [{ type: 'text', text: 'Tour progress: all 6 steps done.' }],
      });
      const thought = updates.find((u) => u.sessionUpdate === 'agent_thought_chunk');
      expect(updates.find((u) => u.sessionUpdate === 'agent_thought')).toMatchObject({
        messageId: thought?.messageId,
      });

      const optionSet = demo.next((u) => u.sessionUpdate === 'config_option_update', updates.length);
      await agent.request('session/set_config_option', {
        sessionId,
        configId: 'thoughts',
        type: 'boolean',
        value: false,
      });
      await optionSet;
      const compacted = demo.idle(updates.length);
      await agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: '/compact' }] });
      await compacted;

      const kinds = new Set(updates.map((u) => u.sessionUpdate));
      // All of v2's kinds but the user's message in pieces: the agent inserts it whole.
      const V2_KINDS = [
        'user_message',
        'agent_message',
        'agent_message_chunk',
        'agent_thought',
        'agent_thought_chunk',
        'tool_call_update',
        'tool_call_content_chunk',
        'terminal_update',
        'terminal_output_chunk',
        'plan_update',
        'state_update',
        'available_commands_update',
        'config_option_update',
        'session_info_update',
        'usage_update',
        'notice',
        'compaction_update',
        'compaction_summary_chunk',
      ];
      expect([...kinds].sort()).toEqual([...V2_KINDS].sort());
    } finally {
      await demo.stop();
    }
  });

  it('cancels one tool call, then one terminal, and each turn goes on to its end', async () => {
    const demo = startDemo();
    const { agent, updates } = demo;
    try {
      const sessionId = await demo.open();

      // tool_call/cancel: the call ends cancelled, its process is gone, the turn ends normally.
      let from = updates.length;
      let ended = demo.idle(from);
      await agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'run sleep 30' }] });
      const started = await demo.next(
        (u) => u.sessionUpdate === 'terminal_update' && Boolean(u.command),
        from,
      );
      const running = await demo.next(
        (u) => u.sessionUpdate === 'tool_call_update' && u.status === 'in_progress',
        from,
      );
      await agent.request('tool_call/cancel', { sessionId, toolCallId: String(running.toolCallId) });
      expect(await ended).toMatchObject({ state: 'idle', stopReason: 'end_turn' });
      let turn = updates.slice(from);
      expect(turn.filter((u) => u.sessionUpdate === 'tool_call_update').at(-1)).toMatchObject({
        toolCallId: running.toolCallId,
        status: 'cancelled',
        capabilities: null,
      });
      expect(
        turn.find(
          (u) => u.sessionUpdate === 'terminal_update' && u.terminalId === started.terminalId && u.exitStatus,
        ),
      ).toMatchObject({ exitStatus: { signal: expect.any(String) } });
      // Cancelling it again: it is final now.
      await expect(
        agent.request('tool_call/cancel', { sessionId, toolCallId: String(running.toolCallId) }),
      ).rejects.toMatchObject({ code: -32602 });

      // terminal/cancel: the terminal is killed, the call reports how it ended, the turn goes on.
      from = updates.length;
      ended = demo.idle(from);
      await agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'run sleep 30' }] });
      const terminal = await demo.next(
        (u) => u.sessionUpdate === 'terminal_update' && Boolean(u.command),
        from,
      );
      await agent.request('terminal/cancel', { sessionId, terminalId: String(terminal.terminalId) });
      expect(await ended).toMatchObject({ state: 'idle', stopReason: 'end_turn' });
      turn = updates.slice(from);
      expect(
        turn.find(
          (u) =>
            u.sessionUpdate === 'terminal_update' && u.terminalId === terminal.terminalId && u.exitStatus,
        ),
      ).toMatchObject({ exitStatus: { signal: expect.any(String) }, capabilities: null });
      expect(turn.filter((u) => u.sessionUpdate === 'tool_call_update').at(-1)).toMatchObject({
        status: 'failed',
      });
    } finally {
      await demo.stop();
    }
  });
  it('runs a background terminal that outlives its tool call, listed in every state until it ends', async () => {
    const demo = startDemo();
    const { agent, updates } = demo;
    try {
      const sessionId = await demo.open();
      const from = updates.length;
      await agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'background' }] });
      const terminal = await demo.next(
        (u) => u.sessionUpdate === 'terminal_update' && Boolean(u.command),
        from,
      );
      const { terminalId } = terminal as { terminalId: string };
      const exited = await demo.next(
        (u) => u.sessionUpdate === 'terminal_update' && u.terminalId === terminalId && Boolean(u.exitStatus),
        from,
      );
      const cleared = await demo.next(
        (u) => u.sessionUpdate === 'state_update' && Array.isArray(u.background) && u.background.length === 0,
        updates.indexOf(exited),
      );
      const all = updates.slice(from);
      const call = all.filter((u) => u.sessionUpdate === 'tool_call_update' && u.status === 'completed');
      expect(call).toHaveLength(1);
      expect(call[0]).toMatchObject({ rawOutput: { background: true, terminalId } });
      // The call ended while the command still ran: it outlived its tool call.
      expect(all.indexOf(call[0] as Update)).toBeLessThan(all.indexOf(exited));
      expect(exited).toMatchObject({ exitStatus: { exitCode: 0 } });
      expect(
        decode(all.filter((u) => u.sessionUpdate === 'terminal_output_chunk' && u.terminalId === terminalId)),
      ).toBe('tick 1\ntick 2\ntick 3\ndone\n');
      // Every state while it ran lists it; the turn's end says end_turn; the one after it ended, none.
      const states = all.filter((u) => u.sessionUpdate === 'state_update');
      const whileRunning = states.slice(0, states.indexOf(cleared));
      expect(whileRunning.length).toBeGreaterThan(0);
      for (const state of whileRunning.filter((u) => all.indexOf(u) > all.indexOf(terminal))) {
        expect(state.background).toEqual([{ type: 'terminal', terminalId }]);
      }
      expect(states.some((u) => u.state === 'idle' && u.stopReason === 'end_turn')).toBe(true);
      expect(cleared).toMatchObject({ state: 'idle', background: [] });
    } finally {
      await demo.stop();
    }
  });
});

function permissions(demo: ReturnType<typeof startDemo>): string[] {
  return demo.permissions.map((p) => {
    const subject = p.subject as { type: string; toolCall?: { kind?: string } };
    return subject.toolCall?.kind ?? subject.type;
  });
}
