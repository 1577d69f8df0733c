import { readFile } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  initialSessionState,
  reduceSessionEvents,
  SessionStore,
  type SessionEvent,
  type SessionState,
} from '@acp-kit/client';
import { chunk, prompt, update } from '../../test-support/session-events.js';
import { unitText } from '../../test-support/units.js';
import { ManualScheduler } from '../../text/coalesce.js';
import { onlyStreamedText, SessionViewStore, UI_READ_PACING_MS } from './session-view-store.js';

const toolCall = (id: string): SessionEvent =>
  update({ sessionUpdate: 'tool_call', toolCallId: id, title: 'Read', status: 'pending' });

function setup(typing = false) {
  const scheduler = new ManualScheduler();
  const store = new SessionStore(initialSessionState('s', '/w'));
  let keys = typing;
  const view = new SessionViewStore(store, {
    intervalMs: 30,
    streamPaceMs: 100,
    scheduler,
    now: () => scheduler.time,
    typing: () => keys,
  });
  let projections = 0;
  view.subscribe(() => projections++);
  const liveText = (): string[] => view.getSnapshot().live.map(unitText);
  return {
    store,
    view,
    scheduler,
    liveText,
    projections: () => projections,
    setTyping: (value: boolean) => (keys = value),
  };
}

describe('SessionViewStore', () => {
  it('projects a burst of changes once, an interval after its first change', () => {
    const { store, scheduler, projections, liveText } = setup();
    store.dispatch(prompt('go'));
    store.dispatch(toolCall('a'));
    scheduler.advance(29);
    expect(projections()).toBe(0);
    scheduler.advance(1);
    expect(projections()).toBe(1);
    expect(liveText()).toEqual(['tool_call']);
  });

  it('draws streamed text alone at the stream pace while the user is not typing', () => {
    const { store, scheduler, projections, liveText } = setup();
    store.dispatchMany([prompt('go'), chunk('Hello')]);
    scheduler.advance(30);
    expect(projections()).toBe(1);
    store.dispatch(chunk(' wor'));
    scheduler.advance(30);
    store.dispatch(chunk('ld'));
    scheduler.advance(69);
    expect(projections()).toBe(1);
    scheduler.advance(1);
    expect(projections()).toBe(2);
    expect(liveText()).toEqual(['Hello world']);
  });

  it('draws streamed text with the first change once the pace has passed since the last projection', () => {
    const { store, scheduler, projections, liveText } = setup();
    store.dispatchMany([prompt('go'), chunk('Hello')]);
    scheduler.advance(30);
    expect(projections()).toBe(1);
    scheduler.advance(50);
    store.dispatch(chunk(' wor'));
    scheduler.advance(50);
    // The pace has passed since the projection at 30: drawn with this read, not by a timer.
    store.dispatch(chunk('ld'));
    store.dispatch(chunk('!'));
    expect(projections()).toBe(1);
    expect(scheduler.size).toBe(1);
    scheduler.advance(0);
    expect(projections()).toBe(2);
    expect(liveText()).toEqual(['Hello world!']);
    expect(scheduler.size).toBe(0);
  });

  it('draws the text of every read of a stream paced as the UI reads, each in its own wakeup', () => {
    const scheduler = new ManualScheduler();
    const store = new SessionStore(initialSessionState('s', '/w'));
    const view = new SessionViewStore(store, { scheduler, now: () => scheduler.time, typing: () => false });
    const drawn: string[] = [];
    view.subscribe(() => drawn.push(view.getSnapshot().live.map(unitText).join('')));
    store.dispatchMany([prompt('go'), chunk('a')]);
    scheduler.advance(UI_READ_PACING_MS);
    expect(drawn).toEqual(['a']);
    for (const text of ['b', 'c', 'd', 'e']) {
      // A read, UI_READ_PACING_MS after the one before: its chunks arrive together.
      store.dispatchMany([chunk(text), chunk(text)]);
      scheduler.advance(0);
      scheduler.advance(UI_READ_PACING_MS);
    }
    // Drawn after each read, never by a timer: with 100 ms rests, every other read waits.
    expect(drawn).toEqual(['a', 'abb', 'abbcc', 'abbccdd', 'abbccddee']);
    expect(scheduler.size).toBe(0);
  });

  it('reads the session state once for a read of streamed text and once to draw it', () => {
    const { store, scheduler, projections, liveText } = setup();
    store.dispatchMany([prompt('go'), chunk('a')]);
    scheduler.advance(30);
    scheduler.advance(200);
    let reads = 0;
    const getSnapshot = store.getSnapshot;
    store.getSnapshot = () => (reads++, getSnapshot());
    // A read of 50 chunks after the pace: its first is compared, the rest wait for the frame due
    // at once (the store then applies them together), and so does a tool call among them.
    for (let i = 0; i < 25; i++) store.dispatch(chunk('b'));
    store.dispatch(toolCall('t'));
    for (let i = 0; i < 24; i++) store.dispatch(chunk('c'));
    expect(reads).toBe(1);
    scheduler.advance(0);
    scheduler.advance(0);
    expect(projections()).toBe(2);
    expect(reads).toBeLessThanOrEqual(3);
    expect(liveText()).toEqual(['tool_call', 'c'.repeat(24)]);
  });

  it('draws the text of a read after the timers that fell due while the read was handled', async () => {
    // Real timers: the read and its frame in one task held the event loop for both.
    let clock = 0;
    const store = new SessionStore(initialSessionState('s', '/w'));
    const view = new SessionViewStore(store, { now: () => clock, typing: () => false });
    store.dispatchMany([prompt('go'), chunk('a')]);
    view.flush();
    const order: string[] = [];
    view.subscribe(() => order.push('frame'));
    await new Promise<void>((resolve) => {
      // A read (an I/O callback, as the agent's pipe is) during which a timer falls due.
      readFile(fileURLToPath(import.meta.url), () => {
        setTimeout(() => order.push('timer'), 1);
        const until = performance.now() + 5;
        while (performance.now() < until);
        clock = 1000;
        store.dispatch(chunk('b'));
        setImmediate(() => setImmediate(() => setImmediate(resolve)));
      });
    });
    expect(order).toEqual(['timer', 'frame']);
    expect(view.getSnapshot().live.map(unitText)).toEqual(['ab']);
  });

  it('draws streamed text arriving long after the last projection at once', () => {
    const { store, scheduler, projections, liveText } = setup();
    store.dispatchMany([prompt('go'), chunk('Hello')]);
    scheduler.advance(30);
    scheduler.advance(500);
    store.dispatch(chunk(' world'));
    scheduler.advance(0);
    expect(projections()).toBe(2);
    expect(liveText()).toEqual(['Hello world']);
  });

  it('draws streamed text at the interval while the user types', () => {
    const { store, scheduler, projections, setTyping } = setup();
    store.dispatchMany([prompt('go'), chunk('Hello')]);
    scheduler.advance(30);
    setTyping(true);
    store.dispatch(chunk(' world'));
    scheduler.advance(30);
    expect(projections()).toBe(2);
  });

  it('draws at once anything but text that arrives while streamed text waits for the pace', () => {
    const { store, view, scheduler, projections, liveText } = setup();
    store.dispatchMany([prompt('go'), chunk('Hello')]);
    scheduler.advance(30);
    store.dispatch(chunk(' world'));
    scheduler.advance(40);
    expect(projections()).toBe(1);
    store.dispatch(toolCall('a'));
    expect(projections()).toBe(2);
    expect(liveText()).toEqual(['tool_call']);
    expect(view.getSnapshot().printed.map((unit) => unit.item.kind)).toEqual(['message', 'message']);
    scheduler.advance(100);
    expect(projections()).toBe(2);
  });

  it('projects what is pending at once on flush', () => {
    const { store, view, scheduler, projections } = setup();
    store.dispatchMany([prompt('go'), chunk('Hello')]);
    view.flush();
    expect(projections()).toBe(1);
    expect(scheduler.size).toBe(0);
  });
});

