/** `list_files` (glob) and `grep` (regular expression search): both `search` tool calls. */
import { readFile, stat } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import { listFiles, type Truncation } from '@acp-kit/files';
import { z } from 'zod';
import type { ToolCallLocation } from '@acp-kit/protocol';
import { throwIfAborted } from '../util/abort.js';
import { clip, codeBlock, plural } from '../util/text.js';
import { readPermission, resolvePath } from './paths.js';
import { ToolError, defineTool, type ToolContext } from './types.js';
import type { ResolvedPath } from './workspace.js';

const MAX_GREP_FILE_BYTES = 2 * 1024 * 1024;
const MAX_FILES_SCANNED = 20_000;
/** A walk of a huge tree ends here, with what it found so far. */
const WALK_TIMEOUT_MS = 30_000;

const TRUNCATION_NOTES: Record<Truncation, string> = {
  'max-files': 'more files not shown',
  'max-depth': 'directories nested too deep were skipped',
  timeout: `stopped after ${WALK_TIMEOUT_MS / 1000} s`,
  aborted: 'cancelled',
};

async function searchRoot(
  ctx: ToolContext,
  path: string | undefined,
): Promise<{ root: ResolvedPath; isFile: boolean }> {
  const root = await resolvePath(ctx, path ?? '.');
  const info = await stat(root.path).catch(() => undefined);
  if (!info) throw new ToolError(`${ctx.session.workspace.display(root.path)} does not exist`);
  return { root, isFile: info.isFile() };
}

function checkPattern(pattern: string): void {
  // Patterns that climb out of the search directory would bypass path confinement.
  if (isAbsolute(pattern) || pattern.split(/[\\/]/).includes('..')) {
    throw new ToolError(
      'Glob patterns must be relative and must not contain ".."; set path to search elsewhere',
    );
  }
}

/**
 * Files under `root` matching `pattern`, sorted, as the shared walker finds them: what
 * `.gitignore`, `.ignore` and `.git/info/exclude` ignore is left out, `.git` is never entered, and
 * symlinks are not followed (they could leave the roots).
 */
async function findFiles(
  root: string,
  pattern: string,
  signal: AbortSignal,
  limit: number,
): Promise<{ files: string[]; truncated?: Truncation }> {
  checkPattern(pattern);
  const { files, truncated } = await listFiles(root, {
    pattern,
    maxFiles: limit,
    timeoutMs: WALK_TIMEOUT_MS,
    signal,
  });
  throwIfAborted(signal);
  return { files: files.sort(), truncated };
}

export const listFilesTool = defineTool({
  name: 'list_files',
  description:
    'List files matching a glob pattern (for example "**/*.ts" or "src/*"), relative to a directory (default: the working directory). Files that .gitignore or .ignore exclude (node_modules, build output…) and .git are skipped; set path to an ignored directory to list inside it.',
  kind: 'search',
  readOnly: true,
  input: z.object({
    pattern: z.string().min(1).default('**/*').describe('Glob pattern'),
    path: z.string().optional().describe('Directory to search from (default: the working directory)'),
    limit: z.number().int().min(1).max(5000).default(500).describe('Most files to return'),
  }),
  async prepare(input, ctx) {
    const { root } = await searchRoot(ctx, input.path);
    const shown = ctx.session.workspace.display(root.path);
    return {
      title: `List ${input.pattern}${shown === '.' ? '' : ` in ${shown}`}`,
      locations: [{ path: root.path }],
      permission: readPermission(root),
      async execute({ signal }) {
        const found = await findFiles(root.path, input.pattern, signal, input.limit);
        const shownFiles = found.files;
        const truncated = found.truncated !== undefined;
        const note = found.truncated ? `\n[${TRUNCATION_NOTES[found.truncated]}]` : '';
        const listing = shownFiles.join('\n');
        return {
          title: `List ${input.pattern}${shown === '.' ? '' : ` in ${shown}`} (${plural(shownFiles.length, 'file')})`,
          output: shownFiles.length === 0 ? 'No files match.' : `${listing}${note}`,
          content: [
            {
              type: 'content',
              content: { type: 'text', text: codeBlock(clip(listing || '(no files)', 20_000)) },
            },
          ],
          rawOutput: { root: root.path, pattern: input.pattern, files: shownFiles, truncated },
        };
      },
    };
  },
});

