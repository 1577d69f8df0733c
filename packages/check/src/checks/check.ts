/**
 * A named check: the rule it rests on, which parts of the run it needs, and a pure judgement of
 * what the run observed.
 */
import { evidenceOf, evidenceOfObserved } from '../evidence.js';
import type { Observations, Step } from '../observations.js';
import type { CheckStatus, ObservedFrame, Rule } from '../types.js';

/**
 * The parts of a run: `v1` (handshake, errors, sessions; no model), `turns` (a full and a
 * cancelled prompt turn: costs two short model turns), `v2` (the v2 handshake), `v2turn` (one
 * v2 turn: one short model turn).
 */
export type Phase = 'v1' | 'turns' | 'v2' | 'v2turn';

export interface Judgement {
  status: CheckStatus;
  summary: string;
  evidence?: string;
  data?: Record<string, number>;
}

export interface Check {
  name: string;
  title: string;
  rule: Rule;
  needs: readonly Phase[];
  judge(obs: Observations): Judgement;
}

export const SPEC = 'https://agentclientprotocol.com/protocol';
export const SCHEMA_V1 = '@agentclientprotocol/sdk schema/v1/schema.json#/$defs';
export const SCHEMA_V2 = '@agentclientprotocol/sdk schema/v2/schema.json#/$defs';

export const pass = (summary: string, data?: Record<string, number>): Judgement => ({
  status: 'pass',
  summary,
  ...(data ? { data } : {}),
});
export const notApplicable = (summary: string): Judgement => ({ status: 'n/a', summary });

/** A failing (or warning) judgement with a frame as its evidence. */
export function flag(
  status: 'fail' | 'warn',
  summary: string,
  evidence?: ObservedFrame | Step | string,
  data?: Record<string, number>,
): Judgement {
  let text: string | undefined;
  if (typeof evidence === 'string') text = evidence;
  else if (evidence && 'dir' in evidence) text = evidenceOfObserved(evidence);
  else if (evidence) {
    text =
      evidence.answer.kind === 'response'
        ? `agent→ ${evidenceOf(evidence.answer.frame)}`
        : `→agent ${evidenceOf(evidence.sent)} (${evidence.answer.kind === 'timeout' ? 'no answer' : 'connection closed'})`;
  }
  return { status, summary, ...(text ? { evidence: text } : {}), ...(data ? { data } : {}) };
}

/** How a step ended, in words, when it did not get a response. */
export function noResponse(step: Step | undefined, obs: Observations, conn = 'v1'): string | undefined {
  if (!step) return 'not run';
  if (step.answer.kind === 'timeout') return 'no answer in time';
  if (step.answer.kind === 'closed') {
    const crash = obs.crashes.get(conn);
    return `the agent closed the connection${crash ? ` (${crash})` : ''}`;
  }
  return undefined;
}
