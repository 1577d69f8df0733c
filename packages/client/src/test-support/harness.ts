/**
 * Test helpers: temp directories, the scripted fake agent as a real child process, and readers
 * for what it reports.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AgentConnection, type AgentConnectionOptions } from '../agent/agent-connection.js';
import type { AgentEntry } from '../catalog/types.js';
import { PermissionPolicy, type BaseMode } from '../permissions/policy.js';
import { TranscriptStore, type SessionMeta } from '../persistence/transcript-store.js';
import type { SessionState } from '../session/state.js';

export const FAKE_AGENT = fileURLToPath(new URL('./fake-agent.mjs', import.meta.url));

/** The meta of a stored session in `/p`, created on 2025-01-01. */
export function storedMeta(localId: string, extra: Partial<SessionMeta> = {}): SessionMeta {
  return {
    version: 1,
    localId,
    cwd: '/p',
    additionalDirectories: [],
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
    turns: 0,
    attachments: [],
    ...extra,
  };
}

/** A fresh temp directory (real path) and its cleanup. */
export async function tempDir(
  prefix = 'acp-client-',
): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await realpath(await mkdtemp(join(tmpdir(), prefix)));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** A catalog entry running the fake agent with `options`. */
export function fakeAgent(options: Record<string, unknown> = {}, id = 'fake'): AgentEntry {
  return {
    id,
    name: `fake agent ${id}`,
    source: 'user',
    command: process.execPath,
    args: [FAKE_AGENT, JSON.stringify(options)],
  };
}

/** Starts the fake agent with a transcript store in `dataDir`. */
export async function startFake(
  dataDir: string,
  agentOptions: Record<string, unknown> = {},
  extra: Partial<AgentConnectionOptions> & { mode?: BaseMode } = {},
): Promise<{ connection: AgentConnection; transcripts: TranscriptStore }> {
  const transcripts = new TranscriptStore(join(dataDir, 'sessions'));
  const { mode, ...rest } = extra;
  const connection = await AgentConnection.start({
    agent: fakeAgent(agentOptions),
    policy: new PermissionPolicy({ mode: mode ?? 'all' }),
    transcripts,
    ...rest,
  });
  return { connection, transcripts };
}

/** The `RESULT {...}` lines the fake agent reported, parsed, in order. */
export function reportedResults(state: SessionState): unknown[] {
  const out: unknown[] = [];
  for (const item of state.items) {
    if (item.kind !== 'message' || item.role !== 'agent') continue;
    for (const block of item.content) {
      const text = (block as { text?: string }).text ?? '';
      for (const line of text.split('\n'))
        if (line.startsWith('RESULT ')) out.push(JSON.parse(line.slice(7)));
    }
  }
  return out;
}

/** All agent message text of a state. */
export function agentText(state: SessionState): string {
  return state.items
    .filter((item) => item.kind === 'message' && item.role === 'agent')
    .flatMap((item) => (item.kind === 'message' ? item.content : []))
    .map((block) => (block as { text?: string }).text ?? '')
    .join('');
}

/** A prompt that makes the fake agent run `steps`. */
export function script(steps: unknown[]): string {
  return JSON.stringify(steps);
}

/** Resolves with the next payload of `name`. */
export function nextEvent<E extends object, K extends keyof E>(
  emitter: { on(name: K, listener: (payload: E[K]) => void): () => void },
  name: K,
): Promise<E[K]> {
  return new Promise((resolve) => {
    const off = emitter.on(name, (payload) => {
      off();
      resolve(payload);
    });
  });
}

/** Resolves once `predicate` holds for the store's state (checked at every change). */
export function waitForState(
  store: { getSnapshot(): SessionState; subscribe(listener: () => void): () => void },
  predicate: (state: SessionState) => boolean,
): Promise<SessionState> {
  return new Promise((resolve) => {
    const check = (): boolean => {
      const state = store.getSnapshot();
      if (!predicate(state)) return false;
      resolve(state);
      return true;
    };
    if (check()) return;
    const off = store.subscribe(() => {
      if (check()) off();
    });
  });
}

/** Whether a process is gone (or a zombie waiting to be reaped). */
export function processGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return true;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return process.platform === 'linux';
  }
}

/** Waits until `pid` is gone, checking on each child-process exit notification up to `ms`. */
export async function waitGone(pid: number, ms = 5000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (processGone(pid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return processGone(pid);
}