interface Match {
  file: string;
  line: number;
  text: string;
}

export const grepTool = defineTool({
  name: 'grep',
  description:
    'Search file contents with a JavaScript regular expression. Returns "path:line: text" for each matching line. Files that .gitignore or .ignore exclude and .git are skipped; set path to search inside an ignored directory.',
  kind: 'search',
  readOnly: true,
  input: z.object({
    pattern: z.string().min(1).describe('Regular expression'),
    path: z.string().optional().describe('File or directory to search (default: the working directory)'),
    glob: z.string().default('**/*').describe('Only search files matching this glob'),
    caseInsensitive: z.boolean().default(false),
    maxResults: z.number().int().min(1).max(1000).default(100),
  }),
  async prepare(input, ctx) {
    let regex: RegExp;
    try {
      regex = new RegExp(input.pattern, input.caseInsensitive ? 'i' : '');
    } catch (error) {
      throw new ToolError(`Invalid regular expression: ${(error as Error).message}`);
    }
    const { root, isFile } = await searchRoot(ctx, input.path);
    const shown = ctx.session.workspace.display(root.path);
    return {
      title: `Search for /${clip(input.pattern, 60)}/${shown === '.' ? '' : ` in ${shown}`}`,
      locations: [{ path: root.path }],
      permission: readPermission(root),
      async execute({ signal }) {
        const found: { files: string[]; truncated?: Truncation } = isFile
          ? { files: [''] }
          : await findFiles(root.path, input.glob, signal, MAX_FILES_SCANNED);
        const files = found.files;
        const matches: Match[] = [];
        let scanned = 0;
        for (const file of files) {
          if (matches.length >= input.maxResults) break;
          throwIfAborted(signal);
          const full = file === '' ? root.path : join(root.path, file);
          const info = await stat(full).catch(() => undefined);
          if (!info || info.size > MAX_GREP_FILE_BYTES) continue;
          const buffer = await readFile(full).catch(() => undefined);
          if (!buffer || buffer.includes(0)) continue;
          scanned++;
          const lines = buffer.toString('utf8').split('\n');
          for (const [index, lineText] of lines.entries()) {
            if (!regex.test(lineText)) continue;
            matches.push({ file: full, line: index + 1, text: clip(lineText.trim(), 300) });
            if (matches.length >= input.maxResults) break;
          }
        }
        const display = (m: Match): string => `${ctx.session.workspace.display(m.file)}:${m.line}: ${m.text}`;
        const listing = matches.map(display).join('\n');
        const locations: ToolCallLocation[] = matches
          .slice(0, 50)
          .map((m) => ({ path: m.file, line: m.line }));
        return {
          title: `Search for /${clip(input.pattern, 60)}/ (${plural(matches.length, 'match', 'matches')})`,
          output:
            (matches.length === 0 ? `No matches in ${plural(scanned, 'file')}.` : listing) +
            (found.truncated ? `\n[files: ${TRUNCATION_NOTES[found.truncated]}]` : ''),
          content: [
            {
              type: 'content',
              content: { type: 'text', text: codeBlock(clip(listing || '(no matches)', 20_000)) },
            },
          ],
          locations: locations.length > 0 ? locations : [{ path: root.path }],
          rawOutput: {
            pattern: input.pattern,
            filesScanned: scanned,
            matches: matches.length,
            ...(found.truncated ? { truncated: found.truncated } : {}),
          },
        };
      },
    };
  },
});