describe('onlyStreamedText', () => {
  const base = reduceSessionEvents(initialSessionState('s', '/w'), [prompt('go'), chunk('Hel')]);

  it('holds when only the last message grew', () => {
    expect(onlyStreamedText(base, reduceSessionEvents(base, [chunk('lo')]), 0)).toBe(true);
  });

  it('fails for a new item, a changed earlier item, or another field', () => {
    expect(onlyStreamedText(base, reduceSessionEvents(base, [toolCall('a')]), 0)).toBe(false);
    const withCall = reduceSessionEvents(base, [toolCall('a'), chunk('after')]);
    const callDone = reduceSessionEvents(withCall, [
      update({ sessionUpdate: 'tool_call_update', toolCallId: 'a', status: 'completed' }),
      chunk(' more'),
    ]);
    expect(onlyStreamedText(withCall, callDone, 0)).toBe(false);
    // Items before `from` are printed: their changes are not drawn.
    expect(onlyStreamedText(withCall, callDone, 3)).toBe(true);
    const plan = reduceSessionEvents(base, [
      update({ sessionUpdate: 'plan', entries: [{ content: 'x', priority: 'low', status: 'pending' }] }),
    ]);
    expect(onlyStreamedText(base, plan, 0)).toBe(false);
  });

  it('fails when a field appears, goes, or is swapped for another', () => {
    const grown = reduceSessionEvents(base, [chunk('lo')]);
    const field = Object.keys(grown).find(
      (key) => !['items', 'updateCount', 'updatedAt', 'messageIndex'].includes(key),
    ) as keyof SessionState;
    const fewer: Partial<SessionState> = { ...grown };
    delete fewer[field];
    const more = { ...grown, extra: undefined } as SessionState;
    expect(onlyStreamedText(base, fewer as SessionState, 0)).toBe(false);
    expect(onlyStreamedText(base, more, 0)).toBe(false);
    expect(onlyStreamedText(base, { ...fewer, extra: undefined } as SessionState, 0)).toBe(false);
  });
});
