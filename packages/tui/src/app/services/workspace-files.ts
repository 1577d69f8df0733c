/**
 * Workspace files for `@` mentions, and turning a composed prompt into the engine's prompt parts
 * (mentioned files become embedded resources or links, images image blocks, as the agent allows).
 */
import { stat } from 'node:fs/promises';
import { extname, isAbsolute, resolve } from 'node:path';
import type { PromptPart } from '@acp-kit/client';
import { extractMentions } from '../../composer/suggestions.js';

const IMAGE_EXTENSIONS = new Set(['.png', '.jpg', '.jpeg', '.gif', '.webp']);
/** A huge directory (a home directory, `/`) stops being listed after this; the picker offers what was found. */
const LIST_TIMEOUT_MS = 5000;

/**
 * Lists files under `root` (relative paths, breadth first, names sorted) for `@` mentions, up to
 * `limit` files: what `.gitignore`, `.ignore` and `.git/info/exclude` exclude is left out, `.git`
 * is never entered and symlinks are not followed (the same walker as the agent's search tools).
 *
 * @example
 * const files = await listWorkspaceFiles(process.cwd(), 5000);
 */
export async function listWorkspaceFiles(root: string, limit = 5000): Promise<string[]> {
  // Loaded here: the walker and its matchers are not needed to show a session.
  const { listFiles } = await import('@acp-kit/files');
  const { files } = await listFiles(root, { maxFiles: limit, timeoutMs: LIST_TIMEOUT_MS });
  return files;
}

/**
 * The prompt parts of composed text: the text as typed (unless there is none), then each `@`
 * mention that names an existing file (an image when it looks like one), then the attachments
 * (images pasted or taken from the clipboard). Mentions that are not files stay plain text.
 */
export async function promptParts(
  text: string,
  cwd: string,
  attachments: readonly PromptPart[] = [],
): Promise<PromptPart[]> {
  const parts: PromptPart[] = text.trim() === '' && attachments.length > 0 ? [] : [text];
  for (const mention of extractMentions(text)) {
    const path = isAbsolute(mention) ? mention : resolve(cwd, mention);
    const info = await stat(path).catch(() => undefined);
    if (!info?.isFile()) continue;
    parts.push(
      IMAGE_EXTENSIONS.has(extname(path).toLowerCase()) ? { type: 'image', path } : { type: 'file', path },
    );
  }
  return [...parts, ...attachments];
}
