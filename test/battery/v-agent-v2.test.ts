/**
 * V. The agent's v2 face under the battery: `acp agent --demo` and `acp agent` on a stub model,
 * negotiated in v2 over real pipes. In v2 the agent reads, writes and runs commands itself, so the
 * confinement of F and G must hold in its own tools (paths outside the workspace are asked about;
 * refused, nothing is read, written or run); per-call and per-terminal cancels come in storms and
 * for ids that do not exist (E2/E3 for `tool_call/cancel` and `terminal/cancel`); and a client
 * that dies mid-turn leaves no process behind (C7). The wire fuzz and the 100 MB line into the
 * demo agent in v2 are in a-wire.test.ts.
 */
import { mkdirSync, symlinkSync, writeFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAIStub, type ModelStub } from '../../packages/agent/src/test-support/model-stubs.js';
import { fileWatch } from './support/canary.js';
import { holds, zero } from './support/figures.js';
import {
  Collected,
  CRASH,
  exitOf,
  makeHome,
  orphansOf,
  orphanToken,
  spawnAcp,
  spawnDemoAgent,
  type BatteryHome,
} from './support/procs.js';
import { V2Peer } from './support/v2-peer.js';

const watch = fileWatch('v-agent-v2');
const SECRET = `outside-secret-${orphanToken()}`;

/** A home with a directory beside the workspace holding a secret, and links into it. */
function homeWithOutside(prefix: string): BatteryHome & { outside: string } {
  const home = makeHome(prefix);
  const outside = join(home.root, 'outside');
  mkdirSync(outside);
  writeFileSync(join(outside, 'secret.txt'), `${SECRET}\n`);
  writeFileSync(join(home.work, 'inside.txt'), 'inside\n');
  symlinkSync(join(outside, 'secret.txt'), join(home.work, 'link.txt'));
  symlinkSync(outside, join(home.work, 'linkdir'));
  symlinkSync(join(outside, 'created-through-link.txt'), join(home.work, 'dangling.txt'));
  return Object.assign(home, { outside });
}

/** An agent process with its v2 peer; `close` checks it never crashed. */
async function v2Agent(home: BatteryHome, args?: readonly string[]) {
  const child = args
    ? spawnAcp(['agent', ...args, '--data-dir', home.agentData], { cwd: home.work, env: home.env })
    : spawnDemoAgent(home);
  const stderr = new Collected(child.stderr);
  const peer = new V2Peer(child);
  await peer.initialize();
  return {
    child,
    peer,
    stderr,
    close: async () => {
      child.stdin?.end();
      const exit = await exitOf(child, 30_000).catch(() => undefined);
      child.kill('SIGKILL');
      watch.see('agent stderr (v2)', stderr.text);
      expect(CRASH.test(stderr.text), stderr.text.slice(-2000)).toBe(false);
      return exit;
    },
  };
}

const text = (value: unknown): string => JSON.stringify(value);

