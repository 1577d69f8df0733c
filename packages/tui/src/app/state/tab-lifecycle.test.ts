import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { ErrorInfo } from '@acp-kit/client';
import {
  TAB_TRANSITIONS,
  tabTransition,
  type TabEvent,
  type TabLifecycle,
  type TabPhase,
} from './tab-lifecycle.js';

const error: ErrorInfo = { code: 'AGENT_EXITED', message: 'exited with code 3' };
const options = [{ id: 'login', name: 'Log in', action: 'authenticate' }] as never;
const EVENTS: readonly TabEvent[] = [
  { type: 'start', message: 'Starting…' },
  { type: 'progress', message: 'Opening the session…' },
  { type: 'opened' },
  { type: 'needs_sign_in', options, message: 'Sign in' },
  { type: 'sign_in_failed', message: 'did not work' },
  { type: 'exited', error, message: 'Demo exited' },
  { type: 'failed', error, message: 'could not start' },
];
const PHASES: readonly TabPhase[] = ['starting', 'ready', 'auth', 'crashed', 'failed'];

describe('the tab lifecycle', () => {
  it('moves between phases exactly as its table says, and ignores events a phase does not take', () => {
    for (const phase of PHASES) {
      for (const event of EVENTS) {
        const tab: TabLifecycle = { phase, message: 'before' };
        const next = tabTransition(tab, event);
        const expected = TAB_TRANSITIONS[phase][event.type];
        if (expected === undefined) expect(next).toBe(tab);
        else expect(next.phase).toBe(expected);
      }
    }
  });

  it('becomes ready only when the session opened while starting, and forgets what went wrong', () => {
    const starting: TabLifecycle = { phase: 'starting', message: 'Opening…', error, authOptions: options };
    expect(tabTransition(starting, { type: 'opened' })).toEqual({ phase: 'ready' });
    // The agent exited while the session was opening: the late `opened` changes nothing.
    const crashed = tabTransition(starting, { type: 'exited', error, message: 'Demo exited' });
    expect(tabTransition(crashed, { type: 'opened' })).toBe(crashed);
  });

  it('restarts from any phase, keeping the sign-in methods but not the error', () => {
    for (const phase of PHASES) {
      const next = tabTransition(
        { phase, error, authOptions: options, message: 'x' },
        { type: 'start', message: 'Restarting Demo…' },
      );
      expect(next).toEqual({ phase: 'starting', message: 'Restarting Demo…', authOptions: options });
    }
  });

  it('ends a cancelled turn when the agent exits, and stays crashed when reopening it then fails', () => {
    const ready = { phase: 'ready', cancelSentAt: 5, queued: 0 } as TabLifecycle & { queued: number };
    const crashed = tabTransition(ready, { type: 'exited', error, message: 'Demo was stopped' });
    expect(crashed).toEqual({ phase: 'crashed', error, message: 'Demo was stopped', queued: 0 });
    expect(tabTransition(crashed, { type: 'failed', error, message: 'no session' }).phase).toBe('crashed');
  });

  it('asks to sign in again with the same methods when one did not work', () => {
    const auth = tabTransition({ phase: 'starting' }, { type: 'needs_sign_in', options, message: 'Sign in' });
    expect(auth).toEqual({ phase: 'auth', authOptions: options, message: 'Sign in' });
    const signing = tabTransition(auth, { type: 'start', message: 'Signing in with Log in…' });
    const again = tabTransition(signing, { type: 'sign_in_failed', message: 'ended with exit code 1' });
    expect(again).toEqual({ phase: 'auth', authOptions: options, message: 'ended with exit code 1' });
  });

  it('shows the steps of a start only while starting', () => {
    expect(tabTransition<TabLifecycle>({ phase: 'starting' }, EVENTS[1] as TabEvent).message).toBe(
      'Opening the session…',
    );
    const ready: TabLifecycle = { phase: 'ready' };
    expect(tabTransition(ready, EVENTS[1] as TabEvent)).toBe(ready);
  });

  it('keeps an error with every crashed or failed tab, whatever the events before', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...EVENTS), { maxLength: 20 }), (events) => {
        let tab: TabLifecycle = { phase: 'starting', message: 'Starting…' };
        for (const event of events) {
          const before = tab;
          tab = tabTransition(tab, event);
          if (tab.phase === 'crashed' || tab.phase === 'failed') expect(tab.error).toBeDefined();
          if (tab.phase === 'ready' && before.phase !== 'ready') expect(before.phase).toBe('starting');
          if (tab.phase === 'ready') expect(tab.error).toBeUndefined();
        }
      }),
      { seed: 3, numRuns: 500 },
    );
  });
});
