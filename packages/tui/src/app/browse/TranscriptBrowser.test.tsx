import { describe, expect, it, vi } from 'vitest';

// Colours are off when stdout is not a terminal; force them to see the highlights (before Ink loads chalk).
vi.hoisted(() => {
  process.env.FORCE_COLOR = '3';
});

import { KEY_ACTIONS, DEFAULT_KEY_BINDINGS } from '../../keys/key-bindings.js';
import { formatKeySpec, matchesKey } from '../../keys/key-spec.js';
import { BROWSE_CWD, browseSession } from '../../test-support/browse-session.js';
import { KEYS, expectSafeFrame, flat, renderInk } from '../../test-support/ink.js';
import { inkKey } from '../../test-support/key.js';
import { BrowseDocumentBuilder, type BrowseLocation, type BrowseUnit } from './browse-document.js';
import type { BrowsePosition } from './browse-navigation.js';
import { TranscriptBrowser } from './TranscriptBrowser.js';

const document = new BrowseDocumentBuilder().build(browseSession());
// eslint-disable-next-line no-control-regex
const plain = (frame: string): string => frame.replace(/\x1b\[[0-9;]*m/g, '');

function setup(initial?: BrowsePosition) {
  const onCopy = vi.fn<(unit: BrowseUnit) => void>();
  const onOpen = vi.fn<(location: BrowseLocation, position: BrowsePosition) => void>();
  const onClose = vi.fn<() => void>();
  const r = renderInk(
    <TranscriptBrowser
      document={document}
      rows={16}
      columns={80}
      title="Why does the parser fail?"
      onCopy={onCopy}
      onOpen={onOpen}
      onClose={onClose}
      {...(initial ? { initial } : {})}
    />,
  );
  return { r, onCopy, onOpen, onClose, text: () => flat(plain(r.frame())) };
}

describe('TranscriptBrowser', () => {
  it('opens at the end of the transcript with the last item selected', () => {
    const { r, text } = setup();
    expect(text()).toContain('Transcript · Why does the parser fail?');
    expect(text()).toContain('▌ ⚠ Turn cancelled.');
    expect(text()).toContain('notice · y copy');
    expect(text()).toContain('↑↓ move · / search · n N match · y copy · o open in editor · Esc close');
    expect(plain(r.frame()).split('\n')).toHaveLength(16);
    expectSafeFrame(r.frame());
  });

  it('searches as you type, highlights the matches and marks the current one, with a counter', async () => {
    const { r, text } = setup();
    await r.press('/');
    await r.type('parse');
    // From the selected (last) item there is no match after it: the search starts over at the top.
    expect(text()).toMatch(/\/parse {1,2}1\/13 · Enter done/);
    expect(r.frame()).toContain('\x1b[7mparse\x1b[27m');
    // The current one: bold on the theme's warning colour.
    expect(r.frame()).toMatch(/\x1b\[1m\x1b\[(43|48;[0-9;]+)m\x1b\[30mparse/); // eslint-disable-line no-control-regex
    await r.press(KEYS.enter);
    expect(text()).toContain('“parse” 1/13 · your message');
    await r.press('n', 'n');
    expect(text()).toContain('“parse” 3/13 · tool call · 2 files');
    await r.press('N', 'N', 'N');
    expect(text()).toContain('search wrapped');
    expect(text()).toContain('▌ export function parse(text: string) {');
    await r.press('n');
    expect(text()).toContain('search wrapped');
    expect(text()).toContain('▌ Why does the parser fail?');
    await r.press('n');
    expect(text()).toContain('“parse” 2/13 · tool call');
  });

  it('steps through matches with ↑↓ while typing, and says when nothing matches', async () => {
    const { r, text } = setup();
    await r.press(KEYS.ctrl('f'));
    await r.type('npm');
    expect(text()).toContain('1/2');
    await r.press(KEYS.down);
    expect(text()).toContain('2/2');
    await r.press(KEYS.backspace, KEYS.backspace, KEYS.backspace);
    await r.type('zzz');
    expect(text()).toContain('/zzz 0/0');
    await r.press(KEYS.escape);
    await r.press('n');
    expect(text()).toContain('No match for “zzz”');
  });

  it('copies the selected message, code block or tool output', async () => {
    const { r, onCopy } = setup();
    await r.press(KEYS.up, 'y');
    expect(onCopy).toHaveBeenLastCalledWith(expect.objectContaining({ kind: 'code', language: 'ts' }));
    expect(onCopy.mock.lastCall?.[0].copyText).toBe(
      'export function parse(text: string) {\n\treturn JSON.parse(text);\n}',
    );
    await r.press(KEYS.up, 'c');
    expect(onCopy.mock.lastCall?.[0]).toMatchObject({ kind: 'code', copyText: 'npm test' });
  });

  it('opens the location of a tool call, letting you pick when it has several', async () => {
    const { r, onOpen, text } = setup({ query: 'Edit', match: -1 });
    await r.press('n', 'o');
    expect(onOpen).toHaveBeenCalledTimes(1);
    expect(onOpen.mock.lastCall?.[0]).toMatchObject({ path: `${BROWSE_CWD}/src/parse.ts`, line: 13 });
    expect(onOpen.mock.lastCall?.[1]).toMatchObject({ query: 'Edit', match: 0 });
    await r.press(KEYS.up);
    await r.press(KEYS.enter);
    expect(text()).toContain('Open which file?');
    expect(text()).toContain('❯ 1 src/parse.ts:12');
    expect(text()).toContain("2 /etc/hosts (outside the session's directories)");
    await r.press('2');
    expect(onOpen.mock.lastCall?.[0]).toMatchObject({ path: '/etc/hosts', outside: true });
    expect(text()).not.toContain('Open which file?');
    await r.press('G', 'o');
    expect(onOpen).toHaveBeenCalledTimes(2);
    expect(text()).toContain('Only a tool call with a file opens in the editor');
  });

  it('comes back where it was (search and selection), and Esc leaves typing before it closes', async () => {
    const { r, text, onClose } = setup({ query: 'hosts', match: 0, top: 0, selected: document.units[1]?.id });
    expect(text()).toContain('“hosts” 1/1 · tool call');
    expect(text()).toContain('▌ ✓ ≡ Read src/parse.ts');
    await r.press('/');
    await r.press(KEYS.escape);
    expect(onClose).not.toHaveBeenCalled();
    await r.press(KEYS.escape);
    expect(onClose).toHaveBeenCalledTimes(1);
  });
});

describe('the transcript browser key', () => {
  it('is Ctrl+F, which nothing else in the session uses', () => {
    expect(DEFAULT_KEY_BINDINGS['app.browse']).toEqual(['ctrl+f']);
    expect(matchesKey('ctrl+f', 'f', inkKey({ ctrl: true }))).toBe(true);
    // The composer's fixed editing keys, and every key of a scope that is live with the composer.
    const live = new Set(['ctrl+a', 'ctrl+e', 'ctrl+d', 'ctrl+w', 'ctrl+u', 'ctrl+k', 'ctrl+j']);
    for (const { action, scope } of KEY_ACTIONS) {
      if (['app', 'composer', 'permission', 'review', 'form'].includes(scope) && action !== 'app.browse')
        for (const spec of DEFAULT_KEY_BINDINGS[action]) live.add(formatKeySpec(spec).toLowerCase());
    }
    expect(live.has('ctrl+f')).toBe(false);
  });
});
