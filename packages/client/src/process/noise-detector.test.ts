import { describe, expect, it } from 'vitest';
import { NoiseDetector } from './agent-process.js';

describe('NoiseDetector', () => {
  it('counts lines that are not JSON objects, and passes a parsed object without reading its text', () => {
    const firsts: string[] = [];
    const detector = new NoiseDetector((sample) => firsts.push(sample));
    detector.inspect('  {"jsonrpc":"2.0","method":"x"}');
    // The engine hands a long frame's text as the pieces it was read in; the parsed value says
    // it is a frame, whatever the text (here not even JSON: it is not looked at).
    detector.inspect('not looked at', { jsonrpc: '2.0', method: 'x' });
    detector.inspect('Starting agent v1 \x1b[31m', undefined);
    detector.inspect('[1]', [1]);
    expect(detector.count).toBe(2);
    expect(firsts).toEqual(['Starting agent v1 ']);
  });
});
