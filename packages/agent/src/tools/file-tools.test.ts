import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { removeDir, tempDir } from '../test-support/harness.js';
import { choose } from '../test-support/test-client.js';
import { toolHarness, type ToolHarness } from '../test-support/tool-harness.js';

let work: string;
let outside: string;
let data: string;
let h: ToolHarness;
const signal = new AbortController().signal;

beforeEach(async () => {
  work = await tempDir('ws');
  outside = await tempDir('outside');
  data = await tempDir('data');
  await writeFile(join(work, 'a.txt'), 'one\ntwo\nthree\nfour\n');
  await writeFile(join(work, 'b.ts'), 'const x = 1;\n// TODO fix\nconst y = x;\n');
  await writeFile(join(outside, 'o.txt'), 'outside\n');
  await symlink(join(outside, 'o.txt'), join(work, 'sneaky.txt'));
});

afterEach(async () => {
  await h.close();
  await Promise.all([work, outside, data].map(removeDir));
});

describe('file tools over disk', () => {
  beforeEach(async () => {
    h = await toolHarness({ cwd: work, dataDir: data });
  });

  it('read_file reports kind, title, locations, content and rawOutput, with line/limit', async () => {
    const result = await h.runner.run('read_file', { path: 'a.txt', line: 2, limit: 2 }, signal);
    expect(result).toMatchObject({ status: 'completed', output: 'two\nthree' });
    const [call] = h.client.toolCalls(h.sessionId);
    expect(call).toMatchObject({
      kind: 'read',
      title: 'Read a.txt (from line 2)',
      status: 'completed',
      locations: [{ path: join(work, 'a.txt'), line: 2 }],
      rawInput: { path: 'a.txt', line: 2, limit: 2 },
      rawOutput: { lines: 2 },
    });
    const statuses = h.client.updates(h.sessionId).map((u) => (u as { status?: string }).status);
    expect(statuses).toEqual(['pending', 'in_progress', 'completed']);
  });

  it('write_file shows a new-file diff in the permission request and the result', async () => {
    const result = await h.runner.run('write_file', { path: 'dir/new.txt', content: 'hello\n' }, signal);
    expect(result.status).toBe('completed');
    expect(await readFile(join(work, 'dir/new.txt'), 'utf8')).toBe('hello\n');
    const diff = { type: 'diff', path: join(work, 'dir/new.txt'), oldText: null, newText: 'hello\n' };
    expect(h.client.permissionRequests[0]?.toolCall.content).toEqual([diff]);
    expect(h.client.toolCalls(h.sessionId)[0]).toMatchObject({
      kind: 'edit',
      title: 'Create dir/new.txt',
      content: [diff],
    });
  });

  it('edit_file replaces exact text, and explains what it cannot do', async () => {
    const ok = await h.runner.run(
      'edit_file',
      { path: 'b.ts', edits: [{ oldText: 'TODO fix', newText: 'done' }] },
      signal,
    );
    expect(ok.status).toBe('completed');
    expect(ok.output).toContain('+// done');
    expect(await readFile(join(work, 'b.ts'), 'utf8')).toBe('const x = 1;\n// done\nconst y = x;\n');
    const call = h.client.toolCalls(h.sessionId)[0] as { content: unknown[]; locations: unknown[] };
    expect(call.content[0]).toMatchObject({
      type: 'diff',
      oldText: 'const x = 1;\n// TODO fix\nconst y = x;\n',
    });
    expect(call.locations).toEqual([{ path: join(work, 'b.ts'), line: 2 }]);

    const missing = await h.runner.run(
      'edit_file',
      { path: 'b.ts', edits: [{ oldText: 'nope', newText: 'x' }] },
      signal,
    );
    expect(missing).toMatchObject({ status: 'failed', output: expect.stringMatching(/not found/) });
    const ambiguous = await h.runner.run(
      'edit_file',
      { path: 'b.ts', edits: [{ oldText: 'const', newText: 'let' }] },
      signal,
    );
    expect(ambiguous.output).toMatch(/more than once/);
    const all = await h.runner.run(
      'edit_file',
      { path: 'b.ts', edits: [{ oldText: 'const', newText: 'let', replaceAll: true }] },
      signal,
    );
    expect(all.status).toBe('completed');
    expect(await readFile(join(work, 'b.ts'), 'utf8')).not.toContain('const');
  });

  it('invalid input and unknown tools fail with a tool_call the user can read', async () => {
    const invalid = await h.runner.run('read_file', { line: 0 }, signal);
    expect(invalid).toMatchObject({ status: 'failed', output: expect.stringMatching(/path/) });
    const unknown = await h.runner.run('format_disk', {}, signal);
    expect(unknown.status).toBe('failed');
    expect(h.client.toolCalls(h.sessionId).map((c) => c.status)).toEqual(['failed', 'failed']);
  });

  it('list_files and grep are search tool calls with results and locations', async () => {
    const list = await h.runner.run('list_files', { pattern: '*.txt' }, signal);
    expect(list.output.split('\n')).toEqual(['a.txt']);
    const grep = await h.runner.run('grep', { pattern: 'todo', caseInsensitive: true }, signal);
    expect(grep.output).toBe('b.ts:2: // TODO fix');
    const calls = h.client.toolCalls(h.sessionId);
    expect(calls.map((c) => c.kind)).toEqual(['search', 'search']);
    expect(calls[1]).toMatchObject({ locations: [{ path: join(work, 'b.ts'), line: 2 }] });
    const escape = await h.runner.run('list_files', { pattern: '../**' }, signal);
    expect(escape.status).toBe('failed');
    const badRegex = await h.runner.run('grep', { pattern: '(' }, signal);
    expect(badRegex.output).toMatch(/Invalid regular expression/);
  });

  it('list_files and grep leave out what .gitignore and .ignore exclude, and .git', async () => {
    const files: Record<string, string> = {
      '.gitignore': 'node_modules/\nbuild/\n.venv/\n*.log\n!keep.log\n',
      '.ignore': 'scratch/\n',
      '.git/config': 'needle\n',
      'node_modules/dep/index.js': 'needle\n',
      'build/out.js': 'needle\n',
      '.venv/lib/site.py': 'needle\n',
      'scratch/notes.txt': 'needle\n',
      'debug.log': 'needle\n',
      'keep.log': 'needle\n',
      'pkg/.gitignore': 'generated.ts\n!important.log\n',
      'pkg/generated.ts': 'needle\n',
      'pkg/important.log': 'needle\n',
      'pkg/main.ts': 'needle\n',
    };
    for (const [path, content] of Object.entries(files)) {
      await mkdir(dirname(join(work, path)), { recursive: true });
      await writeFile(join(work, path), content);
    }
    const list = await h.runner.run('list_files', {}, signal);
    expect(list.output.split('\n')).toEqual([
      '.gitignore',
      '.ignore',
      'a.txt',
      'b.ts',
      'keep.log',
      'pkg/.gitignore',
      'pkg/important.log',
      'pkg/main.ts',
    ]);
    const grep = await h.runner.run('grep', { pattern: 'needle' }, signal);
    expect(grep.output.split('\n')).toEqual([
      'keep.log:1: needle',
      'pkg/important.log:1: needle',
      'pkg/main.ts:1: needle',
    ]);
    // An ignored directory asked for by path is searched.
    const inside = await h.runner.run('list_files', { path: 'build' }, signal);
    expect(inside.output).toBe('out.js');
  });

  it('paths outside the workspace (also through a symlink) need permission in ask mode', async () => {
    h.client.permission = choose('reject_once');
    const viaLink = await h.runner.run('read_file', { path: 'sneaky.txt' }, signal);
    expect(viaLink.status).toBe('rejected');
    expect(h.client.permissionRequests[0]?.toolCall).toMatchObject({
      kind: 'read',
      title: 'Read sneaky.txt',
    });
    h.client.permission = choose('allow_once');
    const direct = await h.runner.run('read_file', { path: join(outside, 'o.txt') }, signal);
    expect(direct).toMatchObject({ status: 'completed', output: 'outside\n' });
    const write = await h.runner.run('write_file', { path: 'sneaky.txt', content: 'pwned' }, signal);
    expect(write.status).toBe('completed');
    expect(
      h.client.permissionRequests.at(-1)?.options.find((o) => o.kind === 'allow_always')?.name,
    ).toContain(outside);
  });

  it('plan mode refuses reads outside the workspace without asking', async () => {
    h.session.meta.modeId = 'plan';
    const result = await h.runner.run('read_file', { path: join(outside, 'o.txt') }, signal);
    expect(result).toMatchObject({
      status: 'rejected',
      output: expect.stringMatching(/Plan mode does not allow/),
    });
    expect(h.client.permissionRequests).toHaveLength(0);
  });
});

