/**
 * `fs/read_text_file` and `fs/write_text_file` for agents, confined to the session's roots.
 *
 * Reads resolve symlinks (the real file must be inside the roots), open with O_NOFOLLOW and
 * O_NONBLOCK (a swapped-in link or a FIFO cannot hang or redirect us), and check that the opened
 * file is the one that was checked. Writes never follow a symlink: the target is resolved through
 * its deepest existing ancestor, a link in the final component is refused, and the content goes
 * to a temp file in the same, verified directory that is renamed over the target (see
 * `atomic-write.ts`). A regular file with several hard links counts as outside the roots.
 */
import { constants, type BigIntStats, type Stats } from 'node:fs';
import { open, readlink, realpath, stat } from 'node:fs/promises';
import type { ReadTextFileRequest, WriteTextFileRequest } from '@acp-kit/protocol';
import type { WriteReview, WriteReviewAnswer } from '../agent/host.js';
import { ClientError } from '../errors.js';
import type { PermissionSubject } from '../permissions/rules.js';
import { writeAtomic } from './atomic-write.js';
import {
  isHardLinked,
  realRoots,
  refuseSpecial,
  resolveWriteTarget,
  truncatePath,
  validateAgentPath,
  withinRoots,
  type WriteTarget,
} from './path-guard.js';
import { isSecretPath } from './secrets.js';

/**
 * Unsaved editor buffers: an editor embedding the engine serves and takes file contents itself.
 * (To review writes before they are made, use `ClientHost.reviewWrite`.)
 */
export interface FsOverlay {
  /** The unsaved content of `path` (a real path), or undefined to read the disk. */
  read?(path: string): string | undefined | Promise<string | undefined>;
  /** Takes a write (into an open buffer), after any review; true when handled, false to write to disk. */
  write?(path: string, content: string): boolean | Promise<boolean>;
}

/** Options of {@link FsService}. */
export interface FsServiceOptions {
  /** Largest file read, in bytes (default 16 MiB). */
  maxReadBytes?: number;
  /** Largest content written, in bytes (default 16 MiB). */
  maxWriteBytes?: number;
  overlay?: FsOverlay;
}

/** A write being authorized: what it writes, and (read on demand) what the file holds now. */
export interface PendingWrite {
  newText: string;
  /** The current content; null for a new file, undefined when it cannot be read. */
  currentText(): Promise<string | null | undefined>;
}

/** What the service needs to know about the session making the call. */
export interface FsCallContext {
  agentId: string;
  /** Session working directory. */
  cwd: string;
  /** cwd + additional directories. */
  roots: readonly string[];
  /**
   * Asks the permission policy (and maybe the user); resolves true to go ahead. For a write,
   * `write` lets the question show the change.
   */
  authorize(subject: PermissionSubject, write?: PendingWrite): Promise<boolean>;
  /**
   * Reviews an allowed write before it is made (absent: written as asked). `path` is the real path,
   * `requestedPath` the agent's when it differs.
   */
  reviewWrite?(
    write: Pick<WriteReview, 'path' | 'oldText' | 'newText'> & { requestedPath?: string },
  ): Promise<WriteReviewAnswer>;
  /** Called after a write inside the roots with the written file's stamp (see `PermissionSubject.fileStamp`). */
  wrote?(path: string, fileStamp: string): void;
}

const DEFAULT_MAX_BYTES = 16 * 1024 * 1024;
const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const O_NONBLOCK = constants.O_NONBLOCK ?? 0;

/**
 * The fs service.
 *
 * @example
 * const fs = new FsService({ maxReadBytes: 1 << 20 });
 * const { content } = await fs.readTextFile({ sessionId, path: '/project/a.ts' }, context);
 */
export class FsService {
  private readonly maxReadBytes: number;
  private readonly maxWriteBytes: number;

  constructor(private readonly options: FsServiceOptions = {}) {
    this.maxReadBytes = options.maxReadBytes ?? DEFAULT_MAX_BYTES;
    this.maxWriteBytes = options.maxWriteBytes ?? DEFAULT_MAX_BYTES;
  }

  async readTextFile(params: ReadTextFileRequest, context: FsCallContext): Promise<{ content: string }> {
    const requested = validateAgentPath(params.path);
    // ACP lines are 1-based: 0 is a mistake, not "from the start".
    if (params.line === 0) throw new ClientError('INVALID_ARGUMENT', 'line is 1-based; 0 is not a line');
    const roots = await realRoots(context.roots);
    let real: string | undefined;
    try {
      real = await realpath(requested);
    } catch (error) {
      if (
        (error as NodeJS.ErrnoException).code !== 'ENOENT' &&
        (error as NodeJS.ErrnoException).code !== 'ENOTDIR'
      ) {
        throw error;
      }
    }
    const checked = real ?? requested;
    const info = real !== undefined ? await stat(real, { bigint: true }).catch(() => undefined) : undefined;
    const hardLinked = isHardLinked(info);
    // An editor's unsaved buffer is not what the agent wrote: no stamp, so no read-back grant.
    const fileStamp = info && !this.options.overlay?.read ? stampOf(info) : undefined;
    await this.authorize('fs_read', 'read', requested, checked, roots, context, hardLinked, { fileStamp });
    if (real === undefined)
      throw new ClientError('FILE_NOT_FOUND', `no such file: ${truncatePath(requested)}`);
    const overlaid = await this.options.overlay?.read?.(real);
    const text = overlaid ?? (await this.readVerified(real, hardLinked));
    return { content: sliceLines(text, params.line, params.limit) };
  }

