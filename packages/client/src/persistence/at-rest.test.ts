/**
 * What is written to disk (battery J1 and A8 for records): no canary secret from an agent's argv
 * or from credential-named fields, and no event silently dropped because it is nested too deeply.
 */
import { randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AcpClient } from '../client.js';
import type { AgentEntry } from '../catalog/types.js';
import { commandText } from '../permissions/subject.js';
import { FAKE_AGENT, script, tempDir } from '../test-support/harness.js';
import { redactArgv, redactCommandLine, REDACTED } from './redact.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function allText(dir: string): Promise<string> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files = entries.filter((entry) => entry.isFile()).map((e) => join(e.parentPath, e.name));
  return (await Promise.all(files.map((file) => readFile(file, 'utf8')))).join('\n');
}

async function client(env: Record<string, string> = {}) {
  const { dir, cleanup } = await tempDir();
  cleanups.push(cleanup);
  const data = join(dir, 'data');
  const created = await AcpClient.create({
    env: {
      PATH: process.env.PATH ?? '',
      ACP_KIT_CONFIG_DIR: join(dir, 'config'),
      ACP_KIT_DATA_DIR: data,
      ...env,
    },
    mode: 'all',
  });
  cleanups.push(() => created.close());
  return { client: created, dir, data };
}

/** An agent given as a command line, the way `acp run -- CMD ARGS` builds it. */
function commandAgent(args: string[], options: Record<string, unknown> = {}): AgentEntry {
  const argv = [FAKE_AGENT, JSON.stringify(options), ...args];
  return {
    id: `cmd:${commandText({ argv: [basename(process.execPath), ...argv] })}`,
    name: basename(process.execPath),
    source: 'user',
    command: process.execPath,
    args: argv,
  };
}

describe('secrets at rest', () => {
  it('keeps canaries from argv and credential fields out of every file, and still resumes', async () => {
    const canary = `ACP-CANARY-${randomUUID()}`;
    const update = {
      sessionUpdate: 'agent_message_chunk',
      content: { type: 'text', text: `key: sk-${canary}-token` },
      _meta: {
        apiKey: `${canary}-meta`,
        nested: { authorization: `${canary}-auth`, env: [{ name: 'X', value: `${canary}-env` }] },
      },
    };
    const { client: acp, data, dir } = await client({ FAKE_UPDATE: JSON.stringify(update) });
    const entry = commandAgent(
      ['--api-key', `${canary}-1`, `--token=${canary}-2`, `OPENAI_API_KEY=${canary}-3`, '--model', 'm'],
      { stateFile: join(dir, 'agent-state.json') },
    );
    const connection = await acp.connect(entry, { cwd: process.cwd() });
    const session = await connection.newSession({ cwd: process.cwd() });
    await session.prompt(script([{ updateEnv: 'FAKE_UPDATE' }]));
    // What the session shows keeps it: only what is written is redacted.
    expect(JSON.stringify(session.state.items)).toContain(`sk-${canary}-token`);
    await session.close();

    const listed = JSON.stringify(await acp.transcripts.list());
    expect(listed).toContain(`--api-key ${REDACTED}`);
    expect(listed).toContain('--model m');
    expect(listed).not.toContain(canary);
    const written = await allText(data);
    expect(written).toContain('"apiKey":"[redacted]"');
    expect(written.match(new RegExp(canary, 'g')) ?? []).toEqual([]);

    const reopened = await acp.loadStored(session.localId);
    const again = await acp.connect(entry, { cwd: process.cwd() });
    expect(await again.reattach(reopened.session, reopened.meta)).toBe('resume');
    await reopened.session.close();
  });

  it('redacts credential options, assignments and tokens in argv and command lines', () => {
    expect(
      redactArgv(['a', '--api-key', 'k', '--api-key=k', '-token', 'k', 'GH_TOKEN=k', '--max-tokens', '9']),
    ).toEqual([
      'a',
      '--api-key',
      REDACTED,
      `--api-key=${REDACTED}`,
      '-token',
      REDACTED,
      `GH_TOKEN=${REDACTED}`,
      '--max-tokens',
      '9',
    ]);
    expect(redactArgv(['--password', '--verbose'])).toEqual(['--password', '--verbose']);
    expect(redactCommandLine(`cmd:agent  '--api-key' 'k 1' --x=y ghp_${'a'.repeat(30)} "SECRET=a b"`)).toBe(
      `cmd:agent  '--api-key' ${REDACTED} --x=y ${REDACTED} SECRET=${REDACTED}`,
    );
  });
});

describe('pathological data', () => {
  it('records an update nested 20,000 levels deep instead of dropping it', async () => {
    const { client: acp } = await client();
    const connection = await acp.connect(commandAgent([]), { cwd: process.cwd() });
    const session = await connection.newSession({ cwd: process.cwd() });
    const depth = 20_000;
    await session.prompt(script([{ deepUpdate: depth }, { text: ' end' }]));
    await session.close();
    const { events } = await acp.transcripts.load(session.localId);
    const deep = events.find((event) => event.type === 'update' && event.update.meta !== undefined);
    expect(deep).toBeDefined();
    const update = (deep as { update?: { meta?: { deep?: unknown } } } | undefined)?.update;
    let level: unknown = update?.meta?.deep;
    let count = 0;
    while (Array.isArray(level)) {
      level = level[0];
      count++;
    }
    expect({ count, level }).toEqual({ count: depth, level: 'bottom' });
  });
});
