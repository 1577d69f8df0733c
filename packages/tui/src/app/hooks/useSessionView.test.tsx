import { Text } from 'ink';
import { render } from 'ink-testing-library';
import { act } from 'react';
import { describe, expect, it } from 'vitest';
import { initialSessionState, SessionStore, type SessionEvent } from '@acp-kit/client';
import { chunk, prompt, update } from '../../test-support/session-events.js';
import { ManualScheduler } from '../../text/coalesce.js';
import { SessionViewStore } from '../view/session-view-store.js';
import { useSessionChrome, useSessionView } from './useSessionView.js';

function setup(exact: () => boolean) {
  const scheduler = new ManualScheduler();
  const store = new SessionStore(initialSessionState('s', '/w'));
  const view = new SessionViewStore(store, {
    intervalMs: 30,
    streamPaceMs: 30,
    scheduler,
    now: () => scheduler.time,
  });
  const renders = { chrome: 0, live: 0 };
  let status = '';
  function Chrome() {
    renders.chrome++;
    const chrome = useSessionChrome(view, exact(), (live) => live.length > 1);
    status = `${chrome?.state.status} ${chrome?.state.plan?.length ?? 0} updates ${chrome?.state.updateCount}`;
    return <Text>{status}</Text>;
  }
  function Live() {
    renders.live++;
    return <Text>{useSessionView(view)?.live.length ?? 0}</Text>;
  }
  const app = render(
    <>
      <Chrome />
      <Live />
    </>,
  );
  const step = (events: SessionEvent[]) =>
    act(() => {
      store.dispatchMany(events);
      scheduler.advance(30);
    });
  return { app, renders, step, status: () => status };
}

describe('useSessionChrome', () => {
  it('changes with everything but the text of the message being streamed', () => {
    const { app, renders, step, status } = setup(() => false);
    step([prompt('go'), chunk('Hello')]);
    const before = { ...renders };
    for (const text of [' wor', 'ld', '!']) step([chunk(text)]);
    // Three frames of streamed text: the live part drew each, the rest none.
    expect(renders.live - before.live).toBe(3);
    expect(renders.chrome - before.chrome).toBe(0);
    step([
      update({ sessionUpdate: 'plan', entries: [{ content: 'a', priority: 'high', status: 'pending' }] }),
    ]);
    expect(renders.chrome - before.chrome).toBe(1);
    expect(status()).toMatch(/ 1 updates /);
    app.unmount();
  });

  it('gives the latest state at every frame when asked to be exact', () => {
    const { app, renders, step, status } = setup(() => true);
    step([prompt('go'), chunk('Hello')]);
    const before = renders.chrome;
    step([chunk(' world')]);
    step([chunk('!')]);
    expect(renders.chrome - before).toBe(2);
    expect(status()).toMatch(/updates 3$/);
    app.unmount();
  });
});