describe('V-F the demo agent in v2 reads through its own files: outside the workspace is asked, refused, unread', () => {
  it('absolute, .. chains, symlinks to a file and to a directory, encoded and ~ paths', async () => {
    const home = homeWithOutside('v2-f1');
    const agent = await v2Agent(home);
    try {
      const sessionId = await agent.peer.newSession(home.work);
      const paths = [
        join(home.outside, 'secret.txt'),
        '../outside/secret.txt',
        'inside/../../outside/secret.txt',
        'link.txt',
        'linkdir/secret.txt',
        `${home.work}//..//outside/./secret.txt`,
        '%2e%2e/outside/secret.txt',
        '~/outside/secret.txt',
      ];
      // These resolve to the secret outside: each must be asked about.
      const outsideCount = 6;
      let asked = 0;
      for (const path of paths) {
        const before = agent.peer.questions.length;
        const { from, end } = await agent.peer.turn(sessionId, `read ${path}`);
        await end;
        const turn = agent.peer.since(sessionId, from);
        expect(text(turn), path).not.toContain(SECRET);
        if (agent.peer.questions.length > before) asked++;
      }
      expect(text(agent.peer.questions)).not.toContain(SECRET);
      zero({ case: 'F1', name: 'v2 demo agent: reads outside the workspace that got through refused' }, 0);
      holds(
        { case: 'F1', name: `v2 demo agent: ${outsideCount} outside reads asked about` },
        asked === outsideCount,
      );
      expect(asked).toBe(outsideCount);

      // The control: allowed, the same read does show the file (the check above can fail).
      agent.peer.policy = () => 'allow_once';
      const { from, end } = await agent.peer.turn(sessionId, 'read link.txt');
      await end;
      expect(text(agent.peer.since(sessionId, from))).toContain(SECRET);
    } finally {
      await agent.close();
      home.cleanup();
    }
  }, 180_000);

  it('a command refused in v2 never runs (no marker, no output); an allowed one runs in its own terminal', async () => {
    const home = homeWithOutside('v2-g');
    const agent = await v2Agent(home);
    try {
      const sessionId = await agent.peer.newSession(home.work);
      const marker = join(home.outside, 'marker');
      const refused = await agent.peer.turn(sessionId, `run touch ${marker}; cat ../outside/secret.txt`);
      await refused.end;
      const refusedTurn = agent.peer.since(sessionId, refused.from);
      expect(existsSync(marker)).toBe(false);
      expect(refusedTurn.some((u) => u.sessionUpdate === 'terminal_output_chunk')).toBe(false);
      expect(text(refusedTurn)).not.toContain(SECRET);
      zero({ case: 'G8', name: 'v2 demo agent: refused commands that ran' }, existsSync(marker) ? 1 : 0);

      agent.peer.policy = () => 'allow_once';
      const allowed = await agent.peer.turn(sessionId, `run touch ${marker}`);
      await allowed.end;
      expect(existsSync(marker)).toBe(true);
      expect(
        agent.peer.since(sessionId, allowed.from).some((u) => u.sessionUpdate === 'terminal_update'),
      ).toBe(true);
    } finally {
      await agent.close();
      home.cleanup();
    }
  }, 120_000);
});

describe('V-F the model agent in v2 writes through its own files: outside the workspace is asked, refused, unwritten', () => {
  let openai: ModelStub;
  beforeAll(async () => {
    openai = await startOpenAIStub();
  });
  afterAll(async () => {
    await openai.close();
  });

  it('write_file, edit_file and run_command aimed outside (directly, by .., through links) change nothing', async () => {
    const home = homeWithOutside('v2-f-model');
    const agent = await v2Agent(home, ['--base-url', openai.baseUrl, '--model', 'qwen3:8b']);
    try {
      const sessionId = await agent.peer.newSession(home.work);
      const attempts = [
        { name: 'write_file', input: { path: join(home.outside, 'new.txt'), content: 'x' } },
        { name: 'write_file', input: { path: '../outside/new.txt', content: 'x' } },
        { name: 'write_file', input: { path: 'linkdir/new.txt', content: 'x' } },
        { name: 'write_file', input: { path: 'dangling.txt', content: 'x' } },
        { name: 'write_file', input: { path: 'link.txt', content: 'overwritten' } },
        {
          name: 'edit_file',
          input: { path: 'linkdir/secret.txt', edits: [{ oldText: 'outside', newText: 'edited' }] },
        },
        { name: 'run_command', input: { command: 'touch from-cwd', cwd: home.outside } },
      ];
      openai.enqueue(
        { toolCalls: attempts.map((call, index) => ({ id: `w${index}`, ...call })) },
        { text: ['Nothing changed.'] },
      );
      const { from, end } = await agent.peer.turn(sessionId, 'Write outside, please');
      expect((await end).update).toMatchObject({ stopReason: 'end_turn' });
      const calls = agent.peer
        .since(sessionId, from)
        .filter((u) => u.sessionUpdate === 'tool_call_update' && u.status !== undefined);
      const finals = new Map(calls.map((u) => [u.toolCallId, u.status]));
      expect([...finals.values()].every((status) => status === 'failed')).toBe(true);
      const escapes = [
        existsSync(join(home.outside, 'new.txt')),
        existsSync(join(home.outside, 'created-through-link.txt')),
        existsSync(join(home.outside, 'from-cwd')),
        readFileSync(join(home.outside, 'secret.txt'), 'utf8') !== `${SECRET}\n`,
      ].filter(Boolean).length;
      zero(
        { case: 'F2', name: `v2 model agent: writes outside that got through (${attempts.length} tried)` },
        escapes,
      );
      expect(escapes).toBe(0);
      expect(agent.peer.questions.length).toBe(attempts.length);
    } finally {
      await agent.close();
      home.cleanup();
    }
  }, 180_000);
});

