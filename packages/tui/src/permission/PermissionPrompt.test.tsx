import { describe, expect, it, vi } from 'vitest';
import type { PermissionOption } from '@acp-kit/protocol';
import { KEYS, renderInk, expectSafeFrame, flat } from '../test-support/ink.js';
import { ESCAPE_CORPUS } from '../sanitize/corpus.js';
import { KeyBindingsProvider } from '../keys/KeyBindingsContext.js';
import { resolveKeyBindings } from '../keys/key-bindings.js';
import type { PermissionRequestView } from '../view-model/permission.js';
import type { ToolCallView } from '../view-model/tool-call.js';
import { PermissionPrompt } from './PermissionPrompt.js';
import { arrangePermissionOptions } from './permission-options.js';

const options: PermissionOption[] = [
  { optionId: 'rej', name: 'Reject', kind: 'reject_once' },
  { optionId: 'always', name: 'Always allow npm', kind: 'allow_always' },
  { optionId: 'once', name: 'Allow once', kind: 'allow_once' },
];

const longCommand = `npm run build -- --filter=${'pkg-'.repeat(40)}end && rm -rf dist/tmp`;
const call: ToolCallView = {
  toolCallId: 'c1',
  title: 'Run the build',
  kind: 'execute',
  status: 'pending',
  content: [],
  locations: [],
  rawInput: { command: longCommand, cwd: '/w/pkg' },
};
const request: PermissionRequestView = { toolCall: call, options };

/** A clock that starts after the typeahead guard unless told otherwise. */
const clock = (start = 0) => {
  let t = start;
  return { now: () => t, advance: (ms: number) => (t += ms) };
};

function setup(req: PermissionRequestView = request, armDelayMs = 0) {
  const onSelect = vi.fn<(id: string) => void>();
  const c = clock();
  const r = renderInk(
    <PermissionPrompt request={req} onSelect={onSelect} now={c.now} armDelayMs={armDelayMs} />,
  );
  return { ...r, onSelect, clock: c };
}

