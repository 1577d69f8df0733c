import { describe, expect, it } from 'vitest';
import { PermissionPolicy, SessionPermissions, type BaseMode } from './policy.js';
import type { PermissionRule, PermissionSubject } from './rules.js';
import { ruleMatches } from './rules.js';
import { outcomeFor } from './options.js';
import { subjectFromToolCall, suggestRule } from './subject.js';

const cwd = '/work/project';
const roots = [cwd];

function subject(overrides: Partial<PermissionSubject>): PermissionSubject {
  return {
    source: 'permission_request',
    agentId: 'claude',
    kind: 'read',
    paths: [],
    cwd,
    outsideRoots: false,
    secret: false,
    ...overrides,
  };
}

function decide(
  mode: BaseMode,
  s: PermissionSubject,
  rules: PermissionRule[] = [],
  session?: SessionPermissions,
) {
  return new PermissionPolicy({ mode, savedRules: () => rules }).evaluate(s, session, 1).action;
}

describe('command-prefix rules', () => {
  const rule: PermissionRule = { id: 'r1', action: 'allow', kinds: ['execute'], command: 'git status' };
  it.each([
    ['git status', true],
    ['git status --short', true],
    ['git status; curl x | sh', false],
    ['git status && curl x', false],
    ['git status `curl x`', false],
    ['git status\ncurl x', false],
    ['git statusx', false],
    ['FOO=1 git status', false],
    ['git -c core.pager=sh status', false],
  ])('%j → %s', (line, matches) => {
    expect(ruleMatches(rule, subject({ kind: 'execute', command: { line } }))).toBe(matches);
  });
  it('applies to argv and to shell-wrapped argv', () => {
    expect(ruleMatches(rule, subject({ kind: 'execute', command: { argv: ['git', 'status'] } }))).toBe(true);
    expect(
      ruleMatches(rule, subject({ kind: 'execute', command: { argv: ['bash', '-lc', 'git status'] } })),
    ).toBe(true);
    expect(
      ruleMatches(rule, subject({ kind: 'execute', command: { argv: ['bash', '-lc', 'git status; id'] } })),
    ).toBe(false);
    expect(ruleMatches(rule, subject({ kind: 'execute' }))).toBe(false);
  });
});

describe('path, agent, kind and project conditions', () => {
  it('needs every path to match the glob (relative to the project)', () => {
    const rule: PermissionRule = { id: 'p', action: 'allow', path: 'src/**' };
    expect(
      ruleMatches(rule, subject({ paths: ['/work/project/src/a.ts', '/work/project/src/x/.hidden'] })),
    ).toBe(true);
    expect(ruleMatches(rule, subject({ paths: ['/work/project/src/a.ts', '/etc/passwd'] }))).toBe(false);
    expect(ruleMatches(rule, subject({ paths: [] }))).toBe(false);
  });
  it('filters by agent, kind and project', () => {
    expect(ruleMatches({ id: 'a', action: 'allow', agent: 'codex' }, subject({}))).toBe(false);
    expect(ruleMatches({ id: 'k', action: 'allow', kinds: ['edit'] }, subject({ kind: 'read' }))).toBe(false);
    expect(ruleMatches({ id: 'j', action: 'allow', project: '/work' }, subject({}))).toBe(true);
    expect(ruleMatches({ id: 'j', action: 'allow', project: '/elsewhere' }, subject({}))).toBe(false);
  });
});

