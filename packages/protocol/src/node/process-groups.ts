/**
 * Process groups of the processes we start (agents, terminal commands): signalling a whole group,
 * telling whether anything is left in it, and a last-resort kill of every group still alive when
 * this process exits, so nothing we started outlives us.
 */
import { readFileSync, readdirSync } from 'node:fs';

const GROUP_POLL_MS = 25;
const REAP_KILL_WAIT_MS = 1000;

/** Groups started and not yet stopped: SIGKILLed if this process exits first. */
const liveGroups = new Set<number>();

/** Installed while any group is tracked, so a process that stopped what it started keeps no hook. */
function killLiveGroups(): void {
  for (const group of liveGroups) signalProcessGroup(group, 'SIGKILL');
}

/**
 * Remembers a process group to kill (SIGKILL) if this process exits before it was stopped. The
 * hook runs on `process.exit` and on a normal end of the event loop, not on a fatal signal: signal
 * handlers must stop what they started themselves.
 *
 * @example
 * const child = spawn(cmd, args, { detached: true });
 * trackProcessGroup(child.pid);
 */
export function trackProcessGroup(pgid: number): void {
  if (liveGroups.size === 0) process.once('exit', killLiveGroups);
  liveGroups.add(pgid);
}

/** Forgets a group that was stopped (its id may be reused later). */
export function untrackProcessGroup(pgid: number): void {
  if (!liveGroups.delete(pgid) || liveGroups.size > 0) return;
  process.removeListener('exit', killLiveGroups);
}

/** Sends `signal` to every process of the group; false when the group is gone. */
export function signalProcessGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

/** Whether any live (non-zombie) process is left in the group. */
export function processGroupAlive(pgid: number): boolean {
  if (process.platform === 'linux') {
    const alive = liveGroupMembersLinux(pgid);
    if (alive !== undefined) return alive;
  }
  return signalProcessGroup(pgid, 0);
}

/**
 * Stops what is left of a group whose leader exited: SIGTERM, up to `graceMs()` (read at every
 * poll, so a hurried caller moves on at once), then SIGKILL.
 */
export async function reapProcessGroup(pgid: number, graceMs: () => number): Promise<void> {
  if (!processGroupAlive(pgid)) return;
  for (const [signal, wait] of [
    ['SIGTERM', graceMs],
    ['SIGKILL', () => REAP_KILL_WAIT_MS],
  ] as const) {
    if (!signalProcessGroup(pgid, signal)) return;
    const sent = Date.now();
    while (Date.now() - sent < wait()) {
      await new Promise<void>((resolve) => setTimeout(resolve, GROUP_POLL_MS));
      if (!processGroupAlive(pgid)) return;
    }
  }
}

// Zombies still answer kill(-pgid, 0) until reaped, so on Linux look at their state in /proc.
function liveGroupMembersLinux(pgid: number): boolean | undefined {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return undefined;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue;
    }
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(fields[2]) === pgid && fields[0] !== 'Z') return true;
  }
  return false;
}