  /**
   * The text of a file inside `roots`, for the client's own display (placing a snippet diff at
   * its line): no question is asked and nothing is recorded, so files that would need one —
   * outside the roots, secret-looking, hard-linked — and files over `maxBytes` give undefined,
   * as does any failure.
   */
  async peekText(
    path: string,
    roots: readonly string[],
    maxBytes = 4 * 1024 * 1024,
  ): Promise<string | undefined> {
    try {
      const requested = validateAgentPath(path);
      const real = await realpath(requested);
      if (!withinRoots(real, await realRoots(roots)) || isSecretPath(requested) || isSecretPath(real))
        return undefined;
      const info = await stat(real);
      if (!info.isFile() || isHardLinked(info) || info.size > Math.min(maxBytes, this.maxReadBytes))
        return undefined;
      return (await this.options.overlay?.read?.(real)) ?? (await this.readVerified(real, false));
    } catch {
      return undefined;
    }
  }

  async writeTextFile(params: WriteTextFileRequest, context: FsCallContext): Promise<Record<string, never>> {
    const requested = validateAgentPath(params.path);
    if (typeof params.content !== 'string')
      throw new ClientError('INVALID_ARGUMENT', 'content must be a string');
    if (Buffer.byteLength(params.content, 'utf8') > this.maxWriteBytes) {
      throw new ClientError('FILE_TOO_LARGE', `content is larger than ${this.maxWriteBytes} bytes`);
    }
    const roots = await realRoots(context.roots);
    const target = await resolveWriteTarget(requested);
    const hardLinked = isHardLinked(target.existing);
    let current: Promise<string | null> | undefined;
    const currentText = (): Promise<string | null> => (current ??= this.currentText(target, hardLinked));
    const pending: PendingWrite = {
      newText: params.content,
      currentText: () => currentText().catch(() => undefined),
    };
    const outsideRoots = await this.authorize(
      'fs_write',
      'edit',
      requested,
      target.path,
      roots,
      context,
      hardLinked,
      {
        write: pending,
      },
    );
    refuseSpecial(target.existing, target.path);
    const { content, refusal } = await this.review(target, requested, params.content, context, currentText);
    if (content !== undefined) {
      if (!(await this.options.overlay?.write?.(target.path, content))) {
        await writeAtomic({ target, content, roots, shown: requested });
        if (!outsideRoots && context.wrote) {
          const written = await stat(target.path, { bigint: true }).catch(() => undefined);
          if (written && !isHardLinked(written)) context.wrote(target.path, stampOf(written));
        }
      }
    }
    if (refusal) throw refusal;
    return {};
  }

  /** What a write target holds now (an editor's unsaved buffer first); null when it does not exist. */
  private async currentText(target: WriteTarget, hardLinked: boolean): Promise<string | null> {
    const overlaid = await this.options.overlay?.read?.(target.path);
    return overlaid ?? (target.existing ? await this.readVerified(target.path, hardLinked) : null);
  }

  /**
   * The host's review of a write: what to write (undefined: nothing) and the error the agent gets
   * when the write was not made exactly as asked.
   */
  private async review(
    target: WriteTarget,
    requested: string,
    newText: string,
    context: FsCallContext,
    currentText: () => Promise<string | null>,
  ): Promise<{ content?: string; refusal?: ClientError }> {
    if (!context.reviewWrite) return { content: newText };
    const path = target.path;
    const oldText = await currentText();
    if (oldText === newText) return { content: newText };
    const answer = await context.reviewWrite({
      path,
      oldText,
      newText,
      ...(requested !== path ? { requestedPath: requested } : {}),
    });
    const shown = truncatePath(requested);
    if (answer.decision === 'accept') return { content: newText };
    if (answer.decision === 'reject') {
      const reason = String(answer.reason).slice(0, 500);
      return {
        refusal: new ClientError(
          'PERMISSION_DENIED',
          `The write to ${shown} was rejected (${reason}); the file was not changed.`,
          { path: requested, reason },
        ),
      };
    }
    const content = answer.content;
    if (typeof content !== 'string') throw new ClientError('INVALID_ARGUMENT', 'the review gave no content');
    if (Buffer.byteLength(content, 'utf8') > this.maxWriteBytes) {
      throw new ClientError('FILE_TOO_LARGE', `content is larger than ${this.maxWriteBytes} bytes`);
    }
    if (content === newText) return { content };
    const message =
      answer.message?.slice(0, 2000) ??
      `Only part of the write to ${shown} was accepted; the file now holds the accepted changes. ` +
        'Read it again before editing it further.';
    return {
      ...(content !== oldText ? { content } : {}),
      refusal: new ClientError('PERMISSION_DENIED', message, { path: requested }),
    };
  }

