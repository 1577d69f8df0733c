import chalk from 'chalk';
import { afterEach, describe, expect, it } from 'vitest';
import { colorize, paint } from './paint.js';

const level = chalk.level;
afterEach(() => {
  chalk.level = level;
});

describe('colorize', () => {
  it("writes what chalk's own call writes at the colour level in force, when the level changes between calls too", () => {
    const direct: Record<string, (text: string) => string> = {
      red: (t) => chalk.red(t),
      cyanBright: (t) => chalk.cyanBright(t),
      '#8ab4f8': (t) => chalk.hex('#8ab4f8')(t),
      'ansi256(208)': (t) => chalk.ansi256(208)(t),
      'rgb(32, 33, 36)': (t) => chalk.rgb(32, 33, 36)(t),
    };
    for (const at of [3, 1, 2, 0, 3, 1] as const) {
      chalk.level = at;
      for (const [color, call] of Object.entries(direct)) expect(colorize('text', color)).toBe(call('text'));
    }
    chalk.level = 3;
    expect(colorize('text', '#8ab4f8')).toBe('\x1b[38;2;138;180;248mtext\x1b[39m');
  });

  it('leaves text as it is without a colour or with a colour it cannot read', () => {
    chalk.level = 3;
    expect(colorize('text', undefined)).toBe('text');
    expect(colorize('text', 'not a colour')).toBe('text');
    expect(colorize('text', 'not a colour')).toBe('text');
    expect(paint('text', { color: 'red', bold: true })).toBe(chalk.bold(chalk.red('text')));
  });
});