describe('PermissionPrompt', () => {
  it('shows the patch of a change a v2 agent asks to make (v2 diffs carry no file texts)', () => {
    const write: ToolCallView = {
      toolCallId: 'w1',
      title: 'Create ACP_DEMO.md',
      kind: 'edit',
      status: 'pending',
      content: [
        {
          type: 'file_change',
          path: '/w/ACP_DEMO.md',
          operation: 'add',
          patch:
            'diff --git /dev/null /w/ACP_DEMO.md\n--- /dev/null\n+++ /w/ACP_DEMO.md\n@@ -0,0 +1,2 @@\n+# Demo\n+written by the agent\n',
        },
      ],
      locations: [],
    };
    const { frame } = setup({ toolCall: write, options });
    const text = flat(frame());
    expect(text).toContain('add /w/ACP_DEMO.md');
    expect(text).toContain('+# Demo');
    expect(text).toContain('+written by the agent');
  });

  it('shows the full command line, grouped options with shortcuts, and no focus', () => {
    const { frame } = setup();
    const lines = frame()
      .split('\n')
      .map((l) => l.replace(/^│ ?| ?│$/g, '').trimEnd());
    // The command wraps but is never shortened: every character is there, in order.
    const squash = (s: string) => s.replace(/\s+/g, '');
    expect(squash(lines.join(''))).toContain(squash(`$ ${longCommand}`));
    expect(frame()).not.toContain('…');
    expect(lines).toContain('in /w/pkg');
    expect(frame()).not.toContain('❯');
    expect(lines).toContain('Allow');
    expect(lines).toContain('  1 y  Allow once');
    expect(lines).toContain('  2 a  Always allow npm');
    expect(lines).toContain('Reject');
    expect(lines).toContain('  3 n  Reject');
  });

  it('does not answer on Enter until an option is chosen', async () => {
    const { press, frame, onSelect } = setup();
    await press(KEYS.enter);
    expect(onSelect).not.toHaveBeenCalled();
    expect(flat(frame())).toContain('Nothing is selected');
    await press(KEYS.down);
    expect(frame()).toContain('❯ 1 y  Allow once');
    await press(KEYS.enter);
    expect(onSelect).toHaveBeenCalledWith('once');
  });

  it('moves focus up from nothing to the last option', async () => {
    const { press, onSelect } = setup();
    await press(KEYS.up, KEYS.enter);
    expect(onSelect).toHaveBeenCalledWith('rej');
  });

  it('answers directly with digits and kind letters, once', async () => {
    const a = setup();
    await a.press('2');
    expect(a.onSelect).toHaveBeenCalledWith('always');
    await a.press('3');
    expect(a.onSelect).toHaveBeenCalledTimes(1);
    const b = setup();
    await b.press('n');
    expect(b.onSelect).toHaveBeenCalledWith('rej');
  });

  it('ignores keys typed as the prompt opens', async () => {
    const { press, onSelect, clock: c, frame } = setup(request, 400);
    await press('y');
    expect(onSelect).not.toHaveBeenCalled();
    expect(flat(frame())).toContain('Keys pressed as this prompt opened were ignored.');
    c.advance(401);
    await press('y');
    expect(onSelect).toHaveBeenCalledWith('once');
  });

  it('offers the hunk review only for changes, and opens it once the prompt takes keys', async () => {
    expect(flat(setup().frame())).not.toContain('review the changes');
    const onReviewHunks = vi.fn<() => void>();
    const onSelect = vi.fn<(id: string) => void>();
    const c = clock();
    const r = renderInk(
      <PermissionPrompt
        request={request}
        onSelect={onSelect}
        onReviewHunks={onReviewHunks}
        now={c.now}
        armDelayMs={400}
      />,
    );
    await r.press('h');
    expect(onReviewHunks).not.toHaveBeenCalled();
    c.advance(500);
    await r.press('h');
    expect(onReviewHunks).toHaveBeenCalledTimes(1);
    expect(onSelect).not.toHaveBeenCalled();
  });

  it('uses configured keys and drops letters for kinds offered twice', async () => {
    const twoAlways: PermissionOption[] = [
      { optionId: 'a1', name: 'Always for this file', kind: 'allow_always' },
      { optionId: 'a2', name: 'Always for the folder', kind: 'allow_always' },
      { optionId: 'o', name: 'Once', kind: 'allow_once' },
    ];
    expect(
      arrangePermissionOptions(twoAlways).map((e) => [e.option.optionId, e.number, e.letterAction]),
    ).toEqual([
      ['o', 1, 'permission.allowOnce'],
      ['a1', 2, undefined],
      ['a2', 3, undefined],
    ]);
    const onSelect = vi.fn<(id: string) => void>();
    const { bindings } = resolveKeyBindings({ 'permission.allowOnce': 'o' });
    const r = renderInk(
      <KeyBindingsProvider bindings={bindings}>
        <PermissionPrompt
          request={{ toolCall: call, options: twoAlways }}
          onSelect={onSelect}
          armDelayMs={0}
        />
      </KeyBindingsProvider>,
    );
    expect(r.frame()).toContain('1 o  Once');
    await r.press('a');
    expect(onSelect).not.toHaveBeenCalled();
    await r.press('o');
    expect(onSelect).toHaveBeenCalledWith('o');
  });

  it('shows the paths and the diff of an edit', () => {
    const edit: ToolCallView = {
      ...call,
      kind: 'edit',
      title: 'Edit config',
      rawInput: undefined,
      content: [{ type: 'diff', path: '/w/cfg.json', oldText: '{"a":1}\n', newText: '{"a":2}\n' }],
      locations: [{ path: '/w/cfg.json', line: 1 }],
    };
    const { frame } = setup({ toolCall: edit, options });
    const text = flat(frame());
    expect(text).toContain('path /w/cfg.json:1');
    expect(text).toContain('- {"a":1}');
    expect(text).toContain('+ {"a":2}');
  });

  it('shows the raw input when it names no command, path or diff', () => {
    const fetchCall: ToolCallView = {
      ...call,
      kind: 'fetch',
      title: 'Fetch',
      rawInput: { url: 'https://x.io' },
    };
    expect(flat(setup({ toolCall: fetchCall, options }).frame())).toContain('"url": "https://x.io"');
  });

  it('is safe for hostile titles, commands, paths and option names', () => {
    for (const entry of ESCAPE_CORPUS) {
      const hostile: PermissionRequestView = {
        toolCall: {
          ...call,
          title: entry.input,
          rawInput: { command: `echo ${entry.input}`, path: `/w/${entry.input}` },
        },
        options: [{ optionId: 'x', name: `Allow ${entry.input}`, kind: 'allow_once' }],
      };
      const { frame, unmount } = setup(hostile);
      expectSafeFrame(frame());
      if (entry.visible) expect(flat(frame())).toContain(flat(entry.visible));
      unmount();
    }
  });

  it('shows the cwd and every variable a command sets, with invisible characters escaped', () => {
    const operation = {
      command: 'git status\u200b\recho hidden',
      cwd: '/w/sub\ndir',
      env: [
        { name: 'GIT_DIR', value: '/tmp/evil\u202e/repo' },
        { name: 'HOME', value: '/w/.agent/home' },
      ],
      paths: [{ path: '/w/notes\u200b.md' }],
      diffs: [],
      text: [],
    };
    const { frame } = renderInk(
      <PermissionPrompt
        request={{ ...request, operation }}
        onSelect={() => undefined}
        cwd="/w"
        armDelayMs={0}
      />,
    );
    const shown = flat(frame());
    expect(shown).toContain('$ git status\\u{200b}\\recho hidden');
    expect(shown).toContain('in sub\\ndir');
    expect(shown).toContain('env GIT_DIR=/tmp/evil\\u{202e}/repo');
    expect(shown).toContain('env HOME=/w/.agent/home');
    expect(shown).toContain('path notes\\u{200b}.md');
    expectSafeFrame(frame());
  });
});
