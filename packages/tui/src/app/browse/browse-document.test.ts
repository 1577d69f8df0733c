import { describe, expect, it } from 'vitest';
import { reduceSessionEvents, v1UpdateEvents } from '@acp-kit/client';
import { BROWSE_CWD, browseSession } from '../../test-support/browse-session.js';
import { BrowseDocumentBuilder, browseLocation, type BrowseDocument } from './browse-document.js';

const textOf = (document: BrowseDocument, start: number, end: number): string[] =>
  document.lines.slice(start, end).map((line) => line.text);

describe('the transcript as a document', () => {
  it('has a unit per message, code block, tool call and notice, in reading order', () => {
    const document = new BrowseDocumentBuilder().build(browseSession());
    expect(document.units.map((u) => u.kind)).toEqual([
      'user',
      'tool',
      'tool',
      'tool',
      'agent',
      'code',
      'code',
      'notice',
    ]);
    for (const unit of document.units) {
      expect(unit.end).toBeGreaterThan(unit.start);
      for (let line = unit.start; line < unit.end; line++) {
        const owner = document.units[document.lines[line]?.unit ?? -1];
        expect(owner === unit || owner?.parent === document.units.indexOf(unit)).toBe(true);
      }
    }
    // A blank line (of no unit) between items.
    expect(document.lines.filter((line) => line.unit < 0).every((line) => line.text === '')).toBe(true);
  });

  it("copies a message's Markdown source, and a code block's code with its tabs", () => {
    const document = new BrowseDocumentBuilder().build(browseSession());
    const [sh, ts] = document.units.filter((u) => u.kind === 'code');
    expect(sh).toMatchObject({ language: 'sh', copyText: 'npm test' });
    expect(ts?.copyText).toBe('export function parse(text: string) {\n\treturn JSON.parse(text);\n}');
    expect(textOf(document, ts?.start ?? 0, ts?.end ?? 0)).toEqual([
      '```ts',
      'export function parse(text: string) {',
      '    return JSON.parse(text);',
      '}',
      '```',
    ]);
    const answer = document.units.find((u) => u.kind === 'agent');
    expect(answer?.copyText).toContain('Run the tests:\n\n```sh\nnpm test\n```');
    expect(document.lines[answer?.start ?? 0]).toMatchObject({ text: '● Agent', style: 'role' });
  });

  it('shows tool calls with their locations, output, diffs and terminal output', () => {
    const document = new BrowseDocumentBuilder().build(browseSession());
    const [read, edit, run] = document.units.filter((u) => u.kind === 'tool');
    expect(textOf(document, read?.start ?? 0, read?.end ?? 0)).toEqual([
      '✓ ≡ Read src/parse.ts',
      '  ↳ src/parse.ts:12',
      "  ↳ /etc/hosts  (outside the session's directories)",
      'export function parse(text) {',
      '  return eval(text);',
      '}',
    ]);
    expect(read?.locations).toEqual([
      { path: `${BROWSE_CWD}/src/parse.ts`, line: 12, outside: false, label: 'src/parse.ts:12' },
      { path: '/etc/hosts', outside: true, label: '/etc/hosts' },
    ]);
    expect(read?.copyText).toBe('export function parse(text) {\n  return eval(text);\n}');
    // A relative location is taken from the session's directory.
    expect(edit?.locations[0]).toMatchObject({ path: `${BROWSE_CWD}/src/parse.ts`, line: 13 });
    expect(textOf(document, edit?.start ?? 0, edit?.end ?? 0)).toContain('+   return JSON.parse(text);');
    // Terminal output without its colours.
    expect(textOf(document, run?.start ?? 0, run?.end ?? 0)).toEqual([
      '✓ » Run npm test',
      'PASS parse.test.ts',
    ]);
  });

  it('sanitizes what agents sent: nothing but text reaches the screen or the clipboard', () => {
    const hostile = v1UpdateEvents(
      {
        sessionUpdate: 'agent_message_chunk',
        content: { type: 'text', text: 'safe\x1b]52;c;ZXZpbA==\x07 \x1b[2Jtext\u202e' },
      },
      1e9,
    );
    const document = new BrowseDocumentBuilder().build(browseSession(...hostile));
    const last = document.units[document.units.length - 1];
    expect(last?.copyText).toBe('safe text');
    expect(document.lines.some((line) => line.text.includes('\x1b'))).toBe(false);
  });

  it('follows the session: an item changed since the last build is built again', () => {
    const builder = new BrowseDocumentBuilder();
    const state = browseSession();
    const before = builder.build(state);
    expect(builder.build(state)).toEqual(before);
    const more = reduceSessionEvents(
      state,
      v1UpdateEvents(
        {
          sessionUpdate: 'tool_call_update',
          toolCallId: 'run-1',
          _meta: { terminal_output: { terminal_id: 'T1', data: 'Tests: 1 passed\n' } },
        },
        1e9,
      ),
    );
    const after = builder.build(more);
    const run = after.units.find((u) => u.id === before.units[3]?.id);
    expect(textOf(after, run?.start ?? 0, run?.end ?? 0)).toEqual([
      '✓ » Run npm test',
      'PASS parse.test.ts',
      'Tests: 1 passed',
    ]);
    expect(textOf(after, 0, run?.start ?? 0)).toEqual(textOf(before, 0, run?.start ?? 0));
  });

  it('numbers a snippet diff from its place in the file, as the card does', () => {
    const snippet = v1UpdateEvents(
      {
        sessionUpdate: 'tool_call',
        toolCallId: 'edit-2',
        title: 'Edit notes.txt',
        kind: 'edit',
        status: 'completed',
        content: [{ type: 'diff', path: `${BROWSE_CWD}/notes.txt`, oldText: 'line two', newText: 'line 2' }],
      },
      1e9,
      { diffPlacements: [{ line: 2, wholeFile: false, atEnd: false }] },
    );
    const document = new BrowseDocumentBuilder().build(browseSession(...snippet));
    const edit = document.units.filter((u) => u.kind === 'tool').at(-1);
    expect(textOf(document, edit?.start ?? 0, edit?.end ?? 0)).toEqual([
      '✓ ✎ Edit notes.txt',
      'diff notes.txt',
      '@@ -2,1 +2,1 @@',
      '- line two',
      '+ line 2',
    ]);
  });

  it('keeps ACP line numbers (1-based) and drops invalid ones', () => {
    const roots = { cwd: '/w', additional: ['/extra'] };
    expect(browseLocation('/w/a.ts', 1, roots)).toEqual({
      path: '/w/a.ts',
      line: 1,
      outside: false,
      label: 'a.ts:1',
    });
    expect(browseLocation('/extra/b.ts', 0, roots)).toEqual({
      path: '/extra/b.ts',
      outside: false,
      label: '/extra/b.ts',
    });
    expect(browseLocation('../up.ts', 2.5, roots)).toMatchObject({ path: '/up.ts', outside: true });
    expect(browseLocation('/w2/a.ts', null, roots).outside).toBe(true);
  });
});
