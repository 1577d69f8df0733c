import chalk from 'chalk';
import fc from 'fast-check';
import { Box, renderToString } from 'ink';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionUpdate } from '@acp-kit/protocol';
import {
  initialSessionState,
  reduceSessionEvents,
  v1UpdateEvents,
  type SessionEvent,
  type TranscriptItem,
} from '@acp-kit/client';
import { TranscriptProjector, type TranscriptUnit } from '../../app/view/transcript-projector.js';
import { resolveKeyBindings } from '../../keys/key-bindings.js';
import { KeyBindingsProvider } from '../../keys/KeyBindingsContext.js';
import { THEMES, type Theme } from '../../theme/theme.js';
import { ThemeProvider } from '../../theme/ThemeContext.js';
import { AvailableWidth } from '../AvailableWidth.js';
import { StyledLines } from '../StyledLines.js';
import { TranscriptItemView } from '../TranscriptItemView.js';
import { unitLines } from './unit-lines.js';

const SEED = 20261128;
const WIDTHS = [12, 23, 40, 80, 131];
const bindings = resolveKeyBindings({}).bindings;

/** Numbers in [0, 1) drawn from `seed` by fast-check: the same corpus on every run. */
function random(seed: number): () => number {
  const values = fc.sample(fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), {
    seed,
    numRuns: 50_000,
  });
  let next = 0;
  return () => values[next++ % values.length] as number;
}

/** Words of every width: ASCII, CJK, emoji (with and without VS16, joined), code spans, long runs. */
const WORDS = [
  'read',
  'the',
  'file',
  'and',
  'fix',
  'tests',
  '`npm test`',
  'src/app.ts:12',
  '日本語の文',
  '한국어',
  '✅',
  '❤️',
  '👩‍💻',
  'naïve',
  'ünïcödé',
  'x'.repeat(37),
  'a-very-long-identifier_without_breaks',
  '**bold**',
  '_em_',
  '[link](https://example.com/a/b)',
  '→',
  'e\u0301',
  '\t',
  'ＡＢＣ',
];

function corpus(seed: number): { units: TranscriptUnit[]; themes: Theme[] } {
  const rnd = random(seed);
  const pick = <T,>(items: readonly T[]): T => items[Math.floor(rnd() * items.length)] as T;
  const words = (min: number, max: number): string =>
    Array.from({ length: min + Math.floor(rnd() * (max - min + 1)) }, () => pick(WORDS)).join(
      pick([' ', ' ', ' ', '\n', '  ']),
    );
  const update = (u: Record<string, unknown>): SessionEvent =>
    v1UpdateEvents(u as unknown as SessionUpdate, 1)[0] as SessionEvent;
  const attachment = (): Record<string, unknown> =>
    pick([
      { type: 'image', data: 'aGVsbG8=', mimeType: 'image/png', uri: `file:///w/${words(1, 2)}.png` },
      { type: 'resource_link', uri: 'file:///w/README.md', name: 'README.md', title: words(1, 4) },
      { type: 'audio', data: 'aGVsbG8gd29ybGQ=', mimeType: 'audio/wav' },
      { type: 'resource', resource: { uri: 'file:///w/a.ts', text: 'const a = 1;' } },
    ]);
  const events: SessionEvent[] = [];
  for (let turn = 1; turn <= 40; turn++) {
    const prompt: Record<string, unknown>[] = [{ type: 'text', text: words(1, 30) }];
    if (rnd() < 0.3) prompt.push(attachment());
    if (rnd() < 0.2) prompt.push({ type: 'text', text: words(0, 5) });
    events.push({ type: 'prompt', at: 1, turn, prompt: prompt as never });
    events.push(
      update({
        sessionUpdate: 'agent_message_chunk',
        messageId: `m${turn}`,
        content: { type: 'text', text: words(1, 20) },
      }),
    );
    if (rnd() < 0.2)
      events.push(
        update({ sessionUpdate: 'agent_message_chunk', messageId: `m${turn}`, content: attachment() }),
      );
    for (let call = 0; call < 1 + Math.floor(rnd() * 3); call++) {
      const id = `t${turn}.${call}`;
      const kind = pick(['read', 'edit', 'execute', 'search', 'fetch', 'think', 'other', 'mystery']);
      const command = kind === 'execute' && rnd() < 0.6 ? words(1, 12) : undefined;
      events.push(
        update({
          sessionUpdate: 'tool_call',
          toolCallId: id,
          title: rnd() < 0.1 ? '' : words(1, 14),
          kind,
          status: 'pending',
          locations: Array.from({ length: Math.floor(rnd() * 6) }, (_, i) => ({
            path: `/w/src/${words(1, 2).replace(/\s+/g, '-')}${i}.ts`,
            ...(rnd() < 0.5 ? { line: Math.floor(rnd() * 400) } : {}),
          })),
          ...(command !== undefined ? { rawInput: { command } } : {}),
        }),
      );
      const content: Record<string, unknown>[] = [];
      for (let i = 0; i < Math.floor(rnd() * 3); i++) {
        const text =
          rnd() < 0.3
            ? Array.from({ length: 5 + Math.floor(rnd() * 20) }, () => words(0, 6)).join('\n')
            : words(0, 25);
        content.push(
          pick([
            { type: 'content', content: { type: 'text', text } },
            { type: 'content', content: { type: 'text', text } },
            { type: 'content', content: attachment() },
            {
              type: 'content',
              content: { type: 'text', text, annotations: { audience: ['user'], priority: 0.5 } },
            },
            { type: 'mystery_content', detail: 1 },
          ]),
        );
      }
      events.push(
        update({
          sessionUpdate: 'tool_call_update',
          toolCallId: id,
          status: pick(['completed', 'completed', 'failed', 'pending']),
          content,
        }),
      );
    }
    if (rnd() < 0.7) {
      events.push(
        update({
          sessionUpdate: 'plan',
          entries: Array.from({ length: Math.floor(rnd() * 5) }, () => ({
            content: words(1, 12),
            priority: pick(['high', 'medium', 'low']),
            status: pick(['pending', 'in_progress', 'completed', 'blocked']),
          })),
        }),
      );
    }
    events.push({
      type: 'turn_end',
      at: 1,
      turn,
      stopReason: pick(['end_turn', 'end_turn', 'cancelled', 'refusal', 'max_tokens']),
    });
  }
  const state = reduceSessionEvents(initialSessionState('s', '/w'), events);
  const units = [...new TranscriptProjector().project(state).printed];
  // Notices the events above do not make: an agent's notice, and an error with its stderr lines.
  const items: TranscriptItem[] = [
    { kind: 'info', key: 'i1', turn: 41, text: words(1, 20) },
    {
      kind: 'error',
      key: 'e1',
      turn: 41,
      error: { message: words(1, 10), exitCode: 3, stderrTail: `${words(1, 8)}\n${words(1, 8)}` } as never,
    },
  ];
  for (const item of items) units.push({ key: item.key, item });
  return { units, themes: [THEMES.dark, THEMES.light, THEMES.ansi, THEMES.none] };
}

