import { describe, expect, it } from 'vitest';
import { initialSessionState, SessionStore, type SessionEvent } from '@acp-kit/client';
import { unitText } from '../../test-support/units.js';
import { ManualScheduler } from '../../text/coalesce.js';
import { SessionViewStore } from '../view/session-view-store.js';
import type { TranscriptUnit } from '../view/transcript-projector.js';
import {
  BACKLOG_UNITS_PER_PRINT,
  PRINT_INTERVAL_MS,
  SHOW_DELAY_MS,
  SHOW_FRAME_WAIT_MS,
  TranscriptPrinter,
  UNITS_PER_PRINT,
} from './transcript-printer.js';

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
  update: { kind: 'message_chunk', role: 'agent', content: { type: 'text', text } },
});
const end = (turn: number): SessionEvent => ({ type: 'turn_end', at: ++at, turn, stopReason: 'end_turn' });

const label = (unit: TranscriptUnit): string => unitText(unit);

/** Turns `from`..`to`, each a prompt `pN` answered `rN`. */
function turns(from: number, to: number): SessionEvent[] {
  const events: SessionEvent[] = [];
  for (let turn = from; turn <= to; turn++)
    events.push(prompt(`p${turn}`, turn), reply(`r${turn}`), end(turn));
  return events;
}

/** A session, its view and a printer, all on one hand-driven clock; the printer draws labels. */
function setup(
  options: {
    prepare?: (units: readonly TranscriptUnit[]) => Promise<void> | void;
    framesReported?: boolean;
    onBacklogPrinted?: (view: SessionViewStore) => void;
  } = {},
) {
  const scheduler = new ManualScheduler();
  let now = 0;
  const store = new SessionStore(initialSessionState('s', '/w'));
  const view = new SessionViewStore(store, { intervalMs: 1, scheduler, typing: () => false });
  const written: string[][] = [];
  const printer = new TranscriptPrinter({
    render: (units) => units.map(label).join('|'),
    notice: (text) => ({ key: 'earlier', item: { kind: 'info', key: 'earlier', turn: 0, text } }),
    scheduler,
    now: () => now,
    ...options,
  });
  const advance = (ms: number): void => {
    now += ms;
    scheduler.advance(ms);
  };
  const write = (data: string): void => void written.push(data.split('|'));
  return { store, view, written, printer, advance, scheduler, write };
}

/** A session of one turn, shown, with its slice printed (or waiting for `prepare`). */
function showFirstTurn(prepare: (units: readonly TranscriptUnit[]) => Promise<void> | void) {
  const context = setup({ prepare });
  const { store, view, printer, write, advance } = context;
  store.dispatchMany(turns(1, 1));
  view.flush();
  printer.setWriter(write);
  printer.show(view, { historyItems: 100, fullHistory: false, menuKey: 'Ctrl+X' });
  advance(SHOW_DELAY_MS);
  return context;
}

