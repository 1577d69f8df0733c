/**
 * L1. The environment surface of saved rules. With rules allowing `git status`, `npm test` and
 * `make`, an agent's `terminal/create` of exactly those commands with `HOME`, `XDG_CONFIG_HOME`,
 * `GIT_DIR`, `GIT_WORK_TREE`, npm's or make's variables pointing at files it wrote runs code of its
 * choice (git's `core.fsmonitor`, npm's `script-shell`, a makefile) while the user sees only the
 * command. Only the short allow list of variables passes on a rule; any other needs the user (who
 * is shown the variables, their values and the working directory) or a rule naming it.
 */
import { realpathSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { BaseMode } from '@acp-kit/client';
import { describe, expect, it } from 'vitest';
import { fileWatch } from './support/canary.js';
import { figure, holds, zero } from './support/figures.js';
import {
  ALLOWED_COMMANDS,
  attackVariables,
  markersOf,
  openSurface,
  surfaceHome,
  type SurfaceHome,
} from './support/surface.js';

const watch = fileWatch('l-environment');

const RULES = ALLOWED_COMMANDS.map(({ rule }, i) => ({
  id: `allow-${i}`,
  action: 'allow',
  kinds: ['execute'],
  command: rule,
}));

/** Runs every allowed command with every attack variable under `mode`; returns what ran. */
async function attack(surface: SurfaceHome, mode: BaseMode) {
  const s = await openSurface(surface, { watch, mode, rules: RULES });
  const ran: string[] = [];
  const unshown: string[] = [];
  const subdir = join(surface.home.work, 'sub');
  mkdirSync(subdir, { recursive: true });
  try {
    for (const { rule, command, args } of ALLOWED_COMMANDS) {
      for (const variable of attackVariables(surface)) {
        const before = s.asks.length;
        const { created } = await s.run({ command, args, env: [variable], cwd: subdir });
        if (created.result !== undefined) ran.push(`${rule} with ${variable.name}`);
        if (mode !== 'ask') continue;
        // The question shows the variable, its value, and the working directory asked for.
        const ask = s.asks[before];
        const shown =
          ask?.env?.some((e) => e.name === variable.name && e.value === variable.value) === true &&
          ask.commandCwd === realpathSync(subdir);
        if (!shown) unshown.push(`${rule} with ${variable.name}`);
      }
    }
  } finally {
    await s.close();
  }
  return { ran, unshown, requests: ALLOWED_COMMANDS.length * attackVariables(surface).length };
}

describe('L1 the environment of a command a saved rule allows', () => {
  for (const mode of ['reads', 'all', 'ask'] as const) {
    it(`--approve ${mode}: git status, npm test, make with HOME, XDG_CONFIG_HOME, GIT_DIR, GIT_WORK_TREE, npm and make variables never run on the rule alone`, async () => {
      const surface = surfaceHome(`l1-${mode}`);
      try {
        const { ran, unshown, requests } = await attack(surface, mode);
        const markers = markersOf(surface);
        zero(
          {
            case: 'L1',
            name: `${mode}: commands run on a rule alone with a variable off the allow list (of ${requests})`,
          },
          ran.length,
        );
        zero({ case: 'L1', name: `${mode}: payload markers created` }, markers.length);
        if (mode === 'ask')
          zero(
            {
              case: 'L1',
              name: `ask: questions not showing the variable, its value and the cwd (of ${requests})`,
            },
            unshown.length,
          );
        expect(ran, `payload markers created: ${markers.join(', ')}`).toEqual([]);
        expect(markers).toEqual([]);
        expect(unshown).toEqual([]);
      } finally {
        surface.home.cleanup();
      }
    }, 180_000);
  }

  it('the rules still work: no variable, or allow-listed ones, run without a question; a rule naming a variable allows that value only', async () => {
    const surface = surfaceHome('l1-allowed');
    const gitDir = attackVariables(surface).find((v) => v.name === 'GIT_DIR');
    const rules = [
      ...RULES,
      {
        id: 'named',
        action: 'allow',
        kinds: ['execute'],
        command: 'git status',
        env: { GIT_DIR: gitDir?.value },
      },
    ];
    const s = await openSurface(surface, { watch, mode: 'reads', rules });
    try {
      const plain: string[] = [];
      for (const { rule, command, args } of ALLOWED_COMMANDS) {
        for (const env of [[], [{ name: 'NO_COLOR', value: '1' }], [{ name: 'LANG', value: 'C.UTF-8' }]]) {
          const { created } = await s.run({ command, args, env });
          if (created.result !== undefined) plain.push(rule);
        }
      }
      const named = await s.run({ command: 'git', args: ['status'], env: gitDir ? [gitDir] : [] });
      const other = await s.run({
        command: 'git',
        args: ['status'],
        env: [{ name: 'GIT_DIR', value: join(surface.home.work, '.git') }],
      });
      const expected = ALLOWED_COMMANDS.length * 3;
      figure({
        case: 'L1',
        name: 'rule-allowed commands run with no variable, NO_COLOR or LANG, without a question',
        value: plain.length,
        target: String(expected),
        pass: plain.length === expected && s.asks.length === 0,
      });
      const exact = named.created.result !== undefined && other.created.result === undefined;
      holds({ case: 'L1', name: 'a rule naming GIT_DIR with a value allows that value, not another' }, exact);
      expect(plain).toHaveLength(expected);
      expect(s.asks).toEqual([]);
      expect(named.created.result, JSON.stringify(named.created.error)).toBeDefined();
      expect(other.created.error).toBeDefined();
      // The payload of the named repository ran: the rule named it, so that was the user's choice.
      expect(markersOf(surface)).toEqual(['git-dir']);
    } finally {
      await s.close();
      surface.home.cleanup();
    }
  }, 120_000);
});
