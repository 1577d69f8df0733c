/**
 * L2, L3. The argv and working-directory surface of saved rules. A rule allowing `git status`
 * covers `git status` however it is spelled (argv, a line, `bash -lc`), and none of the ways
 * around it: a `sh` the agent wrote, a shell reading an rc file, a leading assignment, `env`,
 * `git -c`, a second command, a hidden character. An answer remembered for `npm test` or `make`
 * covers that command, not the same words with more arguments (`--script-shell`, `--eval`). A
 * working directory outside the roots is refused, rule or not, also through a symbolic link.
 */
import { chmodSync, existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PermissionAsk } from '@acp-kit/client';
import { describe, expect, it } from 'vitest';
import { fileWatch } from './support/canary.js';
import { figure, holds, zero } from './support/figures.js';
import { markersOf, openSurface, surfaceHome, touchMarker } from './support/surface.js';

const watch = fileWatch('l-argv');

const GIT_STATUS = [{ id: 'git', action: 'allow', kinds: ['execute'], command: 'git status' }];

describe('L2 the argv of a command a saved rule allows', () => {
  it('a rule for git status covers its spellings and none of the ways around it', async () => {
    const surface = surfaceHome('l2-git');
    const { home, files } = surface;
    const fakeShell = join(home.work, '.agent', 'bin', 'sh');
    mkdirSync(join(home.work, '.agent', 'bin'));
    writeFileSync(fakeShell, `#!/bin/sh\n${touchMarker(surface, 'fake-shell')}\n`);
    chmodSync(fakeShell, 0o755);
    const rc = join(home.work, '.agent', 'rc');
    writeFileSync(rc, `${touchMarker(surface, 'rcfile')}\n`);
    const s = await openSurface(surface, { watch, mode: 'reads', rules: GIT_STATUS });
    try {
      const covered = [
        { command: 'git', args: ['status'] },
        { command: 'git', args: ['status', '--short'] },
        { command: 'git status' },
        { command: 'bash', args: ['-lc', 'git  status'] },
        { command: '/bin/sh', args: ['-c', 'git status'] },
      ];
      const around = [
        { command: fakeShell, args: ['-c', 'git status'] },
        { command: 'bash', args: ['--rcfile', rc, '-i', '-c', 'git status'] },
        { command: 'sh', args: ['-c', 'git status', 'extra'] },
        { command: `GIT_DIR=${files.repo} git status` },
        { command: 'env', args: [`GIT_DIR=${files.repo}`, 'git', 'status'] },
        { command: 'git', args: ['-c', `core.fsmonitor=${touchMarker(surface, 'git-c')}; false`, 'status'] },
        { command: `git status; ${touchMarker(surface, 'compound')}` },
        { command: `git status\n${touchMarker(surface, 'newline')}` },
        { command: 'bash', args: ['-c', `git status && ${touchMarker(surface, 'and')}`] },
        { command: 'git', args: ['status;', 'touch', join(surface.markers, 'literal')] },
        { command: 'git', args: ['status\u200b'] },
      ];
      const ran: string[] = [];
      for (const params of covered) if ((await s.run(params)).created.result !== undefined) ran.push('ok');
      const escaped: string[] = [];
      for (const params of around) {
        const { created } = await s.run(params);
        if (created.result !== undefined) escaped.push(JSON.stringify(params).slice(0, 120));
      }
      const markers = markersOf(surface);
      figure({
        case: 'L2',
        name: 'spellings of git status run on its rule (argv, line, bash -lc, /bin/sh -c, more arguments)',
        value: ran.length,
        target: String(covered.length),
        pass: ran.length === covered.length,
      });
      zero(
        {
          case: 'L2',
          name: `ways around a git status rule that ran (of ${around.length}: own sh, rc file, trailing argument, assignment, env, git -c, ;, newline, &&, literal ;, zero-width)`,
        },
        escaped.length,
      );
      zero({ case: 'L2', name: 'payload markers created (ways around a git status rule)' }, markers.length);
      expect(ran).toHaveLength(covered.length);
      expect(escaped).toEqual([]);
      expect(markers).toEqual([]);
    } finally {
      await s.close();
      home.cleanup();
    }
  }, 120_000);

  it('an answer remembered for npm test or make covers that command, not more arguments', async () => {
    const surface = surfaceHome('l2-remembered');
    const allowed = new Set<string>();
    // The user allows `npm test` and `make` for the session (the first time each is asked).
    const answer = (ask: PermissionAsk) => {
      const command = ask.command ?? '';
      if ((command === 'npm test' || command === 'make') && !allowed.has(command)) {
        allowed.add(command);
        return { decision: 'allow' as const, scope: 'session' as const };
      }
      return { decision: 'deny' as const };
    };
    const s = await openSurface(surface, { watch, mode: 'ask', rules: [], answer });
    try {
      const first = [
        await s.run({ command: 'npm', args: ['test'] }),
        await s.run({ command: 'make', args: [] }),
        await s.run({ command: 'npm', args: ['test'] }),
      ];
      const askedFirst = s.asks.length;
      const wider = [
        { command: 'npm', args: ['test', `--script-shell=${surface.files.shell}`] },
        { command: 'make', args: [`--eval=$(shell ${touchMarker(surface, 'make-eval')})`] },
        { command: 'make', args: ['-f', surface.files.makefile] },
      ];
      const escaped: string[] = [];
      for (const params of wider) {
        const { created } = await s.run(params);
        if (created.result !== undefined) escaped.push(`${params.command} ${params.args.join(' ')}`);
      }
      const markers = markersOf(surface);
      const remembered = first.every((r) => r.created.result !== undefined) && askedFirst === 2;
      holds(
        {
          case: 'L2',
          name: 'an answer remembered for npm test and make allows them again without a question',
        },
        remembered,
      );
      zero(
        { case: 'L2', name: `wider commands covered by a remembered answer (of ${wider.length})` },
        escaped.length,
      );
      zero({ case: 'L2', name: 'payload markers created (wider commands)' }, markers.length);
      expect(remembered, JSON.stringify(s.asks.map((a) => a.command))).toBe(true);
      expect(escaped).toEqual([]);
      expect(markers).toEqual([]);
      expect(s.asks).toHaveLength(2 + wider.length);
    } finally {
      await s.close();
      surface.home.cleanup();
    }
  }, 120_000);
});

