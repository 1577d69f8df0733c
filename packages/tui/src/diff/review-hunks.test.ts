import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  applyHunkDecisions,
  computeReviewHunks,
  summarizeHunkDecisions,
  type HunkDecision,
} from './review-hunks.js';
import { hunkHeader } from './display.js';
import { computeUnifiedHunks } from './unified.js';

const OLD = ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', ''].join('\n');
const NEW = [
  'one',
  'TWO',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  '',
].join('\n');

describe('computeReviewHunks', () => {
  it('numbers a snippet of a file from its place, as the card and the question do', () => {
    // GitHub Copilot's edit: the replaced string only, at line 2 of notes.txt.
    const placement = { line: 2, wholeFile: false, atEnd: false };
    const [hunk] = computeReviewHunks('line two', 'line 2 (edited)', 3, placement);
    expect(hunkHeader(hunk!)).toBe('@@ -2,1 +2,1 @@');
    expect(hunk!.lines).toEqual([
      { kind: 'remove', text: 'line two', oldNumber: 2 },
      { kind: 'add', text: 'line 2 (edited)', newNumber: 2 },
    ]);
    expect(hunkHeader(hunk!)).toBe(
      hunkHeader(computeUnifiedHunks('line two', 'line 2 (edited)', 3, placement)[0]!),
    );
    // A snippet not found in the file claims no line; one that ends the file keeps its marker.
    expect(computeReviewHunks('x', 'y', 3, { line: null, wholeFile: false, atEnd: false })[0]?.unplaced).toBe(
      true,
    );
    expect(
      computeReviewHunks('end', 'END', 3, { line: 9, wholeFile: false, atEnd: true })[0]?.lines.map(
        (l) => l.kind,
      ),
    ).toEqual(['remove', 'note', 'add', 'note']);
  });

  it('makes one hunk per change, with context and line numbers', () => {
    const hunks = computeReviewHunks(OLD, NEW, 2);
    expect(hunks).toHaveLength(2);
    expect(hunkHeader(hunks[0]!)).toBe('@@ -1,4 +1,4 @@');
    expect(
      hunks[0]!.lines.map((l) => `${l.kind}:${l.text}:${l.oldNumber ?? ''}:${l.newNumber ?? ''}`),
    ).toEqual(['context:one:1:1', 'remove:two:2:', 'add:TWO::2', 'context:three:3:3', 'context:four:4:4']);
    expect(hunkHeader(hunks[1]!)).toBe('@@ -9,2 +9,3 @@');
    expect(hunks[1]!.lines.filter((l) => l.kind === 'add').map((l) => [l.text, l.newNumber])).toEqual([
      ['eleven', 11],
    ]);
  });

  it('marks a missing final newline', () => {
    const [hunk] = computeReviewHunks('a\nb', 'a\nb\n');
    expect(hunk!.lines.map((l) => l.kind)).toEqual(['context', 'remove', 'note', 'add']);
  });

  it('treats a new file as one hunk of additions', () => {
    const hunks = computeReviewHunks('', 'x\ny\n');
    expect(hunks).toHaveLength(1);
    expect(hunkHeader(hunks[0]!)).toBe('@@ -0,0 +1,2 @@');
  });
});

