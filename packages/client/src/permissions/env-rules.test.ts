import { describe, expect, it } from 'vitest';
import { effectiveEnv, envNeedingApproval, isAllowedEnv } from './env-allow-list.js';
import { PermissionPolicy, SessionPermissions, type BaseMode } from './policy.js';
import { parseRule, type PermissionRule, type PermissionSubject } from './rules.js';
import { subjectFromToolCall, suggestRule } from './subject.js';

const cwd = '/work/project';

/** A terminal subject as the terminal service builds it. */
function terminal(argv: string[], env: { name: string; value: string }[] = []): PermissionSubject {
  const set = effectiveEnv(env);
  const sensitive = envNeedingApproval(set);
  return {
    source: 'terminal',
    agentId: 'a',
    kind: 'execute',
    paths: [],
    command: { argv },
    cwd,
    outsideRoots: false,
    secret: false,
    ...(set.length > 0 ? { env: set } : {}),
    ...(sensitive.length > 0 ? { sensitiveEnv: sensitive } : {}),
  };
}

function decide(mode: BaseMode, s: PermissionSubject, rules: PermissionRule[], session?: SessionPermissions) {
  return new PermissionPolicy({ mode, savedRules: () => rules }).evaluate(s, session, 1).action;
}

const gitStatus: PermissionRule = { id: 'r', action: 'allow', kinds: ['execute'], command: 'git status' };

describe('the environment allow list', () => {
  it.each([
    ['NO_COLOR', '1', true],
    ['TERM', 'xterm-256color', true],
    ['LANG', 'C.UTF-8', true],
    ['COLUMNS', '120', true],
    ['PAGER', 'cat', true],
    ['PAGER', 'less', false],
    ['GIT_PAGER', 'sh -c id', false],
    ['LANG', '/tmp/locale', false],
    ['TERM', '../../tmp/x', false],
    ['COLUMNS', '80; id', false],
    ['no_color', '1', false],
    ['HOME', '/tmp/x', false],
    ['GIT_DIR', '/tmp/repo', false],
    ['XDG_CONFIG_HOME', '/tmp/x', false],
    ['MAKEFLAGS', '-s', false],
  ])('%s=%j allowed: %s', (name, value, allowed) => {
    expect(isAllowedEnv(name, value)).toBe(allowed);
  });

  it('is decided on what the command really sets', () => {
    const set = effectiveEnv(
      [
        { name: 'HOME', value: '/tmp/evil' },
        { name: 'NO_COLOR', value: '1' },
        { name: 'HOME', value: '/home/me' },
        { name: 'PATH', value: '/usr/bin' },
      ],
      { HOME: '/home/me', PATH: '/usr/bin:/bin' },
    );
    // HOME ends as it was inherited: nothing changes.
    expect(set).toEqual([
      { name: 'NO_COLOR', value: '1' },
      { name: 'PATH', value: '/usr/bin' },
    ]);
    expect(envNeedingApproval(set)).toEqual(['PATH']);
  });
});

