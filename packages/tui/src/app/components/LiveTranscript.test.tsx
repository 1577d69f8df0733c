import { describe, expect, it } from 'vitest';
import { renderInk, flat } from '../../test-support/ink.js';
import type { ToolCallItem } from '@acp-kit/client';
import type { TranscriptUnit } from '../view/transcript-projector.js';
import { LiveTranscript } from './LiveTranscript.js';

function card(n: number): TranscriptUnit {
  const item: ToolCallItem = {
    kind: 'tool_call',
    key: `k${n}`,
    turn: 1,
    toolCallId: `c${n}`,
    title: `Run step ${n}`,
    toolKind: 'execute',
    status: 'in_progress',
    content: [{ type: 'content', content: { type: 'text', text: 'one\ntwo\nthree\nfour\nfive\nsix' } }],
    locations: [{ path: `/w/src/f${n}.ts` }],
    announced: true,
  };
  return { key: `k${n}`, item };
}

describe('LiveTranscript', () => {
  it('stays within its rows when an agent runs many tools at once: the oldest are summed up', () => {
    const live = Array.from({ length: 12 }, (_, i) => card(i + 1));
    const { frame } = renderInk(
      <LiveTranscript live={live} budget={24} columns={100} showThoughts={false} />,
    );
    const lines = frame().split('\n');
    expect(lines.length).toBeLessThanOrEqual(24);
    const text = flat(frame());
    expect(text).toContain('⋯ 9 more tool calls in progress: Run step 1 · Run step 2');
    expect(text).toContain('Run step 12');
    expect(text).not.toContain('/w/src/f9.ts');
    expect(text).toContain('/w/src/f10.ts');
  });

  it('shows every card when they fit', () => {
    const live = [card(1), card(2)];
    const { frame } = renderInk(
      <LiveTranscript live={live} budget={24} columns={100} showThoughts={false} />,
    );
    const text = flat(frame());
    expect(text).not.toContain('more tool call');
    expect(text).toContain('Run step 1');
    expect(text).toContain('Run step 2');
  });

  it('stays within its rows when a card has a huge title and command and a notice is long', () => {
    const long = (word: string): string => Array.from({ length: 300 }, (_, i) => `${word}${i}`).join(' ');
    const running: TranscriptUnit = {
      key: 'big',
      item: {
        ...card(1).item,
        key: 'big',
        title: long('title'),
        rawInput: { command: long('arg') },
      } as ToolCallItem,
    };
    const notice: TranscriptUnit = {
      key: 'n',
      item: { kind: 'info', key: 'n', turn: 1, text: long('notice') },
    };
    const { frame } = renderInk(
      <LiveTranscript live={[running, notice]} budget={30} columns={100} showThoughts={false} />,
    );
    expect(frame().split('\n').length).toBeLessThanOrEqual(30);
    const text = flat(frame());
    expect(text).toContain('title0 title1');
    expect(text).toContain('notice0 notice1');
  });
});