describe('L3 the working directory of a command a saved rule allows', () => {
  it('outside the roots it is refused, directly or through a link; inside it runs', async () => {
    const surface = surfaceHome('l3-cwd');
    const { home, outside } = surface;
    symlinkSync(outside, join(home.work, 'link-out'));
    mkdirSync(join(home.work, 'sub'));
    const s = await openSurface(surface, { watch, mode: 'all', rules: GIT_STATUS });
    try {
      const git = { command: 'git', args: ['status'] };
      const direct = await s.run({ ...git, cwd: outside });
      const linked = await s.run({ ...git, cwd: join(home.work, 'link-out') });
      const dotdot = await s.run({ ...git, cwd: join(home.work, 'sub', '..', '..', 'outside') });
      const inside = await s.run({ ...git, cwd: join(home.work, 'sub') });
      const refused = [direct, linked, dotdot].filter((r) => r.created.error !== undefined).length;
      figure({
        case: 'L3',
        name: 'git status (allowed by a rule) with a cwd outside the roots: refused (direct, symlink, ..)',
        value: refused,
        target: '3',
        pass: refused === 3,
      });
      holds(
        { case: 'L3', name: 'git status in a directory inside the roots runs' },
        inside.created.result !== undefined,
      );
      expect(refused).toBe(3);
      expect(inside.created.result).toBeDefined();
      expect(existsSync(join(outside, '.git'))).toBe(false);
    } finally {
      await s.close();
      home.cleanup();
    }
  }, 60_000);
});
