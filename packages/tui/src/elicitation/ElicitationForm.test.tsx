import { describe, expect, it, vi } from 'vitest';
import type { ElicitationSchema } from '@acp-kit/protocol';
import { ESCAPE_CORPUS } from '../sanitize/corpus.js';
import { SCENARIO_DEPLOY_FORM } from '../test-support/elicitation-schemas.js';
import { KEYS, renderInk, expectSafeFrame, flat as flatLines } from '../test-support/ink.js';
import { ElicitationForm } from './ElicitationForm.js';
import type { FormOutcome, FormState } from './form-state.js';

/** The frame without the dialog's border, in one line (assertions survive wrapping). */
const flat = (frame: string): string =>
  flatLines(
    frame
      .split('\n')
      .map((line) => line.replace(/^[│╭╰].?|.?[│╮╯]$/g, ''))
      .join('\n'),
  );

function setup(
  options: {
    schema?: ElicitationSchema;
    message?: string;
    rows?: number;
    armDelayMs?: number;
    draft?: FormState;
  } = {},
) {
  const onAnswer = vi.fn<(outcome: FormOutcome) => void>();
  const onDraft = vi.fn<(state: FormState) => void>();
  let t = 0;
  const r = renderInk(
    <ElicitationForm
      message={options.message ?? 'The deploy tool needs a few details.'}
      schema={options.schema ?? SCENARIO_DEPLOY_FORM}
      agentName="Scenario"
      waiting={1}
      rows={options.rows ?? 40}
      armDelayMs={options.armDelayMs ?? 0}
      now={() => t}
      onAnswer={onAnswer}
      onDraft={onDraft}
      {...(options.draft ? { draft: options.draft } : {})}
    />,
  );
  return { ...r, onAnswer, onDraft, advance: (ms: number) => (t += ms) };
}