/** A state update's background list (v2 `BackgroundWork`), when it has one. */
const backgroundOf = (update: Record<string, unknown>) =>
  update.background as { type: string; terminalId?: string }[] | undefined;

/** The reply's error code, or `ok`. */
const codeOf = (reply: Record<string, unknown>): number | 'ok' =>
  reply.error ? (reply.error as { code: number }).code : 'ok';

/** A shell loop that runs until killed, with `token` in its argv (to count what is left). */
const forever = (token: string): string => `sh -c 'while :; do sleep 1; done' ${token}`;

/** `n` copies of one request at once: how many were accepted and how many refused with -32602. */
async function storm(peer: V2Peer, method: string, params: Record<string, unknown>, n = 20) {
  const codes = (await Promise.all(Array.from({ length: n }, () => peer.request(method, params)))).map(
    codeOf,
  );
  return {
    accepted: codes.filter((c) => c === 'ok').length,
    refused: codes.filter((c) => c === -32602).length,
  };
}

type Agent = Awaited<ReturnType<typeof v2Agent>>;

/** Runs `body` on a v2 demo agent in a fresh home (commands allowed), then checks and cleans up. */
async function withDemo(prefix: string, body: (agent: Agent, home: BatteryHome) => Promise<void>) {
  const home = makeHome(prefix);
  const agent = await v2Agent(home);
  agent.peer.policy = () => 'allow_once';
  try {
    await body(agent, home);
  } finally {
    await agent.close();
    home.cleanup();
  }
}

