/**
 * What the UI draws of real agents' turns: the frames recorded from claude-agent-acp, codex-acp
 * (2.6 and the older 0.16), Gemini CLI, Qwen Code, and the official SDK's example agent
 * (`test/fixtures/agent-frames/`), replayed into a session and printed as the transcript is.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  cancelledTurnError,
  PermissionPolicy,
  subjectFromToolCall,
  type SessionState,
} from '@acp-kit/client';
import { ProtocolError } from '@acp-kit/protocol';
import { renderToString } from 'ink';
import { createElement } from 'react';
import { PlanPanel } from '../../components/PlanPanel.js';
import { usageSummary } from '../../components/status-format.js';
import { resolveKeyBindings } from '../../keys/key-bindings.js';
import { resolveTheme } from '../../theme/theme.js';
import { agentFramesWorkspace, replayAgentFrames, type FrameLine } from '../../test-support/agent-frames.js';
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
    // Its location names the file its diff shows: not listed again.
    expect(card).toContain(
      [
        '○ ✎ Edit notes.txt · pending',
        '    notes.txt:2 +1 -1',
        '    @@ -2,1 +2,1 @@',
        '    2   - line two',
        '      2 + line 2 (edited)',
      ].join('\n'),
    );
    expect(card).not.toContain('No newline at end of file');
    // After the edit: Claude's hunk with its context lines from line 1 (no final newline either),
    // named by the line it changes, as the permission question did (Claude's location says line 1).
    const { text } = await replay('claude-agent-acp-0.49.0.jsonl');
    expect(text).toContain(
      [
        '✓ ✎ Edit notes.txt',
        '    notes.txt:2 +1 -1',
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

describe('Claude (claude-agent-acp 0.49) over turns: a tool call id used again, a cancel, a kill', () => {
  it('shows a command its own output only, never that of an earlier call with the same id', async () => {
    const { state, text } = await replay('claude-agent-acp-0.49.0-turns.jsonl');
    // Turn 2 runs `sleep 30` as toolu_01, the id (and terminal id) of turn 1's `ls`; it is cancelled.
    expect(
      toolCalls(state).map((c) => (c.kind === 'tool_call' ? [c.turn, c.toolCallId, c.title] : [])),
    ).toEqual([
      [1, 'toolu_01', 'ls'],
      [2, 'toolu_01', 'sleep 30'],
      [3, 'toolu_02', 'sleep 30'],
    ]);
    expect(text).toContain(
      ['✓ » ls', '      README.md', '      notes.txt', '    ✓ exited with 0'].join('\n'),
    );
    expect(text).toContain(['⊘ » sleep 30 · cancelled', '    ended without an exit status'].join('\n'));
    expect(text.match(/README\.md/g)).toHaveLength(1);
    expect(text.match(/exited with 0/g)).toHaveLength(1);
  });

  it('shows no command running once its call failed with the agent’s death', async () => {
    const { text } = await replay('claude-agent-acp-0.49.0-turns.jsonl');
    expect(text).toContain(['✗ » sleep 30 · failed', '    ended without an exit status'].join('\n'));
    expect(text).not.toContain('running');
    expect(text).toContain('✗ the agent was killed by SIGKILL\n');
    expect(text).not.toContain('(killed by SIGKILL)');
  });

  it('keeps the session’s cost in the status bar while turns send usage without it', async () => {
    // Claude sends the cost only as a turn ends; turn 3 starts with usage alone and never ends.
    const { state } = await replay('claude-agent-acp-0.49.0-turns.jsonl');
    const usage = statusView(tab('Claude Agent'), state, undefined, 0).usage;
    expect(usage && usageSummary(usage).text).toBe('0% 11/1M · $0.0005');
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
      '    notes.txt:2 +1 -1\n    @@ -1,3 +1,3 @@\n    1 1   line one\n    2   - line two',
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
    const { state, text, agentTitle } = await replay('gemini-cli-0.61.0.jsonl');
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
  });

  it('updates its todo list without asking: a to-do list is not an action on the workspace', async () => {
    const { permissions, ws } = await replay('gemini-cli-0.61.0.jsonl');
    const context = { agentId: 'gemini', cwd: ws, roots: [ws] };
    const [todo, ...actions] = permissions;
    expect(todo?.kind).toBe('other');
    const subject = subjectFromToolCall(todo as NonNullable<typeof todo>, undefined, context);
    for (const mode of ['ask', 'reads', 'all'] as const)
      expect(new PermissionPolicy({ mode }).evaluate(subject, undefined, 1)).toEqual({
        action: 'allow',
        reason: 'a to-do list is not an action on the workspace',
        by: 'default',
      });
    expect(new PermissionPolicy({ mode: 'none' }).evaluate(subject, undefined, 1).action).toBe('deny');
    // Its edit still asks.
    expect(actions.map((call) => call.kind)).toEqual(['edit']);
    for (const call of actions)
      expect(
        new PermissionPolicy({ mode: 'ask' }).evaluate(
          subjectFromToolCall(call, undefined, context),
          undefined,
          1,
        ).action,
      ).toBe('ask');
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

describe('GitHub Copilot CLI 1.0 (commands never in_progress, edits as replaced strings)', () => {
  const touch = (line: FrameLine): boolean =>
    line.kind === 'update' &&
    (line.update as { toolCallId?: string }).toolCallId === 'call_touch' &&
    (line.update as { status?: string }).status === 'completed';

  it('shows a command as running once its permission is allowed, though it stays pending', async () => {
    const workspace = agentFramesWorkspace();
    cleanup = workspace.cleanup;
    const asking = await replayAgentFrames(
      'copilot-1.0.102.jsonl',
      workspace.dir,
      (line) => line.kind === 'permission' && line.toolCall.toolCallId === 'call_touch',
    );
    const card = (state: SessionState) =>
      printed(state, workspace.dir)
        .split('\n\n')
        .find((unit) => unit.includes('Mark it done'));
    expect(card(asking.state)).toMatch(/^○ » Mark it done · pending/);
    const running = await replayAgentFrames('copilot-1.0.102.jsonl', workspace.dir, touch);
    const call = toolCalls(running.state).find(
      (c) => c.kind === 'tool_call' && c.toolCallId === 'call_touch',
    );
    expect(call?.kind === 'tool_call' && call.status).toBe('pending');
    expect(card(running.state)).not.toContain('pending');
    expect(card(running.state)).toMatch(/^[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] » Mark it done\n/);
  });

  it('draws its edit at line 2 in the card', async () => {
    const { text } = await replay('copilot-1.0.102.jsonl');
    expect(text).toContain(
      [
        '    notes.txt:2 +1 -1',
        '    @@ -2,1 +2,1 @@',
        '    2   - line two',
        '      2 + line 2 (edited)',
      ].join('\n'),
    );
    expect(text).not.toContain('No newline at end of file');
  });
});

describe('Qwen Code 0.15 (no tool_call for calls that ask permission)', () => {
  it('titles each call from its permission request and places its relative-path diff', async () => {
    const { state, text } = await replay('qwen-code-0.15.10.jsonl');
    expect(
      toolCalls(state).map((c) => (c.kind === 'tool_call' ? [c.title, c.toolKind, c.status] : [])),
    ).toEqual([
      ['ReadFile: notes.txt', 'read', 'completed'],
      ['notes.txt: line two => line 2 (edited)', 'edit', 'completed'],
      ['touch done.txt && ls (Mark it done)', 'execute', 'completed'],
    ]);
    expect(text).not.toContain('Tool call');
    expect(text).toContain('✓ ✎ notes.txt: line two => line 2 (edited)');
    expect(text).toContain('✓ » touch done.txt && ls (Mark it done)');
    // Its last update names the file relative to the session's directory: found there all the same.
    expect(text).toContain(['    @@ -1,3 +1,3 @@', '    1 1   line one', '    2   - line two'].join('\n'));
    expect(text).not.toContain('not found in the file');
  });

  it('ends a cancelled turn it answers with an error as cancelled, naming its deviation', async () => {
    const { state, text } = await replay('qwen-code-0.15.10.jsonl');
    expect(state.lastStopReason).toBe('cancelled');
    expect(state.items.filter((item) => item.kind === 'error')).toEqual([]);
    expect(text).toMatch(/› Now explain it at length\.\n\n⚠ Turn cancelled\./);
    const answer = new ProtocolError(-32603, 'Internal error', { details: 'Request was aborted.' });
    expect(cancelledTurnError('cancelling', answer)).toBe(
      'the agent answered the cancelled turn with error -32603 (Internal error {"details":"Request was aborted."}) instead of the stop reason "cancelled"',
    );
    expect(cancelledTurnError('running', answer)).toBeUndefined();
  });
});
