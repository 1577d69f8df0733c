import { describe, expect, it } from 'vitest';
import { renderInk } from '../test-support/ink.js';
import type { TranscriptItem } from '../view-model/transcript.js';
import { Transcript } from './Transcript.js';

const message = (id: string, text: string): TranscriptItem => ({
  type: 'message',
  id,
  message: { id, role: 'agent', content: [{ type: 'text', text }] },
});

describe('Transcript', () => {
  it('writes completed items once and re-renders only the live region', () => {
    const r = renderInk(<Transcript completed={[message('1', 'first')]} live={[message('2', 'stream')]} />);
    expect(r.frame()).toBe('first\n\nstream\n');
    r.rerender(<Transcript completed={[message('1', 'first')]} live={[message('2', 'streaming more')]} />);
    expect(r.frame()).toBe('first\n\nstreaming more\n');
    r.rerender(<Transcript completed={[message('1', 'first'), message('2', 'streaming more')]} live={[]} />);
    expect(r.frame()).toBe('first\n\nstreaming more\n\n');
    // Completed items were written once: a changed object for an already written item is not rendered again.
    r.rerender(<Transcript completed={[message('1', 'CHANGED'), message('2', 'CHANGED')]} live={[]} />);
    expect(r.frame()).toBe('first\n\nstreaming more\n\n');
  });

  it('renders notices, plans and tool calls', () => {
    const items: TranscriptItem[] = [
      {
        type: 'notice',
        id: 'n',
        notice: { id: 'n', severity: 'error', text: 'Agent exited with code 1', detail: 'stderr: boom' },
      },
      { type: 'plan', id: 'p', entries: [{ content: 'step', priority: 'low', status: 'pending' }] },
      {
        type: 'tool_call',
        id: 't',
        call: {
          toolCallId: 't',
          title: 'Run ls',
          kind: 'execute',
          status: 'completed',
          content: [],
          locations: [],
        },
      },
    ];
    const { frame } = renderInk(<Transcript completed={[]} live={items} />);
    expect(frame().split('\n')).toEqual([
      '✗ Agent exited with code 1',
      '  stderr: boom',
      '',
      'Plan · 0/1 done',
      '  ○ step · low',
      '',
      '✓ » Run ls',
      '',
    ]);
  });
});
