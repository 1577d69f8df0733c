import { describe, expect, it } from 'vitest';
import { initialSessionState, type PermissionAsk, type PermissionSubject } from '@acp-kit/client';
import { flat, renderInk } from '../../test-support/ink.js';
import { PermissionPrompt } from '../../permission/PermissionPrompt.js';
import { permissionRequestView, rememberPreview, reviewedAnswer } from './permission-view.js';

const subject = (over: Partial<PermissionSubject> = {}): PermissionSubject => ({
  source: 'permission_request',
  agentId: 'a',
  kind: 'execute',
  paths: [],
  cwd: '/w',
  outsideRoots: false,
  secret: false,
  ...over,
});

const ask = (over: Partial<PermissionAsk> = {}): PermissionAsk => ({
  key: '1',
  source: 'permission_request',
  kind: over.subject?.kind ?? 'execute',
  paths: over.subject?.paths ?? [],
  outsideRoots: false,
  secret: false,
  reason: 'needs your approval',
  localId: 's',
  agentId: 'a',
  subject: subject(),
  signal: new AbortController().signal,
  ...over,
});

const options = [
  { optionId: 'yes', name: 'Allow', kind: 'allow_once' as const },
  { optionId: 'no', name: 'Reject', kind: 'reject_once' as const },
];

describe('the permission modal’s operation', () => {
  it('names a new file once: in the diff header, not again as a path line', () => {
    const path = '/w/NOTES.md';
    const view = permissionRequestView(
      ask({
        kind: 'edit',
        paths: [path],
        toolCallId: 't',
        toolCall: {
          toolCallId: 't',
          title: 'Create NOTES.md',
          kind: 'edit',
          locations: [{ path }],
          content: [{ type: 'diff', path, oldText: null, newText: '# notes\n' }],
          rawInput: { path: 'NOTES.md', content: '# notes\n' },
        },
      }),
      initialSessionState('s', '/w'),
    );
    expect(view.operation?.paths).toEqual([]);
    const r = renderInk(
      <PermissionPrompt request={view} onSelect={() => undefined} cwd="/w" armDelayMs={0} />,
    );
    const frame = flat(r.frame());
    expect(frame).toContain('NOTES.md (new file) +1 -0');
    expect(frame.split('NOTES.md').length - 1).toBe(2); // the title, and the diff header
    expect(frame).not.toContain('path NOTES.md');
    r.unmount();
  });

  it('numbers a snippet diff (Claude) from the line the session placed it at, without a false no-newline mark', () => {
    const path = '/w/notes.txt';
    const diff = { type: 'diff' as const, path, oldText: 'line two', newText: 'line 2 (edited)' };
    const state = {
      ...initialSessionState('s', '/w'),
      items: [
        {
          kind: 'tool_call' as const,
          key: '0',
          turn: 1,
          toolCallId: 'e',
          title: 'Edit notes.txt',
          toolKind: 'edit',
          status: 'pending',
          content: [diff],
          locations: [{ path }],
          announced: true,
          diffPlacements: [{ line: 2, wholeFile: false, atEnd: false }],
        },
      ],
      toolCallIndex: { e: 0 },
    };
    const view = permissionRequestView(
      ask({ kind: 'edit', paths: [path], toolCallId: 'e', toolCall: { toolCallId: 'e', content: [diff] } }),
      state as unknown as Parameters<typeof permissionRequestView>[1],
    );
    expect(view.operation?.diffPlacements).toEqual([{ line: 2, wholeFile: false, atEnd: false }]);
    const r = renderInk(
      <PermissionPrompt request={view} onSelect={() => undefined} cwd="/w" armDelayMs={0} />,
    );
    const frame = flat(r.frame());
    expect(frame).toContain('@@ -2,1 +2,1 @@');
    expect(frame).not.toContain('No newline');
    r.unmount();
  });

  it('keeps path lines for files without a diff', () => {
    const view = permissionRequestView(
      ask({
        kind: 'read',
        paths: ['/w/a.ts'],
        toolCall: { toolCallId: 't', locations: [{ path: '/w/a.ts', line: 3 }] },
      }),
      initialSessionState('s', '/w'),
    );
    expect(view.operation?.paths).toEqual([{ path: '/w/a.ts', line: 3 }]);
  });
});

