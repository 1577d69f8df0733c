/**
 * Runs the selected checks against a target: decides which parts of the run they need, drives
 * the agent through them (one fresh process per protocol version), then judges.
 */
import { AcpKitError, describeClose, type CloseDetails } from '@acp-kit/protocol';
import { evidenceOf } from './evidence.js';
import { CANCEL_CHECKS } from './checks/cancel.js';
import type { Check, Phase } from './checks/check.js';
import { ERROR_CHECKS } from './checks/errors.js';
import { FRAME_CHECKS } from './checks/frames.js';
import { HANDSHAKE_CHECKS, SLOW_INITIALIZE_MS } from './checks/handshake.js';
import { SESSION_CHECKS } from './checks/sessions.js';
import { SLOW_FIRST_UPDATE_MS, TURN_CHECKS } from './checks/turn.js';
import { V2_CHECKS } from './checks/v2.js';
import { driveV2Turn, driveV1Turns } from './drive/turns.js';
import { CLIENT_INFO, driveV1Offline, driveV1SessionMethods, step, type DriveOptions } from './drive/v1.js';
import type { Observations } from './observations.js';
import type { CheckReport, CheckResult, CheckStatus } from './types.js';
import { FrameLog, type WirePeer } from './wire/peer.js';
import { describeTarget, openPeer, type CheckTarget } from './wire/target.js';

/** Every check, in report order. */
export const ALL_CHECKS: readonly Check[] = [
  ...HANDSHAKE_CHECKS,
  ...ERROR_CHECKS,
  ...FRAME_CHECKS,
  ...SESSION_CHECKS,
  ...TURN_CHECKS,
  ...CANCEL_CHECKS,
  ...V2_CHECKS,
];

/**
 * The default prompt of the turns: short, and asking for one edit, so that an agent with tools
 * makes a tool call and (usually) asks permission for it. Run the agent in a scratch directory.
 */
export const DEFAULT_PROMPT =
  'Create a file named acp-check.txt containing the word ok, then reply with one short sentence.';

export interface RunChecksOptions {
  target: CheckTarget;
  /** Run only what needs no model turn. */
  offline?: boolean;
  /** Check names (or name prefixes ending in `.`, such as `cancel.`) to run, or to leave out. */
  only?: readonly string[];
  skip?: readonly string[];
  /**
   * The `cwd` of the sessions (default: the target's). Give a scratch directory: the turns ask
   * the agent to create a file there.
   */
  sessionCwd?: string;
  /** The text of the turns' prompts (default {@link DEFAULT_PROMPT}). */
  prompt?: string;
  /** How long a request without a model may take (default 15 s). */
  requestTimeoutMs?: number;
  /** How long a turn may take (default 120 s). */
  turnTimeoutMs?: number;
  /** Thresholds of the timing checks' warnings (ms). */
  slowInitializeMs?: number;
  slowFirstUpdateMs?: number;
}

function matches(check: Check, names: readonly string[]): boolean {
  return names.some((name) => check.name === name || (name.endsWith('.') && check.name.startsWith(name)));
}

/** The checks `only`/`skip` select; unknown names are an error (a typo must not pass silently). */
export function selectChecks(only: readonly string[] = [], skip: readonly string[] = []): Check[] {
  for (const name of [...only, ...skip]) {
    if (!ALL_CHECKS.some((check) => matches(check, [name]))) {
      throw new AcpKitError('INVALID_ARGUMENT', `no check named ${JSON.stringify(name)}`, {
        known: ALL_CHECKS.map((check) => check.name),
      });
    }
  }
  return ALL_CHECKS.filter((check) => (only.length === 0 || matches(check, only)) && !matches(check, skip));
}

/**
 * Drives the agent and judges it.
 *
 * @example
 * const report = await runChecks({ target: { kind: 'command', command: 'my-agent', args: [], cwd: process.cwd() }, offline: true });
 * process.exitCode = report.counts.fail > 0 ? 1 : 0;
 */
export async function runChecks(options: RunChecksOptions): Promise<CheckReport> {
  const checks = selectChecks(options.only, options.skip);
  const offline = options.offline === true;
  const phases = new Set<Phase>(checks.flatMap((check) => check.needs));
  if (offline) {
    phases.delete('turns');
    phases.delete('v2turn');
  }
  const drive: DriveOptions = {
    requestTimeoutMs: options.requestTimeoutMs ?? 15_000,
    turnTimeoutMs: options.turnTimeoutMs ?? 120_000,
  };
  const log = new FrameLog();
  const obs: Observations = {
    log,
    offline,
    cwd: options.sessionCwd ?? options.target.cwd,
    remote: options.target.kind === 'url',
    slowInitializeMs: options.slowInitializeMs ?? SLOW_INITIALIZE_MS,
    slowFirstUpdateMs: options.slowFirstUpdateMs ?? SLOW_FIRST_UPDATE_MS,
    versions: new Map(),
    crashes: new Map(),
    ...(offline ? { turnsSkipped: '--offline' } : {}),
  };
  const prompt = options.prompt ?? DEFAULT_PROMPT;
  if (phases.has('v1')) {
    await withPeer(options.target, 'v1', obs, async (peer) => {
      await driveV1Offline(peer, obs, drive);
      if (phases.has('turns') && obs.newSession) await driveV1Turns(peer, obs, drive, prompt);
      await driveV1SessionMethods(peer, obs, drive);
    });
  }
  if (phases.has('v2')) {
    await withPeer(options.target, 'v2', obs, async (peer) => {
      obs.v2Initialize = await step(
        peer,
        'initialize',
        { protocolVersion: 2, info: CLIENT_INFO, capabilities: {} },
        drive.requestTimeoutMs,
      );
      const version = (obs.v2Initialize.answer.kind === 'response' &&
        (obs.v2Initialize.answer.frame.result as { protocolVersion?: unknown } | undefined)
          ?.protocolVersion) as unknown;
      obs.versions.set('v2', version === 2 ? 2 : 1);
      if (version === 2 && phases.has('v2turn')) await driveV2Turn(peer, obs, drive, prompt);
    });
  }
  const results: CheckResult[] = checks.map((check) => {
    const judged = check.judge(obs);
    return { name: check.name, title: check.title, rule: check.rule, ...judged };
  });
  const counts: Record<CheckStatus, number> = { pass: 0, fail: 0, warn: 0, 'n/a': 0 };
  for (const result of results) counts[result.status]++;
  return { version: 1, target: describeTarget(options.target), offline, results, counts };
}

/** How the agent ended, in one line: the exit and the last lines of its stderr. */
function describeCrash(details: CloseDetails | undefined, stderrTail: string): string {
  const how = describeClose('agent', { ...details, stderrTail: '' });
  const lines = (details?.stderrTail ?? stderrTail).trim().split('\n').slice(-3);
  const tail = evidenceOf(lines.join('\n')).slice(1, -1);
  return tail ? `${how}; stderr: ${tail}` : how;
}

/** Opens a fresh agent for one connection, runs `script`, and records a crash if the agent died first. */
async function withPeer(
  target: CheckTarget,
  conn: string,
  obs: Observations,
  script: (peer: WirePeer) => Promise<void>,
): Promise<void> {
  const opened = await openPeer(target, conn, obs.log);
  let done = false;
  void opened.peer.closed.then((details) => {
    if (!done) obs.crashes.set(conn, describeCrash(details, opened.stderrTail()));
  });
  try {
    await script(opened.peer);
  } finally {
    done = true;
    await opened.dispose();
  }
}
