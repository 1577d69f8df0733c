import { describe, expect, it, vi } from 'vitest';
import { KEYS, renderInk } from '../test-support/ink.js';
import { KeyBindingsProvider } from '../keys/KeyBindingsContext.js';
import { resolveKeyBindings } from '../keys/key-bindings.js';
import { KeyHelp } from './KeyHelp.js';

const inner = (frame: string) => frame.split('\n').map((l) => l.replace(/^│ ?| ?│$/g, '').trimEnd());

describe('KeyHelp', () => {
  it('lists every action with its keys, grouped by scope', () => {
    const lines = inner(renderInk(<KeyHelp />).frame());
    expect(lines).toContain('Everywhere');
    expect(lines.some((l) => /^Esc {2}Ctrl\+C +Cancel the running turn$/.test(l))).toBe(true);
    expect(lines.some((l) => /^Alt\+Enter {2}Ctrl\+J +Insert a new line$/.test(l))).toBe(true);
    expect(lines.some((l) => /^A +Accept all hunks$/.test(l))).toBe(true);
    expect(lines).toContain('Composer editing');
  });

  it('shows configured keys and unbound actions', () => {
    const { bindings } = resolveKeyBindings({ 'review.acceptAll': ['ctrl+a'], 'app.togglePlan': [] });
    const lines = inner(
      renderInk(
        <KeyBindingsProvider bindings={bindings}>
          <KeyHelp />
        </KeyBindingsProvider>,
      ).frame(),
    );
    expect(lines.some((l) => /^Ctrl\+A +Accept all hunks$/.test(l))).toBe(true);
    expect(lines.some((l) => /^\(unbound\) +Show or hide the plan$/.test(l))).toBe(true);
  });

  it('closes with its keys', async () => {
    const onClose = vi.fn();
    const r = renderInk(<KeyHelp onClose={onClose} />);
    await r.press('x');
    expect(onClose).not.toHaveBeenCalled();
    await r.press('q', KEYS.escape);
    expect(onClose).toHaveBeenCalledTimes(2);
  });
});
