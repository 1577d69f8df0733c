import { describe, expect, it } from 'vitest';
import { renderInk, expectSafeFrame, flat } from '../test-support/ink.js';
import { FixedClock } from '../clock/ClockContext.js';
import { ESCAPE_CORPUS } from '../sanitize/corpus.js';
import type { StatusView } from '../view-model/status.js';
import { StatusBar } from './StatusBar.js';
import { gaugeBar, stallNotice, usageSummary } from './status-format.js';

const status: StatusView = {
  agentName: 'Claude Code',
  agentVersion: '1.2.0',
  connection: 'ready',
  sessionTitle: 'Fix the parser',
  mode: 'default',
  model: 'sonnet',
  usage: { used: 96_000, size: 200_000, cost: { amount: 0.42, currency: 'USD' } },
  queuedPermissions: 2,
  currentLocation: { path: '/w/src/parser.ts', line: 120 },
  cwd: '/w',
};

const bar = (s: StatusView, now = 100_000) => (
  <FixedClock now={now}>
    <StatusBar status={s} />
  </FixedClock>
);

describe('StatusBar', () => {
  it('shows agent, connection, session, mode, model, usage, cost, queue and location', () => {
    const { frame } = renderInk(bar(status));
    expect(frame().split('\n')).toEqual([
      '● connected │ Claude Code 1.2.0 │ Fix the parser │ default │ sonnet',
      '⚑ 2 permission requests waiting │ ctx █████░░░░░ 48% 96k/200k · $0.42 │ ✎ src/parser.ts:120',
    ]);
  });

  it('shows the background work the agent reported', () => {
    const base = { ...status, usage: undefined, queuedPermissions: 0, currentLocation: undefined };
    const { frame } = renderInk(bar({ ...base, background: '1 terminal' }));
    expect(frame().split('\n')[1]).toBe('◌ in background: 1 terminal');
  });

  it('shows the command a running command runs, and a location with its kind icon', () => {
    const base = { ...status, usage: undefined, queuedPermissions: 0 };
    const command = renderInk(bar({ ...base, currentLocation: undefined, currentCommand: 'npm test' }));
    expect(command.frame().split('\n')[1]).toBe('» npm test');
    const read = renderInk(bar({ ...base, currentKind: 'read' }));
    expect(read.frame().split('\n')[1]).toBe('≡ src/parser.ts:120');
  });

  it('shows a stall indicator once a running turn has been silent long enough', () => {
    const running = { ...status, usage: undefined, queuedPermissions: 0, currentLocation: undefined };
    const r = renderInk(bar({ ...running, turn: { lastUpdateAt: 60_000 } }, 80_000));
    expect(r.frame()).not.toContain('no updates');
    r.rerender(bar({ ...running, turn: { lastUpdateAt: 60_000 } }, 100_000));
    expect(r.frame().split('\n')[1]).toBe('⚠ no updates for 40 s · Esc to cancel');
    r.rerender(bar({ ...running, turn: undefined }, 100_000));
    expect(r.frame()).not.toContain('no updates');
  });

  it('shows a remote agent: where, which profile, resumptions, and that files and terminals are local', () => {
    const remote = {
      agentName: 'demo',
      connection: 'ready' as const,
      remote: '127.0.0.1:8765 · websocket · resumed 1×',
    };
    expect(renderInk(bar(remote)).frame()).toBe(
      '● connected ⇄ remote 127.0.0.1:8765 · websocket · resumed 1× · files & terminals here │ demo',
    );
    const cut = renderInk(
      bar({ ...remote, connection: 'reconnecting', remote: 'devbox:443 · streamable http' }),
    );
    expect(cut.frame()).toBe(
      '◌ reconnecting ⇄ remote devbox:443 · streamable http · files & terminals here │ demo',
    );
  });

  it('shows connection problems', () => {
    const { frame } = renderInk(bar({ agentName: 'gemini', connection: 'crashed' }));
    expect(frame()).toBe('✗ agent exited │ gemini');
  });

  it('is safe for hostile agent names, titles and paths', () => {
    for (const entry of ESCAPE_CORPUS) {
      const { frame, unmount } = renderInk(
        bar({
          ...status,
          agentName: `A${entry.input}`,
          sessionTitle: entry.input,
          model: entry.input,
          currentLocation: { path: `/x/${entry.input}` },
        }),
      );
      expectSafeFrame(frame());
      if (entry.visible) expect(flat(frame())).toContain(flat(entry.visible));
      unmount();
    }
  });
});

describe('status formatting', () => {
  it('draws the gauge and handles unknown usage', () => {
    expect(gaugeBar(0.25, 8)).toBe('██░░░░░░');
    expect(gaugeBar(2, 4)).toBe('████');
    expect(usageSummary({ used: null, size: 128_000 }).text).toBe('?/128k');
    expect(
      usageSummary({ used: 1500, size: 1_000_000, cost: { amount: 12.5, currency: 'credits' } }).text,
    ).toBe('0% 1.5k/1M · 12.5 credits');
  });

  it('formats stall durations', () => {
    expect(stallNotice(0, 29_999, 30_000)).toBeUndefined();
    expect(stallNotice(0, 40_500, 30_000)).toBe('no updates for 40 s');
    expect(stallNotice(0, 300_000, 30_000)).toBe('no updates for 5 min');
  });
});
