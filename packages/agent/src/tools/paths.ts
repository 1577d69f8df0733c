/** Shared steps of the file tools: resolving a path and describing what it needs. */
import { dirname } from 'node:path';
import type { PermissionNeed } from '../permissions/permissions.js';
import type { ToolContext } from './types.js';
import type { ResolvedPath } from './workspace.js';

/** Resolves a tool's path argument against the session's workspace. */
export function resolvePath(ctx: ToolContext, path: string): Promise<ResolvedPath> {
  return ctx.session.workspace.resolve(path);
}

/** What reading `target` needs: nothing inside the workspace, a per-directory permission outside. */
export function readPermission(target: ResolvedPath): PermissionNeed | undefined {
  if (target.inside) return undefined;
  const dir = dirname(target.real);
  return { action: 'read', outside: true, key: `read-outside:${dir}`, scope: `reading files in ${dir}` };
}

/** What editing `target` needs; edits outside the workspace are remembered per directory. */
export function editPermission(target: ResolvedPath): PermissionNeed {
  if (target.inside) return { action: 'edit', outside: false, key: 'edit', scope: 'file edits' };
  const dir = dirname(target.real);
  return { action: 'edit', outside: true, key: `edit-outside:${dir}`, scope: `edits in ${dir}` };
}
