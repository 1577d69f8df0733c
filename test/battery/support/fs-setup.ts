/**
 * F: a workspace, an outside directory holding a marked file, and a session of our client engine
 * with the relay agent, whose host denies and records every question; the agent's fs calls are
 * relayed to our client.
 */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentConnection, ClientSession, PermissionAsk } from '@acp-kit/client';
import type { CanaryWatch } from './canary.js';
import { batteryClient, relayCall, relayEntry, type BatteryClient, type RelayAnswer } from './relay.js';

/** The content of the outside file: it must never come back in an answer. */
export const OUTSIDE_MARKER = 'OUTSIDE-CONTENT-MUST-NOT-LEAK';

/** A session to attack the file system through. */
export interface Setup {
  battery: BatteryClient;
  agent: AgentConnection;
  session: ClientSession;
  work: string;
  outside: string;
  asks: PermissionAsk[];
  read(path: string, extra?: Record<string, unknown>): Promise<RelayAnswer>;
  write(path: string, content: string): Promise<RelayAnswer>;
}

/** A workspace, an outside directory with a marked file, and a session whose host denies and records. */
export async function setup(
  watch: CanaryWatch,
  mode: 'all' | 'ask' | 'reads' = 'all',
  additionalDirectories: string[] = [],
): Promise<Setup> {
  const asks: PermissionAsk[] = [];
  const battery = await batteryClient({
    watch,
    mode,
    host: { askPermission: async (ask) => (asks.push(ask), { decision: 'deny' }) },
  });
  const work = battery.home.work;
  const outside = join(battery.home.root, 'outside');
  mkdirSync(outside);
  writeFileSync(join(outside, 'secret.txt'), OUTSIDE_MARKER);
  const agent = await battery.client.connect(relayEntry());
  const session = await agent.newSession({ cwd: work, additionalDirectories });
  const sessionId = session.agentSessionId ?? '';
  return {
    battery,
    agent,
    session,
    work,
    outside,
    asks,
    read: (path, extra = {}) => relayCall(agent, 'fs/read_text_file', { sessionId, path, ...extra }),
    write: (path, content) => relayCall(agent, 'fs/write_text_file', { sessionId, path, content }),
  };
}

/** Every file under `dir`, relative, sorted. */
export function tree(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort();
}

/** Whether an answer carries the outside file's content. */
export const leaked = (answer: RelayAnswer): boolean => JSON.stringify(answer).includes(OUTSIDE_MARKER);