describe('TranscriptPrinter', () => {
  it('prints the newest history with a line about the rest, once a writer is there', () => {
    const { store, view, written, printer, write, advance } = setup();
    store.dispatchMany(turns(1, 2));
    view.flush();
    printer.show(view, { historyItems: 2, fullHistory: false, menuKey: 'Ctrl+X' });
    advance(100);
    expect(written).toEqual([]);
    printer.setWriter(write);
    advance(0);
    expect(written).toEqual([['2 earlier items not shown · Ctrl+X → Show the whole history', 'p2', 'r2']]);
    printer.dispose();
    view.dispose();
  });

  it('a long session shown from its newest items projects only those, counts the rest, and all of it when asked', () => {
    const { store, written, printer, write, advance } = setup();
    store.dispatchMany(turns(1, 500));
    const scheduler = new ManualScheduler();
    const view = new SessionViewStore(store, {
      intervalMs: 1,
      scheduler,
      typing: () => false,
      historyItems: 4,
    });
    // Nothing older than the newest four items is read or laid out.
    expect(view.getSnapshot().printed.map(label)).toEqual(['p499', 'r499', 'p500', 'r500']);
    expect(view.getSnapshot().earlier).toBe(996);
    printer.setWriter(write);
    printer.show(view, { historyItems: 4, fullHistory: false, menuKey: 'Ctrl+X' });
    advance(SHOW_DELAY_MS);
    expect(written).toEqual([
      ['996 earlier items not shown · Ctrl+X → Show the whole history', 'p499', 'r499', 'p500', 'r500'],
    ]);
    // More history than was projected: the projection starts again further back.
    written.length = 0;
    printer.show(view, { historyItems: 6, fullHistory: false, menuKey: 'Ctrl+X' });
    advance(SHOW_DELAY_MS);
    expect(written[0]).toEqual([
      '994 earlier items not shown · Ctrl+X → Show the whole history',
      'p498',
      'r498',
      'p499',
      'r499',
      'p500',
      'r500',
    ]);
    written.length = 0;
    printer.show(view, { historyItems: 4, fullHistory: true, menuKey: 'Ctrl+X' });
    for (let i = 0; i < 100 && written.flat().length < 1000; i++) advance(SHOW_DELAY_MS);
    expect(written.flat()).toEqual(Array.from({ length: 500 }, (_, i) => [`p${i + 1}`, `r${i + 1}`]).flat());
    printer.dispose();
    view.dispose();
  });

  it('a projection that settled nothing schedules no printing', () => {
    const { store, view, written, printer, advance, scheduler } = showFirstTurn(() => undefined);
    expect(written.flat()).toEqual(['p1', 'r1']);
    store.dispatchMany([prompt('p2', 2), reply('streaming')]);
    view.flush();
    advance(PRINT_INTERVAL_MS);
    expect(written.flat()).toEqual(['p1', 'r1', 'p2']);
    expect(scheduler.size).toBe(0);
    // Only the live message grew: no timer (each would be a wakeup with nothing to print).
    store.dispatch(reply(' more'));
    view.flush();
    expect(view.getSnapshot().live.map(label)).toEqual(['streaming more']);
    expect(scheduler.size).toBe(0);
    printer.dispose();
    view.dispose();
  });

  it('lets printed Markdown go once written, and lexes it again alike (references too) to print it again', () => {
    const { store, view, written, printer, write, advance } = setup();
    // Streamed: the blocks that become final are printed as parts of their own.
    store.dispatchMany([
      prompt('p1', 1),
      reply('[d]: https://example.com/docs\n\n# Title\n\nSee [the docs][d].\n\nNe'),
    ]);
    view.flush();
    store.dispatchMany([reply('xt.\n'), end(1)]);
    view.flush();
    const parts = view
      .getSnapshot()
      .printed.flatMap((unit) => (unit.part?.kind === 'markdown' ? [unit.part] : []));
    expect(parts.map((part) => part.blocks.at(-1)?.type)).toEqual(['heading', 'paragraph', 'paragraph']);
    const before = parts.map((part) => part.blocks);
    const json = (value: unknown): unknown => JSON.parse(JSON.stringify(value));
    printer.setWriter(write);
    printer.show(view, { historyItems: 10, fullHistory: false, menuKey: 'Ctrl+X' });
    advance(SHOW_DELAY_MS);
    expect(written.flat()).toHaveLength(parts.length + 1);
    const after = parts.map((part) => part.blocks);
    // New token objects: the printed ones were not kept.
    after.forEach((blocks, i) => expect(blocks).not.toBe(before[i]));
    expect(json(after)).toEqual(json(before));
    // The link in the second part, lexed alone, still finds its definition in the first.
    expect(JSON.stringify(after[1])).toContain('"href":"https://example.com/docs"');
    printer.dispose();
    view.dispose();
  });

  it('counts the history shown in transcript items: a message printed in parts is one', () => {
    const { store, view, written, printer, write, advance } = setup();
    // Turns 1-3, each reply streamed as three blocks: printed as three parts.
    for (let turn = 1; turn <= 3; turn++) {
      store.dispatchMany([prompt(`p${turn}`, turn), reply(`# r${turn}\n\npara ${turn}\n\nla`)]);
      view.flush();
      store.dispatchMany([reply('st\n'), end(turn)]);
      view.flush();
    }
    expect(view.getSnapshot().printed).toHaveLength(12);
    printer.setWriter(write);
    printer.show(view, { historyItems: 3, fullHistory: false, menuKey: 'Ctrl+X' });
    advance(SHOW_DELAY_MS);
    expect(written.flat()).toEqual([
      '3 earlier items not shown · Ctrl+X → Show the whole history',
      '# r2',
      '\n\npara 2',
      '\n\nlast\n',
      'p3',
      '# r3',
      '\n\npara 3',
      '\n\nlast\n',
    ]);
    printer.dispose();
    view.dispose();
  });

  it('prints the history in large slices without pauses, then what settles later in small paced ones', () => {
    const { store, view, written, printer, write, advance } = setup();
    store.dispatchMany(turns(1, BACKLOG_UNITS_PER_PRINT + 1));
    view.flush();
    printer.setWriter(write);
    printer.show(view, { historyItems: 1000, fullHistory: false, menuKey: 'Ctrl+X' });
    // The session's live region is drawn first.
    advance(SHOW_DELAY_MS - 1);
    expect(written).toEqual([]);
    advance(1);
    // Two units a turn; each slice lets input through before the next, without waiting.
    expect(written.map((slice) => slice.length)).toEqual([
      BACKLOG_UNITS_PER_PRINT,
      BACKLOG_UNITS_PER_PRINT,
      2,
    ]);
    advance(PRINT_INTERVAL_MS);
    const before = written.length;
    const later = turns(100, 99 + UNITS_PER_PRINT);
    store.dispatchMany(later);
    advance(1);
    expect(written.slice(before)).toHaveLength(1);
    advance(PRINT_INTERVAL_MS - 1);
    expect(written.slice(before)).toHaveLength(1);
    advance(1);
    expect(written.slice(before).map((slice) => slice.length)).toEqual([UNITS_PER_PRINT, UNITS_PER_PRINT]);
    expect(written.slice(before).flat()).toEqual(
      later
        .flatMap((e) => (e.type === 'prompt' ? [(e.prompt[0] as { text: string }).text] : []))
        .flatMap((text) => [text, text.replace('p', 'r')]),
    );
    printer.dispose();
    view.dispose();
  });

  it('told of frames, prints the history right after the first frame that follows show', () => {
    const { store, view, written, printer, write, advance } = setup({ framesReported: true });
    store.dispatchMany(turns(1, 2));
    view.flush();
    printer.setWriter(write);
    printer.frameDrawn(); // a frame before the session is shown starts nothing
    printer.show(view, { historyItems: 100, fullHistory: false, menuKey: 'Ctrl+X' });
    // A slow first render of the session: the fixed delay passes without a frame.
    advance(SHOW_DELAY_MS * 2);
    expect(written).toEqual([]);
    printer.frameDrawn();
    expect(written).toEqual([]); // not inside Ink's render: right after it
    advance(0);
    expect(written.flat()).toEqual(['p1', 'r1', 'p2', 'r2']);
    // Later frames do not print again what was printed.
    printer.frameDrawn();
    advance(SHOW_FRAME_WAIT_MS);
    expect(written.flat()).toEqual(['p1', 'r1', 'p2', 'r2']);
    printer.dispose();
    view.dispose();
  });

  it('told of frames, prints the history after a while when no frame comes', () => {
    const { store, view, written, printer, write, advance } = setup({ framesReported: true });
    store.dispatchMany(turns(1, 1));
    view.flush();
    printer.setWriter(write);
    printer.show(view, { historyItems: 100, fullHistory: false, menuKey: 'Ctrl+X' });
    advance(SHOW_FRAME_WAIT_MS - 1);
    expect(written).toEqual([]);
    advance(1);
    expect(written.flat()).toEqual(['p1', 'r1']);
    printer.dispose();
    view.dispose();
  });

  it('says when the history shown with a session is written: after its last slice, at once when it has none', () => {
    const told: SessionViewStore[] = [];
    const { store, view, written, printer, write, advance } = setup({
      onBacklogPrinted: (shown) => told.push(shown),
    });
    printer.setWriter(write);
    printer.show(view, { historyItems: 1000, fullHistory: false, menuKey: 'Ctrl+X' });
    expect(told).toEqual([view]);
    store.dispatchMany(turns(1, BACKLOG_UNITS_PER_PRINT));
    view.flush();
    printer.show(view, { historyItems: 1000, fullHistory: false, menuKey: 'Ctrl+X' });
    expect(told).toHaveLength(1);
    advance(SHOW_DELAY_MS);
    expect(written.map((slice) => slice.length)).toEqual([BACKLOG_UNITS_PER_PRINT, BACKLOG_UNITS_PER_PRINT]);
    expect(told).toEqual([view, view]);
    printer.dispose();
    view.dispose();
  });

  it('stops printing a session that is no longer shown', () => {
    const { store, view, written, printer, write, advance } = setup();
    printer.setWriter(write);
    printer.show(view, { historyItems: 100, fullHistory: false, menuKey: 'Ctrl+X' });
    store.dispatchMany(turns(1, 1));
    advance(SHOW_DELAY_MS);
    expect(written.flat()).toEqual(['p1', 'r1']);
    printer.show(undefined, { historyItems: 100, fullHistory: false, menuKey: 'Ctrl+X' });
    store.dispatchMany(turns(2, 2));
    advance(1000);
    expect(written.flat()).toEqual(['p1', 'r1']);
    view.dispose();
  });

  it('waits for prepare only for the slices it asks to wait for', async () => {
    let release: () => void = () => undefined;
    const asked: string[][] = [];
    // Waits only for units of the second turn (as the highlighter is awaited only for code).
    const prepare = (units: readonly TranscriptUnit[]): Promise<void> | undefined => {
      asked.push(units.map(label));
      return units.some((unit) => label(unit) === 'r2')
        ? new Promise<void>((resolve) => (release = resolve))
        : undefined;
    };
    const { store, view, written, advance } = showFirstTurn(prepare);
    expect(written).toEqual([['p1', 'r1']]);
    store.dispatchMany(turns(2, 2));
    advance(PRINT_INTERVAL_MS * 2);
    expect(asked.at(-1)).toEqual(['p2', 'r2']);
    expect(written).toEqual([['p1', 'r1']]);
    release();
    await Promise.resolve();
    expect(written).toEqual([
      ['p1', 'r1'],
      ['p2', 'r2'],
    ]);
    view.dispose();
  });

  it('prints a slice once while it waits to be drawn', async () => {
    let release: () => void = () => undefined;
    const prepare = (): Promise<void> => new Promise<void>((resolve) => (release = resolve));
    const { store, view, written, printer, advance } = showFirstTurn(prepare);
    // More settles while the first slice waits: it is not printed twice.
    store.dispatchMany(turns(2, 2));
    advance(PRINT_INTERVAL_MS * 2);
    release();
    await Promise.resolve();
    expect(written).toEqual([['p1', 'r1']]);
    advance(PRINT_INTERVAL_MS);
    release();
    await Promise.resolve();
    expect(written).toEqual([
      ['p1', 'r1'],
      ['p2', 'r2'],
    ]);
    printer.dispose();
    view.dispose();
  });
});
