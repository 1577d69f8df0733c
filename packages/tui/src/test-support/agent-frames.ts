/**
 * Replays the recorded frames of real agents (`test/fixtures/agent-frames/*.jsonl`) into a
 * session state the way the client engine builds it: each `session/update` as an event, its
 * snippet diffs placed in the workspace's files first (`placeDiffs`, as `ClientSession` does),
 * the prompts and ends of turns as the engine records them.
 */
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  initialSessionState,
  placeDiffs,
  reduceSessionEvents,
  type SessionEvent,
  type SessionState,
} from '@acp-kit/client';
import type { SessionUpdate, ToolCallContent, ToolCallUpdate } from '@acp-kit/protocol';

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
  | { readonly kind: 'turn_end'; readonly stopReason: string };

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
  for (const line of readAgentFrames(file, workspace)) {
    if (until?.(line)) break;
    let event: SessionEvent | undefined;
    if (line.kind === 'prompt') {
      event = { type: 'prompt', at: ++at, turn: ++turn, prompt: [{ type: 'text', text: line.text }] };
    } else if (line.kind === 'turn_end') {
      event = { type: 'turn_end', at: ++at, turn, stopReason: line.stopReason as 'end_turn' };
    } else if (line.kind === 'permission') {
      permissions.push(line.toolCall);
    } else if (line.kind === 'initialize') {
      agentTitle = line.agentInfo.title ?? line.agentInfo.name;
    } else {
      const content = (line.update as { content?: ToolCallContent[] | null }).content;
      const diffPlacements =
        Array.isArray(content) && content.some((c) => (c as { type?: unknown }).type === 'diff')
          ? await placeDiffs(content, read, workspace)
          : undefined;
      event = {
        type: 'update',
        at: ++at,
        update: line.update,
        ...(diffPlacements ? { diffPlacements } : {}),
      };
    }
    if (event) state = reduceSessionEvents(state, [event]);
  }
  return { state, permissions, ...(agentTitle !== undefined ? { agentTitle } : {}) };
}
