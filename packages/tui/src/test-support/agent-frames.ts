/**
 * Replays the recorded frames of real agents (`test/fixtures/agent-frames/*.jsonl`) into a
 * session state the way the client engine builds it: each `session/update` as an event, its
 * snippet diffs placed in the workspace's files first (`placeDiffs`, as `ClientSession` does),
 * permission requests asked and allowed (as they were when recorded), the prompts, cancels, ends
 * of turns and the agent's death as the engine records them (an error answering a cancelled turn ends it
 * cancelled, as `ClientSession` decides with `cancelledTurnError`).
 */
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  cancelledTurnError,
  initialSessionState,
  placeDiffs,
  reduceSessionEvents,
  type SessionEvent,
  type SessionState,
  v1UpdateEvents,
} from '@acp-kit/client';
import {
  ProtocolError,
  type SessionUpdate,
  type ToolCallContent,
  type ToolCallUpdate,
} from '@acp-kit/protocol';

/** Where the recordings are. */
export const AGENT_FRAMES_DIR = resolve(
  dirname(fileURLToPath(import.meta.url)),
  '../../../../test/fixtures/agent-frames',
);

/** The workspace the agents worked in when they were recorded (`$WS`). */
export const AGENT_FRAMES_WORKSPACE: Readonly<Record<string, string>> = {
  'notes.txt': 'line one\nline two\nline three\n',
  'README.md': '# Sample\n',
};

/** One line of a recording. */
export type FrameLine =
  | { readonly kind: 'update'; readonly update: SessionUpdate }
  | { readonly kind: 'permission'; readonly toolCall: ToolCallUpdate }
  | { readonly kind: 'prompt'; readonly text: string }
  | { readonly kind: 'initialize'; readonly agentInfo: { name: string; title?: string; version: string } }
  | { readonly kind: 'turn_end'; readonly stopReason: string }
  | { readonly kind: 'cancel' }
  | { readonly kind: 'agent_exit' }
  | { readonly kind: 'turn_error'; readonly code: number; readonly message: string; readonly data?: unknown };

/** The lines of a recording, `$WS` replaced by `workspace`. */
export function readAgentFrames(file: string, workspace: string): FrameLine[] {
  const text = readFileSync(join(AGENT_FRAMES_DIR, file), 'utf8');
  const lines: FrameLine[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '' || line.startsWith('#')) continue;
    const value = JSON.parse(line.split('$WS').join(workspace)) as Record<string, unknown>;
    if ('update' in value) lines.push({ kind: 'update', update: value.update as SessionUpdate });
    else if ('requestPermission' in value)
      lines.push({
        kind: 'permission',
        toolCall: (value.requestPermission as { toolCall: ToolCallUpdate }).toolCall,
      });
    else if ('initialize' in value)
      lines.push({
        kind: 'initialize',
        agentInfo: (value.initialize as { agentInfo: { name: string; title?: string; version: string } })
          .agentInfo,
      });
    else if ('prompt' in value) lines.push({ kind: 'prompt', text: String(value.prompt) });
    else if ('turnEnd' in value) lines.push({ kind: 'turn_end', stopReason: String(value.turnEnd) });
    else if ('cancel' in value) lines.push({ kind: 'cancel' });
    else if ('agentExit' in value) lines.push({ kind: 'agent_exit' });
    else if ('turnError' in value)
      lines.push({
        kind: 'turn_error',
        ...(value.turnError as { code: number; message: string; data?: unknown }),
      });
  }
  return lines;
}

/** A temp workspace holding the recorded files; `cleanup` removes it. */
export function agentFramesWorkspace(): { dir: string; cleanup: () => void } {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'acp-frames-')));
  for (const [name, content] of Object.entries(AGENT_FRAMES_WORKSPACE))
    writeFileSync(join(dir, name), content);
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The session state after a recording, and the tool calls of its permission requests. */
export async function replayAgentFrames(
  file: string,
  workspace: string,
  /** Stops before the first line this returns true for (the state a permission question sees). */
  until?: (line: FrameLine) => boolean,
): Promise<{ state: SessionState; permissions: ToolCallUpdate[]; agentTitle?: string }> {
  let state = initialSessionState('frames', workspace);
  const permissions: ToolCallUpdate[] = [];
  let agentTitle: string | undefined;
  let turn = 0;
  let at = 0;
  const read = (path: string): Promise<string | undefined> =>
    path.startsWith(`${workspace}/`)
      ? readFile(path, 'utf8').catch(() => undefined)
      : Promise.resolve(undefined);
  const place = async (content: ToolCallContent[] | null | undefined) =>
    Array.isArray(content) && content.some((c) => (c as { type?: unknown }).type === 'diff')
      ? await placeDiffs(content, read, workspace)
      : undefined;
  for (const line of readAgentFrames(file, workspace)) {
    if (until?.(line)) break;
    const events: SessionEvent[] = [];
    if (line.kind === 'prompt') {
      events.push({ type: 'prompt', at: ++at, turn: ++turn, prompt: [{ type: 'text', text: line.text }] });
    } else if (line.kind === 'turn_end') {
      events.push({ type: 'turn_end', at: ++at, turn, stopReason: line.stopReason as 'end_turn' });
    } else if (line.kind === 'cancel') {
      events.push({ type: 'cancel_requested', at: ++at, turn });
    } else if (line.kind === 'agent_exit') {
      // Killed by the recorder: the exit as the engine reports a SIGKILL.
      const error = { code: 'AGENT_EXITED', message: 'the agent was killed by SIGKILL', signal: 'SIGKILL' };
      events.push({ type: 'turn_failed', at: ++at, turn, error }, { type: 'agent_exited', at: ++at, error });
    } else if (line.kind === 'turn_error') {
      const error = new ProtocolError(line.code, line.message, line.data);
      events.push(
        cancelledTurnError(state.status, error) !== undefined
          ? { type: 'turn_end', at: ++at, turn, stopReason: 'cancelled' }
          : {
              type: 'turn_failed',
              at: ++at,
              turn,
              error: { code: String(line.code), message: line.message },
            },
      );
    } else if (line.kind === 'permission') {
      permissions.push(line.toolCall);
      const key = `p${permissions.length}`;
      const diffPlacements = await place(line.toolCall.content);
      events.push(
        {
          type: 'permission_requested',
          at: ++at,
          request: {
            key,
            source: 'permission_request',
            kind: String(line.toolCall.kind ?? 'other'),
            paths: [],
            outsideRoots: false,
            secret: false,
            reason: 'recorded',
            toolCallId: line.toolCall.toolCallId,
            ...(line.toolCall.title ? { title: line.toolCall.title } : {}),
          },
          toolCall: line.toolCall,
          ...(diffPlacements ? { diffPlacements } : {}),
        },
        { type: 'permission_resolved', at: ++at, key, decision: 'allow', by: 'default' },
      );
    } else if (line.kind === 'initialize') {
      agentTitle = line.agentInfo.title ?? line.agentInfo.name;
    } else {
      const diffPlacements = await place((line.update as { content?: ToolCallContent[] | null }).content);
      events.push(...v1UpdateEvents(line.update, ++at, diffPlacements ? { diffPlacements } : {}));
    }
    state = reduceSessionEvents(state, events);
  }
  return { state, permissions, ...(agentTitle !== undefined ? { agentTitle } : {}) };
}