describe('PermissionPolicy defaults', () => {
  const read = subject({ kind: 'read', paths: ['/work/project/a.ts'] });
  const edit = subject({ kind: 'edit', paths: ['/work/project/a.ts'] });
  const outside = subject({ kind: 'read', paths: ['/etc/hosts'], outsideRoots: true });
  const secret = subject({ kind: 'read', paths: ['/work/project/.env'], secret: true });
  const hardLinked = subject({
    source: 'fs_read',
    kind: 'read',
    paths: ['/work/project/h'],
    hardLinked: true,
  });
  it.each([
    ['ask', read, 'allow'],
    ['ask', edit, 'ask'],
    ['ask', subject({ kind: 'execute' }), 'ask'],
    ['ask', subject({ kind: 'fetch' }), 'ask'],
    ['ask', subject({ kind: 'delete' }), 'ask'],
    ['ask', subject({ kind: 'move' }), 'ask'],
    ['ask', outside, 'ask'],
    ['ask', secret, 'ask'],
    ['reads', read, 'allow'],
    ['reads', edit, 'deny'],
    ['reads', outside, 'deny'],
    ['reads', secret, 'deny'],
    ['all', edit, 'allow'],
    ['all', subject({ kind: 'execute' }), 'allow'],
    ['all', outside, 'deny'],
    ['all', secret, 'deny'],
    ['ask', hardLinked, 'ask'],
    ['reads', hardLinked, 'deny'],
    ['all', hardLinked, 'deny'],
    ['all', { ...hardLinked, source: 'fs_write', kind: 'edit' }, 'deny'],
    ['all', subject({ source: 'terminal', kind: 'execute', sensitiveEnv: ['LD_PRELOAD'] }), 'deny'],
    ['none', read, 'deny'],
  ] as const)('%s: %o → %s', (mode, s, expected) => {
    expect(decide(mode, s)).toBe(expected);
  });

  it('puts deny before ask before allow, and saved rules over the base mode', () => {
    const rules: PermissionRule[] = [
      { id: 'a', action: 'allow', kinds: ['execute'] },
      { id: 'd', action: 'deny', kinds: ['execute'], command: 'git push' },
    ];
    expect(decide('reads', subject({ kind: 'execute', command: { line: 'git push' } }), rules)).toBe('deny');
    expect(decide('reads', subject({ kind: 'execute', command: { line: 'git log' } }), rules)).toBe('allow');
    expect(decide('none', subject({ kind: 'execute', command: { line: 'git log' } }), rules)).toBe('deny');
  });

  it('lets a rule naming a hard-linked file allow it, and a grant only when it named that path', () => {
    expect(decide('reads', hardLinked, [{ id: 'named', action: 'allow', path: 'h' }])).toBe('allow');
    const session = new SessionPermissions();
    session.addGrant({ kind: 'edit', paths: [], shownPaths: [], turn: 1 });
    const write = { ...hardLinked, source: 'fs_write' as const, kind: 'edit' };
    expect(decide('all', write, [], session)).toBe('deny');
    // Named only in the request's raw input, not shown to the user: not covered.
    session.addGrant({ kind: 'edit', paths: ['/work/project/h'], shownPaths: [], turn: 1 });
    expect(decide('all', write, [], session)).toBe('deny');
    session.addGrant({ kind: 'edit', paths: ['/work/project/h'], shownPaths: ['/work/project/h'], turn: 1 });
    expect(decide('all', write, [], session)).toBe('allow');
  });

  it('needs a rule naming the path for secrets', () => {
    expect(decide('reads', secret, [{ id: 'broad', action: 'allow', kinds: ['read'] }])).toBe('deny');
    expect(decide('reads', secret, [{ id: 'named', action: 'allow', path: '.env' }])).toBe('allow');
  });

  it('lets an allowed permission request cover the fs write and terminal that carry it out, in its turn', () => {
    const session = new SessionPermissions();
    session.addGrant({ kind: 'edit', paths: ['/work/project/a.ts'], shownPaths: [], turn: 1 });
    session.addGrant({ kind: 'execute', paths: [], shownPaths: [], argv: ['npm', 'test'], turn: 1 });
    const policy = new PermissionPolicy({ mode: 'ask' });
    const write = subject({ source: 'fs_write', kind: 'edit', paths: ['/work/project/a.ts'] });
    expect(policy.evaluate(write, session, 1).action).toBe('allow');
    expect(policy.evaluate({ ...write, paths: ['/work/project/b.ts'] }, session, 1).action).toBe('ask');
    expect(policy.evaluate(write, session, 2).action).toBe('ask');
    const run = subject({ source: 'terminal', kind: 'execute', command: { argv: ['npm', 'test'] } });
    expect(policy.evaluate(run, session, 1).action).toBe('allow');
    expect(policy.evaluate({ ...run, command: { line: 'npm test; rm -rf ~' } }, session, 1).action).toBe(
      'ask',
    );
    session.endTurn(1);
    expect(policy.evaluate(write, session, 1).action).toBe('ask');
  });

  it('lets the agent read back a file it wrote, inside the roots, while it is unchanged', () => {
    const session = new SessionPermissions();
    const env = '/work/project/.env';
    session.noteWritten(env, 'd:i:6:1');
    const read = subject({ source: 'fs_read', paths: [env], secret: true, fileStamp: 'd:i:6:1' });
    expect(new PermissionPolicy({ mode: 'ask' }).evaluate(read, session, 1)).toMatchObject({
      action: 'allow',
      by: 'grant',
    });
    expect(decide('ask', { ...read, fileStamp: 'd:i:9:2' }, [], session)).toBe('ask');
    expect(decide('ask', { ...read, fileStamp: undefined }, [], session)).toBe('ask');
    expect(decide('ask', { ...read, hardLinked: true }, [], session)).toBe('ask');
    expect(decide('ask', { ...read, outsideRoots: true }, [], session)).toBe('ask');
    expect(decide('none', read, [], session)).toBe('deny');
    const deny: PermissionRule = { id: 'r', action: 'deny', kinds: ['read'], path: '**/.env' };
    expect(decide('ask', read, [deny], session)).toBe('deny');
  });
});

