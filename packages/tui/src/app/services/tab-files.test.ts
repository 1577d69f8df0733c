/**
 * When a tab lists its workspace's files for `@` mentions: a new session's tab at once, a reopened
 * session's once its history is printed (walking a large tree took the CPU the printing needs).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AcpClient, resolveClientPaths, type AgentEntry } from '@acp-kit/client';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../settings/settings.js';
import { initialAppState } from '../state/app-state.js';
import { AppStore } from '../state/app-store.js';
import { HistoryPrinted } from './history-printed.js';
import { TabRuntime, type TabDeps } from './tab-runtime.js';
import { tempDir } from '../../../../client/src/test-support/harness.js';

/** An agent that cannot start: the tab's open ends there, after the part under test. */
const MISSING: AgentEntry = {
  id: 'missing',
  name: 'Missing',
  source: 'user',
  command: '/nonexistent/acp-agent',
  args: [],
};

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** A data directory with one recorded session in `cwd`, and a client on it. */
async function clientWithSession(): Promise<{ client: AcpClient; cwd: string; localId: string }> {
  const { dir, cleanup } = await tempDir('acp-tab-files-');
  cleanups.push(cleanup);
  const cwd = join(dir, 'workspace');
  mkdirSync(cwd);
  const localId = 's-files';
  const record = join(dir, 'data', 'client', 'sessions', localId);
  mkdirSync(record, { recursive: true });
  const attached = {
    type: 'attached',
    agentId: 'missing',
    agentName: 'Missing',
    agentSessionId: 'a-1',
    how: 'new',
    cwd,
    additionalDirectories: [],
  };
  writeFileSync(join(record, 'events.jsonl'), `${JSON.stringify({ at: 1, ...attached })}\n`);
  const at = '2025-01-01T00:00:00.000Z';
  writeFileSync(
    join(record, 'meta.json'),
    JSON.stringify({
      version: 1,
      localId,
      agentId: 'missing',
      agentName: 'Missing',
      agentSessionId: 'a-1',
      cwd,
      additionalDirectories: [],
      createdAt: at,
      updatedAt: at,
      turns: 0,
      attachments: [],
    }),
  );
  const env = { ACP_KIT_DATA_DIR: join(dir, 'data'), ACP_KIT_CONFIG_DIR: join(dir, 'config') };
  const client = await AcpClient.create({ paths: resolveClientPaths(env), env: { ...process.env, ...env } });
  cleanups.push(() => client.close());
  return { client, cwd, localId };
}

function tab(client: AcpClient, cwd: string, extra: Partial<TabDeps>): TabRuntime {
  return new TabRuntime('t1', MISSING, cwd, {
    client,
    store: new AppStore(initialAppState()),
    settings: () => DEFAULT_SETTINGS,
    handover: { run: (work) => work() },
    onViewChanged: () => undefined,
    ...extra,
  });
}

describe('a tab’s workspace files', () => {
  it('are listed after a reopened session’s history is printed, not while it is shown', async () => {
    const { client, cwd, localId } = await clientWithSession();
    const printed = new HistoryPrinted();
    const listed: string[] = [];
    let shown!: () => void;
    const isShown = new Promise<void>((resolve) => (shown = resolve));
    const runtime = tab(client, cwd, {
      historyPrinted: printed,
      onViewChanged: () => shown(),
      listFiles: async (at) => {
        listed.push(at);
        return ['src/a.ts'];
      },
    });
    const opening = runtime.open({ kind: 'stored', id: localId });
    await isShown;
    expect(runtime.view).toBeDefined();
    expect(listed).toEqual([]);
    printed.printed(runtime.view as object);
    await opening;
    expect(listed).toEqual([cwd]);
    expect(runtime.files).toEqual(['src/a.ts']);
  });

  it('are listed at once for a new session', async () => {
    const { client, cwd } = await clientWithSession();
    const listed: string[] = [];
    const runtime = tab(client, cwd, {
      listFiles: async (at) => {
        listed.push(at);
        return [];
      },
    });
    const opening = runtime.open({ kind: 'new' });
    expect(listed).toEqual([cwd]);
    await opening;
  });
});
