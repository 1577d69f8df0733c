/**
 * E4. Seeded random interleavings of prompt, updates, permission questions, cancel and agent exit
 * (model-based: random programs run against the real client engine and the scripted agent),
 * checked against invariants: one outcome per prompt, nothing pending, no open dialog, no leak.
 */
import fc from 'fast-check';
import type { AgentConnection, PermissionAnswer, PermissionAsk } from '@acp-kit/client';
import { describe, expect, it } from 'vitest';
import { fileWatch } from './support/canary.js';
import { figure, zero } from './support/figures.js';
import { batteryClient, relayEntry, script, askStep } from './support/relay.js';
import { COUNTS, seedOf, timeoutMs } from './support/size.js';
import { within } from './support/procs.js';

const watch = fileWatch('e-interleavings');

// ---- E4: seeded random interleavings ----

type AgentStep = { text: string } | { tool: string } | { ask: string } | { sleep: number } | { exit: 1 };
interface Program {
  steps: AgentStep[];
  stop: 'end_turn' | 'cancelled';
  cancelAfterMs: number | null;
  answer: 'allow' | 'deny' | 'never';
  answerAfterMs: number;
}

const programArbitrary: fc.Arbitrary<Program> = fc
  .record({
    steps: fc.array(
      fc.oneof(
        fc.string({ maxLength: 6 }).map((text) => ({ text: `t:${text}` })),
        fc.nat(9).map((n) => ({ tool: `tool-${n}` })),
        fc.nat(9).map((n) => ({ ask: `ask-${n}` })),
        fc.integer({ min: 0, max: 15 }).map((sleep) => ({ sleep })),
      ),
      { maxLength: 6 },
    ),
    // One program in ten ends with the agent exiting mid-turn.
    dies: fc.nat(9).map((n) => n === 0),
    stop: fc.constantFrom('end_turn' as const, 'cancelled' as const),
    cancelAfterMs: fc.option(fc.integer({ min: 0, max: 30 }), { nil: null }),
    answer: fc.constantFrom('allow' as const, 'deny' as const, 'never' as const),
    answerAfterMs: fc.integer({ min: 0, max: 20 }),
  })
  .map(({ dies, ...p }) => ({ ...p, steps: dies ? [...p.steps, { exit: 1 as const }] : p.steps }));

function toScript(program: Program): unknown[] {
  return [
    ...program.steps.map((step) => {
      if ('text' in step) return { text: step.text };
      if ('tool' in step)
        return {
          update: {
            sessionUpdate: 'tool_call',
            toolCallId: step.tool,
            title: step.tool,
            kind: 'other',
            status: 'in_progress',
          },
        };
      if ('ask' in step) return { ...askStep(step.ask, step.ask), await: true };
      if ('sleep' in step) return { sleep: step.sleep };
      return { exit: 1 };
    }),
    { stop: program.stop },
  ];
}

describe('E4 random interleavings of prompt, updates, permission, cancel and agent exit', () => {
  it(
    `${COUNTS.interleavings} seeded interleavings: one outcome per prompt, nothing left pending, no open dialog, no leak`,
    async () => {
      const seed = seedOf(4001);
      let explored = 0;
      let failures = 0;
      let agent: AgentConnection | undefined;
      let answerTimers: ReturnType<typeof setTimeout>[] = [];
      let program: Program | undefined;
      const asks: PermissionAsk[] = [];
      const host = {
        askPermission: (a: PermissionAsk) =>
          new Promise<PermissionAnswer>((resolve, reject) => {
            asks.push(a);
            a.signal.addEventListener('abort', () => reject(new Error('withdrawn')));
            if (program && program.answer !== 'never')
              answerTimers.push(
                setTimeout(
                  () => resolve({ decision: program?.answer === 'allow' ? 'allow' : 'deny' }),
                  program.answerAfterMs,
                ),
              );
          }),
      };
      const battery = await batteryClient({ watch, host, mode: 'ask' });
      const listenersBefore = process.listenerCount('exit') + process.listenerCount('SIGINT');
      try {
        await fc.assert(
          fc.asyncProperty(programArbitrary, async (p) => {
            explored++;
            program = p;
            asks.length = 0;
            if (!agent?.running) agent = await battery.client.connect(relayEntry());
            const session = await agent.newSession({ cwd: battery.home.work });
            let settled = 0;
            const turn = session.prompt(script(toScript(p))).then(
              (r) => {
                settled++;
                return r.stopReason as string;
              },
              () => {
                settled++;
                return 'error';
              },
            );
            const cancelTimer =
              p.cancelAfterMs === null ? undefined : setTimeout(() => void session.cancel(), p.cancelAfterMs);
            // A pending question never answered and never cancelled would block the turn: the
            // program then cancels it (as a user would), which is part of the interleaving.
            const rescue = setTimeout(() => void session.cancel(), 2_000);
            const outcome = await within(turn, 10_000, `the turn of ${JSON.stringify(p)}`);
            clearTimeout(cancelTimer);
            clearTimeout(rescue);
            answerTimers.forEach(clearTimeout);
            answerTimers = [];
            await new Promise((done) => setTimeout(done, 5));
            const state = session.state;
            const terminal = state.items.filter((i) => i.kind === 'stop' || i.kind === 'error');
            const openTools = state.items.filter(
              (i) => i.kind === 'tool_call' && i.status === 'in_progress' && !i.clientStatus,
            );
            const problems = [
              settled !== 1 && `settled ${settled} times`,
              terminal.length !== 1 && `${terminal.length} terminal items`,
              state.pendingPermissions.length > 0 && 'pending permissions left',
              asks.some((a) => !a.signal.aborted && p.answer === 'never') && 'a dialog left open',
              (state.status === 'running' || state.status === 'cancelling') && `status ${state.status}`,
              outcome !== 'end_turn' &&
                openTools.length > 0 &&
                `${openTools.length} tool calls left open after ${outcome}`,
            ].filter((x): x is string => typeof x === 'string');
            if (problems.length > 0) failures++;
            expect(problems, JSON.stringify(p)).toEqual([]);
            await session.close();
          }),
          { seed, numRuns: COUNTS.interleavings },
        );
      } finally {
        await battery.close();
      }
      const listenersAfter = process.listenerCount('exit') + process.listenerCount('SIGINT');
      figure({
        case: 'E4',
        name: 'interleavings explored',
        value: explored,
        target: '≥ 1,000 (full size)',
        pass: explored >= 1000,
        seed,
      });
      zero({ case: 'E4', name: 'interleavings breaking an invariant', seed }, failures);
      zero({ case: 'E4', name: 'process listeners leaked', seed }, listenersAfter - listenersBefore);
      expect(listenersAfter).toBe(listenersBefore);
    },
    timeoutMs(150_000, 900_000),
  );
});