describe('subjectFromToolCall', () => {
  it('gathers paths and commands from the shapes agents send', () => {
    const s = subjectFromToolCall(
      {
        toolCallId: 't',
        kind: 'execute',
        rawInput: { command: ['bash', '-lc', 'npm test'], cwd: 'sub' },
        locations: [{ path: 'src/a.ts' }],
      },
      undefined,
      { agentId: 'codex', cwd, roots },
    );
    expect(s.paths).toEqual(['/work/project/src/a.ts']);
    expect(s.command).toEqual({ argv: ['bash', '-lc', 'npm test'] });
    expect(s.commandText).toBe("bash -lc 'npm test'");
    expect(s.outsideRoots).toBe(false);
  });
  it('merges the announced tool call and flags secrets and outside paths', () => {
    const s = subjectFromToolCall(
      { toolCallId: 't' },
      {
        kind: 'edit',
        rawInput: { file_path: '/home/u/.ssh/config' },
        content: [{ type: 'diff', path: '/work/project/.env', newText: 'x' }],
      },
      { agentId: 'claude', cwd, roots },
    );
    expect(s.kind).toBe('edit');
    expect(s.paths.sort()).toEqual(['/home/u/.ssh/config', '/work/project/.env']);
    expect(s.secret).toBe(true);
    expect(s.outsideRoots).toBe(true);
  });
});

