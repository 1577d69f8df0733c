import { describe, expect, it } from 'vitest';
import { applyToolCallUpdate, isFinishedStatus, toolCallViewFromToolCall } from './tool-call.js';
import {
  commandLineFrom,
  describePermissionOperation,
  quoteArgument,
  restatesCommand,
} from './permission.js';

describe('tool call views', () => {
  it('applies defaults and updates (content and locations replace, null keeps)', () => {
    const view = toolCallViewFromToolCall({ toolCallId: 't', title: 'Read', locations: [{ path: '/a' }] });
    expect(view).toMatchObject({
      kind: 'other',
      status: 'pending',
      content: [],
      locations: [{ path: '/a' }],
    });
    const updated = applyToolCallUpdate(view, {
      toolCallId: 't',
      status: 'completed',
      title: null,
      locations: [{ path: '/b' }],
    });
    expect(updated).toMatchObject({ title: 'Read', status: 'completed', locations: [{ path: '/b' }] });
    expect(applyToolCallUpdate(undefined, { toolCallId: 'x', kind: 'execute' })).toMatchObject({
      toolCallId: 'x',
      title: '',
      kind: 'execute',
    });
    expect(isFinishedStatus('cancelled')).toBe(true);
    expect(isFinishedStatus('in_progress')).toBe(false);
  });
});

describe('permission operations', () => {
  const base = {
    toolCallId: 't',
    title: 'x',
    kind: 'execute' as const,
    status: 'pending' as const,
    content: [],
    locations: [],
  };

  it('reads command lines from strings and argv arrays, quoting as needed', () => {
    expect(
      describePermissionOperation({ ...base, rawInput: { command: 'npm test', cwd: '/w' } }),
    ).toMatchObject({
      command: 'npm test',
      cwd: '/w',
    });
    expect(
      describePermissionOperation({
        ...base,
        rawInput: { command: ['bash', '-lc', "echo 'hi' && rm -rf x"] },
      }).command,
    ).toBe(`bash -lc 'echo '\\''hi'\\'' && rm -rf x'`);
    expect(commandLineFrom('git', ['commit', '-m', 'a b'])).toBe("git commit -m 'a b'");
    expect(quoteArgument('')).toBe("''");
  });

  it('collects paths from locations, diffs and raw input without duplicates', () => {
    const op = describePermissionOperation({
      ...base,
      kind: 'edit',
      locations: [{ path: '/w/a.ts' }],
      content: [{ type: 'diff', path: '/w/a.ts', oldText: 'x', newText: 'y' }],
      rawInput: { file_path: '/w/a.ts', paths: ['/w/b.ts'] },
    });
    expect(op.paths).toEqual([{ path: '/w/a.ts' }, { path: '/w/b.ts' }]);
    expect(op.diffs).toHaveLength(1);
    expect(op.rawInput).toBeUndefined();
  });

  it('keeps the raw input when nothing else describes the operation', () => {
    expect(describePermissionOperation({ ...base, kind: 'fetch', rawInput: { url: 'u' } }).rawInput).toEqual({
      url: 'u',
    });
  });
});

describe('restatesCommand', () => {
  it('recognises the command in a title or text, however it is marked up', () => {
    for (const said of [
      'ls -la',
      '`ls -la`',
      'Run `ls -la`',
      'Running: ls  -la',
      '$ ls -la',
      '```sh\nls -la\n```',
    ])
      expect(restatesCommand(said, 'ls -la'), said).toBe(true);
    expect(restatesCommand('Run ls -la', "bash -lc 'ls -la'")).toBe(true);
    expect(restatesCommand('Run `npm run a-very-long…`', 'npm run a-very-long-script --flag')).toBe(true);
  });

  it('does not take a description, another command or an empty title for it', () => {
    expect(restatesCommand('List the files', 'ls -la')).toBe(false);
    expect(restatesCommand('Run ls', 'ls -la')).toBe(false);
    expect(restatesCommand('Run tests', 'npm run tests')).toBe(false);
    expect(restatesCommand('Run', 'ls -la')).toBe(false);
    expect(restatesCommand('```sh\nrm -rf x\n```', 'ls -la')).toBe(false);
  });

  it('leaves out of the operation the text that only repeats the command', () => {
    const op = describePermissionOperation({
      toolCallId: 't',
      title: 'Run',
      kind: 'execute',
      status: 'pending',
      locations: [],
      content: [
        { type: 'content', content: { type: 'text', text: '```sh\nls -la\n```' } },
        { type: 'content', content: { type: 'text', text: 'Lists files.\n\n```sh\nls -la\n```\n' } },
      ],
      rawInput: { command: 'ls -la' },
    });
    expect(op.text.map((t) => t.trim())).toEqual(['Lists files.']);
  });
});
