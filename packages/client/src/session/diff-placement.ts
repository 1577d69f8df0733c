/**
 * Where a tool call's diff sits in its file. Agents send `{type:"diff", path, oldText, newText}`
 * with the whole file (Gemini, acp-kit) or with a snippet (Claude's edits: the replaced string,
 * or hunks with a few lines of context). A snippet drawn as a diff of its own starts at line 1
 * and ends without a newline, which it claims of the file; the client looks the snippet up in
 * the file so every host can number its lines truthfully.
 */
import { isUnknownVariant } from '@acp-kit/protocol';
import type { ToolCallContent } from '../model/content.js';
import type { AgentUpdate } from '../model/agent-update.js';
import { isAbsolute, resolve } from 'node:path';

/** Where a diff's `oldText` is in its file. */
export interface DiffPlacement {
  /** 1-based line of the file where `oldText` starts; null when it was not found in the file. */
  line: number | null;
  /** `oldText` is the whole file (its last line's newline, or lack of one, is the file's). */
  wholeFile: boolean;
  /** `oldText` reaches the end of the file. */
  atEnd: boolean;
}

/** How long an update waits for its diffs to be placed before it is shown without. */
export const PLACEMENT_TIMEOUT_MS = 500;

type Diff = Extract<ToolCallContent, { type: 'diff' }>;

function isDiff(item: ToolCallContent): item is Diff {
  return !isUnknownVariant(item) && item.type === 'diff';
}

/** Whether tool call content has diffs to place (a non-empty `oldText`). */
export function diffsToPlaceIn(content: readonly ToolCallContent[]): boolean {
  return content.some((item) => isDiff(item) && typeof item.oldText === 'string' && item.oldText !== '');
}

/** The tool call content of an update whose diffs need placing, if any. */
export function diffsToPlace(update: AgentUpdate): readonly ToolCallContent[] | undefined {
  if (update.kind !== 'tool_call') return undefined;
  const content = update.patch.content;
  return content && diffsToPlaceIn(content) ? content : undefined;
}

function lineOf(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

/**
 * Finds `oldText` in `file` (or `newText`, when the edit was already made). CRLF files match
 * snippets written with LF.
 *
 * @example
 * locateSnippet('one\ntwo\nthree\n', 'two', '2'); // { line: 2, wholeFile: false, atEnd: false }
 */
export function locateSnippet(file: string, oldText: string, newText: string): DiffPlacement {
  const texts =
    file.includes('\r\n') && !oldText.includes('\r') ? [file, file.replace(/\r\n/g, '\n')] : [file];
  for (const text of texts) {
    for (const snippet of [oldText, newText]) {
      if (snippet === '') continue;
      if (snippet === text) return { line: 1, wholeFile: true, atEnd: true };
      const index = text.indexOf(snippet);
      if (index !== -1) {
        return { line: lineOf(text, index), wholeFile: false, atEnd: index + snippet.length === text.length };
      }
    }
  }
  return { line: null, wholeFile: false, atEnd: false };
}

/**
 * The placements of `content`'s diffs (null for other items and new files), reading each file
 * once with `read`; undefined for a file that cannot be read leaves its diffs unplaced. A relative
 * path (Qwen Code sends them) is the file of that name in `cwd`, the session's directory.
 */
export async function placeDiffs(
  content: readonly ToolCallContent[],
  read: (path: string) => Promise<string | undefined>,
  cwd: string,
): Promise<(DiffPlacement | null)[]> {
  const files = new Map<string, Promise<string | undefined>>();
  return Promise.all(
    content.map(async (item) => {
      if (!isDiff(item) || typeof item.oldText !== 'string' || item.oldText === '') return null;
      const path = isAbsolute(item.path) ? item.path : resolve(cwd, item.path);
      let file = files.get(path);
      if (!file) files.set(path, (file = read(path)));
      const text = await file;
      if (text === undefined) return { line: null, wholeFile: false, atEnd: false };
      return locateSnippet(text, item.oldText, item.newText);
    }),
  );
}