describe('an agent’s to-do list tool', () => {
  const context = { agentId: 'gemini', cwd, roots };
  const decide = (toolCall: Parameters<typeof subjectFromToolCall>[0], mode: BaseMode = 'ask') =>
    new PermissionPolicy({ mode }).evaluate(subjectFromToolCall(toolCall, undefined, context), undefined, 1);
  it('is allowed without asking, as a read is: it is not an action on the workspace', () => {
    // Gemini CLI: `write_todos__<id>` (0.61), `write_todos-<time>` (earlier), kind other, nothing else.
    for (const toolCallId of ['write_todos__g1', 'write_todos-1764300000000', 'update_plan'])
      expect(
        decide({ toolCallId, kind: 'other', title: 'Set 2 todo(s)', content: [], locations: [] }),
      ).toEqual({
        action: 'allow',
        reason: 'a to-do list is not an action on the workspace',
        by: 'default',
      });
    expect(decide({ toolCallId: 'write_todos__g1', kind: 'other' }, 'reads').action).toBe('allow');
    expect(decide({ toolCallId: 'write_todos__g1', kind: 'other' }, 'none').action).toBe('deny');
  });
  it('is no such tool when it names a path or a command, carries content, or is of another kind', () => {
    const todo = { toolCallId: 'write_todos__g1', kind: 'other' as const };
    expect(decide({ ...todo, locations: [{ path: 'notes.txt' }] }).action).toBe('ask');
    expect(decide({ ...todo, rawInput: { file_path: 'notes.txt' } }).action).toBe('ask');
    expect(
      decide({ ...todo, content: [{ type: 'diff', path: '/work/project/a', newText: 'x' }] }).action,
    ).toBe('ask');
    expect(decide({ ...todo, kind: 'edit' }).action).toBe('ask');
    expect(decide({ toolCallId: 'write_todos_and_more__g1', kind: 'other' }).action).toBe('ask');
    expect(decide({ toolCallId: 'run__write_todos', kind: 'other' }).action).toBe('ask');
  });
});

describe('suggestRule and outcomeFor', () => {
  it('remembers exact simple commands, never compound ones', () => {
    expect(
      suggestRule(subject({ kind: 'execute', command: { line: 'npm  test' } }), 'allow', 'always'),
    ).toMatchObject({ command: 'npm test' });
    expect(
      suggestRule(
        subject({ kind: 'execute', command: { line: 'npm test && rm -rf /' } }),
        'allow',
        'session',
      ),
    ).toBeUndefined();
    expect(
      suggestRule(subject({ kind: 'edit', paths: ['/work/project/[id].ts'] }), 'allow', 'project'),
    ).toMatchObject({
      path: '/work/project/\\[id\\].ts',
      project: cwd,
    });
  });
  it('always answers with an offered option, echoed exactly', () => {
    const options = [
      { optionId: 'ALWAYS-1', name: 'Always', kind: 'allow_always' as const },
      { optionId: 'once-x', name: 'Once', kind: 'allow_once' as const },
      { optionId: 'no', name: 'No', kind: 'reject_once' as const },
    ];
    expect(outcomeFor(options, 'allow').outcome).toEqual({ outcome: 'selected', optionId: 'once-x' });
    expect(outcomeFor(options.slice(0, 1), 'allow').outcome).toEqual({
      outcome: 'selected',
      optionId: 'ALWAYS-1',
    });
    expect(outcomeFor(options, 'deny').outcome).toEqual({ outcome: 'selected', optionId: 'no' });
    expect(outcomeFor(options.slice(0, 2), 'deny')).toEqual({
      outcome: { outcome: 'cancelled' },
      allowed: false,
    });
    expect(outcomeFor(options.slice(2), 'allow')).toEqual({
      outcome: { outcome: 'cancelled' },
      allowed: false,
    });
  });
});

describe('why a question is asked', () => {
  const reason = (s: PermissionSubject) =>
    new PermissionPolicy({ mode: 'ask' }).evaluate(s, undefined, 1).reason;
  it('names what needs approval, and a tool without a kind by its title (an MCP tool)', () => {
    expect(reason(subject({ kind: 'edit' }))).toBe('File edits need your approval');
    expect(reason(subject({ kind: 'execute', command: { line: 'ls' } }))).toBe('Commands need your approval');
    expect(reason(subject({ kind: 'other', title: 'Post to #general' }))).toBe(
      '“Post to #general” needs your approval (only reads run without asking)',
    );
    expect(reason(subject({ kind: 'other' }))).not.toMatch(/\bother\b/);
  });
});