/** What Ink draws: the unit's component, or lines, at `width` (nothing stripped from either). */
function ink(node: React.ReactNode, theme: Theme, width: number): string {
  return renderToString(
    <ThemeProvider theme={theme}>
      <KeyBindingsProvider bindings={bindings}>
        <AvailableWidth columns={width}>
          <Box flexDirection="column">{node}</Box>
        </AvailableWidth>
      </KeyBindingsProvider>
    </ThemeProvider>,
    { columns: width },
  );
}

describe('unitLines', () => {
  let level: typeof chalk.level;
  beforeAll(() => {
    level = chalk.level;
    chalk.level = 3; // colours on, as in a terminal: styles must match too
  });
  afterAll(() => {
    chalk.level = level;
  });

  it(`draws a fixed-seed corpus of units as their components do, at widths ${WIDTHS.join(', ')} (seed ${SEED})`, () => {
    const { units, themes } = corpus(SEED);
    const drawn = new Map<string, number>();
    let left = 0;
    for (const [index, unit] of units.entries()) {
      // Each unit in one of the themes in turn: the colours of each, and none.
      const theme = themes[index % themes.length] as Theme;
      for (const width of WIDTHS) {
        const lines = unitLines(unit, { width, theme, bindings, cwd: '/w' });
        if (!lines) {
          left++;
          continue;
        }
        const kind = unit.part ? `${unit.item.kind}:${unit.part.kind}` : unit.item.kind;
        drawn.set(kind, (drawn.get(kind) ?? 0) + 1);
        const expected = ink(<TranscriptItemView unit={unit} cwd="/w" />, theme, width);
        const actual = ink(<StyledLines lines={lines} />, theme, width);
        expect(actual, `seed ${SEED}, unit ${unit.key} (${kind}), width ${width}, theme ${theme.name}`).toBe(
          expected,
        );
      }
    }
    // The corpus reaches every kind drawn as lines, and leaves only cards with what lines do not draw.
    for (const kind of [
      'message',
      'message:markdown',
      'message:content',
      'tool_call',
      'plan',
      'stop',
      'info',
      'error',
    ])
      expect(drawn.get(kind) ?? 0, kind).toBeGreaterThan(0);
    expect(left).toBeLessThan([...drawn.values()].reduce((a, b) => a + b, 0) / 4);
  });
});
