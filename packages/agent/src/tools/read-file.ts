/** `read_file`: a text file, whole or a line range, through the client when it reads files. */
import { z } from 'zod';
import { clip, codeBlock, countLines } from '../util/text.js';
import { readPermission, resolvePath } from './paths.js';
import { defineTool } from './types.js';

/** Most characters handed to the model from one read; more asks it to read a range. */
const MAX_OUTPUT_CHARS = 100_000;

export const readFileTool = defineTool({
  name: 'read_file',
  description:
    'Read a text file. Paths are relative to the working directory. Use line (1-based) and limit to read part of a large file.',
  kind: 'read',
  readOnly: true,
  input: z.object({
    path: z.string().min(1).describe('File path, relative to the working directory or absolute'),
    line: z.number().int().min(1).optional().describe('First line to read (1-based)'),
    limit: z.number().int().min(1).optional().describe('Number of lines to read'),
  }),
  async prepare(input, ctx) {
    const target = await resolvePath(ctx, input.path);
    const shown = ctx.session.workspace.display(target.path);
    const range = input.line !== undefined ? ` (from line ${input.line})` : '';
    return {
      title: `Read ${shown}${range}`,
      locations: [{ path: target.path, line: input.line ?? null }],
      permission: readPermission(target),
      async execute({ files, signal }) {
        const text = await files.read(target.path, { line: input.line, limit: input.limit }, signal);
        const lineCount = countLines(text);
        const truncated = text.length > MAX_OUTPUT_CHARS;
        const output = truncated
          ? `${clip(text, MAX_OUTPUT_CHARS)}\n[truncated: read a smaller range with line and limit]`
          : text;
        return {
          output,
          content: [{ type: 'content', content: { type: 'text', text: codeBlock(clip(text, 20_000)) } }],
          rawOutput: { path: target.path, lines: lineCount, characters: text.length, truncated },
        };
      },
    };
  },
});
