/**
 * Rules remembered for a session, and the rule an answer would record, through the real
 * permission flow: AcpClient, the fake agent as a child process, a host answering questions.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { PermissionAnswer, PermissionAsk } from '../agent/host.js';
import { AcpClient } from '../client.js';
import { resolveClientPaths } from '../paths.js';
import { rememberedRule, type RememberedRule } from '../permissions/remember.js';
import { fakeAgent, reportedResults, script, tempDir } from '../test-support/harness.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const options = [
  { optionId: 'once', name: 'Allow', kind: 'allow_once' },
  { optionId: 'always', name: 'Always', kind: 'allow_always' },
  { optionId: 'no', name: 'Reject', kind: 'reject_once' },
];
const execute = (id: string, command: string) => ({
  request: 'session/request_permission',
  params: { toolCall: { toolCallId: id, kind: 'execute', title: command, rawInput: { command } }, options },
});
const edit = (id: string, path: string) => ({
  request: 'session/request_permission',
  params: { toolCall: { toolCallId: id, kind: 'edit', title: 'Edit', locations: [{ path }] }, options },
});

async function start(answer: (ask: PermissionAsk) => PermissionAnswer) {
  const { dir, cleanup } = await tempDir();
  cleanups.push(cleanup);
  const asked: PermissionAsk[] = [];
  const client = await AcpClient.create({
    paths: resolveClientPaths({
      ACP_KIT_CONFIG_DIR: join(dir, 'config'),
      ACP_KIT_DATA_DIR: join(dir, 'data'),
    }),
    host: {
      askPermission: async (ask) => {
        asked.push(ask);
        return answer(ask);
      },
    },
  });
  cleanups.push(() => client.close());
  const connection = await client.connect(fakeAgent());
  return { dir, client, connection, asked };
}

const withoutId = ({ id: _id, createdAt: _createdAt, ...rule }: { id: string; createdAt?: string }) => rule;

describe('session rules', () => {
  it('are listed by session and deleted; a deleted rule no longer answers', async () => {
    const { dir, client, connection, asked } = await start(() => ({ decision: 'allow', scope: 'session' }));
    const first = await connection.newSession({ cwd: dir });
    const second = await connection.newSession({ cwd: dir });
    await first.prompt(script([execute('a', 'npm test'), execute('b', 'npm test')]));
    expect(asked.map((ask) => ask.localId)).toEqual([first.localId]);
    expect(first.sessionRules).toMatchObject([
      { id: expect.stringMatching(/^session-/), action: 'allow', kinds: ['execute'], command: 'npm test' },
    ]);
    expect(second.sessionRules).toEqual([]);
    const id = first.sessionRules[0]?.id as string;
    expect(client.sessionRules()).toEqual([{ localId: first.localId, rule: first.sessionRules[0] }]);
    expect(client.sessionRules(second.localId)).toEqual([]);

    expect(client.removeSessionRule(second.localId, id)).toBeUndefined();
    expect(client.removeSessionRule(first.localId, id)).toMatchObject({ id, command: 'npm test' });
    expect(client.sessionRules()).toEqual([]);
    // Asked again now that the rule is gone (and remembered again).
    await first.prompt(script([execute('c', 'npm test')]));
    expect(asked).toHaveLength(2);
    const decided = first.state.items.flatMap((item) => (item.kind === 'permission' ? [item.by] : []));
    expect(decided).toEqual(['user', 'session-rule', 'user']);
  });

  it('record exactly the rule rememberedRule() shows for the answer, in every scope', async () => {
    const previews: (RememberedRule | undefined)[] = [];
    const scopes = ['session', 'project', 'always', 'session'] as const;
    const picked = ['no', 'no', 'no', 'once'];
    let index = 0;
    const { dir, client, connection } = await start((ask) => {
      const answer: PermissionAnswer = { decision: 'allow', scope: scopes[index], optionId: picked[index] };
      index++;
      previews.push(rememberedRule(ask, answer));
      return answer;
    });
    const session = await connection.newSession({ cwd: dir });
    await session.prompt(
      script([
        execute('a', 'git status --short'),
        edit('b', join(dir, 'src', 'a[1].ts')),
        execute('c', 'make'),
        execute('d', 'npm test && curl x | sh'),
      ]),
    );
    // The option picked decides the action ("Reject": deny), for the exact command and the exact
    // (escaped) path; an allowed compound command is not remembered.
    expect(previews).toEqual([
      { action: 'deny', kinds: ['execute'], command: 'git status --short' },
      { action: 'deny', kinds: ['edit'], path: join(dir, 'src', 'a\\[1\\].ts'), project: dir },
      { action: 'deny', kinds: ['execute'], command: 'make' },
      undefined,
    ]);
    expect(session.sessionRules.map(withoutId)).toEqual([previews[0]]);
    expect(client.rules.rules.map(withoutId)).toEqual([previews[1], previews[2]]);
    expect(reportedResults(session.state)).toHaveLength(4);
    expect(
      rememberedRule({ subject: askSubject(dir) }, { decision: 'allow', scope: 'once' }),
    ).toBeUndefined();
    expect(rememberedRule({ subject: askSubject(dir) }, { decision: 'allow', scope: 'session' })).toEqual({
      action: 'allow',
      kinds: ['execute'],
      command: 'ls',
      exact: true,
    });
  });
});

function askSubject(cwd: string): PermissionAsk['subject'] {
  return {
    source: 'permission_request',
    agentId: 'fake',
    kind: 'execute',
    paths: [],
    command: { line: 'ls' },
    cwd,
    outsideRoots: false,
    secret: false,
  };
}