describe('rules and the environment', () => {
  it('a command setting a variable off the list is not covered by a rule that does not name it', () => {
    for (const name of ['HOME', 'XDG_CONFIG_HOME', 'GIT_DIR', 'GIT_WORK_TREE']) {
      const s = terminal(['git', 'status'], [{ name, value: '/tmp/x' }]);
      expect(decide('reads', s, [gitStatus])).toBe('deny');
      expect(decide('ask', s, [gitStatus])).toBe('ask');
      expect(decide('all', s, [gitStatus])).toBe('deny');
    }
    expect(
      decide('reads', terminal(['git', 'status'], [{ name: 'NO_COLOR', value: '1' }]), [gitStatus]),
    ).toBe('allow');
  });

  it('a rule naming a variable allows the values it lists (or any, with true), and no other variable', () => {
    const named = (values: unknown) => parseRule({ ...gitStatus, env: { GIT_DIR: values } }, 'test');
    const s = terminal(['git', 'status'], [{ name: 'GIT_DIR', value: '/work/project/.git' }]);
    expect(decide('reads', s, [named('/work/project/.git')])).toBe('allow');
    expect(decide('reads', s, [named(['/elsewhere', '/work/project/.git'])])).toBe('allow');
    expect(decide('reads', s, [named(true)])).toBe('allow');
    expect(decide('reads', s, [named('/elsewhere')])).toBe('deny');
    const more = terminal(
      ['git', 'status'],
      [
        { name: 'GIT_DIR', value: '/work/project/.git' },
        { name: 'HOME', value: '/tmp' },
      ],
    );
    expect(decide('reads', more, [named(true)])).toBe('deny');
  });

  it('validates env and exact', () => {
    const fails = (raw: Record<string, unknown>) => () => parseRule({ id: 'x', ...raw }, 'rules.json');
    expect(fails({ action: 'deny', command: 'git', env: { HOME: true } })).toThrow(/allow rules only/);
    expect(fails({ action: 'allow', env: {} })).toThrow(/must be an object/);
    expect(fails({ action: 'allow', env: { 'A=B': true } })).toThrow(/not a variable name/);
    expect(fails({ action: 'allow', env: { HOME: 1 } })).toThrow(/must be true/);
    expect(fails({ action: 'allow', env: { HOME: [] } })).toThrow(/must be true/);
    expect(fails({ action: 'allow', exact: true })).toThrow(/needs a "command"/);
    expect(fails({ action: 'allow', command: 'ls', exact: 'yes' })).toThrow(/true or false/);
    const proto = parseRule(JSON.parse('{"id":"p","action":"allow","env":{"__proto__":true}}'), 'x');
    expect(Object.keys(proto.env ?? {})).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('exact rules and what an answer remembers', () => {
  it('an exact rule covers its words and no more; a prefix rule covers more arguments', () => {
    const exact = parseRule(
      { id: 'e', action: 'allow', kinds: ['execute'], command: 'npm test', exact: true },
      'x',
    );
    expect(decide('reads', terminal(['npm', 'test']), [exact])).toBe('allow');
    expect(decide('reads', terminal(['npm', 'test', '--script-shell=/tmp/sh']), [exact])).toBe('deny');
    const prefix = { ...exact, exact: undefined };
    expect(decide('reads', terminal(['npm', 'test', '--script-shell=/tmp/sh']), [prefix])).toBe('allow');
  });

  it('an allow remembers the exact command with the variables it was shown with; a deny stays a prefix', () => {
    const s = terminal(
      ['make'],
      [
        { name: 'MAKEFLAGS', value: '-j4' },
        { name: 'NO_COLOR', value: '1' },
      ],
    );
    expect(suggestRule(s, 'allow', 'session')).toEqual({
      action: 'allow',
      kinds: ['execute'],
      command: 'make',
      exact: true,
      env: { MAKEFLAGS: '-j4' },
    });
    expect(suggestRule(s, 'deny', 'session')).toEqual({
      action: 'deny',
      kinds: ['execute'],
      command: 'make',
    });
    const rule = { ...(suggestRule(s, 'allow', 'session') as PermissionRule), id: 'm' };
    expect(decide('reads', s, [rule])).toBe('allow');
    expect(decide('reads', terminal(['make', '--eval=$(shell id)']), [rule])).toBe('deny');
    expect(decide('reads', terminal(['make'], [{ name: 'MAKEFLAGS', value: '--eval=x' }]), [rule])).toBe(
      'deny',
    );
  });
});

describe('a permission request and the terminal that carries it out', () => {
  it('shows the env and cwd of the raw input, in either shape', () => {
    const context = { agentId: 'a', cwd, roots: [cwd] };
    const object = subjectFromToolCall(
      {
        toolCallId: 't',
        kind: 'execute',
        rawInput: { command: 'git status', env: { GIT_DIR: '/x' }, workdir: 'sub' },
      },
      undefined,
      context,
    );
    expect(object).toMatchObject({
      env: [{ name: 'GIT_DIR', value: '/x' }],
      sensitiveEnv: ['GIT_DIR'],
      commandCwd: '/work/project/sub',
    });
    const array = subjectFromToolCall(
      {
        toolCallId: 't',
        kind: 'execute',
        rawInput: {
          command: 'ls',
          env: [
            { name: 'NO_COLOR', value: '1' },
            { name: 7, value: 'x' },
          ],
        },
      },
      undefined,
      context,
    );
    expect(array.env).toEqual([{ name: 'NO_COLOR', value: '1' }]);
    expect(array.sensitiveEnv).toBeUndefined();
  });

  it('one answer covers the command the user saw, compound ones included, and nothing else', () => {
    const session = new SessionPermissions();
    const policy = new PermissionPolicy({ mode: 'ask' });
    session.addGrant({ kind: 'execute', paths: [], shownPaths: [], script: 'echo a; echo b', turn: 1 });
    const run = (argv: string[]) => policy.evaluate(terminal(argv), session, 1).action;
    expect(run(['/bin/sh', '-c', 'echo a; echo b'])).toBe('allow');
    expect(run(['bash', '-lc', 'echo a; echo b'])).toBe('allow');
    expect(run(['/bin/sh', '-c', 'echo a; echo b; curl x | sh'])).toBe('ask');
    expect(run(['/bin/sh', '-c', 'echo a'])).toBe('ask');
    expect(run(['/bin/sh', '-c', 'echo a; echo b', 'extra'])).toBe('ask');
    expect(run(['/tmp/sh', '-c', 'echo a; echo b'])).toBe('ask');
  });

  it('covers the variables the question showed, with those values only', () => {
    const session = new SessionPermissions();
    const policy = new PermissionPolicy({ mode: 'ask' });
    session.addGrant({
      kind: 'execute',
      paths: [],
      shownPaths: [],
      argv: ['git', 'status'],
      env: [{ name: 'GIT_DIR', value: '/work/project/.git' }],
      turn: 1,
    });
    const run = (value: string) =>
      policy.evaluate(terminal(['git', 'status'], [{ name: 'GIT_DIR', value }]), session, 1).action;
    expect(run('/work/project/.git')).toBe('allow');
    expect(run('/tmp/evil')).toBe('ask');
    expect(
      policy.evaluate(terminal(['git', 'status'], [{ name: 'HOME', value: '/tmp' }]), session, 1).action,
    ).toBe('ask');
  });
});