  /** Asks the policy; throws when refused, else resolves whether the path is outside the roots. */
  private async authorize(
    source: 'fs_read' | 'fs_write',
    kind: string,
    requested: string,
    real: string,
    roots: readonly string[],
    context: FsCallContext,
    hardLinked: boolean,
    { fileStamp, write }: { fileStamp?: string | undefined; write?: PendingWrite } = {},
  ): Promise<boolean> {
    const paths = requested === real ? [real] : [real, requested];
    const subject: PermissionSubject = {
      source,
      agentId: context.agentId,
      kind,
      paths,
      cwd: context.cwd,
      outsideRoots: !withinRoots(real, roots),
      secret: isSecretPath(requested) || isSecretPath(real),
      ...(hardLinked ? { hardLinked } : {}),
      ...(fileStamp !== undefined ? { fileStamp } : {}),
    };
    if (!(await context.authorize(subject, write))) {
      const why = subject.outsideRoots
        ? 'it is outside the session roots'
        : hardLinked
          ? 'it has other hard links, which may be outside the session roots'
          : subject.secret
            ? 'it looks like a secret'
            : 'the policy';
      throw new ClientError(
        'PERMISSION_DENIED',
        `${source === 'fs_read' ? 'reading' : 'writing'} ${truncatePath(requested)} was refused (${why})`,
        {
          path: requested,
        },
      );
    }
    return subject.outsideRoots;
  }

  /** Reads a checked file; `hardLinked`: whether it was allowed with several hard links. */
  private async readVerified(real: string, hardLinked: boolean): Promise<string> {
    let handle;
    try {
      handle = await open(real, constants.O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ELOOP')
        throw new ClientError('SYMLINK_REFUSED', `${truncatePath(real)} changed into a symbolic link`);
      if (code === 'ENOENT') throw new ClientError('FILE_NOT_FOUND', `no such file: ${truncatePath(real)}`);
      if (code === 'EISDIR')
        throw new ClientError('NOT_A_REGULAR_FILE', `${truncatePath(real)} is a directory`);
      throw error;
    }
    try {
      const info = await handle.stat();
      refuseSpecial(info, real);
      await verifyOpened(handle.fd, info, real);
      if (!hardLinked && isHardLinked(info)) {
        throw new ClientError(
          'PATH_OUTSIDE_ROOTS',
          `${truncatePath(real)} gained another hard link while it was opened`,
        );
      }
      if (info.size > this.maxReadBytes) {
        throw new ClientError(
          'FILE_TOO_LARGE',
          `${truncatePath(real)} is larger than ${this.maxReadBytes} bytes`,
        );
      }
      const buffer = Buffer.alloc(Math.min(info.size, this.maxReadBytes) + 1);
      let length = 0;
      // Read until EOF: the size may have changed since fstat.
      for (;;) {
        if (length === buffer.length) {
          throw new ClientError(
            'FILE_TOO_LARGE',
            `${truncatePath(real)} is larger than ${this.maxReadBytes} bytes`,
          );
        }
        const { bytesRead } = await handle.read(buffer, length, buffer.length - length, null);
        if (bytesRead === 0) break;
        length += bytesRead;
        if (length > this.maxReadBytes) {
          throw new ClientError(
            'FILE_TOO_LARGE',
            `${truncatePath(real)} is larger than ${this.maxReadBytes} bytes`,
          );
        }
      }
      return new TextDecoder('utf-8').decode(buffer.subarray(0, length));
    } finally {
      await handle.close();
    }
  }
}

/** A file's identity and version: device, inode, size and modification time (nanoseconds). */
function stampOf(info: BigIntStats): string {
  return `${info.dev}:${info.ino}:${info.size}:${info.mtimeNs}`;
}

/** Checks that the open descriptor is the checked file, still inside the roots (closes check-then-swap races). */
async function verifyOpened(fd: number, info: Stats, real: string): Promise<void> {
  let openedPath: string | undefined;
  if (process.platform === 'linux') {
    try {
      openedPath = await readlink(`/proc/self/fd/${fd}`);
    } catch {
      openedPath = undefined;
    }
  }
  if (openedPath !== undefined) {
    if (openedPath !== real) {
      throw new ClientError('PATH_OUTSIDE_ROOTS', `${truncatePath(real)} changed while it was opened`);
    }
    return;
  }
  const again = await stat(real).catch(() => undefined);
  if (!again || again.dev !== info.dev || again.ino !== info.ino) {
    throw new ClientError('PATH_OUTSIDE_ROOTS', `${truncatePath(real)} changed while it was opened`);
  }
}

/** Applies ACP's 1-based `line` and `limit` to a text. */
export function sliceLines(text: string, line?: number | null, limit?: number | null): string {
  if ((line === undefined || line === null) && (limit === undefined || limit === null)) return text;
  const start = Math.max(1, Math.floor(line ?? 1)) - 1;
  const lines = text.split('\n');
  const end = limit === undefined || limit === null ? lines.length : start + Math.max(0, Math.floor(limit));
  return lines.slice(start, end).join('\n');
}
