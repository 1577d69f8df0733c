/** `write_file` and `edit_file`: changes shown as diffs, in the permission request and after. */
import { createTwoFilesPatch } from 'diff';
import { z } from 'zod';
import type { ToolContent } from '../core/events.js';
import { clip } from '../util/text.js';
import type { FileAccess } from './file-access.js';
import { editPermission, resolvePath } from './paths.js';
import { ToolError, defineTool, type ToolResult } from './types.js';

function diffContent(path: string, oldText: string | null, newText: string): ToolContent[] {
  return [
    { type: 'diff', files: [{ path, operation: oldText === null ? 'add' : 'modify', oldText, newText }] },
  ];
}

/** A unified patch for the model and `rawOutput` (the client gets the full texts). */
function patchOf(shown: string, oldText: string | null, newText: string): string {
  return createTwoFilesPatch(shown, shown, oldText ?? '', newText, undefined, undefined, { context: 2 });
}

/** Refuses to overwrite changes made while the user was looking at the proposed diff. */
async function assertUnchanged(
  files: FileAccess,
  path: string,
  shown: string,
  expected: string | null,
  signal: AbortSignal,
): Promise<void> {
  const current = await files.readIfExists(path, signal);
  if (current !== expected)
    throw new ToolError(`${shown} changed since the change was proposed; read it and retry`);
}

function changeResult(
  shown: string,
  path: string,
  oldText: string | null,
  newText: string,
  verb: string,
): ToolResult {
  const patch = patchOf(shown, oldText, newText);
  return {
    output: `${verb} ${shown}.\n${clip(patch, 8_000)}`,
    content: diffContent(path, oldText, newText),
    rawOutput: { path, created: oldText === null, patch: clip(patch, 64_000) },
  };
}

export const writeFileTool = defineTool({
  name: 'write_file',
  description:
    'Create a file or replace its whole content. Prefer edit_file for changes to part of an existing file.',
  kind: 'edit',
  readOnly: false,
  input: z.object({
    path: z.string().min(1).describe('File path, relative to the working directory or absolute'),
    content: z.string().describe('The complete new content'),
  }),
  async prepare(input, ctx) {
    const target = await resolvePath(ctx, input.path);
    const shown = ctx.session.workspace.display(target.path);
    const oldText = await ctx.files.readIfExists(target.path, ctx.signal);
    return {
      title: oldText === null ? `Create ${shown}` : `Write ${shown}`,
      locations: [{ path: target.path }],
      content: diffContent(target.path, oldText, input.content),
      permission: editPermission(target),
      async execute({ files, signal }) {
        await assertUnchanged(files, target.path, shown, oldText, signal);
        await files.write(target.path, input.content, signal);
        return changeResult(
          shown,
          target.path,
          oldText,
          input.content,
          oldText === null ? 'Created' : 'Wrote',
        );
      },
    };
  },
});

const editSchema = z.object({
  oldText: z
    .string()
    .min(1)
    .describe('Exact text to replace, including whitespace; must be unique unless replaceAll'),
  newText: z.string().describe('Replacement text'),
  replaceAll: z.boolean().optional().describe('Replace every occurrence'),
});

/** Applies exact-text replacements in order; throws a {@link ToolError} the model can act on. */
export function applyEdits(
  text: string,
  edits: readonly z.infer<typeof editSchema>[],
  shown: string,
): string {
  let result = text;
  for (const [index, edit] of edits.entries()) {
    const label = edits.length > 1 ? `edit ${index + 1}: ` : '';
    const first = result.indexOf(edit.oldText);
    if (first === -1)
      throw new ToolError(`${label}oldText was not found in ${shown}; read the file and retry`);
    if (edit.replaceAll) {
      result = result.split(edit.oldText).join(edit.newText);
    } else {
      if (result.indexOf(edit.oldText, first + 1) !== -1) {
        throw new ToolError(
          `${label}oldText occurs more than once in ${shown}; add context or set replaceAll`,
        );
      }
      result = result.slice(0, first) + edit.newText + result.slice(first + edit.oldText.length);
    }
  }
  return result;
}

export const editFileTool = defineTool({
  name: 'edit_file',
  description:
    'Edit an existing file by exact text replacement. Each oldText must match the file exactly (read it first) and be unique unless replaceAll is set.',
  kind: 'edit',
  readOnly: false,
  input: z.object({
    path: z.string().min(1).describe('File path, relative to the working directory or absolute'),
    edits: z.array(editSchema).min(1).describe('Replacements, applied in order'),
  }),
  async prepare(input, ctx) {
    const target = await resolvePath(ctx, input.path);
    const shown = ctx.session.workspace.display(target.path);
    const oldText = await ctx.files.readIfExists(target.path, ctx.signal);
    if (oldText === null) throw new ToolError(`${shown} does not exist; use write_file to create it`);
    const newText = applyEdits(oldText, input.edits, shown);
    const line = oldText.slice(0, oldText.indexOf(input.edits[0]?.oldText ?? '')).split('\n').length;
    return {
      title: `Edit ${shown}`,
      locations: [{ path: target.path, line }],
      content: diffContent(target.path, oldText, newText),
      permission: editPermission(target),
      async execute({ files, signal }) {
        await assertUnchanged(files, target.path, shown, oldText, signal);
        await files.write(target.path, newText, signal);
        return changeResult(shown, target.path, oldText, newText, 'Edited');
      },
    };
  },
});
