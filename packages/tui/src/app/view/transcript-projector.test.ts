import { describe, expect, it } from 'vitest';
import {
  initialSessionState,
  reduceSessionEvents,
  type SessionEvent,
  type SessionState,
} from '@acp-kit/client';
import type { SessionUpdate } from '@acp-kit/protocol';
import { unitText } from '../../test-support/units.js';
import { MAX_LEX_CHARS, TranscriptProjector, type TranscriptUnit } from './transcript-projector.js';

let at = 0;
const update = (u: SessionUpdate): SessionEvent => ({ type: 'update', at: ++at, update: u });
const chunk = (text: string): SessionEvent =>
  update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } });
const prompt = (text: string, turn = 1): SessionEvent => ({
  type: 'prompt',
  at: ++at,
  turn,
  prompt: [{ type: 'text', text }],
});
const endTurn = (turn = 1): SessionEvent => ({ type: 'turn_end', at: ++at, turn, stopReason: 'end_turn' });

function apply(state: SessionState, ...events: SessionEvent[]): SessionState {
  return reduceSessionEvents(state, events);
}
const texts = (units: readonly TranscriptUnit[]): string[] => units.map(unitText);

describe('TranscriptProjector', () => {
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
      { type: 'terminal_started', at: ++at, terminalId: 'term', command: 'ls', cwd: '/w' },
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
      at: ++at,
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
      { type: 'permission_requested', at: ++at, request },
      { type: 'permission_resolved', at: ++at, key: '1', decision: 'allow', by: 'default', reason: 'ok' },
      { type: 'permission_requested', at: ++at, request: { ...request, key: '2', title: 'Write a' } },
      { type: 'permission_resolved', at: ++at, key: '2', decision: 'deny', by: 'user' },
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
