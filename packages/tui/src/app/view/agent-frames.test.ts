/**
 * What the UI draws of real agents' turns: the frames recorded from claude-agent-acp, codex-acp
 * (2.6 and the older 0.16), Gemini CLI, and the official SDK's example agent
 * (`test/fixtures/agent-frames/`), replayed into a session and printed as the transcript is.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { PermissionPolicy, subjectFromToolCall, type SessionState } from '@acp-kit/client';
import { renderToString } from 'ink';
import { createElement } from 'react';
import { PlanPanel } from '../../components/PlanPanel.js';
import { resolveKeyBindings } from '../../keys/key-bindings.js';
import { resolveTheme } from '../../theme/theme.js';
import { agentFramesWorkspace, replayAgentFrames } from '../../test-support/agent-frames.js';
import { renderUnits } from '../components/print-units.js';
import { tabTitle } from '../components/TabBar.js';
import type { TabInfo } from '../state/app-state.js';
import { statusView } from './status-view.js';
import { TranscriptProjector } from './transcript-projector.js';

let cleanup: (() => void) | undefined;
afterEach(() => {
  cleanup?.();
  cleanup = undefined;
});

/** The transcript as printed into the scrollback (no colours), with the workspace shown as `$WS`. */
function printed(state: SessionState, ws: string): string {
  const { printed: units, live } = new TranscriptProjector().project(state);
  const text = renderUnits([...units, ...live], {
    columns: 120,
    theme: resolveTheme('none', {}),
    bindings: resolveKeyBindings({}).bindings,
    cwd: ws,
    showThoughts: false,
    expanded: false,
  });
  return text.split(ws).join('$WS');
}

/** The pinned plan, as drawn above the composer. */
function plan(state: SessionState): string {
  return renderToString(createElement(PlanPanel, { entries: state.plan }), { columns: 100 });
}

async function replay(file: string) {
  const workspace = agentFramesWorkspace();
  cleanup = workspace.cleanup;
  const result = await replayAgentFrames(file, workspace.dir);
  return { ...result, ws: workspace.dir, text: printed(result.state, workspace.dir) };
}

function tab(agentTitle: string | undefined): TabInfo {
  return {
    id: 't',
    agent: { id: 'x', name: 'env', source: 'user', command: 'env', args: [] },
    phase: 'ready',
    queued: 0,
    ...(agentTitle !== undefined ? { agentTitle } : {}),
  };
}

const toolCalls = (state: SessionState) => state.items.filter((item) => item.kind === 'tool_call');

describe('Claude (claude-agent-acp 0.49)', () => {
  it('draws the Edit snippet at line 2 of the file, without a false "no newline" marker', async () => {
    // While the permission is asked: the snippet alone ("line two" → "line 2 (edited)").
    const workspace = agentFramesWorkspace();
    cleanup = workspace.cleanup;
    const asked = await replayAgentFrames(
      'claude-agent-acp-0.49.0.jsonl',
      workspace.dir,
      (line) => line.kind === 'permission' && line.toolCall.toolCallId === 'toolu_03',
    );
    const card = printed({ ...asked.state, status: 'idle' }, workspace.dir);
    expect(card).toContain(
      [
        '○ ✎ Edit notes.txt · pending',
        '    notes.txt',
        '    notes.txt:2 +1 -1',
        '    @@ -2,1 +2,1 @@',
        '    2   - line two',
        '      2 + line 2 (edited)',
      ].join('\n'),
    );
    expect(card).not.toContain('No newline at end of file');
    // After the edit: Claude's hunk with its context lines (no final newline either), at line 1.
    const { text } = await replay('claude-agent-acp-0.49.0.jsonl');
    expect(text).toContain(
      [
        '    notes.txt:1 +1 -1',
        '    @@ -1,3 +1,3 @@',
        '    1 1   line one',
        '    2   - line two',
        '      2 + line 2 (edited)',
        '    3 3   line three',
      ].join('\n'),
    );
    expect(text).not.toContain('No newline at end of file');
  });

  it('shows the command with its streamed output, the todos as the plan, and the agent’s name', async () => {
    const { state, text, agentTitle } = await replay('claude-agent-acp-0.49.0.jsonl');
    expect(text).toContain(
      ['✓ » ls', '      README.md', '      notes.txt', '    ✓ exited with 0'].join('\n'),
    );
    expect(toolCalls(state).map((c) => (c.kind === 'tool_call' ? c.title : ''))).toEqual([
      'Read notes.txt',
      'Edit notes.txt',
      'ls',
    ]);
    expect(plan(state)).toContain('Plan · 3/3 done');
    expect(plan(state)).toContain('✓ Edit line two');
    expect(tabTitle(tab(agentTitle))).toBe('Claude Agent');
  });
});

