import { describe, expect, it, vi } from 'vitest';
import {
  initialSessionState,
  type AgentEntry,
  type DetectedAgent,
  type PermissionAsk,
} from '@acp-kit/client';
import { KEYS, renderInk, flat } from '../../test-support/ink.js';
import { agentItem, orderAgents } from '../components/AgentPicker.js';
import { SelectList } from '../components/SelectList.js';
import { tabMarker, tabTitle } from '../components/TabBar.js';
import type { TabInfo } from '../state/app-state.js';
import { answerFor, LOCAL_OPTIONS, permissionRequestView, permissionWarnings } from './permission-view.js';
import { statusView } from './status-view.js';

const ask = (over: Partial<PermissionAsk> = {}): PermissionAsk =>
  ({
    key: '1',
    source: 'permission_request',
    kind: 'execute',
    paths: [],
    outsideRoots: false,
    secret: false,
    reason: 'execute needs your approval',
    localId: 's',
    agentId: 'a',
    signal: new AbortController().signal,
    ...over,
  }) as PermissionAsk;

describe('permission views', () => {
  const options = [
    { optionId: 'ok', name: 'Allow', kind: 'allow_once' as const },
    { optionId: 'always', name: 'Always', kind: 'allow_always' as const },
    { optionId: 'no', name: 'No', kind: 'reject_once' as const },
  ];

  it('answers with the option, its decision, and the remembered scope (at least the session for "always")', () => {
    const a = ask({ options });
    expect(answerFor(a, 'ok', 'once')).toEqual({ decision: 'allow', scope: 'once', optionId: 'ok' });
    expect(answerFor(a, 'always', 'once')).toEqual({
      decision: 'allow',
      scope: 'session',
      optionId: 'always',
    });
    expect(answerFor(a, 'no', 'project')).toEqual({ decision: 'deny', scope: 'project', optionId: 'no' });
    expect(answerFor(ask({ source: 'fs_write' }), 'deny', 'always')).toEqual({
      decision: 'deny',
      scope: 'always',
    });
  });

  it('shows the engine’s command and paths, local options for fs checks, and why it is special', () => {
    const state = initialSessionState('s', '/w');
    const view = permissionRequestView(
      ask({
        command: 'rm -rf build',
        paths: ['/w/build'],
        toolCallId: 't',
        toolCall: { toolCallId: 't', title: 'Clean' },
      }),
      state,
    );
    expect(view.operation?.command).toBe('rm -rf build');
    expect(view.operation?.paths).toEqual([{ path: '/w/build' }]);
    expect(view.toolCall.title).toBe('Clean');
    expect(
      permissionRequestView(ask({ source: 'fs_write', kind: 'edit', paths: ['/etc/x'] }), state).options,
    ).toBe(LOCAL_OPTIONS);
    expect(
      permissionWarnings(ask({ outsideRoots: true, secret: true, sensitiveEnv: ['LD_PRELOAD'] })),
    ).toEqual([
      'Outside the session’s directories',
      'Looks like a secret file',
      'Sets LD_PRELOAD: they can change what the command runs',
    ]);
  });
});

