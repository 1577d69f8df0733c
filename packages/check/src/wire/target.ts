/**
 * What is checked: an agent command (run as a child process, one process per connection the
 * checks need) or a remote agent's URL (one remote connection each).
 */
import type { ByteChannel } from '@acp-kit/protocol';
import { spawnPeer, type SpawnedPeer } from '@acp-kit/protocol/node';
import { redactUrl } from '@acp-kit/protocol/remote';
import type { FrameLog } from './peer.js';
import { WirePeer } from './peer.js';

/** `cwd`: where the agent process runs (and the sessions' `cwd` unless the run says otherwise). */
export type CheckTarget =
  | { kind: 'command'; command: string; args: readonly string[]; cwd: string; env?: NodeJS.ProcessEnv }
  | { kind: 'url'; url: string; cwd: string };

/** A connection to a fresh agent, and how to end it. */
export interface OpenedPeer {
  peer: WirePeer;
  /** The agent's stderr tail (command targets), for a failure's evidence. */
  stderrTail(): string;
  dispose(): Promise<void>;
}

/** The target as one line for the report (a URL without its credentials). */
export function describeTarget(target: CheckTarget): string {
  return target.kind === 'url' ? redactUrl(target.url) : [target.command, ...target.args].join(' ');
}

/** Starts a fresh agent (or remote connection) for the connection named `conn`. */
export async function openPeer(target: CheckTarget, conn: string, log: FrameLog): Promise<OpenedPeer> {
  if (target.kind === 'url') {
    const { connectRemote } = await import('@acp-kit/protocol/remote');
    const channel: ByteChannel = await connectRemote(target.url);
    const peer = new WirePeer(channel, conn, log);
    return { peer, stderrTail: () => '', dispose: async () => peer.close() };
  }
  const spawned: SpawnedPeer = spawnPeer(target.command, target.args, {
    cwd: target.cwd,
    ...(target.env ? { env: target.env } : {}),
  });
  const peer = new WirePeer(spawned.channel, conn, log);
  return {
    peer,
    stderrTail: () => spawned.stderrTail(),
    dispose: async () => {
      await spawned.shutdown({ graceMs: 1000 });
    },
  };
}