describe('V-E cancels in v2: storms, unknown ids, one end per turn', () => {
  it('a storm of session/cancel, tool_call/cancel and terminal/cancel for unknown ids: one cancelled end, every request answered -32602', async () => {
    const home = makeHome('v2-storm');
    const agent = await v2Agent(home);
    try {
      const sessionId = await agent.peer.newSession(home.work);
      const { from, end } = await agent.peer.turn(sessionId, 'slow');
      await agent.peer.next((u) => u.update.sessionUpdate === 'agent_message_chunk', from);
      const replies: Promise<Record<string, unknown>>[] = [];
      for (let i = 0; i < 100; i++) {
        void agent.peer.notify('session/cancel', { sessionId });
        replies.push(agent.peer.request('tool_call/cancel', { sessionId, toolCallId: `nope-${i}` }));
        replies.push(agent.peer.request('terminal/cancel', { sessionId, terminalId: `nope-${i}` }));
        void agent.peer.notify('$/cancel_request', { requestId: `v2-${i}` });
      }
      const codes = (await Promise.all(replies)).map(codeOf);
      expect((await end).update).toMatchObject({ stopReason: 'cancelled' });
      // More cancels after the end change nothing.
      void agent.peer.notify('session/cancel', { sessionId });
      const after = await agent.peer.turn(sessionId, 'list *.none');
      expect((await after.end).update).toMatchObject({ stopReason: 'end_turn' });
      const ends = agent.peer
        .since(sessionId, from)
        .filter((u) => u.sessionUpdate === 'state_update' && u.state === 'idle');
      expect(ends.map((u) => u.stopReason)).toEqual(['cancelled', 'end_turn']);
      expect(new Set(codes)).toEqual(new Set([-32602]));
      zero(
        { case: 'E2', name: 'v2 demo agent: cancel-storm requests not answered -32602' },
        codes.filter((c) => c !== -32602).length,
      );
    } finally {
      await agent.close();
      home.cleanup();
    }
  }, 120_000);

  it("unknown session, unknown and huge ids, another session's call: clear errors, small replies, the connection usable", async () => {
    await withDemo('v2-unknown', async (agent, home) => {
      const sessionId = await agent.peer.newSession(home.work);
      const other = await agent.peer.newSession(home.work);
      const huge = 'x'.repeat(1024 * 1024);
      const cases: [string, Record<string, unknown>, number][] = [
        ['tool_call/cancel', { sessionId: 'no-such-session', toolCallId: 'a' }, -32002],
        ['terminal/cancel', { sessionId: 'no-such-session', terminalId: 'a' }, -32002],
        ['tool_call/cancel', { sessionId, toolCallId: huge }, -32602],
        ['terminal/cancel', { sessionId, terminalId: huge }, -32602],
        ['tool_call/cancel', { sessionId: huge, toolCallId: 'a' }, -32002],
        ['tool_call/cancel', { sessionId }, -32602],
        ['terminal/cancel', { sessionId, terminalId: 7 }, -32602],
      ];
      // A running call of the other session cannot be cancelled through this one.
      const token = orphanToken();
      const running = await agent.peer.turn(other, `run ${forever(token)}`);
      const call = await agent.peer.cancellableCall(other, running.from);
      cases.push(['tool_call/cancel', { sessionId, toolCallId: call.toolCallId }, -32602]);
      for (const [method, params, code] of cases) {
        const reply = await agent.peer.request(method, params);
        expect(codeOf(reply), `${method} ${text(params).slice(0, 80)}`).toBe(code);
        expect(text(reply).length).toBeLessThanOrEqual(2048);
      }
      // The right session cancels it; the turn goes on to its end.
      const cancel = { sessionId: other, toolCallId: call.toolCallId };
      expect(codeOf(await agent.peer.request('tool_call/cancel', cancel))).toBe('ok');
      expect((await running.end).update).toMatchObject({ stopReason: 'end_turn' });
      expect(await orphansOf(token)).toEqual([]);
    });
  }, 120_000);

  it('20 tool_call/cancel for one running call at once: one accepted, the rest -32602, one final status; the turn goes on', async () => {
    await withDemo('v2-call-storm', async (agent, home) => {
      const token = orphanToken();
      const sessionId = await agent.peer.newSession(home.work);
      const { from, end } = await agent.peer.turn(sessionId, `run ${forever(token)}`);
      const { toolCallId } = await agent.peer.cancellableCall(sessionId, from);
      await agent.peer.next(
        (u) => u.update.sessionUpdate === 'terminal_update' && Boolean(u.update.command),
        from,
      );
      expect(await storm(agent.peer, 'tool_call/cancel', { sessionId, toolCallId })).toEqual({
        accepted: 1,
        refused: 19,
      });
      expect((await end).update).toMatchObject({ stopReason: 'end_turn' });
      const finals = agent.peer
        .since(sessionId, from)
        .filter((u) => u.sessionUpdate === 'tool_call_update' && u.toolCallId === toolCallId && u.status)
        .map((u) => u.status);
      expect(finals.filter((s) => s === 'cancelled')).toHaveLength(1);
      expect(finals.at(-1)).toBe('cancelled');
      const orphans = await orphansOf(token);
      zero({ case: 'G6', name: 'v2 demo agent: processes left by a cancelled call' }, orphans.length);
      expect(orphans).toEqual([]);
    });
  }, 120_000);

  // Failed before terminal/cancel refused a terminal already being stopped: all 20 were accepted.
  it('20 terminal/cancel for one background terminal at once: one accepted, its exit reported, the background list emptied', async () => {
    await withDemo('v2-terminal-storm', async (agent, home) => {
      const token = orphanToken();
      const sessionId = await agent.peer.newSession(home.work);
      const { from, end } = await agent.peer.turn(sessionId, `background ${forever(token)}`);
      const listed = backgroundOf((await end).update) ?? [];
      expect(listed).toMatchObject([{ type: 'terminal' }]);
      const terminalId = listed[0]?.terminalId as string;
      const mark = agent.peer.updates.length;
      expect(await storm(agent.peer, 'terminal/cancel', { sessionId, terminalId })).toEqual({
        accepted: 1,
        refused: 19,
      });
      await agent.peer.next(
        (u) => u.update.sessionUpdate === 'state_update' && backgroundOf(u.update)?.length === 0,
        mark,
        30_000,
        'a state without the background terminal',
      );
      const exits = agent.peer
        .since(sessionId, from)
        .filter((u) => u.sessionUpdate === 'terminal_update' && u.terminalId === terminalId && u.exitStatus);
      expect(exits).toHaveLength(1);
      expect(await orphansOf(token)).toEqual([]);
    });
  }, 120_000);
});

