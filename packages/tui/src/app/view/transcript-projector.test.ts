import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  initialSessionState,
  reduceSessionEvents,
  type SessionEvent,
  type SessionState,
} from '@acp-kit/client';
import type { SessionUpdate } from '@acp-kit/protocol';
import { chunk, endTurn, nextAt, prompt, update } from '../../test-support/session-events.js';
import { unitText } from '../../test-support/units.js';
import { darkTheme } from '../../theme/theme.js';
import { fitLive } from './live-fit.js';
import { MAX_LEX_CHARS, TranscriptProjector, type TranscriptUnit } from './transcript-projector.js';

function apply(state: SessionState, ...events: SessionEvent[]): SessionState {
  return reduceSessionEvents(state, events);
}
const texts = (units: readonly TranscriptUnit[]): string[] => units.map(unitText);

const attached = (how: 'new' | 'load'): SessionEvent => ({
  type: 'attached',
  at: nextAt(),
  agentId: 'scenario',
  agentSessionId: 'a1',
  how,
  cwd: '/w',
  additionalDirectories: [],
});

describe('TranscriptProjector', () => {
  it('prints one "Connected to" line for a session reopened again and again without a turn', () => {
    const reopened = apply(
      initialSessionState('s', '/w'),
      attached('new'),
      prompt('hi'),
      chunk('Hello'),
      endTurn(),
      attached('load'),
      attached('load'),
      attached('load'),
      prompt('again', 2),
      endTurn(2),
      attached('load'),
      attached('load'),
    );
    const connected = 'Connected to scenario: session loaded by the agent';
    expect(texts(new TranscriptProjector().project(reopened).printed)).toEqual([
      'Connected to scenario: new session',
      'hi',
      'Hello',
      connected,
      'again',
      connected,
    ]);
    // Live, each was printed when it came (the scrollback keeps what was printed).
    const projector = new TranscriptProjector();
    let state = apply(initialSessionState('s', '/w'), attached('load'));
    expect(texts(projector.project(state).printed)).toEqual([connected]);
    state = apply(state, attached('load'));
    expect(texts(projector.project(state).printed)).toEqual([connected, connected]);
  });

  it('prints settled items once and keeps the streamed message live', () => {
    const projector = new TranscriptProjector();
    let state = apply(initialSessionState('s', '/w'), prompt('hi'), chunk('Hel'));
    let view = projector.project(state);
    expect(texts(view.printed)).toEqual(['hi']);
    expect(texts(view.live)).toEqual(['Hel']);
    const printed = view.printed;
    state = apply(state, chunk('lo'));
    view = projector.project(state);
    expect(view.printed).toBe(printed);
    expect(texts(view.live)).toEqual(['Hello']);
    state = apply(state, endTurn());
    view = projector.project(state);
    expect(texts(view.printed)).toEqual(['hi', 'Hello']);
    expect(view.live).toEqual([]);
  });

  it('prints a long streamed message block by block, and the parts add up to the whole message', () => {
    const projector = new TranscriptProjector();
    let state = apply(initialSessionState('s', '/w'), prompt('go'));
    const blocks = Array.from({ length: 30 }, (_, i) => `Paragraph ${i} with **bold** text.\n\n`);
    for (const block of blocks) {
      for (const piece of block.match(/.{1,7}/gs) ?? []) {
        state = apply(state, chunk(piece));
        projector.project(state);
      }
    }
    let view = projector.project(state);
    expect(view.printed.length).toBeGreaterThan(20);
    expect(view.live).toHaveLength(1);
    state = apply(state, endTurn());
    view = projector.project(state);
    expect(texts(view.printed).slice(1).join('')).toBe(blocks.join(''));
  });

  it("keeps none of a message's text in its printed parts (an old version of it per part, before)", () => {
    const projector = new TranscriptProjector();
    let state = apply(initialSessionState('s', '/w'), prompt('go'));
    for (let i = 0; i < 20; i++) {
      state = apply(state, chunk(`Paragraph ${i} with **bold** text.\n\n`));
      projector.project(state);
    }
    state = apply(state, { type: 'turn_end', at: nextAt(), turn: 1, stopReason: 'end_turn' });
    const printed = projector.project(state).printed.filter((unit) => unit.part);
    expect(printed.length).toBeGreaterThan(10);
    for (const unit of printed) {
      expect(unit.item).toMatchObject({ kind: 'message', role: 'agent', key: state.items[1]?.key });
      expect(unit.item.kind === 'message' && unit.item.content).toEqual([]);
    }
    expect(printed.map(unitText).join('\n\n')).toContain('Paragraph 19 with');
  });

  it("keeps no copy of a long message's text in its printed parts once they are released (one before)", () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const blocks = Array.from({ length: 4000 }, (_, i) => `Block ${i} ${'word '.repeat(200)}\n\n`);
    const textBytes = blocks.join('').length;
    let state = apply(initialSessionState('s', '/w'), prompt('go'));
    for (let i = 0; i < blocks.length; i += 10) state = apply(state, chunk(blocks.slice(i, i + 10).join('')));
    state = apply(state, endTurn());
    // The projection is held only by `held` (the session's state stays).
    const printAll = (): { held: unknown[]; part: TranscriptUnit | undefined; drawn: string } => {
      const projector = new TranscriptProjector();
      while (projector.project(state).behind);
      const printed = projector.project(state).printed;
      expect(printed.length).toBeGreaterThan(blocks.length - 10);
      const part = printed[100];
      const drawn = part ? unitText(part) : '';
      // As the printer does once a part is written.
      for (const unit of printed) if (unit.part?.kind === 'markdown') unit.part.release?.();
      return { held: [projector, printed], part, drawn };
    };
    const { held, part, drawn } = printAll();
    expect(drawn).toContain('Block 99 word');
    gc();
    const withParts = process.memoryUsage().heapUsed;
    held.length = 0;
    gc();
    const retained = withParts - process.memoryUsage().heapUsed;
    // What is left is each part's own bookkeeping (~270 bytes); with a copy, more than the text.
    expect(retained).toBeLessThan(textBytes / 2);
    // And a part drawn again still shows its blocks, lexed again from the message's text.
    expect(part && unitText(part)).toBe(drawn);
  });

  it('keeps only the growing block live once the block before it is final', () => {
    const projector = new TranscriptProjector();
    let state = apply(initialSessionState('s', '/w'), prompt('go'), chunk('## Part 1\n\nword1 word2'));
    let view = projector.project(state);
    expect(texts(view.printed)).toEqual(['go', '## Part 1']);
    expect(texts(view.live)).toEqual(['\n\nword1 word2']);
    // A list item may still be lazy text of the paragraph until its line is complete.
    state = apply(state, chunk(' \n- item **10** with'));
    view = projector.project(state);
    expect(texts(view.printed)).toHaveLength(2);
    state = apply(state, chunk(' `code`\n- item'));
    view = projector.project(state);
    expect(texts(view.printed).slice(2)).toEqual(['\n\nword1 word2 \n']);
    expect(texts(view.live)).toEqual(['- item **10** with `code`\n- item']);
  });

  it('settles a streamed message as soon as later items arrive, even in the same projection', () => {
    const projector = new TranscriptProjector();
    let state = apply(initialSessionState('s', '/w'), prompt('go'), chunk('First part.\n\nSecond'));
    projector.project(state);
    // More text, a finished tool call and a pending one, all before the next projection.
    state = apply(
      state,
      chunk(' part.\n\n'),
      update({ sessionUpdate: 'tool_call', toolCallId: 'a', title: 'List', status: 'completed' }),
      update({ sessionUpdate: 'tool_call', toolCallId: 'b', title: 'Edit', status: 'pending' }),
    );
    const view = projector.project(state);
    expect(texts(view.printed)).toEqual(['go', 'First part.', '\n\nSecond part.\n\n', 'tool_call']);
    expect(view.live.map((u) => u.item.kind)).toEqual(['tool_call']);
  });

  it('keeps a tool call live until it finishes and its terminal exits, with a stable terminal map', () => {
    const projector = new TranscriptProjector();
    let state = apply(
      initialSessionState('s', '/w'),
      prompt('run'),
      update({
        sessionUpdate: 'tool_call',
        toolCallId: 't1',
        title: 'Run',
        kind: 'execute',
        status: 'in_progress',
        content: [{ type: 'terminal', terminalId: 'term' }],
      }),
      { type: 'terminal_started', at: nextAt(), terminalId: 'term', command: 'ls', cwd: '/w' },
      chunk('after'),
    );
    let view = projector.project(state);
    expect(view.live.map((u) => u.item.kind)).toEqual(['tool_call', 'message']);
    const terminals = view.live[0]?.terminals;
    expect(terminals?.get('term')?.command).toBe('ls');
    state = apply(state, chunk(' more'));
    view = projector.project(state);
    expect(view.live[0]?.terminals).toBe(terminals);
    state = apply(
      state,
      update({ sessionUpdate: 'tool_call_update', toolCallId: 't1', status: 'completed' }),
    );
    expect(projector.project(state).live.map((u) => u.item.kind)).toEqual(['tool_call', 'message']);
    state = apply(state, {
      type: 'terminal_exited',
      at: nextAt(),
      terminalId: 'term',
      exitStatus: { exitCode: 0, signal: null },
      output: 'a\n',
      truncated: false,
    });
    view = projector.project(state);
    expect(view.printed.map((u) => u.item.kind)).toEqual(['message', 'tool_call']);
    expect(view.printed[1]?.terminals?.get('term')?.exit).toEqual({ exitCode: 0, signal: null });
  });

  it('prints everything once the turn is over, and hides silent policy decisions', () => {
    const projector = new TranscriptProjector();
    const request = {
      key: '1',
      source: 'fs_read' as const,
      kind: 'read',
      paths: ['/w/a'],
      outsideRoots: false,
      secret: false,
      reason: 'reads are allowed',
    };
    const state = apply(
      initialSessionState('s', '/w'),
      prompt('x'),
      update({ sessionUpdate: 'tool_call', toolCallId: 't', title: 'Stuck', status: 'in_progress' }),
      { type: 'permission_requested', at: nextAt(), request },
      { type: 'permission_resolved', at: nextAt(), key: '1', decision: 'allow', by: 'default', reason: 'ok' },
      { type: 'permission_requested', at: nextAt(), request: { ...request, key: '2', title: 'Write a' } },
      { type: 'permission_resolved', at: nextAt(), key: '2', decision: 'deny', by: 'user' },
      endTurn(),
    );
    const view = projector.project(state);
    expect(view.live).toEqual([]);
    expect(texts(view.printed)).toEqual(['x', 'tool_call', 'Denied: Write a (by you)']);
  });

  it('lays out a flood of text in bounded steps and catches up after the turn ends', () => {
    const projector = new TranscriptProjector();
    const blocks = Array.from({ length: 400 }, (_, i) => `Block ${i} ${'word '.repeat(30)}\n\n`);
    let state = apply(initialSessionState('s', '/w'), prompt('flood'), chunk(blocks.join('')), endTurn());
    let view = projector.project(state);
    expect(view.behind).toBe(true);
    expect(view.live).toHaveLength(1);
    let steps = 1;
    while (view.behind) {
      view = projector.project(state);
      steps++;
    }
    expect(steps).toBeGreaterThan(blocks.join('').length / MAX_LEX_CHARS - 1);
    view = projector.project(state);
    expect(view.live).toEqual([]);
    expect(texts(view.printed).slice(1).join('')).toBe(blocks.join(''));
    state = apply(state, prompt('next', 2));
    expect(texts(projector.project(state).printed).at(-1)).toBe('next');
  });
});

