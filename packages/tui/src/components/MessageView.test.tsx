import { describe, expect, it } from 'vitest';
import { UNKNOWN_VARIANT } from '@acp-kit/protocol';
import { renderInk, expectSafeFrame, flat } from '../test-support/ink.js';
import { FixedClock } from '../clock/ClockContext.js';
import { ESCAPE_CORPUS } from '../sanitize/corpus.js';
import type { MessageItem } from '@acp-kit/client';
import { MessageView } from './MessageView.js';
import { messageSegments } from './message-segments.js';

/** What MessageView draws of an engine message item. */
type TranscriptMessage = Pick<MessageItem, 'role' | 'content'>;

describe('MessageView', () => {
  it('renders agent text as Markdown, joining streamed chunks', () => {
    const message: TranscriptMessage = {
      role: 'agent',
      content: [
        { type: 'text', text: '**Bo' },
        { type: 'text', text: 'ld** and `co' },
        { type: 'text', text: 'de`' },
      ],
    };
    expect(renderInk(<MessageView message={message} />).frame()).toBe('Bold and code');
  });

  it('shows user text verbatim with a prompt marker and mentions as attachments', () => {
    const message: TranscriptMessage = {
      role: 'user',
      content: [
        { type: 'text', text: 'Fix **this** in @src/a.ts' },
        {
          type: 'resource',
          resource: { uri: 'file:///w/src/a.ts', text: 'x\ny\n', mimeType: 'text/typescript' },
        },
      ],
    };
    expect(
      renderInk(<MessageView message={message} />)
        .frame()
        .split('\n'),
    ).toEqual(['› Fix **this** in @src/a.ts', '  ▤ a.ts · file:///w/src/a.ts · text/typescript · 3 lines']);
  });

  it('labels images, audio and resource links, with annotation badges', () => {
    const message: TranscriptMessage = {
      role: 'agent',
      content: [
        { type: 'image', data: 'AAAA'.repeat(300), mimeType: 'image/png', uri: 'file:///w/shot.png' },
        {
          type: 'audio',
          data: 'AAAA',
          mimeType: 'audio/wav',
          annotations: { audience: ['user'], priority: 0.5 },
        },
        { type: 'resource_link', uri: 'https://x.io/spec', name: 'spec', title: 'The spec', size: 2048 },
        { type: 'text', text: 'note', annotations: { audience: ['assistant'] } },
      ],
    };
    expect(
      renderInk(<MessageView message={message} />)
        .frame()
        .split('\n'),
    ).toEqual([
      '▣ shot.png · image/png · 900 B · file:///w/shot.png',
      '♪ audio · audio/wav · 3 B [for user · priority 0.5]',
      '⎘ The spec · spec · https://x.io/spec · 2 KB',
      'note',
      '[for assistant]',
    ]);
  });

  it('folds thoughts to a summary and expands them', () => {
    const thought: TranscriptMessage = {
      role: 'thought',
      content: [{ type: 'text', text: '**Planning** the change\n\nThen test it.' }],
    };
    const r = renderInk(<MessageView message={thought} />);
    expect(r.frame().split('\n')).toEqual(['∴ Thought · 2 lines · Ctrl+T to show', '  Planning the change']);
    r.rerender(<MessageView message={thought} collapsed={false} />);
    expect(r.frame().split('\n')).toEqual(['∴ Thought', '  Planning the change', '', '  Then test it.']);
  });

  it('shows a spinner while a thought streams', () => {
    const thought: TranscriptMessage = { role: 'thought', content: [] };
    const { frame } = renderInk(
      <FixedClock now={0}>
        <MessageView message={thought} streaming />
      </FixedClock>,
    );
    expect(frame()).toBe('⠋ Thinking…');
  });

  it('keeps unknown content types visible', () => {
    const marked = { type: 'hologram', [UNKNOWN_VARIANT]: true };
    const unmarked = { type: 'sculpture' };
    const message = { role: 'agent', content: [marked, unmarked] } as unknown as TranscriptMessage;
    expect(
      renderInk(<MessageView message={message} />)
        .frame()
        .split('\n'),
    ).toEqual(['? unsupported content (hologram)', '? unsupported content (sculpture)']);
  });

  it('is safe for hostile text, names and URIs in every role', () => {
    for (const entry of ESCAPE_CORPUS) {
      for (const role of ['user', 'agent', 'thought'] as const) {
        const message: TranscriptMessage = {
          role,
          content: [
            { type: 'text', text: entry.input },
            { type: 'resource_link', uri: `file:///${entry.input}`, name: entry.input },
          ],
        };
        const { frame, unmount } = renderInk(<MessageView message={message} collapsed={false} />);
        expectSafeFrame(frame());
        if (entry.visible) expect(flat(frame())).toContain(flat(entry.visible));
        unmount();
      }
    }
  });
});

describe('messageSegments', () => {
  it('joins text chunks and keeps other blocks in order', () => {
    expect(
      messageSegments([
        { type: 'text', text: 'a' },
        { type: 'text', text: 'b' },
        { type: 'image', data: '', mimeType: 'image/png' },
        { type: 'text', text: 'c' },
      ]).map((s) => (s.kind === 'text' ? s.text : 'block')),
    ).toEqual(['ab', 'block', 'c']);
  });
});
