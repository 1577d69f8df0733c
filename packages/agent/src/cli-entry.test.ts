import { describe, expect, it } from 'vitest';
import { agentCliOptions } from './cli-entry.js';

describe('agentCliOptions', () => {
  it('lists every flag of acp agent with a description, numeric flags with a parser', () => {
    const flags = agentCliOptions.map((o) => o.flags.split(' ')[0]);
    expect(flags).toEqual([
      '--demo',
      '--provider',
      '--model',
      '--base-url',
      '--api-key-env',
      '--config',
      '--data-dir',
      '--max-steps',
      '--context-window',
      '--demo-delay',
      '--log-level',
    ]);
    expect(agentCliOptions.every((o) => o.description.length > 10)).toBe(true);
    const parse = (flag: string, value: string) =>
      agentCliOptions.find((o) => o.flags.startsWith(flag))?.parse?.(value);
    expect(parse('--max-steps', '12')).toBe(12);
    expect(() => parse('--max-steps', '0')).toThrow(/positive/);
    expect(() => parse('--context-window', 'lots')).toThrow();
    expect(parse('--demo-delay', '0')).toBe(0);
  });
});
