import { describe, expect, it } from 'vitest';
import type { SessionUpdate } from '@acp-kit/protocol';
import { initialSessionState, reduceSessionEvents, v1UpdateEvents, type SessionEvent } from '@acp-kit/client';
import { resolveKeyBindings } from '../../keys/key-bindings.js';
import { resolveTheme } from '../../theme/theme.js';
import { TranscriptProjector, type TranscriptUnit } from '../view/transcript-projector.js';
import { needsHighlighter, renderUnits } from './print-units.js';

/** A v1 update as the client records it (through the v1 face; each of these is one event). */
const update = (u: Record<string, unknown>): SessionEvent =>
  v1UpdateEvents(u as unknown as SessionUpdate, 1)[0] as SessionEvent;

/** Turns of prompts, Markdown answers, tool calls (one with a diff), plans and notices. */
function session(): readonly TranscriptUnit[] {
  const events: SessionEvent[] = [];
  for (let turn = 1; turn <= 4; turn++) {
    events.push({ type: 'prompt', at: 1, turn, prompt: [{ type: 'text', text: `Question ${turn}` }] });
    events.push(
      update({
        sessionUpdate: 'agent_message_chunk',
        messageId: `m${turn}`,
        content: { type: 'text', text: `## Answer ${turn}\n\nSome **bold** text.\n\n- one\n- two\n` },
      }),
      update({ sessionUpdate: 'tool_call', toolCallId: `t${turn}`, title: `Edit f${turn}`, kind: 'edit' }),
      update({
        sessionUpdate: 'tool_call_update',
        toolCallId: `t${turn}`,
        status: turn === 3 ? 'failed' : 'completed',
        content: [{ type: 'diff', path: `/w/f${turn}.ts`, oldText: 'a\nb\n', newText: 'a\nc\n' }],
      }),
      update({
        sessionUpdate: 'plan',
        entries: [{ content: `step ${turn}`, priority: 'high', status: 'pending' }],
      }),
    );
    events.push({ type: 'turn_end', at: 1, turn, stopReason: turn === 2 ? 'cancelled' : 'end_turn' });
  }
  const state = reduceSessionEvents(initialSessionState('s', '/w'), events);
  return new TranscriptProjector().project(state).printed;
}

describe('renderUnits', () => {
  it('draws the units of a printing exactly as each run of them drawn alone (one Ink render for all runs)', () => {
    const units = session();
    // Runs: consecutive units other than Markdown, and each Markdown part alone.
    const runs: TranscriptUnit[][] = [];
    for (const unit of units) {
      const last = runs.at(-1);
      if (unit.part?.kind !== 'markdown' && last && last[0]?.part?.kind !== 'markdown') last.push(unit);
      else runs.push([unit]);
    }
    expect(runs.length).toBeGreaterThan(8);
    const options = {
      columns: 80,
      theme: resolveTheme('dark', {}),
      bindings: resolveKeyBindings({}).bindings,
      cwd: '/w',
      showThoughts: false,
      expanded: false,
    };
    const together = renderUnits(units, options);
    expect(together).toBe(runs.map((run) => renderUnits(run, options)).join(''));
    expect(together).toContain('Question 4');
    expect(together).toContain('Edit f3');
  });
});

describe('needsHighlighter', () => {
  /** The printed units of one turn: a prompt, then the agent's answer. */
  function units(promptText: string, answer: string): readonly TranscriptUnit[] {
    const events: SessionEvent[] = [
      { type: 'prompt', at: 1, turn: 1, prompt: [{ type: 'text', text: promptText }] },
      update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: answer } }),
      { type: 'turn_end', at: 1, turn: 1, stopReason: 'end_turn' },
    ];
    return new TranscriptProjector().project(reduceSessionEvents(initialSessionState('s', '/w'), events))
      .printed;
  }

  it('says which units print code in a language, so only those wait for the highlighter', () => {
    const plain = units('Question', '## Answer\n\nSome `code` and **bold** text.\n');
    expect(plain.length).toBeGreaterThan(1);
    expect(plain.map(needsHighlighter)).toEqual(plain.map(() => false));
    const code = units('Question', 'Here:\n\n```ts\nconst a = 1;\n```\n');
    expect(code.some(needsHighlighter)).toBe(true);
    expect(units('Why does\n~~~py\nx = 1\n~~~\nfail?', 'No idea.\n').map(needsHighlighter)).toEqual([
      true,
      false,
    ]);
    expect(session().some(needsHighlighter)).toBe(false);
  });
});