describe('applyHunkDecisions', () => {
  it('applies exactly the accepted hunks', () => {
    expect(applyHunkDecisions(OLD, NEW, ['accept', 'reject'])).toBe(OLD.replace('two', 'TWO'));
    expect(applyHunkDecisions(OLD, NEW, ['reject', 'accept'])).toBe(NEW.replace('TWO', 'two'));
    expect(applyHunkDecisions(OLD, NEW, [])).toBe(OLD);
  });

  it('keeps CRLF line endings and missing final newlines exactly', () => {
    const before = 'a\r\nb\r\nc';
    const after = 'a\r\nB\r\nc\r\n';
    expect(applyHunkDecisions(before, after, ['accept', 'accept'])).toBe(after);
    expect(applyHunkDecisions(before, after, ['reject', 'reject'])).toBe(before);
  });

  // Texts over a small alphabet of lines, so that diffs have many hunks and repeated lines.
  const line = fc.constantFrom('a', 'b', 'c', 'd', '', '  indented', 'x\r');
  const text = fc
    .tuple(fc.array(line, { maxLength: 30 }), fc.boolean())
    .map(([lines, finalNewline]) => lines.join('\n') + (finalNewline && lines.length > 0 ? '\n' : ''));

  it('all accepted gives the new text, all rejected the old text (property)', () => {
    fc.assert(
      fc.property(text, text, (before, after) => {
        const n = computeReviewHunks(before, after).length;
        expect(applyHunkDecisions(before, after, Array<HunkDecision>(n).fill('accept'))).toBe(after);
        expect(applyHunkDecisions(before, after, Array<HunkDecision>(n).fill('reject'))).toBe(before);
      }),
      { seed: 1337, numRuns: 1000 },
    );
  });

  it('each accepted hunk changes exactly its own lines (property)', () => {
    fc.assert(
      fc.property(text, text, fc.array(fc.boolean(), { maxLength: 40 }), (before, after, picks) => {
        const hunks = computeReviewHunks(before, after);
        const decisions = hunks.map((_, i): HunkDecision => (picks[i] ? 'accept' : 'reject'));
        const result = applyHunkDecisions(before, after, decisions);
        // Line count: the old count plus, for every accepted hunk, what it adds minus what it removes.
        const count = (s: string) => (s === '' ? 0 : s.split('\n').length - (s.endsWith('\n') ? 1 : 0));
        const expected =
          count(before) +
          hunks.reduce(
            (sum, h, i) => sum + (decisions[i] === 'accept' ? h.addedCount - h.removedCount : 0),
            0,
          );
        expect(count(result)).toBe(expected);
        // Accepting the remaining hunks on top of the result reaches the new text.
        const rest = computeReviewHunks(result, after);
        expect(
          applyHunkDecisions(
            result,
            after,
            rest.map(() => 'accept'),
          ),
        ).toBe(after);
      }),
      { seed: 2024, numRuns: 1000 },
    );
  });
});

describe('summarizeHunkDecisions', () => {
  it('tells the agent which changes were rejected', () => {
    const hunks = computeReviewHunks(OLD, NEW);
    const summary = summarizeHunkDecisions('/w/a.txt', hunks, ['reject', 'accept']);
    expect(summary).toMatchObject({ accepted: 1, rejected: 1, nothingToWrite: false });
    expect(summary.message).toBe(
      'The user accepted 1 of 2 changes to /w/a.txt and rejected the changes at line 2; ' +
        'the file now contains only the accepted changes. Read it again before editing it further.',
    );
    expect(summarizeHunkDecisions('/w/a.txt', hunks, ['reject', 'reject']).nothingToWrite).toBe(true);
  });
});

describe('computeUnifiedHunks', () => {
  it('merges nearby changes like diff -u and numbers lines', () => {
    expect(computeUnifiedHunks(OLD, NEW, 3).map(hunkHeader)).toEqual(['@@ -1,5 +1,5 @@', '@@ -8,3 +8,4 @@']);
    const close = OLD.replace('two', 'TWO').replace('six', 'SIX');
    expect(computeUnifiedHunks(OLD, close, 3).map(hunkHeader)).toEqual(['@@ -1,9 +1,9 @@']);
    // Review hunks stay one per change, so each can be decided on its own.
    expect(computeReviewHunks(OLD, close, 3)).toHaveLength(2);
  });

  it('shows a new file as added lines', () => {
    const [hunk] = computeUnifiedHunks(null, 'a\nb\n');
    expect(hunk!.lines.map((l) => [l.kind, l.text, l.newNumber])).toEqual([
      ['add', 'a', 1],
      ['add', 'b', 2],
    ]);
  });
});
