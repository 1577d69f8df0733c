import { describe, expect, it } from 'vitest';
import { initialSessionState, SessionStore, type SessionEvent } from '@acp-kit/client';
import { SessionViewStore } from '../view/session-view-store.js';
import type { TranscriptUnit } from '../view/transcript-projector.js';
import { TranscriptPrinter, UNITS_PER_PRINT } from './transcript-printer.js';

let at = 0;
const prompt = (text: string, turn: number): SessionEvent => ({
  type: 'prompt',
  at: ++at,
  turn,
  prompt: [{ type: 'text', text }],
});
const reply = (text: string): SessionEvent => ({
  type: 'update',
  at: ++at,
  update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } },
});
const end = (turn: number): SessionEvent => ({ type: 'turn_end', at: ++at, turn, stopReason: 'end_turn' });

const label = (unit: TranscriptUnit): string =>
  unit.item.type === 'message'
    ? unit.item.message.content.map((b) => ('text' in b ? b.text : '')).join('')
    : unit.item.type === 'notice'
      ? unit.item.notice.text
      : unit.item.type;

function setup() {
  const store = new SessionStore(initialSessionState('s', '/w'));
  const view = new SessionViewStore(store, { intervalMs: 1 });
  const written: string[] = [];
  const printer = new TranscriptPrinter({
    render: (units) => `${units.map(label).join('|')}\n`,
    notice: (text) => ({
      key: 'earlier',
      item: { type: 'notice', id: 'earlier', notice: { id: 'earlier', severity: 'info', text } },
    }),
  });
  return { store, view, written, printer, write: (data: string) => written.push(data) };
}

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
  expect(check()).toBe(true);
}

describe('TranscriptPrinter', () => {
  it('prints the newest history with a line about the rest, once a writer is there', async () => {
    const { store, view, written, printer, write } = setup();
    store.dispatchMany([prompt('one', 1), reply('a'), end(1), prompt('two', 2), reply('b'), end(2)]);
    view.flush();
    printer.show(view, { historyItems: 2, fullHistory: false, menuKey: 'Ctrl+X' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(written).toEqual([]);
    printer.setWriter(write);
    await until(() => written.length > 0);
    expect(written.join('')).toBe('2 earlier items not shown · Ctrl+X → Show the whole history|two|b\n');
    printer.dispose();
    view.dispose();
  });

  it('prints what settles later, in slices, and stops printing a session that is no longer shown', async () => {
    const { store, view, written, printer, write } = setup();
    printer.setWriter(write);
    printer.show(view, { historyItems: 100, fullHistory: false, menuKey: 'Ctrl+X' });
    const events: SessionEvent[] = [];
    for (let turn = 1; turn <= UNITS_PER_PRINT; turn++)
      events.push(prompt(`p${turn}`, turn), reply(`r${turn}`), end(turn));
    store.dispatchMany(events);
    const units = (): string[] => written.flatMap((chunk) => chunk.trim().split('|'));
    await until(() => units().length >= UNITS_PER_PRINT * 2);
    expect(written.length).toBeGreaterThan(1);
    expect(written.every((chunk) => chunk.split('|').length <= UNITS_PER_PRINT)).toBe(true);
    expect(units()).toEqual(
      events
        .filter((e) => e.type !== 'turn_end')
        .map((e) =>
          e.type === 'prompt'
            ? (e.prompt[0] as { text: string }).text
            : (e as { update: { content: { text: string } } }).update.content.text,
        ),
    );
    printer.show(undefined, { historyItems: 100, fullHistory: false, menuKey: 'Ctrl+X' });
    const count = written.length;
    store.dispatchMany([prompt('late', 99), reply('x'), end(99)]);
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(written.length).toBe(count);
    view.dispose();
  });
});
