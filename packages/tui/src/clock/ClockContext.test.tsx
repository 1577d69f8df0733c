import { Text } from 'ink';
import { render } from 'ink-testing-library';
import { act } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { ClockProvider, useNow } from './ClockContext.js';

function Shown({ label }: { label: string }) {
  return <Text>{`${label} ${useNow()}`}</Text>;
}

describe('ClockProvider', () => {
  it('shows the time in a frame drawn for another reason once it is a tick old, without a frame of its own', () => {
    let now = 1_000;
    const clock = (): number => now;
    const { lastFrame, rerender, unmount } = render(
      <ClockProvider intervalMs={1000} now={clock}>
        <Shown label="a" />
      </ClockProvider>,
    );
    expect(lastFrame()).toBe('a 1000');
    // Streamed text redraws before the second is up: the time shown stays.
    now = 1_600;
    rerender(
      <ClockProvider intervalMs={1000} now={clock}>
        <Shown label="b" />
      </ClockProvider>,
    );
    expect(lastFrame()).toBe('b 1000');
    // The next frame after the second is up shows the new time itself.
    now = 2_050;
    rerender(
      <ClockProvider intervalMs={1000} now={clock}>
        <Shown label="c" />
      </ClockProvider>,
    );
    expect(lastFrame()).toBe('c 2050');
    unmount();
  });

  it('ticks on its own when nothing else draws, and not while paused', async () => {
    let now = 0;
    const clock = (): number => (now += 10);
    const { lastFrame, rerender, unmount } = render(
      <ClockProvider intervalMs={20} now={clock}>
        <Shown label="t" />
      </ClockProvider>,
    );
    const first = lastFrame();
    await vi.waitFor(() => expect(lastFrame()).not.toBe(first), { timeout: 5000, interval: 5 });
    rerender(
      <ClockProvider intervalMs={20} now={clock} paused>
        <Shown label="p" />
      </ClockProvider>,
    );
    const paused = lastFrame();
    // Later frames drawn for other reasons keep the paused time.
    rerender(
      <ClockProvider intervalMs={20} now={clock} paused>
        <Shown label="p" />
      </ClockProvider>,
    );
    expect(lastFrame()).toBe(paused);
    unmount();
  });

  it('shows the time in a frame another component draws for a store it is given, in that frame', () => {
    let now = 1_000;
    const clock = (): number => now;
    const listeners = new Set<() => void>();
    const frames = {
      subscribe: (listener: () => void) => (listeners.add(listener), () => listeners.delete(listener)),
    };
    const { lastFrame, unmount } = render(
      <ClockProvider intervalMs={1000} now={clock} frames={frames}>
        <Shown label="a" />
      </ClockProvider>,
    );
    now = 1_600;
    act(() => listeners.forEach((listener) => listener()));
    expect(lastFrame()).toBe('a 1000');
    // A frame of streamed text once the second is up: the time moves with it.
    now = 2_050;
    act(() => listeners.forEach((listener) => listener()));
    expect(lastFrame()).toBe('a 2050');
    unmount();
    expect(listeners.size).toBe(0);
  });
});