describe('V-E1 cancels in v2 while a permission question is pending', () => {
  it('tool_call/cancel of the call asked about withdraws the question, the call ends cancelled, the turn goes on', async () => {
    await withDemo('v2-e1-call', async (agent, home) => {
      agent.peer.policy = () => 'hold';
      const sessionId = await agent.peer.newSession(home.work);
      const { from, end } = await agent.peer.turn(sessionId, 'run true');
      const question = await agent.peer.heldQuestion(0);
      const { toolCallId } = await agent.peer.cancellableCall(sessionId, from);
      expect(codeOf(await agent.peer.request('tool_call/cancel', { sessionId, toolCallId }))).toBe('ok');
      expect((await end).update).toMatchObject({ stopReason: 'end_turn' });
      expect(agent.peer.withdrawn).toContain(question.id);
      const statuses = agent.peer
        .since(sessionId, from)
        .filter((u) => u.sessionUpdate === 'tool_call_update' && u.status)
        .map((u) => u.status);
      expect(statuses.at(-1)).toBe('cancelled');
      expect(agent.peer.since(sessionId, from).some((u) => u.sessionUpdate === 'terminal_update')).toBe(
        false,
      );
    });
  }, 120_000);

  it('session/cancel withdraws the question; the turn ends cancelled once; a late answer is dropped', async () => {
    await withDemo('v2-e1-session', async (agent, home) => {
      agent.peer.policy = () => 'hold';
      const sessionId = await agent.peer.newSession(home.work);
      const { from, end } = await agent.peer.turn(sessionId, 'run true');
      const question = await agent.peer.heldQuestion(0);
      await agent.peer.notify('session/cancel', { sessionId });
      expect((await end).update).toMatchObject({ stopReason: 'cancelled' });
      expect(agent.peer.withdrawn).toContain(question.id);
      // The answer comes after all: nothing runs, the session goes on.
      const late = { outcome: { outcome: 'selected', optionId: 'allow_once' } };
      await agent.peer.line.write(JSON.stringify({ jsonrpc: '2.0', id: question.id, result: late }) + '\n');
      agent.peer.policy = () => 'reject_once';
      const next = await agent.peer.turn(sessionId, 'list *.none');
      expect((await next.end).update).toMatchObject({ stopReason: 'end_turn' });
      const turn = agent.peer.since(sessionId, from);
      expect(turn.some((u) => u.sessionUpdate === 'terminal_update')).toBe(false);
      const idles = turn.filter((u) => u.sessionUpdate === 'state_update' && u.state === 'idle');
      expect(idles.map((u) => u.stopReason)).toEqual(['cancelled', 'end_turn']);
    });
  }, 120_000);
});

describe('V-C a v2 client that dies mid-turn', () => {
  it('its pipes close while a command runs in the foreground and one in the background: the agent exits, no process is left', async () => {
    const home = makeHome('v2-crash');
    const agent = await v2Agent(home);
    const token = orphanToken();
    try {
      agent.peer.policy = () => 'allow_once';
      const sessionId = await agent.peer.newSession(home.work);
      const background = await agent.peer.turn(sessionId, `background ${forever(token)}`);
      await background.end;
      const { from } = await agent.peer.turn(sessionId, `run ${forever(token)}`);
      await agent.peer.next(
        (u) => u.update.sessionUpdate === 'terminal_update' && Boolean(u.update.command),
        from,
      );
      // The client is gone: its end of both pipes closes, as when it is killed.
      agent.child.stdin?.destroy();
      agent.child.stdout?.destroy();
      const exit = await exitOf(agent.child, 30_000);
      const orphans = await orphansOf(token);
      zero(
        { case: 'C7', name: 'v2 demo agent: processes left after its client died mid-turn' },
        orphans.length,
      );
      expect(exit.signal).toBeNull();
      expect(orphans).toEqual([]);
    } finally {
      agent.child.kill('SIGKILL');
      watch.see('agent stderr (v2 crash)', agent.stderr.text);
      home.cleanup();
    }
  }, 120_000);
});