describe('Codex (codex-acp 0.16: command and output only in rawInput/rawOutput)', () => {
  it('shows each command and its output, for classified commands and terminals alike', async () => {
    const { text } = await replay('codex-acp-0.16.0.jsonl');
    expect(text).toContain(
      ['✓ ⌕ List $WS', '    $ ls', '      README.md', '      notes.txt', '    ✓ exited with 0'].join('\n'),
    );
    expect(text).toContain(
      ['✓ ≡ Read notes.txt', '    notes.txt', '    $ cat notes.txt', '      line one', '      line two'].join(
        '\n',
      ),
    );
    expect(text).toContain(
      [
        '✓ » echo hello from codex && wc -l notes.txt',
        '      hello from codex',
        '      3 notes.txt',
        '    ✓ exited with 0',
      ].join('\n'),
    );
    expect(text).not.toContain('no output yet');
  });

  it('shows the whole-file patch as a diff, and the plan', async () => {
    const { state, text, agentTitle } = await replay('codex-acp-0.16.0.jsonl');
    expect(text).toContain(
      '    notes.txt +1 -1\n    @@ -1,3 +1,3 @@\n    1 1   line one\n    2   - line two',
    );
    expect(text).not.toContain('No newline at end of file');
    expect(plan(state)).toContain('Plan · 2/2 done');
    expect(tabTitle(tab(agentTitle))).toBe('Codex');
  });
});

describe('Codex (codex-acp 2.6)', () => {
  it('shows classified commands’ output from their content and terminals’ from the stream', async () => {
    const { state, text } = await replay('codex-acp-2.6.0.jsonl');
    expect(text).toContain(['✓ ≡ List files', '    README.md', '    notes.txt'].join('\n'));
    expect(text).toContain(
      ['✓ » echo hello from codex && wc -l notes.txt', '      hello from codex', '      3 notes.txt'].join(
        '\n',
      ),
    );
    expect(text).toContain('@@ -1,3 +1,3 @@');
    expect(toolCalls(state)).toHaveLength(4);
    // The session's title, from session_info_update, in the status bar.
    expect(statusView(tab('Codex'), state, undefined, 0).sessionTitle).toBe(
      'List the files, show notes.txt and change line two.',
    );
  });
});

describe('Gemini CLI 0.61', () => {
  it('shows every call, the edit as a whole-file diff, and the todo list by its title', async () => {
    const { state, text, permissions, agentTitle, ws } = await replay('gemini-cli-0.61.0.jsonl');
    expect(toolCalls(state).map((c) => (c.kind === 'tool_call' ? [c.title, c.status] : []))).toEqual([
      ['Set 2 todo(s)', 'completed'],
      ['notes.txt', 'completed'],
      ['notes.txt: line two => line 2 (edited)', 'completed'],
      ['ls', 'completed'],
    ]);
    expect(text).toContain('✓ • Set 2 todo(s)');
    expect(text).toContain('@@ -1,3 +1,3 @@');
    expect(text).not.toContain('No newline at end of file');
    expect(tabTitle(tab(agentTitle))).toBe('Gemini CLI');
    // Why its todo list asks: named by its title, not "other needs your approval".
    const todo = permissions[0];
    expect(todo?.kind).toBe('other');
    const subject = subjectFromToolCall(todo as NonNullable<typeof todo>, undefined, {
      agentId: 'gemini',
      cwd: ws,
      roots: [ws],
    });
    expect(new PermissionPolicy({ mode: 'ask' }).evaluate(subject, undefined, 1).reason).toBe(
      '“Set 2 todo(s)” needs your approval (only reads run without asking)',
    );
  });
});

describe('the SDK’s example agent (tool call ids reused in every turn)', () => {
  it('shows both turns’ calls, each with its own result', async () => {
    const { state, text } = await replay('sdk-example-agent.jsonl');
    const calls = toolCalls(state).map((c) =>
      c.kind === 'tool_call' ? [c.turn, c.toolCallId, c.status] : [],
    );
    expect(calls).toEqual([
      [1, 'call_1', 'completed'],
      [1, 'call_2', 'completed'],
      [2, 'call_1', 'completed'],
      [2, 'call_2', 'completed'],
    ]);
    expect(text.match(/✓ ≡ Reading project files/g)).toHaveLength(2);
    expect(text.match(/✓ ✎ Modifying critical configuration file/g)).toHaveLength(2);
  });
});
