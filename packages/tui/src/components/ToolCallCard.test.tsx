import { describe, expect, it } from 'vitest';
import { renderInk, expectSafeFrame, flat } from '../test-support/ink.js';
import { FixedClock } from '../clock/ClockContext.js';
import { ESCAPE_CORPUS } from '../sanitize/corpus.js';
import type { TerminalSnapshot, ToolCallView } from '../view-model/tool-call.js';
import { ToolCallCard } from './ToolCallCard.js';

const call: ToolCallView = {
  toolCallId: 'c1',
  title: 'Edit src/a.ts',
  kind: 'edit',
  status: 'completed',
  content: [],
  locations: [{ path: '/w/src/a.ts', line: 12 }],
};

describe('ToolCallCard', () => {
  it('shows status, kind icon, title and locations relative to the cwd', () => {
    const { frame } = renderInk(<ToolCallCard call={call} cwd="/w" />);
    expect(frame().split('\n')).toEqual(['✓ ✎ Edit src/a.ts', '    src/a.ts:12']);
  });

  it('does not list a location its diff names (the diff says where the change is)', () => {
    // Claude's finished edit: its location says line 1 (where its hunk starts), the change is at 2.
    const edit: ToolCallView = {
      ...call,
      locations: [
        { path: '/w/src/a.ts', line: 1 },
        { path: '/w/src/b.ts', line: 4 },
      ],
      content: [{ type: 'diff', path: 'src/a.ts', oldText: 'a\nb\n', newText: 'a\nB\n' }],
    };
    const { frame } = renderInk(<ToolCallCard call={edit} cwd="/w" />);
    expect(frame().split('\n').slice(0, 3)).toEqual([
      '✓ ✎ Edit src/a.ts',
      '    src/b.ts:4',
      '    src/a.ts:2 +1 -1',
    ]);
  });

  it('animates a running call with the injected clock', () => {
    const card = (now: number) => (
      <FixedClock now={now}>
        <ToolCallCard call={{ ...call, status: 'in_progress', locations: [] }} />
      </FixedClock>
    );
    const r = renderInk(card(0));
    expect(r.frame()).toBe('⠋ ✎ Edit src/a.ts');
    r.rerender(card(160));
    expect(r.frame()).toBe('⠹ ✎ Edit src/a.ts');
  });

  it('spells out pending, failed and cancelled', () => {
    const r = renderInk(<ToolCallCard call={{ ...call, status: 'pending', locations: [] }} />);
    expect(r.frame()).toBe('○ ✎ Edit src/a.ts · pending');
    r.rerender(<ToolCallCard call={{ ...call, status: 'failed', locations: [] }} />);
    expect(r.frame()).toBe('✗ ✎ Edit src/a.ts · failed');
    r.rerender(<ToolCallCard call={{ ...call, status: 'cancelled', locations: [] }} />);
    expect(r.frame()).toBe('⊘ ✎ Edit src/a.ts · cancelled');
  });

  it('renders text, diff and terminal content', () => {
    const terminals = new Map<string, TerminalSnapshot>([
      ['t1', { terminalId: 't1', command: 'ls', output: 'a.ts\n', truncated: false, exit: { exitCode: 0 } }],
    ]);
    const { frame } = renderInk(
      <ToolCallCard
        call={{
          ...call,
          locations: [],
          content: [
            { type: 'content', content: { type: 'text', text: 'Updated **one** line' } },
            { type: 'diff', path: '/w/src/a.ts', oldText: 'x\n', newText: 'y\n' },
            { type: 'terminal', terminalId: 't1' },
            { type: 'terminal', terminalId: 'missing' },
          ],
        }}
        terminals={terminals}
      />,
    );
    expect(frame().split('\n')).toEqual([
      '✓ ✎ Edit src/a.ts',
      '    Updated one line',
      '    /w/src/a.ts:1 +1 -1',
      '    @@ -1,1 +1,1 @@',
      '    1   - x',
      '      1 + y',
      '    $ ls',
      '      a.ts',
      '    ✓ exited with 0',
      '    terminal missing: no output yet',
    ]);
  });

  it("shows a command's line and output sent only in rawInput/rawOutput (codex-acp 0.x)", () => {
    // What Codex sent for `ls`: an argv in rawInput, the ExecCommandEnd event in rawOutput.
    const codex: ToolCallView = {
      toolCallId: 'call_1',
      title: 'List /w',
      kind: 'read',
      status: 'completed',
      content: [{ type: 'terminal', terminalId: 'call_1' }],
      locations: [],
      rawInput: { command: ['bash', '-lc', 'ls'], cwd: '/w' },
      rawOutput: { stdout: 'a.ts\nb.ts\n', stderr: '', exit_code: 0, formatted_output: 'a.ts\nb.ts\n' },
    };
    expect(
      renderInk(<ToolCallCard call={codex} />)
        .frame()
        .split('\n'),
    ).toEqual(['✓ ≡ List /w', '    $ ls', '      a.ts', '      b.ts', '    ✓ exited with 0']);
  });

  it('does not repeat a command the title or the terminal shows, nor raw output the content shows', () => {
    const claude: ToolCallView = {
      toolCallId: 'toolu_1',
      title: 'ls -la',
      kind: 'execute',
      status: 'completed',
      content: [{ type: 'terminal', terminalId: 'toolu_1' }],
      locations: [],
      rawInput: { command: 'ls -la', description: 'List files' },
      rawOutput: 'total 0\n',
    };
    const terminals = new Map<string, TerminalSnapshot>([
      ['toolu_1', { terminalId: 'toolu_1', output: 'total 0\n', truncated: false, exit: { exitCode: 0 } }],
    ]);
    expect(
      renderInk(<ToolCallCard call={claude} terminals={terminals} />)
        .frame()
        .split('\n'),
    ).toEqual(['✓ » ls -la', '      total 0', '    ✓ exited with 0']);
    // Without the terminal's output (the agent never streamed it), the raw output is shown.
    expect(
      renderInk(<ToolCallCard call={claude} />)
        .frame()
        .split('\n'),
    ).toEqual(['✓ » ls -la', '      total 0']);
  });

  it('folds long text output with "N more lines" and shows everything when expanded', () => {
    const text = Array.from({ length: 10 }, (_, i) => `out ${i}`).join('\n');
    const folded = {
      ...call,
      locations: [],
      content: [{ type: 'content' as const, content: { type: 'text' as const, text } }],
    };
    const r = renderInk(<ToolCallCard call={folded} maxContentLines={3} />);
    expect(r.frame().split('\n').slice(-2)).toEqual(['    out 2', '    … 7 more lines · Ctrl+O to expand']);
    r.rerender(<ToolCallCard call={folded} maxContentLines={3} expanded />);
    expect(r.frame().split('\n')).toHaveLength(11);
    expect(r.frame()).not.toContain('more lines');
  });

  it('folds a long list of locations', () => {
    const many = { ...call, locations: Array.from({ length: 6 }, (_, i) => ({ path: `/w/f${i}.ts` })) };
    const r = renderInk(<ToolCallCard call={many} cwd="/w" />);
    expect(r.frame().split('\n').slice(1)).toEqual([
      '    f0.ts',
      '    f1.ts',
      '    f2.ts',
      '    … 3 more locations',
    ]);
    r.rerender(<ToolCallCard call={many} cwd="/w" expanded />);
    expect(r.frame().split('\n')).toHaveLength(7);
  });

  it('keeps unknown kinds and statuses from newer agents visible', () => {
    const strange = { ...call, kind: 'teleport', status: 'paused', locations: [] } as unknown as ToolCallView;
    expect(renderInk(<ToolCallCard call={strange} />).frame()).toBe('? • Edit src/a.ts · paused');
  });

  it('is safe for hostile titles, paths and content', () => {
    for (const entry of ESCAPE_CORPUS) {
      const { frame, unmount } = renderInk(
        <ToolCallCard
          call={{
            ...call,
            title: `T ${entry.input}`,
            locations: [{ path: `/w/${entry.input}` }],
            content: [{ type: 'content', content: { type: 'text', text: entry.input } }],
          }}
        />,
      );
      expectSafeFrame(frame());
      if (entry.visible) expect(flat(frame())).toContain(flat(entry.visible));
      unmount();
    }
  });
});
