import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ContentBlock } from '@acp-kit/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { inProcessAgent, removeDir, tempDir } from '../test-support/harness.js';
import { choose } from '../test-support/test-client.js';
import { DemoEngine } from './demo-engine.js';

let work: string;
let data: string;

beforeEach(async () => {
  work = await tempDir('ws');
  data = await tempDir('data');
  await writeFile(join(work, 'README.md'), '# Sample project\n\nTODO: write docs\n');
});

afterEach(async () => {
  await removeDir(work);
  await removeDir(data);
});

/** A demo agent in process, a new session in the workspace, and one prompt's turn in it. */
async function promptedSession(prompt: ContentBlock[]) {
  const { client } = inProcessAgent({ engine: new DemoEngine({ delayMs: 0 }), dataDir: data });
  await client.initialize();
  const { sessionId } = await client.connection.newSession({ cwd: work, mcpServers: [] });
  await client.connection.promptSession({ sessionId, prompt });
  return { client, sessionId };
}

describe('demo agent tour (in process)', () => {
  it('does real work with full reporting and says it has no model', async () => {
    const { client } = inProcessAgent({ engine: new DemoEngine({ delayMs: 0 }), dataDir: data });
    const init = await client.initialize();
    expect(init.agentInfo?.title).toMatch(/demo/i);
    const { sessionId, modes, configOptions } = await client.connection.newSession({
      cwd: work,
      mcpServers: [],
    });
    expect(modes?.currentModeId).toBe('ask');
    expect(configOptions?.map((o) => o.id)).toEqual(['mode', 'model']);
    await client.waitForUpdate(sessionId, (u) => u.sessionUpdate === 'available_commands_update');

    const { stopReason } = await client.connection.promptSession({
      sessionId,
      prompt: [{ type: 'text', text: 'Show me the TODO items' }],
    });
    expect(stopReason).toBe('end_turn');
    expect(client.agentText(sessionId)).toMatch(/no language model/);
    const calls = client.toolCalls(sessionId);
    expect(calls.map((c) => [c.kind, c.status])).toEqual([
      ['search', 'completed'],
      ['search', 'completed'],
      ['read', 'completed'],
      ['edit', 'completed'],
      ['execute', 'completed'],
    ]);
    const edit = calls[3] as { content: { type: string; oldText: unknown; newText: string }[] };
    expect(edit.content[0]).toMatchObject({ type: 'diff', oldText: null, path: join(work, 'ACP_DEMO.md') });
    const notes = await readFile(join(work, 'ACP_DEMO.md'), 'utf8');
    expect(notes).toContain('Read `README.md` (3 lines shown)');
    // README.md has 3 lines (its last one ends with a newline): not 4.
    expect(client.agentText(sessionId)).toContain('I read `README.md` (3 lines)');
    expect(calls[2]).toMatchObject({ rawOutput: { lines: 3 } });
    expect(client.permissionRequests.map((r) => r.toolCall.kind)).toEqual(['edit', 'execute']);
    const plans = client.updates(sessionId, 'plan') as { entries: { status: string }[] }[];
    expect(plans.at(-1)?.entries.every((e) => e.status === 'completed')).toBe(true);
    expect(client.updates(sessionId, 'usage_update')).toHaveLength(1);
    const command = calls[4] as { rawOutput: { output: string; exitCode: number } };
    expect(command.rawOutput.exitCode).toBe(0);
    expect(command.rawOutput.output).toContain('README.md');
    await client.close();
  });

  it('reads the file the prompt names and searches for what it asks about', async () => {
    await writeFile(join(work, 'notes.md'), '# Notes\n\nThe tokenizer splits words.\n');
    const { client } = inProcessAgent({ engine: new DemoEngine({ delayMs: 0 }), dataDir: data });
    await client.initialize();
    const { sessionId } = await client.connection.newSession({ cwd: work, mcpServers: [] });
    await client.connection.promptSession({
      sessionId,
      prompt: [{ type: 'text', text: 'Please improve the tokenizer section of notes.md' }],
    });
    const calls = client.toolCalls(sessionId);
    expect(calls.map((c) => c.title)).toEqual([
      'List **/* (2 files)',
      'Search for /tokenizer/ (1 match)',
      'Read notes.md',
      'Create ACP_DEMO.md',
      'Run `ls -la`',
    ]);
    expect(client.agentText(sessionId)).toContain('Done. I read `notes.md` (3 lines)');
    expect(await readFile(join(work, 'ACP_DEMO.md'), 'utf8')).toContain(
      'Searched for `tokenizer`: 1 matching line',
    );
    await client.close();
  });

  it('edits the notes on the second tour and remembers allow_always', async () => {
    const { client } = inProcessAgent(
      { engine: new DemoEngine({ delayMs: 0 }), dataDir: data },
      { permission: choose('allow_always') },
    );
    await client.initialize();
    const { sessionId } = await client.connection.newSession({ cwd: work, mcpServers: [] });
    await client.connection.promptSession({ sessionId, prompt: [{ type: 'text', text: 'first' }] });
    expect(client.permissionRequests).toHaveLength(2);
    await client.connection.promptSession({ sessionId, prompt: [{ type: 'text', text: 'second' }] });
    expect(client.permissionRequests).toHaveLength(2);
    const edits = client.toolCalls(sessionId).filter((c) => c.kind === 'edit');
    expect(edits[1]).toMatchObject({ status: 'completed', title: 'Edit ACP_DEMO.md' });
    expect(await readFile(join(work, 'ACP_DEMO.md'), 'utf8')).toMatch(/## Tour 1[\s\S]*## Tour 2/);
    await client.close();
  });

  it('reads the file a prompt links to and acknowledges attachments it cannot see', async () => {
    await writeFile(join(work, 'other.txt'), 'linked\n');
    const { client, sessionId } = await promptedSession([
      { type: 'text', text: 'look' },
      { type: 'resource_link', uri: `file://${join(work, 'other.txt')}`, name: 'other.txt' },
      { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
    ]);
    expect(client.agentText(sessionId)).toMatch(
      /You attached a link to `file:\/\/.*other\.txt`, an image \(image\/png, 9 bytes\)/,
    );
    const read = client.toolCalls(sessionId).find((c) => c.kind === 'read');
    expect(read).toMatchObject({ title: 'Read other.txt', status: 'completed' });
    await client.close();
  });

  it('reads a file named as a client mentions it: `read @README.md`', async () => {
    const { client, sessionId } = await promptedSession([
      { type: 'text', text: 'read @README.md' },
      { type: 'resource_link', uri: `file://${join(work, 'README.md')}`, name: 'README.md' },
    ]);
    const read = client.toolCalls(sessionId).find((c) => c.kind === 'read');
    expect(read).toMatchObject({ title: 'Read README.md', status: 'completed' });
    await client.close();
  });
});
