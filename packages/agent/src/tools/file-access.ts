/**
 * Reading and writing files for tools: through the client when it offers that (a v1 client's
 * `fs/*`: it sees unsaved editor buffers and can track the change), else directly on disk. The
 * path confinement and permission questions happen before, whichever does the reading.
 */
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { ProtocolError } from '@acp-kit/protocol';
import type { Session } from '../session/session.js';
import { ToolError } from './types.js';

/** Largest file read from disk in one go. */
const MAX_DISK_READ_BYTES = 8 * 1024 * 1024;

export interface LineRange {
  /** 1-based first line. */
  line?: number;
  /** Number of lines. */
  limit?: number;
}

/** Applies an ACP-style `line`/`limit` window to text. */
export function sliceLines(text: string, range: LineRange): string {
  if (range.line === undefined && range.limit === undefined) return text;
  const lines = text.split('\n');
  const start = Math.max(0, (range.line ?? 1) - 1);
  const end = range.limit === undefined ? lines.length : start + range.limit;
  return lines.slice(start, end).join('\n');
}

/**
 * @example
 * const files = new FileAccess(session);
 * const text = await files.read('/repo/a.ts', { line: 10, limit: 20 }, signal);
 */
export class FileAccess {
  constructor(private readonly session: Session) {}

  /** The client reads files. */
  get viaClientRead(): boolean {
    return this.session.client.files?.canRead === true;
  }

  /** The client writes files. */
  get viaClientWrite(): boolean {
    return this.session.client.files?.canWrite === true;
  }

  async read(path: string, range: LineRange, signal: AbortSignal): Promise<string> {
    const client = this.session.client.files;
    if (client?.canRead) {
      try {
        return await client.read(this.session.id, path, range, signal);
      } catch (error) {
        throw toToolError(error, `Could not read ${path}`);
      }
    }
    return sliceLines(await readDisk(path), range);
  }

  /** The whole file, or null when it does not exist (new files have `oldText: null` in diffs). */
  async readIfExists(path: string, signal: AbortSignal): Promise<string | null> {
    const info = await stat(path).catch(() => undefined);
    if (!info) return null;
    if (!info.isFile()) throw new ToolError(`${path} is not a file`);
    return this.read(path, {}, signal);
  }

  async write(path: string, content: string, signal: AbortSignal): Promise<void> {
    const client = this.session.client.files;
    if (client?.canWrite) {
      try {
        await client.write(this.session.id, path, content, signal);
        return;
      } catch (error) {
        throw toToolError(error, `Could not write ${path}`);
      }
    }
    try {
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, content, 'utf8');
    } catch (error) {
      throw new ToolError(`Could not write ${path}: ${(error as Error).message}`);
    }
  }
}

async function readDisk(path: string): Promise<string> {
  const info = await stat(path).catch(() => undefined);
  if (!info) throw new ToolError(`${path} does not exist`);
  if (info.isDirectory())
    throw new ToolError(`${path} is a directory; use list_files to see what it contains`);
  if (info.size > MAX_DISK_READ_BYTES) {
    throw new ToolError(
      `${path} is too large to read (${info.size} bytes); read a range with line and limit`,
    );
  }
  const buffer = await readFile(path);
  if (buffer.includes(0)) throw new ToolError(`${path} looks like a binary file`);
  return buffer.toString('utf8');
}

function toToolError(error: unknown, what: string): ToolError | Error {
  if (error instanceof ProtocolError) return new ToolError(`${what}: ${error.message}`);
  if (error instanceof ToolError) return error;
  return error instanceof Error ? error : new ToolError(what);
}