describe('a command’s permission', () => {
  /** The prompt for a request shaped as `toolCall`, rendered; with the engine's command line. */
  function render(toolCall: NonNullable<PermissionAsk['toolCall']>, command: string) {
    const view = permissionRequestView(
      ask({ toolCallId: toolCall.toolCallId, toolCall, command, options }),
      initialSessionState('s', '/w'),
    );
    const r = renderInk(
      <PermissionPrompt request={view} onSelect={() => undefined} cwd="/w" armDelayMs={0} />,
    );
    const frame = r.frame();
    r.unmount();
    return frame;
  }
  const times = (frame: string, text: string): number => flat(frame).split(text).length - 1;

  it.each([
    [
      'the demo agent (title with a code span, the command in a fence)',
      {
        toolCallId: 't',
        title: 'Run `ls -la`',
        kind: 'execute' as const,
        content: [
          { type: 'content' as const, content: { type: 'text' as const, text: '```sh\nls -la\n```' } },
        ],
        rawInput: { command: 'ls -la', timeoutSeconds: 120 },
      },
      'ls -la',
    ],
    [
      'Claude (the command as the title, a fence and a description in the content)',
      {
        toolCallId: 't',
        title: '`ls -la`',
        kind: 'execute' as const,
        content: [
          {
            type: 'content' as const,
            content: { type: 'text' as const, text: 'List the files\n\n```bash\nls -la\n```' },
          },
        ],
        rawInput: { command: 'ls -la', description: 'List the files' },
      },
      'ls -la',
    ],
    [
      'Codex (a "Run" title, an argv through a shell)',
      {
        toolCallId: 't',
        title: 'Run ls -la',
        kind: 'execute' as const,
        rawInput: { command: ['bash', '-lc', 'ls -la'], cwd: '/w' },
      },
      "bash -lc 'ls -la'",
    ],
  ])('shows the command once, as a command, never a raw fence: %s', (_name, toolCall, command) => {
    const frame = render(toolCall, command);
    expect(flat(frame)).toContain(`$ ${command}`);
    expect(times(frame, 'ls -la')).toBe(1);
    expect(frame).not.toContain('```');
    expect(frame).not.toContain('`');
    expect(flat(frame)).toContain('Run a command');
  });

  it('keeps a title that says more than the command, and a description', () => {
    const frame = render(
      {
        toolCallId: 't',
        title: 'Install the dependencies',
        kind: 'execute',
        content: [{ type: 'content', content: { type: 'text', text: 'Needed for the **tests**.' } }],
        rawInput: { command: 'npm ci' },
      },
      'npm ci',
    );
    expect(flat(frame)).toContain('Install the dependencies');
    expect(flat(frame)).toContain('$ npm ci');
    expect(flat(frame)).toContain('Needed for the tests.');
    expect(frame).not.toContain('**');
  });
});

describe('reviewedAnswer', () => {
  const always = [
    { optionId: 'always', name: 'Always allow', kind: 'allow_always' as const },
    ...options,
    { optionId: 'never', name: 'Never', kind: 'reject_always' as const },
  ];

  it('allows with what was accepted of each diff, or rejects when every hunk was rejected', () => {
    const edit = ask({ options: always });
    expect(
      reviewedAnswer(
        edit,
        [
          { content: 'a', decisions: ['accept', 'reject'] },
          { content: 'b', decisions: ['reject'] },
        ],
        'once',
      ),
    ).toEqual({ decision: 'allow', scope: 'once', optionId: 'yes', acceptedTexts: ['a', 'b'] });
    expect(reviewedAnswer(edit, [{ content: '', decisions: ['reject', 'reject'] }], 'session')).toEqual({
      decision: 'deny',
      scope: 'session',
      optionId: 'no',
    });
  });

  it('answers the engine’s own question with its local options, and nothing without an allow option', () => {
    const local = ask({ source: 'fs_write', kind: 'edit' });
    expect(reviewedAnswer(local, [{ content: 'x', decisions: ['accept'] }], 'once')).toEqual({
      decision: 'allow',
      scope: 'once',
      acceptedTexts: ['x'],
    });
    const rejectOnly = ask({ options: [options[1] as (typeof options)[number]] });
    expect(reviewedAnswer(rejectOnly, [{ content: 'x', decisions: ['accept'] }], 'once')).toBeUndefined();
  });
});

describe('rememberPreview', () => {
  it('shows the rule the engine records for the scope, for allowing and rejecting', () => {
    const command = ask({
      options,
      subject: subject({ command: { line: 'npm test' }, commandText: 'npm test' }),
    });
    expect(rememberPreview(command, 'once')).toBeUndefined();
    // Allowing covers exactly this command; a deny also covers longer ones (`…`).
    expect(rememberPreview(command, 'session')).toBe(
      'Rule — if you allow: allow execute `npm test` · if you reject: deny execute `npm test …`',
    );
    const withEnv = ask({
      options,
      subject: subject({
        command: { argv: ['make'] },
        commandText: 'make',
        env: [{ name: 'MAKEFLAGS', value: '-j4\u200b' }],
        sensitiveEnv: ['MAKEFLAGS'],
      }),
    });
    expect(rememberPreview(withEnv, 'always')).toBe(
      'Rule — if you allow: allow execute `make` with MAKEFLAGS=-j4\\u{200b} · if you reject: deny execute `make …`',
    );
    const edit = ask({ subject: subject({ source: 'fs_write', kind: 'edit', paths: ['/w/src/a.ts'] }) });
    expect(rememberPreview(edit, 'project', '/w')).toBe('Rule: allow edit src/a.ts (deny if you reject)');
  });

  it('says what a compound command remembers', () => {
    const compound = ask({
      options,
      subject: subject({
        command: { line: 'npm test && curl x | sh' },
        commandText: 'npm test && curl x | sh',
      }),
    });
    expect(rememberPreview(compound, 'always')).toBe(
      'Rule — if you reject: deny execute · allowing is not remembered (a compound command)',
    );
    const several = ask({
      options,
      subject: subject({ kind: 'edit', paths: ['/x/a', '/x/b'], outsideRoots: true }),
    });
    expect(rememberPreview(several, 'session')).toBe(
      'No rule: this request cannot be remembered (a compound command or several paths)',
    );
  });
});