describe('additional directories', () => {
  beforeEach(async () => {
    h = await toolHarness({ cwd: work, dataDir: data, additionalDirectories: [outside] });
  });

  it('treats them as part of the workspace', async () => {
    const read = await h.runner.run('read_file', { path: join(outside, 'o.txt') }, signal);
    expect(read).toMatchObject({ status: 'completed', output: 'outside\n' });
    expect(h.client.permissionRequests).toHaveLength(0);
    expect(h.client.toolCalls(h.sessionId)[0]).toMatchObject({ title: `Read ${join(outside, 'o.txt')}` });
  });
});

describe('file tools through the client', () => {
  beforeEach(async () => {
    h = await toolHarness({
      cwd: work,
      dataDir: data,
      capabilities: { fs: { readTextFile: true, writeTextFile: true } },
    });
  });

  it('reads and writes through fs/read_text_file and fs/write_text_file', async () => {
    const read = await h.runner.run('read_file', { path: 'a.txt', line: 3, limit: 1 }, signal);
    expect(read.output).toBe('three');
    expect(h.client.reads[0]).toMatchObject({
      path: join(work, 'a.txt'),
      line: 3,
      limit: 1,
      sessionId: h.sessionId,
    });
    await h.runner.run('edit_file', { path: 'a.txt', edits: [{ oldText: 'four', newText: 'FOUR' }] }, signal);
    expect(h.client.writes[0]).toMatchObject({
      path: join(work, 'a.txt'),
      content: 'one\ntwo\nthree\nFOUR\n',
    });
  });
});
