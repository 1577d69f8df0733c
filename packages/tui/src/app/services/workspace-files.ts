/**
 * Workspace files for `@` mentions, and turning a composed prompt into the engine's prompt parts
 * (mentioned files become embedded resources or links, images image blocks, as the agent allows).
 */
import { readdir, stat } from 'node:fs/promises';
import { extname, isAbsolute, join, relative, resolve } from 'node:path';
import type { PromptPart } from '@acp-kit/client';
import { extractMentions } from '../../composer/suggestions.js';

/** Directories never listed. */
const SKIPPED = new Set([
  '.git',
  'node_modules',
  'dist',
  'build',
  'coverage',
  '.next',
  'target',
  '.venv',
  '__pycache__',
]);
const IMAGE_EXTENSIONS = new Set(['.png', '.jpg', '.jpeg', '.gif', '.webp']);

/**
 * Lists files under `root` (relative paths, breadth first), skipping VCS and build directories,
 * up to `limit` files.
 *
 * @example
 * const files = await listWorkspaceFiles(process.cwd(), 5000);
 */
export async function listWorkspaceFiles(root: string, limit = 5000): Promise<string[]> {
  const files: string[] = [];
  const queue: string[] = [root];
  while (queue.length > 0 && files.length < limit) {
    const dir = queue.shift() as string;
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    entries.sort((a, b) => a.name.localeCompare(b.name));
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED.has(entry.name)) queue.push(path);
      } else if (entry.isFile()) {
        files.push(relative(root, path));
        if (files.length >= limit) break;
      }
    }
  }
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