describe('status and tabs', () => {
  const agent: AgentEntry = { id: 'demo', name: 'Demo', source: 'builtin', command: 'acp', args: [] };
  it('builds the status bar view from the tab and its session', () => {
    const tab: TabInfo = {
      id: 't',
      agent,
      phase: 'ready',
      queued: 0,
      agentTitle: 'Demo agent',
      agentVersion: '1.0',
    };
    const state = {
      ...initialSessionState('s', '/w'),
      status: 'running' as const,
      title: 'Fix tests',
      modes: { currentModeId: 'ask', availableModes: [{ id: 'ask', name: 'Ask' }] },
      usage: { used: 10, size: 100 },
    };
    expect(statusView(tab, state, 5, 2)).toMatchObject({
      agentName: 'Demo agent',
      agentVersion: '1.0',
      connection: 'ready',
      sessionTitle: 'Fix tests',
      mode: 'Ask',
      usage: { used: 10, size: 100 },
      queuedPermissions: 2,
      turn: { lastUpdateAt: 5 },
    });
    expect(statusView({ ...tab, phase: 'crashed' }, undefined, undefined, 0).connection).toBe('crashed');
    // The agent's background work, from its last complete snapshot; none shows nothing.
    const background = { terminalIds: ['T1', 'T2'], toolCallIds: ['c'], other: [] };
    expect(statusView(tab, { ...state, background }, undefined, 0).background).toBe(
      '2 terminals, 1 tool call',
    );
    expect(
      statusView(
        tab,
        { ...state, background: { terminalIds: [], toolCallIds: [], other: [] } },
        undefined,
        0,
      ),
    ).not.toHaveProperty('background');
    const remote = {
      url: 'http://devbox:8765/acp',
      profile: 'http' as const,
      state: 'reconnecting' as const,
      resumes: 2,
    };
    expect(statusView({ ...tab, remote }, state, undefined, 0)).toMatchObject({
      connection: 'reconnecting',
      remote: 'devbox:8765 · streamable http · resumed 2×',
    });
    expect(
      statusView({ ...tab, remote: { ...remote, state: 'connected' } }, state, undefined, 0).connection,
    ).toBe('ready');
    // A running command shows its command line, not the directory it runs in.
    const command = {
      ...state,
      items: [
        {
          kind: 'tool_call' as const,
          key: '0',
          turn: 1,
          toolCallId: 'c',
          title: 'Run ls',
          toolKind: 'execute',
          status: 'in_progress',
          content: [],
          locations: [{ path: '/w' }],
          rawInput: { command: ['bash', '-lc', 'ls -la'] },
          announced: true,
        },
      ],
    };
    const shown = statusView(tab, command, 5, 0);
    expect(shown.currentCommand).toBe('ls -la');
    expect(shown.currentLocation).toBeUndefined();
    expect(tabTitle(tab)).toBe('Demo agent');
    expect(tabTitle({ ...tab, agentTitle: undefined })).toBe('Demo');
    expect(tabMarker(tab, true)).toBe('⚑');
    expect(tabMarker({ ...tab, status: 'running' }, false)).toBe('◐');
    expect(tabMarker({ ...tab, phase: 'failed' }, false)).toBe('✗');
  });

  it('orders agents with the demo first (labelled as such) and marks what is not installed', () => {
    const detected = (id: string, installed: boolean, extra: Partial<DetectedAgent> = {}): DetectedAgent => ({
      id,
      name: id,
      source: 'builtin',
      command: id,
      args: [],
      detection: { installed },
      ...extra,
    });
    const ordered = orderAgents([
      detected('claude', false, { install: 'npm i -g x' }),
      detected('mine', true, { source: 'user' }),
      detected('demo', true),
      detected('acp-kit', true),
    ]);
    expect(ordered.map((a) => a.id)).toEqual(['demo', 'acp-kit', 'mine', 'claude']);
    const items = ordered.map(agentItem);
    expect(items[0]).toMatchObject({ hotkey: 'd', tag: { text: 'demo · no model' } });
    expect(items[2]).toMatchObject({ hotkey: '2', tag: { text: 'installed' }, detail: 'user · mine' });
    expect(items[3]).toMatchObject({ tag: { text: 'not installed' }, detail: 'install: npm i -g x' });
  });
});

describe('SelectList', () => {
  it('moves, selects with Enter or a hotkey, cancels, scrolls, and sanitizes labels', async () => {
    const onSelect = vi.fn();
    const onCancel = vi.fn();
    const items = Array.from({ length: 8 }, (_, i) => ({
      key: `k${i}`,
      label: `Item ${i}\x1b]0;evil\x07`,
      hotkey: i === 5 ? 'x' : undefined,
    }));
    const r = renderInk(
      <SelectList title="Pick" items={items} onSelect={onSelect} onCancel={onCancel} maxVisible={4} />,
    );
    expect(flat(r.frame())).toContain('❯ Item 0');
    expect(r.frame()).not.toContain('evil');
    expect(flat(r.frame())).toContain('↓ 4 more');
    await r.press(KEYS.down, 'j', KEYS.enter);
    expect(onSelect).toHaveBeenLastCalledWith(expect.objectContaining({ key: 'k2' }));
    await r.press('x');
    expect(onSelect).toHaveBeenLastCalledWith(expect.objectContaining({ key: 'k5' }));
    await r.press(KEYS.escape);
    expect(onCancel).toHaveBeenCalledTimes(1);
  });
});
