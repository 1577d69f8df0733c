import { describe, expect, it } from 'vitest';
import { findMatches } from '../../browse/search.js';
import { browseSession } from '../../test-support/browse-session.js';
import { BrowseDocumentBuilder, type BrowseDocument } from './browse-document.js';
import { layoutDocument, rowOf } from './browse-layout.js';
import {
  edge,
  INITIAL_POSITION,
  moveSelection,
  page,
  reveal,
  searchFrom,
  selectedIndex,
  showMatch,
  stepSearch,
  topRow,
  type BrowseContext,
  type BrowsePosition,
} from './browse-navigation.js';

const document = new BrowseDocumentBuilder().build(browseSession());

function context(height: number, query = '', width = 200, doc: BrowseDocument = document): BrowseContext {
  const searchable = doc.lines.map((l) => (l.style === 'role' || l.style === 'blank' ? undefined : l.text));
  return {
    document: doc,
    layout: layoutDocument(doc, width),
    height,
    matches: findMatches(searchable, query),
  };
}

const kindOf = (position: BrowsePosition): string | undefined =>
  document.units[selectedIndex(document, position)]?.kind;

describe('moving in the transcript browser', () => {
  it('opens at the end with the last item selected', () => {
    const c = context(10);
    expect(kindOf(INITIAL_POSITION)).toBe('notice');
    expect(topRow(c, INITIAL_POSITION)).toBe(document.lines.length - 10);
  });

  it('moves between units (code blocks inside their message) and keeps the selection on screen', () => {
    const c = context(16);
    let position = INITIAL_POSITION;
    const kinds: (string | undefined)[] = [];
    for (let i = 0; i < 8; i++) {
      position = moveSelection(c, position, -1);
      kinds.push(kindOf(position));
      const unit = document.units[selectedIndex(document, position)];
      const top = topRow(c, position);
      expect(unit && unit.start < top + 16 && unit.end > top).toBe(true);
    }
    expect(kinds).toEqual(['code', 'code', 'agent', 'tool', 'tool', 'tool', 'user', 'user']);
    expect(topRow(c, position)).toBe(0);
    position = moveSelection(c, position, 1);
    expect(kindOf(position)).toBe('tool');
  });

  it('scrolls through a unit taller than the screen before leaving it', () => {
    const c = context(3);
    const agent = document.units.find((u) => u.kind === 'agent');
    let position: BrowsePosition = { ...INITIAL_POSITION, selected: agent?.id, top: agent?.start };
    position = moveSelection(c, position, 1);
    expect(position).toMatchObject({ selected: agent?.id, top: (agent?.start ?? 0) + 1 });
    position = moveSelection(c, position, 1);
    position = moveSelection(c, position, 1);
    // The first code block came into view: it is selected next.
    position = moveSelection(c, position, 1);
    expect(kindOf(position)).toBe('code');
    // Going back up scrolls to the message's first line before leaving it.
    position = moveSelection(c, position, -1);
    expect(kindOf(position)).toBe('agent');
    let guard = 0;
    while (topRow(c, position) > (agent?.start ?? 0) && guard++ < 20)
      position = moveSelection(c, position, -1);
    expect(kindOf(position)).toBe('agent');
    expect(kindOf(moveSelection(c, position, -1))).toBe('tool');
  });

  it('pages by a screen, the selection following what is shown, and goes to either end', () => {
    const c = context(8);
    const up = page(c, INITIAL_POSITION, -1);
    expect(topRow(c, up)).toBe(topRow(c, INITIAL_POSITION) - 7);
    let top = up;
    for (let i = 0; i < 10; i++) top = page(c, top, -1);
    expect(topRow(c, top)).toBe(0);
    expect(kindOf(top)).toBe('user');
    expect(kindOf(edge(c, top, 'last'))).toBe('notice');
    expect(topRow(c, edge(c, top, 'last'))).toBe(topRow(c, INITIAL_POSITION));
    expect(edge(c, INITIAL_POSITION, 'first')).toMatchObject({ top: 0, selected: document.units[0]?.id });
  });

  it('reveals a range moving as little as possible', () => {
    expect(reveal(10, 12, 14, 5)).toBe(10);
    expect(reveal(10, 4, 6, 5)).toBe(4);
    expect(reveal(10, 14, 18, 5)).toBe(13);
    expect(reveal(10, 20, 40, 5)).toBe(20);
    expect(reveal(10, 20, 40, 5, 'end')).toBe(35);
    // A tall range already on the screen does not move it.
    expect(reveal(10, 0, 40, 5, 'end')).toBe(10);
    expect(reveal(10, 12, 40, 5)).toBe(10);
  });
});

describe('searching in the transcript browser', () => {
  it('finds a word across items, selects the unit of the match and shows its row', () => {
    const c = context(5, 'parse');
    expect(c.matches.length).toBeGreaterThan(5);
    const position = showMatch(c, { ...INITIAL_POSITION, query: 'parse', top: 0 }, c.matches.length - 1);
    const match = c.matches[c.matches.length - 1];
    expect(kindOf(position)).toBe('code');
    const row = rowOf(c.layout, match?.line ?? 0, match?.start ?? 0);
    expect(row).toBeGreaterThanOrEqual(topRow(c, position));
    expect(row).toBeLessThan(topRow(c, position) + 5);
  });

  it('starts from where the search began, then steps with wrapping', () => {
    const c = context(5, 'parse');
    const answer = document.units.find((u) => u.kind === 'agent');
    const first = searchFrom(c, INITIAL_POSITION, 'parse', answer?.start ?? 0);
    expect(c.matches[first.match]?.line).toBeGreaterThanOrEqual(answer?.start ?? 0);
    expect(c.matches[first.match - 1]?.line).toBeLessThan(answer?.start ?? 0);
    let step = stepSearch(c, { ...first, match: c.matches.length - 1 }, 1);
    expect(step).toMatchObject({ wrapped: true, position: { match: 0 } });
    // "parser" in the prompt.
    expect(kindOf(step.position)).toBe('user');
    step = stepSearch(c, step.position, -1);
    expect(step).toMatchObject({ wrapped: true, position: { match: c.matches.length - 1 } });
    // Past the end of the transcript, the search starts over from the top.
    expect(searchFrom(c, INITIAL_POSITION, 'parse', document.lines.length).match).toBe(0);
    expect(searchFrom(context(5, 'zzz'), INITIAL_POSITION, 'zzz', 0).match).toBe(-1);
  });

  it('finds a match on the row it wrapped to', () => {
    const c = context(4, 'parse', 12);
    const match = c.matches.find((m) => m.start > 12);
    const index = c.matches.indexOf(match as (typeof c.matches)[number]);
    const position = showMatch(c, { ...INITIAL_POSITION, top: 0 }, index);
    const row = rowOf(c.layout, match?.line ?? 0, match?.start ?? 0);
    expect(row).toBeGreaterThan(c.layout.firstRow[match?.line ?? 0] ?? 0);
    expect(row - topRow(c, position)).toBeLessThan(4);
  });
});
