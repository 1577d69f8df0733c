/**
 * H. Permissions, as our client engine answers the scripted agent's `session/request_permission`
 * and gates its fs and terminal calls: odd option lists (H1), a question that says one thing and a
 * request that does another (H2), "always allow" that must not cover a compound command (H3), and
 * questions for unknown sessions, in their thousands, or left open after the turn (H4).
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentConnection, ClientSession, PermissionAnswer, PermissionAsk } from '@acp-kit/client';
import { describe, expect, it } from 'vitest';
import { fileWatch } from './support/canary.js';
import { figure, holds, zero } from './support/figures.js';
import { Collected, exitOf, makeHome, pollUntil, spawnAcp, within } from './support/procs.js';
import {
  assertUsable,
  batteryClient,
  readStatus,
  relayCall,
  relayCommand,
  relayEntry,
  script,
  statusFile,
  waitForStatus,
  type BatteryClient,
  type RelayAnswer,
} from './support/relay.js';

const watch = fileWatch('h-permissions');

interface Setup {
  battery: BatteryClient;
  agent: AgentConnection;
  session: ClientSession;
  asks: PermissionAsk[];
  status: string;
  ask(options: unknown, extra?: Record<string, unknown>): Promise<RelayAnswer>;
}

async function setup(
  answer: (ask: PermissionAsk) => PermissionAnswer | Promise<PermissionAnswer>,
): Promise<Setup> {
  const asks: PermissionAsk[] = [];
  const battery = await batteryClient({
    watch,
    mode: 'ask',
    host: { askPermission: async (a) => (asks.push(a), answer(a)) },
  });
  const status = statusFile(battery.home);
  const agent = await battery.client.connect(relayEntry({ status }));
  const session = await agent.newSession({ cwd: battery.home.work });
  const sessionId = session.agentSessionId ?? '';
  return {
    battery,
    agent,
    session,
    asks,
    status,
    ask: (options, extra = {}) =>
      relayCall(agent, 'session/request_permission', {
        sessionId,
        toolCall: { toolCallId: 'h', title: 'do a thing', kind: 'edit' },
        options,
        ...extra,
      }),
  };
}

const outcome = (answer: RelayAnswer) =>
  (answer.result as { outcome?: { outcome: string; optionId?: string } } | undefined)?.outcome;

describe('H1 odd option lists', () => {
  const allow = { optionId: 'allow', name: 'Allow', kind: 'allow_once' };
  const reject = { optionId: 'reject', name: 'Reject', kind: 'reject_once' };
  const cases = [
    { name: 'no reject option', options: [allow] },
    {
      name: 'unknown kinds only',
      options: [
        { optionId: 'a', name: 'A', kind: 'maybe_later' },
        { optionId: 'b', name: 'B', kind: 'sudo' },
      ],
    },
    {
      name: 'duplicate optionId (one allow, one reject)',
      options: [
        { ...allow, optionId: 'same' },
        { ...reject, optionId: 'same' },
      ],
    },
    {
      name: '1,000 options',
      options: Array.from({ length: 1000 }, (_, i) => ({
        optionId: `o${i}`,
        name: `Option ${i}`,
        kind: i === 999 ? 'reject_once' : 'allow_once',
      })),
    },
    { name: 'empty options', options: [] },
  ];
  for (const decision of ['deny', 'allow'] as const) {
    it(`host answers ${decision}: the answer is an offered option that means it, or cancelled; lists are bounded`, async () => {
      const s = await setup(() => ({ decision }));
      const problems: string[] = [];
      try {
        for (const c of cases) {
          const before = s.asks.length;
          const answer = await s.ask(c.options);
          const o = outcome(answer);
          const offered = c.options.filter((opt) => opt.optionId === o?.optionId);
          const shown = s.asks[before]?.options?.length ?? 0;
          if (o?.outcome === 'selected') {
            if (offered.length !== 1)
              problems.push(`${c.name}: answered "${o.optionId}", offered ${offered.length} times`);
            else if (decision === 'deny' && !offered[0]?.kind.startsWith('reject'))
              problems.push(`${c.name}: deny answered with ${offered[0]?.kind}`);
          } else if (o?.outcome !== 'cancelled' && answer.error === undefined)
            problems.push(`${c.name}: ${JSON.stringify(answer).slice(0, 100)}`);
          if (c.options.length === 1000 && shown >= 1000 && answer.error === undefined)
            problems.push(`${c.name}: all ${shown} options reached the host`);
        }
        zero({ case: 'H1', name: `odd option lists answered wrongly (host: ${decision})` }, problems.length);
        await assertUsable(s.agent);
        expect(problems).toEqual([]);
      } finally {
        await s.battery.close();
      }
    });
  }
});

describe('H2 the question says one thing, the request does another', () => {
  it('an approved "read README.md" does not cover reading ~/.ssh/id_rsa: the real request is gated again', async () => {
    const s = await setup((ask) => ({ decision: ask.toolCall ? 'allow' : 'deny', scope: 'session' }));
    try {
      const home = s.battery.home.root;
      mkdirSync(join(home, '.ssh'), { recursive: true });
      writeFileSync(join(home, '.ssh/id_rsa'), 'PRIVATE-KEY-MUST-NOT-LEAK');
      writeFileSync(join(s.battery.home.work, 'README.md'), 'readme');
      const approved = await s.ask(
        [
          { optionId: 'y', name: 'Yes', kind: 'allow_always' },
          { optionId: 'n', name: 'No', kind: 'reject_once' },
        ],
        {
          toolCall: {
            toolCallId: 'h2',
            title: 'read README.md',
            kind: 'read',
            locations: [{ path: join(s.battery.home.work, 'README.md') }],
            rawInput: { path: join(home, '.ssh/id_rsa') },
          },
        },
      );
      const read = await relayCall(s.agent, 'fs/read_text_file', {
        sessionId: s.session.agentSessionId,
        path: join(home, '.ssh/id_rsa'),
      });
      const leaked = JSON.stringify(read).includes('PRIVATE-KEY');
      holds(
        { case: 'H2', name: 'display/action mismatch: the outside read is gated on its own' },
        outcome(approved)?.optionId === 'y' && !leaked,
      );
      expect(outcome(approved)?.optionId).toBe('y');
      expect(leaked, `questions asked: ${s.asks.map((a) => `${a.source}:${a.title ?? ''}`).join(', ')}`).toBe(
        false,
      );
    } finally {
      await s.battery.close();
    }
  });
});

describe('H3 "always allow" is scoped to the exact command', () => {
  it('echo ok approved for the session does not cover "echo ok; touch MARKER"', async () => {
    const asked: string[] = [];
    const s = await setup((ask) => {
      asked.push(ask.command ?? '');
      return { decision: asked.length === 1 ? 'allow' : 'deny', scope: 'session' };
    });
    try {
      const marker = join(s.battery.home.work, 'h3-marker');
      const sessionId = s.session.agentSessionId;
      const first = await relayCall(s.agent, 'terminal/create', { sessionId, command: 'echo', args: ['ok'] });
      const second = await relayCall(s.agent, 'terminal/create', {
        sessionId,
        command: `echo ok; touch ${marker}`,
      });
      const terminalId = (second.result as { terminalId?: string } | undefined)?.terminalId;
      if (terminalId) await relayCall(s.agent, 'terminal/wait_for_exit', { sessionId, terminalId });
      const ok = first.result !== undefined && asked.length === 2 && !existsSync(marker);
      holds({ case: 'H3', name: 'a session approval of "echo ok" does not cover a compound command' }, ok);
      expect(first.result).toBeDefined();
      expect(asked).toHaveLength(2);
      expect(existsSync(marker)).toBe(false);
    } finally {
      await s.battery.close();
    }
  });
});

describe('H4 questions for unknown sessions, in their thousands, or left open', () => {
  it('unknown or closed session: an error', async () => {
    const s = await setup(() => ({ decision: 'allow' }));
    try {
      const options = [{ optionId: 'y', name: 'Yes', kind: 'allow_once' }];
      const toolCall = { toolCallId: 'h4', title: 'x' };
      const unknown = await relayCall(s.agent, 'session/request_permission', {
        sessionId: 'no-such-session',
        toolCall,
        options,
      });
      const id = s.session.agentSessionId;
      await s.session.close();
      const closed = await relayCall(s.agent, 'session/request_permission', {
        sessionId: id,
        toolCall,
        options,
      });
      holds(
        { case: 'H4', name: 'questions for unknown and closed sessions get an error' },
        unknown.error !== undefined && closed.error !== undefined,
      );
      expect(unknown.error).toBeDefined();
      expect(closed.error).toBeDefined();
    } finally {
      await s.battery.close();
    }
  });

  it('1,000 concurrent questions: the host sees a bounded number at once, and session/cancel answers them all', async () => {
    let open = 0;
    let maxOpen = 0;
    const s = await setup(
      (ask) =>
        new Promise<PermissionAnswer>((_, reject) => {
          maxOpen = Math.max(maxOpen, ++open);
          ask.signal.addEventListener('abort', () => {
            open--;
            reject(new Error('withdrawn'));
          });
        }),
    );
    try {
      const turn = s.session.prompt(script([{ waitCancel: true }]));
      await waitForStatus(s.status, (r) => r.event === 'waiting-for-cancel');
      const sessionId = s.session.agentSessionId;
      const calls = Array.from({ length: 1000 }, (_, i) => ({
        method: 'session/request_permission',
        params: {
          sessionId,
          toolCall: { toolCallId: `c${i}`, title: `question ${i}` },
          options: [{ optionId: 'y', name: 'Yes', kind: 'allow_once' }],
        },
      }));
      const answers = s.agent.connection.extRequest('_battery/calls', {
        calls,
        concurrency: 1000,
      }) as Promise<{ results: RelayAnswer[] }>;
      await pollUntil(() => s.asks.length > 0, 'the first question reached the host');
      // Let the questions arrive: the count stops growing (bounded) or reaches 1,000.
      let last = -1;
      await pollUntil(
        () => {
          const stable = s.asks.length === last;
          last = s.asks.length;
          return stable || s.asks.length >= 1000;
        },
        'the questions settling',
        10_000,
        200,
      );
      await s.session.cancel();
      const { results } = await within(answers, 15_000, 'every question answered after cancel');
      await within(turn, 10_000, 'the turn ending');
      const unanswered = results.filter(
        (r) => outcome(r)?.outcome !== 'cancelled' && r.error === undefined,
      ).length;
      figure({
        case: 'H4',
        name: 'questions open at the host at once (1,000 sent)',
        value: maxOpen,
        target: '< 1,000 (bounded)',
        pass: maxOpen < 1000,
      });
      zero(
        { case: 'H4', name: 'questions not answered cancelled (or refused) after session/cancel' },
        unanswered,
      );
      expect(unanswered).toBe(0);
      expect(maxOpen).toBeLessThan(1000);
    } finally {
      await s.battery.close();
    }
  }, 60_000);

  it('a question the agent did not await is closed when its turn ends', async () => {
    const s = await setup(
      (ask) =>
        new Promise<PermissionAnswer>((_, reject) =>
          ask.signal.addEventListener('abort', () => reject(new Error('withdrawn'))),
        ),
    );
    try {
      const turn = await s.session.prompt(
        script([
          {
            request: 'session/request_permission',
            params: {
              toolCall: { toolCallId: 'left', title: 'left open' },
              options: [{ optionId: 'y', name: 'Yes', kind: 'allow_once' }],
            },
            await: false,
            label: 'left',
          },
          { sleep: 100 },
        ]),
      );
      const answered = await waitForStatus(
        s.status,
        (r) => r.event === 'answer' && r.label === 'left',
        5_000,
      ).catch(() => undefined);
      const closed =
        s.session.state.pendingPermissions.length === 0 &&
        s.asks.every((a) => a.signal.aborted) &&
        answered !== undefined;
      holds(
        { case: 'H4', name: 'an un-awaited question is closed when its turn ends' },
        turn.stopReason === 'end_turn' && closed,
      );
      expect(s.session.state.pendingPermissions).toEqual([]);
      expect(answered, 'the agent got an answer').toBeDefined();
    } finally {
      await s.battery.close();
    }
  });

  it('acp run --approve all: a session whose turn ended serves no more writes, terminals or questions', async () => {
    const home = makeHome('h4-ended');
    const status = join(home.root, 'status.jsonl');
    const written = join(home.work, 'after-the-turn.txt');
    const marker = join(home.work, 'after-the-turn-marker');
    const afterPrompt = [
      { request: 'fs/write_text_file', params: { path: written, content: 'late' }, label: 'write' },
      {
        request: 'terminal/create',
        params: { command: '/usr/bin/touch', args: [marker] },
        label: 'terminal',
      },
      {
        request: 'session/request_permission',
        params: {
          toolCall: { toolCallId: 'late', title: 'late question', kind: 'edit' },
          options: [{ optionId: 'y', name: 'Yes', kind: 'allow_once' }],
        },
        label: 'question',
      },
      { status: 'after-prompt-done' },
    ];
    try {
      const child = spawnAcp(
        ['run', '--approve', 'all', 'hello', '--', ...relayCommand({ status, afterPrompt })],
        { cwd: home.work, env: home.env },
      );
      const err = new Collected(child.stderr);
      expect((await exitOf(child, 60_000)).code, err.text).toBe(0);
      const served = readStatus(status).filter(
        (r) => r.event === 'answer' && (r.answer as { result?: unknown } | undefined)?.result !== undefined,
      );
      const leaked = served.length + (existsSync(written) ? 1 : 0) + (existsSync(marker) ? 1 : 0);
      zero(
        { case: 'H4', name: 'requests served for a session after its turn ended (acp run, --approve all)' },
        leaked,
      );
      expect(existsSync(written), 'the late write landed').toBe(false);
      expect(existsSync(marker), 'the late terminal ran').toBe(false);
      expect(served.map((r) => r.label)).toEqual([]);
    } finally {
      home.cleanup();
    }
  }, 90_000);
});
