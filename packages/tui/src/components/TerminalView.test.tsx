import {
  initialSessionState,
  reduceSessionEvents,
  V2UpdateTranslator,
  type SessionEvent,
} from '@acp-kit/client';
import type { SessionUpdate as V2SessionUpdate } from '@acp-kit/protocol/v2';
import { describe, expect, it } from 'vitest';
import { renderInk, expectSafeFrame, flat } from '../test-support/ink.js';
import { FixedClock } from '../clock/ClockContext.js';
import { ESCAPE_CORPUS } from '../sanitize/corpus.js';
import { terminalRuns, terminalSnapshot, type TerminalSnapshot } from '../view-model/tool-call.js';
import { TerminalView } from './TerminalView.js';

const base: TerminalSnapshot = {
  terminalId: 't1',
  command: 'npm',
  args: ['test', '--', 'a b'],
  output: '',
  truncated: false,
};

describe('TerminalView', () => {
  it('a v2 terminal that outlives its finished call goes on in the background; a v1 _meta one has ended', () => {
    const v2 = renderInk(<TerminalView terminal={{ ...base, output: 'tick 1\n' }} callStatus="completed" />);
    expect(flat(v2.frame())).toContain('goes on in the background');
    const v1 = renderInk(<TerminalView terminal={{ ...base, byAgent: true }} callStatus="completed" />);
    expect(flat(v1.frame())).toContain('ended without an exit status');
    // Which is which: the v2 face marks the terminals whose end the agent reports.
    const engine = { terminalId: 'T', origin: 'agent' as const, output: '', truncated: false };
    expect(terminalSnapshot({ ...engine, reportsExit: true }).byAgent).toBeUndefined();
    expect(terminalSnapshot(engine).byAgent).toBe(true);
  });

  it('a v2 terminal reported without capabilities still outlives its call (the v2 face says so, not a missing field)', () => {
    const t = new V2UpdateTranslator();
    const wire = [
      { sessionUpdate: 'tool_call_update', toolCallId: 'c', title: 'Serve', status: 'in_progress' },
      { sessionUpdate: 'terminal_update', terminalId: 'T', toolCallId: 'c', command: 'npm start' },
      { sessionUpdate: 'tool_call_update', toolCallId: 'c', status: 'completed' },
    ];
    const events = wire.flatMap((u) =>
      t
        .update(u as unknown as V2SessionUpdate)
        .map((update): SessionEvent => ({ type: 'update', at: 1, update })),
    );
    const state = reduceSessionEvents(initialSessionState('s', '/w'), events);
    const view = state.terminals.T;
    expect(view).toMatchObject({ origin: 'agent', reportsExit: true });
    const snapshot = terminalSnapshot(view as NonNullable<typeof view>);
    expect(snapshot.byAgent).toBeUndefined();
    expect(terminalRuns(snapshot, 'completed')).toBe(true);
  });

  it('shows the full command line, output, and a spinner while running', () => {
    const view = (now: number, terminal: TerminalSnapshot) => (
      <FixedClock now={now}>
        <TerminalView terminal={terminal} />
      </FixedClock>
    );
    const r = renderInk(view(0, { ...base, cwd: '/w', output: 'PASS a.test.ts\n' }));
    expect(r.frame().split('\n')).toEqual(["$ npm test -- 'a b'  in /w", '  PASS a.test.ts', '⠋ running']);
    r.rerender(view(80, { ...base, output: 'PASS a.test.ts\n' }));
    expect(r.frame()).toContain('⠙ running');
  });

  it('shows how the command exited', () => {
    const r = renderInk(<TerminalView terminal={{ ...base, exit: { exitCode: 0 } }} />);
    expect(r.frame()).toContain('✓ exited with 0');
    r.rerender(<TerminalView terminal={{ ...base, exit: { exitCode: 2 } }} />);
    expect(r.frame()).toContain('✗ exited with 2');
    r.rerender(<TerminalView terminal={{ ...base, exit: { exitCode: null, signal: 'SIGKILL' } }} />);
    expect(r.frame()).toContain('✗ killed by SIGKILL');
    r.rerender(<TerminalView terminal={{ ...base, released: true }} />);
    expect(r.frame()).toContain('released by the agent before it exited');
  });

  it('marks output truncated by the byte limit and folds to the last lines', () => {
    const output = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join('\n');
    const { frame } = renderInk(
      <TerminalView
        terminal={{ ...base, output, truncated: true, exit: { exitCode: 0 } }}
        maxLines={3}
        expandHint=" · Ctrl+O"
      />,
    );
    expect(frame().split('\n')).toEqual([
      "$ npm test -- 'a b'",
      '⚠ earlier output was dropped (output byte limit reached)',
      '… 17 earlier lines · Ctrl+O',
      '  line 18',
      '  line 19',
      '  line 20',
      '✓ exited with 0',
    ]);
  });

  it('handles carriage-return progress output', () => {
    const { frame } = renderInk(
      <TerminalView terminal={{ ...base, command: undefined, output: '10%\r50%\r100%\ndone' }} />,
    );
    expect(frame().split('\n').slice(0, 2)).toEqual(['  100%', '  done']);
  });

  it('keeps only text from hostile output, command and cwd', () => {
    for (const entry of ESCAPE_CORPUS) {
      const { frame, unmount } = renderInk(
        <FixedClock now={0}>
          <TerminalView
            terminal={{
              ...base,
              command: `echo ${entry.input}`,
              cwd: entry.input,
              output: `${entry.input}\n`,
            }}
          />
        </FixedClock>,
      );
      expectSafeFrame(frame());
      if (entry.visible) expect(flat(frame())).toContain(flat(entry.visible));
      if (entry.hidden) expect(frame()).not.toContain(entry.hidden);
      unmount();
    }
  });
});