describe('ElicitationForm', () => {
  it('shows the message, every field with its title, value, description and required mark, and the buttons', () => {
    const { frame } = setup();
    const text = flat(frame());
    expect(text).toContain('Input requested by Scenario · 1 more waiting');
    expect(text).toContain('The deploy tool needs a few details.');
    expect(text).toContain('Deployment Where and how to deploy');
    expect(text).toContain('❯ Name * Who deploys · at least 2 characters');
    expect(text).toContain('Email name@example.com name@example.com');
    expect(text).toContain('Replicas 2 whole number · 1–10');
    expect(text).toContain('Ratio (empty) number · 0–1');
    expect(text).toContain('Environment * (•) Staging ( ) Production');
    expect(text).toContain('Regions * [ ] eu-west-1 [ ] us-east-1 choose at least 1 · Space ticks');
    expect(text).toContain('[x] Notify the team');
    expect(text).toContain('Submit Decline Cancel');
    expect(text).toContain(
      'Tab/↑↓ move · ←→ choose · Space tick · Ctrl+S submit · Esc decline · Ctrl+C cancel',
    );
  });

  it('is filled in by keyboard and accepted with the content the schema asks for', async () => {
    const { press, type, frame, onAnswer } = setup();
    await type('Ada');
    expect(frame()).toContain('Ada');
    await press(KEYS.tab, KEYS.tab); // replicas
    await press(KEYS.backspace);
    await type('4');
    await press(KEYS.down, KEYS.down); // environment
    await press(KEYS.right);
    expect(flat(frame())).toContain('( ) Staging (•) Production Live traffic');
    await press(KEYS.tab, KEYS.right, ' '); // regions: us-east-1
    expect(flat(frame())).toContain('[ ] eu-west-1 [x] us-east-1');
    await press(KEYS.tab, ' '); // notify off
    expect(frame()).toContain('[ ] Notify the team');
    expect(onAnswer).not.toHaveBeenCalled();
    await press(KEYS.enter);
    expect(onAnswer).toHaveBeenCalledTimes(1);
    expect(onAnswer).toHaveBeenCalledWith({
      action: 'accept',
      content: { name: 'Ada', replicas: 4, environment: 'production', regions: ['us-east-1'], notify: false },
    });
  });

  it('shows errors beside the fields and sends nothing until they are fixed', async () => {
    const { press, type, frame, onAnswer } = setup();
    await press(KEYS.tab);
    await type('ada@');
    await press(KEYS.tab);
    expect(flat(frame())).toContain('Email ✗ Not a valid email (name@example.com)');
    await press(KEYS.ctrl('s'));
    expect(onAnswer).not.toHaveBeenCalled();
    const text = flat(frame());
    expect(text).toContain('❯ Name * ✗ Required');
    expect(text).toContain('Regions * ✗ Choose at least 1');
    expect(text).toContain('Fix the 3 fields marked ✗, then submit again');
    await type('A');
    expect(flat(frame())).toContain('Name * ✗ At least 2 characters');
    await type('l');
    expect(frame()).not.toContain('At least 2 characters');
    await press(KEYS.tab);
    await type('example.com');
    await press(KEYS.shiftTab, KEYS.shiftTab); // back to the buttons: Submit
    await press(KEYS.enter);
    expect(onAnswer).not.toHaveBeenCalled();
    expect(flat(frame())).toContain('Fix the field marked ✗, then submit again');
    await press(' ', KEYS.ctrl('s'));
    expect(onAnswer).toHaveBeenCalledWith({
      action: 'accept',
      content: {
        name: 'Al',
        email: 'ada@example.com',
        replicas: 2,
        environment: 'staging',
        regions: ['eu-west-1'],
        notify: true,
      },
    });
    expectSafeFrame(frame());
  });

  it('declines with Esc, cancels with Ctrl+C or the Cancel button, answering once', async () => {
    const declined = setup();
    await declined.press(KEYS.escape, KEYS.escape, KEYS.ctrl('c'));
    expect(declined.onAnswer.mock.calls).toEqual([[{ action: 'decline' }]]);
    declined.unmount();
    const cancelled = setup();
    await cancelled.press(KEYS.ctrl('c'));
    expect(cancelled.onAnswer.mock.calls).toEqual([[{ action: 'cancel' }]]);
    cancelled.unmount();
    const button = setup();
    await button.press(KEYS.shiftTab, KEYS.right, KEYS.right);
    expect(button.frame()).toContain('❯ Cancel');
    await button.press(KEYS.enter);
    expect(button.onAnswer.mock.calls).toEqual([[{ action: 'cancel' }]]);
  });

  it('ignores keys typed as it opens, and says when it takes keys', async () => {
    const { press, frame, onAnswer, advance } = setup({ armDelayMs: 400 });
    expect(frame()).toContain('Read the form: keys work in a moment');
    await press(KEYS.enter, 'x', KEYS.escape);
    expect(onAnswer).not.toHaveBeenCalled();
    expect(frame()).toContain('Keys pressed as this form opened were ignored.');
    advance(400);
    await press(KEYS.escape);
    expect(onAnswer).toHaveBeenCalledWith({ action: 'decline' });
  });

  it('reports every change as a draft and opens again as it was left', async () => {
    const first = setup();
    await first.type('Grace');
    const draft = first.onDraft.mock.calls.at(-1)?.[0] as FormState;
    first.unmount();
    const again = setup({ draft });
    expect(again.frame()).toContain('Grace');
    await again.press(KEYS.escape);
    expect(again.onAnswer).toHaveBeenCalledWith({ action: 'decline' });
  });

  it('folds a long message and scrolls the fields to fit its rows', async () => {
    const properties = Object.fromEntries(
      Array.from({ length: 12 }, (_, i) => [`f${i}`, { type: 'string', title: `Field ${i}` }]),
    );
    const message = Array.from({ length: 30 }, (_, i) => `line ${i}`).join('\n');
    const { frame, press } = setup({
      schema: { type: 'object', properties } as ElicitationSchema,
      message,
      rows: 20,
    });
    const lines = frame().split('\n');
    expect(lines.length).toBeLessThanOrEqual(20);
    expect(frame()).toContain('more lines');
    expect(frame()).toContain('Field 0');
    expect(frame()).not.toContain('Field 11');
    expect(frame()).toMatch(/↓ \d+ more fields/);
    await press(KEYS.shiftTab, KEYS.shiftTab); // round to the last field
    expect(frame()).toContain('❯ Field 11');
    expect(frame()).toMatch(/↑ \d+ more fields/);
  });

  it('stays within its rows whatever the agent sends: long messages, titles, descriptions, values', async () => {
    const long = 'word '.repeat(400);
    const schema = {
      title: long,
      description: long,
      properties: Object.fromEntries(
        Array.from({ length: 6 }, (_, i) => [
          `f${i}`,
          {
            type: 'string',
            title: long,
            description: long,
            default: long,
            oneOf: i % 2 ? undefined : [{ const: 'x', title: long }],
          },
        ]),
      ),
    } as unknown as ElicitationSchema;
    for (const rows of [12, 24]) {
      const { frame, press, unmount } = setup({ schema, message: `${long}\n${long}`, rows });
      expect(frame().split('\n').length).toBeLessThanOrEqual(rows);
      await press(KEYS.tab, KEYS.tab, KEYS.tab);
      expect(frame().split('\n').length).toBeLessThanOrEqual(rows);
      await press(KEYS.ctrl('s'));
      expect(frame().split('\n').length).toBeLessThanOrEqual(rows);
      unmount();
    }
  });

  it('cannot accept a form asking for a value it cannot edit', async () => {
    const { press, frame, onAnswer } = setup({
      schema: {
        properties: { blob: { type: 'object', title: 'Blob' } },
        required: ['blob'],
      } as ElicitationSchema,
    });
    expect(flat(frame())).toContain('Blob * (cannot be filled in here) type object: acp cannot fill this in');
    await press(KEYS.ctrl('s'));
    expect(onAnswer).not.toHaveBeenCalled();
    expect(frame()).toContain('This form asks for something acp cannot fill in: decline or cancel it');
  });

  it('never draws an escape sequence from the agent’s message, titles, descriptions, choices or defaults', () => {
    for (const entry of ESCAPE_CORPUS) {
      const hostile = {
        type: 'object',
        title: `Title ${entry.input}`,
        description: `About ${entry.input}`,
        properties: {
          text: {
            type: 'string',
            title: `Field ${entry.input}`,
            description: `Describe ${entry.input}`,
            default: `Default ${entry.input}`,
            pattern: entry.input,
          },
          pick: {
            type: 'string',
            title: `Pick ${entry.input}`,
            oneOf: [{ const: 'a', title: `Choice ${entry.input}`, description: `Means ${entry.input}` }],
            default: 'a',
          },
          many: {
            type: 'array',
            title: `Many ${entry.input}`,
            items: { anyOf: [{ const: 'b', title: `Item ${entry.input}` }] },
          },
          odd: { type: `weird${entry.input}`, title: `Odd ${entry.input}` },
        },
      } as unknown as ElicitationSchema;
      const { frame, unmount } = setup({ schema: hostile, message: `Message ${entry.input}`, rows: 24 });
      expectSafeFrame(frame());
      expect(frame().split('\n').length, entry.name).toBeLessThanOrEqual(24);
      if (entry.visible) expect(flat(frame())).toContain(flat(entry.visible));
      if (entry.hidden) expect(frame()).not.toContain(entry.hidden);
      unmount();
    }
  });
});