describe('what is printed and what stays live (invariants)', () => {
  /** One step of a random session: an update, a turn's start or end, or a projection. */
  type Step =
    | { kind: 'chunk'; text: string }
    | { kind: 'thought'; text: string }
    | { kind: 'image' }
    | { kind: 'tool'; id: string; status: 'pending' | 'in_progress' | 'completed' | 'failed' }
    | { kind: 'notice' }
    | { kind: 'prompt' }
    | { kind: 'end' }
    | { kind: 'project' };
  const markdown = fc.constantFrom(
    ...['# h\n', 'text ', 'more text\n', '\n', '\n\n', '- a\n', '1. x\n', '```ts\n', '```\n', 'code();\n'],
    ...['> q\n', '| a | b |\n', '|---|---|\n', '---\n', '**b**', '  - b\n', 'x'.repeat(3000), '2', '*'],
  );
  const step: fc.Arbitrary<Step> = fc.oneof(
    { weight: 6, arbitrary: markdown.map((text) => ({ kind: 'chunk' as const, text })) },
    { weight: 1, arbitrary: markdown.map((text) => ({ kind: 'thought' as const, text })) },
    { weight: 1, arbitrary: fc.constant({ kind: 'image' as const }) },
    {
      weight: 2,
      arbitrary: fc.record({
        kind: fc.constant('tool' as const),
        id: fc.constantFrom('a', 'b', 'c'),
        status: fc.constantFrom(
          'pending' as const,
          'in_progress' as const,
          'completed' as const,
          'failed' as const,
        ),
      }),
    },
    { weight: 1, arbitrary: fc.constant({ kind: 'notice' as const }) },
    { weight: 1, arbitrary: fc.constant({ kind: 'prompt' as const }) },
    { weight: 1, arbitrary: fc.constant({ kind: 'end' as const }) },
    { weight: 4, arbitrary: fc.constant({ kind: 'project' as const }) },
  );

  /** Replays `steps`, projecting where asked, then ends the turn and projects until caught up. */
  function replay(steps: readonly Step[]) {
    const projector = new TranscriptProjector();
    let state = apply(initialSessionState('s', '/w'), prompt('go'));
    let turn = 1;
    const projections: {
      printed: readonly TranscriptUnit[];
      live: readonly TranscriptUnit[];
      running: boolean;
    }[] = [];
    const project = (): void => {
      const { printed, live } = projector.project(state);
      projections.push({ printed, live, running: state.status === 'running' });
    };
    for (const s of steps) {
      if (s.kind === 'chunk') state = apply(state, chunk(s.text));
      else if (s.kind === 'thought')
        state = apply(
          state,
          update({ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: s.text } }),
        );
      else if (s.kind === 'image')
        state = apply(
          state,
          update({
            sessionUpdate: 'agent_message_chunk',
            content: { type: 'image', data: 'AA==', mimeType: 'image/png' },
          }),
        );
      else if (s.kind === 'tool')
        state = apply(
          state,
          update({ sessionUpdate: 'tool_call', toolCallId: `${s.id}${turn}`, title: s.id, status: s.status }),
        );
      else if (s.kind === 'notice')
        state = apply(
          state,
          update({ sessionUpdate: 'notice', severity: 'info', title: 'note' } as SessionUpdate),
        );
      else if (s.kind === 'prompt') state = apply(state, prompt(`p${++turn}`, turn));
      else if (s.kind === 'end') state = apply(state, endTurn(turn));
      else project();
    }
    state = apply(state, endTurn(turn));
    for (let i = 0; i < 2000; i++) {
      project();
      if (projections.at(-1)?.live.length === 0 && !projector.project(state).behind) break;
    }
    return { state, projections };
  }

  it('prints every unit once, in order, never changes what it printed, and never shows a printed unit live', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 60 }), (steps) => {
        const { state, projections } = replay(steps);
        let before: readonly TranscriptUnit[] = [];
        for (const { printed, live, running } of projections) {
          // Printed units only ever follow the ones printed before, unchanged.
          expect(printed.slice(0, before.length)).toEqual(before);
          for (let i = 0; i < before.length; i++) expect(printed[i]).toBe(before[i]);
          const keys = new Set(printed.map((unit) => unit.key));
          expect(keys.size).toBe(printed.length);
          for (const unit of live) expect(keys.has(unit.key)).toBe(false);
          // A tool call is printed only once it is done (or its turn is over).
          for (const unit of printed.slice(before.length))
            if (running && unit.item.kind === 'tool_call')
              expect(['completed', 'failed', 'cancelled']).toContain(
                unit.item.clientStatus ?? unit.item.status,
              );
          before = printed;
        }
        // Everything is printed in the end, in the transcript's order: each message's parts add
        // up to its text (the lexer drops spaces that end some lines).
        const printed = projections.at(-1)?.printed ?? [];
        const norm = (s: string): string => s.replace(/[ \t]+(\n|$)/g, '$1').trim();
        // (A printed part holds the message as it was then: items are matched by key.)
        const order = printed.map((unit) => state.items.findIndex((item) => item.key === unit.item.key));
        expect(order).not.toContain(-1);
        expect(order).toEqual([...order].sort((a, b) => a - b));
        for (const item of state.items) {
          if (item.kind !== 'message' || item.role !== 'agent') continue;
          const parts = printed.filter((unit) => unit.item.key === item.key);
          const text = parts
            .map((unit) => (unit.part?.kind === 'markdown' ? unitText(unit) : '\u0000'))
            .join('');
          const expected = item.content
            .map((block) => (block.type === 'text' ? block.text : '\u0000'))
            .join('');
          // Text between the message's other blocks; blank text draws nothing.
          const segments = (all: string): string[] => all.split('\u0000').map(norm);
          expect(segments(text)).toEqual(segments(expected));
        }
      }),
      { seed: 99, numRuns: 300 },
    );
  });

  it('draws a printed part again, once released, from the same text, also where the sanitizer changed some', () => {
    // What the sanitizer changes (printed parts then keep their own text), split across chunks
    // too, and list lines the lexer drops the trailing spaces of.
    const sanitized = fc
      .constantFrom('\x1b[31mred\x1b[0m ', '\x1b[3', '1m', '👍', '🏽 ', '\u0007', '- a\nlazy  ', '  \n')
      .map((text) => ({ kind: 'chunk' as const, text }));
    fc.assert(
      fc.property(
        fc.array(fc.oneof({ weight: 12, arbitrary: step }, sanitized), { maxLength: 60 }),
        (steps) => {
          for (const unit of replay(steps).projections.at(-1)?.printed ?? []) {
            if (unit.part?.kind !== 'markdown') continue;
            const drawn = unitText(unit);
            unit.part.release?.();
            expect(unitText(unit)).toBe(drawn);
          }
        },
      ),
      { seed: 7, numRuns: 300 },
    );
  });

  it('fits the live region into its rows: a streamed block shows its last lines', () => {
    fc.assert(
      fc.property(
        fc.array(markdown, { minLength: 1, maxLength: 40 }),
        fc.integer({ min: 3, max: 40 }),
        fc.integer({ min: 20, max: 120 }),
        (pieces, budget, width) => {
          const projector = new TranscriptProjector();
          const state = apply(initialSessionState('s', '/w'), prompt('go'), chunk(pieces.join('')));
          let view = projector.project(state);
          while (view.behind) view = projector.project(state);
          const { entries } = fitLive(view.live, budget, { width, theme: darkTheme });
          for (const entry of entries) {
            if (!entry.lines) continue;
            expect(entry.lines.length + (entry.linesAbove ? 1 : 0)).toBeLessThanOrEqual(Math.max(3, budget));
          }
        },
      ),
      { seed: 5, numRuns: 300 },
    );
  });
});
