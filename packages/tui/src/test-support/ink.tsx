/**
 * Helpers for ink-testing-library tests. Input written to stdin is handled on the next turns of
 * the event loop (Ink parses it in a `readable` handler and flushes a lone ESC with
 * `setImmediate`), so `press` yields to the event loop — no timers, no sleeps.
 */
import type { ReactElement } from 'react';
import { render } from 'ink-testing-library';
import { expect } from 'vitest';
import { findUnsafeSequences } from '../sanitize/find-unsafe.js';

/** Key sequences as a terminal sends them. */
export const KEYS = {
  enter: '\r',
  escape: '\x1b',
  tab: '\t',
  shiftTab: '\x1b[Z',
  backspace: '\x7f',
  up: '\x1b[A',
  down: '\x1b[B',
  right: '\x1b[C',
  left: '\x1b[D',
  home: '\x1b[H',
  end: '\x1b[F',
  altEnter: '\x1b\r',
  ctrl: (letter: string): string => String.fromCharCode(letter.toLowerCase().charCodeAt(0) - 96),
} as const;

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Lets Ink process pending input and render (a few event-loop turns). */
export async function settle(): Promise<void> {
  for (let i = 0; i < 3; i++) await turn();
}

/** The rendered app plus input helpers. */
export type Rendered = ReturnType<typeof render> & {
  /** Writes each sequence separately (as separate key presses) and settles. */
  press(...sequences: string[]): Promise<void>;
  /** Types text one character at a time. */
  type(text: string): Promise<void>;
  /** The last frame ('' before the first). */
  frame(): string;
};

/** Renders `tree` with ink-testing-library and adds input helpers. */
export function renderInk(tree: ReactElement): Rendered {
  const instance = render(tree);
  return Object.assign(instance, {
    async press(...sequences: string[]) {
      for (const sequence of sequences) {
        instance.stdin.write(sequence);
        await settle();
      }
    },
    async type(text: string) {
      for (const ch of text) {
        instance.stdin.write(ch);
        await settle();
      }
    },
    frame() {
      return instance.lastFrame() ?? '';
    },
  });
}

/** Asserts a frame contains no control sequence except SGR. */
export function expectSafeFrame(frame: string): void {
  expect(findUnsafeSequences(frame)).toEqual([]);
}

/** Collapses runs of spaces and line breaks, so assertions survive wrapping. */
export function flat(frame: string): string {
  return frame.replace(/\s+/g, ' ');
}
