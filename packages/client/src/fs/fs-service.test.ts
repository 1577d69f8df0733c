import { execFileSync } from 'node:child_process';
import { chmod, link, mkdir, readdir, readFile, rename, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ClientError } from '../errors.js';
import type { PermissionSubject } from '../permissions/rules.js';
import { tempDir } from '../test-support/harness.js';
import { FsService, type FsCallContext } from './fs-service.js';

let root: string;
let outside: string;
let cleanup: () => Promise<void>;
let asked: PermissionSubject[];

beforeEach(async () => {
  const t = await tempDir();
  cleanup = t.cleanup;
  root = join(t.dir, 'project');
  outside = join(t.dir, 'outside');
  await mkdir(root);
  await mkdir(outside);
  await writeFile(join(outside, 'secret.txt'), 'TOP SECRET');
  await writeFile(join(root, 'a.txt'), 'line1\nline2\nline3\n');
  asked = [];
});
afterEach(() => cleanup());

/** Allows what is inside the roots, not secret and not hard-linked, like the default policy. */
function context(authorize?: (s: PermissionSubject) => boolean | Promise<boolean>): FsCallContext {
  return {
    agentId: 'test',
    cwd: root,
    roots: [root],
    authorize: async (s) => {
      asked.push(s);
      return authorize ? authorize(s) : !s.outsideRoots && !s.secret && !s.hardLinked;
    },
  };
}

async function code(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'ok';
  } catch (error) {
    return (error as ClientError).code ?? String(error);
  }
}

const fs = new FsService({ maxReadBytes: 1024, maxWriteBytes: 1024 });
const read = (path: string, ctx = context()) => fs.readTextFile({ sessionId: 's', path }, ctx);
const write = (path: string, content: string, ctx = context()) =>
  fs.writeTextFile({ sessionId: 's', path, content }, ctx);

describe('paths the agent sends', () => {
  it.each([
    ['relative', 'a.txt', 'PATH_INVALID'],
    ['tilde', '~/.ssh/id_rsa', 'PATH_INVALID'],
    ['NUL', '/tmp/a\0b', 'PATH_INVALID'],
    ['very long', `/${'x'.repeat(5000)}`, 'PATH_INVALID'],
    ['empty', '', 'PATH_INVALID'],
  ])('rejects a %s path', async (_name, path, expected) => {
    expect(await code(read(path))).toBe(expected);
    expect(await code(write(path, 'x'))).toBe(expected);
  });

  it('resolves .. before checking the roots', async () => {
    expect(await code(read(`${root}/../outside/secret.txt`))).toBe('PERMISSION_DENIED');
    expect(asked[0]).toMatchObject({ outsideRoots: true, paths: [join(outside, 'secret.txt')] });
    expect(await code(write(`${root}/sub/../../outside/new.txt`, 'x'))).toBe('PERMISSION_DENIED');
    expect(await readdir(outside)).toEqual(['secret.txt']);
  });

  it('asks the policy about absolute paths outside the roots, and goes ahead when allowed', async () => {
    expect(await code(read(join(outside, 'secret.txt')))).toBe('PERMISSION_DENIED');
    expect(
      (
        await read(
          join(outside, 'secret.txt'),
          context(() => true),
        )
      ).content,
    ).toBe('TOP SECRET');
  });

  it('flags secret-looking files even inside the roots', async () => {
    await writeFile(join(root, '.env'), 'KEY=1');
    expect(await code(read(join(root, '.env')))).toBe('PERMISSION_DENIED');
    expect(asked[0]).toMatchObject({ secret: true, outsideRoots: false });
  });
});

describe('symlinks', () => {
  it('reads through a link only when its target is inside the roots', async () => {
    await symlink(join(root, 'a.txt'), join(root, 'inside-link'));
    await symlink(join(outside, 'secret.txt'), join(root, 'escape-link'));
    expect((await read(join(root, 'inside-link'))).content).toContain('line1');
    expect(await code(read(join(root, 'escape-link')))).toBe('PERMISSION_DENIED');
  });

  it('never writes through a link in the final component (even to inside the roots)', async () => {
    await symlink(join(root, 'a.txt'), join(root, 'inside-link'));
    await symlink(join(outside, 'secret.txt'), join(root, 'escape-link'));
    expect(
      await code(
        write(
          join(root, 'inside-link'),
          'x',
          context(() => true),
        ),
      ),
    ).toBe('SYMLINK_REFUSED');
    expect(
      await code(
        write(
          join(root, 'escape-link'),
          'x',
          context(() => true),
        ),
      ),
    ).toBe('SYMLINK_REFUSED');
    expect(await readFile(join(outside, 'secret.txt'), 'utf8')).toBe('TOP SECRET');
    expect(await readFile(join(root, 'a.txt'), 'utf8')).toContain('line1');
  });

  it('refuses a dangling link instead of creating its target', async () => {
    await symlink(join(outside, 'created-by-agent.txt'), join(root, 'dangling'));
    expect(
      await code(
        write(
          join(root, 'dangling'),
          'x',
          context(() => true),
        ),
      ),
    ).toBe('SYMLINK_REFUSED');
    expect(await readdir(outside)).toEqual(['secret.txt']);
    expect(await code(read(join(root, 'dangling')))).toBe('FILE_NOT_FOUND');
  });

  it('resolves a linked directory to where it really is', async () => {
    await symlink(outside, join(root, 'linked-dir'));
    expect(await code(read(join(root, 'linked-dir', 'secret.txt')))).toBe('PERMISSION_DENIED');
    expect(await code(write(join(root, 'linked-dir', 'new.txt'), 'x'))).toBe('PERMISSION_DENIED');
    expect(asked.at(-1)?.paths[0]).toBe(join(outside, 'new.txt'));
    expect(await readdir(outside)).toEqual(['secret.txt']);
  });

  it('detects a file swapped for a link between the check and the open', async () => {
    const target = join(root, 'a.txt');
    const swap = async () => {
      await rename(target, join(root, 'moved.txt'));
      await symlink(join(outside, 'secret.txt'), target);
      return true;
    };
    expect(await code(read(target, context(swap)))).toBe('SYMLINK_REFUSED');
  });

  it('detects a parent directory swapped for a link before the rename', async () => {
    const dir = join(root, 'dir');
    await mkdir(dir);
    const swap = async () => {
      await rename(dir, join(root, 'dir-moved'));
      await symlink(outside, dir);
      return true;
    };
    expect(await code(write(join(dir, 'f.txt'), 'pwned', context(swap)))).toBe('SYMLINK_REFUSED');
    expect(await readdir(outside)).toEqual(['secret.txt']);
  });
});

describe('hard links', () => {
  it('treats a file with other hard links as outside the roots, for reads and writes', async () => {
    const linked = join(root, 'linked.txt');
    await link(join(outside, 'secret.txt'), linked);
    expect(await code(read(linked))).toBe('PERMISSION_DENIED');
    expect(asked.at(-1)).toMatchObject({ hardLinked: true, outsideRoots: false, paths: [linked] });
    expect(await code(write(linked, 'pwned'))).toBe('PERMISSION_DENIED');
    expect(asked.at(-1)).toMatchObject({ source: 'fs_write', hardLinked: true });
    expect(await readFile(join(outside, 'secret.txt'), 'utf8')).toBe('TOP SECRET');
    // When the policy (a rule naming it, or the user) allows it, it is read; a write replaces the
    // name in the workspace and leaves the other name alone.
    expect(
      (
        await read(
          linked,
          context(() => true),
        )
      ).content,
    ).toBe('TOP SECRET');
    await write(
      linked,
      'mine',
      context(() => true),
    );
    expect(await readFile(linked, 'utf8')).toBe('mine');
    expect(await readFile(join(outside, 'secret.txt'), 'utf8')).toBe('TOP SECRET');
  });

  it('refuses a file that gains a hard link between the check and the open', async () => {
    const target = join(root, 'a.txt');
    const linkIt = async () => {
      await link(target, join(outside, 'copy.txt'));
      return true;
    };
    expect(await code(read(target, context(linkIt)))).toBe('PATH_OUTSIDE_ROOTS');
  });
});

describe('special files and sizes', () => {
  it('refuses devices, FIFOs and directories without blocking', async () => {
    expect(
      await code(
        read(
          '/dev/zero',
          context(() => true),
        ),
      ),
    ).toBe('NOT_A_REGULAR_FILE');
    const fifo = join(root, 'pipe');
    execFileSync('mkfifo', [fifo]);
    expect(await code(read(fifo))).toBe('NOT_A_REGULAR_FILE');
    expect(await code(write(fifo, 'x'))).toBe('NOT_A_REGULAR_FILE');
    expect(await code(read(root))).toBe('NOT_A_REGULAR_FILE');
  });

  it('caps sizes', async () => {
    await writeFile(join(root, 'big.txt'), 'x'.repeat(2000));
    expect(await code(read(join(root, 'big.txt')))).toBe('FILE_TOO_LARGE');
    expect(await code(write(join(root, 'out.txt'), 'é'.repeat(600)))).toBe('FILE_TOO_LARGE');
  });
});

describe('reading and writing', () => {
  it('applies line and limit', async () => {
    expect(
      (await fs.readTextFile({ sessionId: 's', path: join(root, 'a.txt'), line: 2, limit: 1 }, context()))
        .content,
    ).toBe('line2');
    expect(
      (await fs.readTextFile({ sessionId: 's', path: join(root, 'a.txt'), line: 3 }, context())).content,
    ).toBe('line3\n');
    expect(
      (await fs.readTextFile({ sessionId: 's', path: join(root, 'a.txt'), limit: 0 }, context())).content,
    ).toBe('');
  });

  it('refuses line 0 (lines are 1-based) before touching the file', async () => {
    const zero = fs.readTextFile({ sessionId: 's', path: join(root, 'a.txt'), line: 0 }, context());
    expect(await code(zero)).toBe('INVALID_ARGUMENT');
    expect(asked).toEqual([]);
  });

  it('writes atomically, creates parents, keeps the mode, leaves no temp files', async () => {
    await chmod(join(root, 'a.txt'), 0o640);
    await write(join(root, 'a.txt'), 'new content');
    expect(await readFile(join(root, 'a.txt'), 'utf8')).toBe('new content');
    expect((await stat(join(root, 'a.txt'))).mode & 0o777).toBe(0o640);
    await write(join(root, 'deep', 'er', 'file.ts'), 'export {};\n');
    expect(await readFile(join(root, 'deep', 'er', 'file.ts'), 'utf8')).toBe('export {};\n');
    expect((await readdir(root)).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('serves unsaved buffers from the overlay, and lets it take writes', async () => {
    const written: string[] = [];
    const overlaid = new FsService({
      overlay: {
        read: (path) => (path.endsWith('a.txt') ? 'unsaved buffer' : undefined),
        write: (path, content) => {
          written.push(`${path}=${content}`);
          return path.endsWith('a.txt');
        },
      },
    });
    expect(
      (await overlaid.readTextFile({ sessionId: 's', path: join(root, 'a.txt') }, context())).content,
    ).toBe('unsaved buffer');
    await overlaid.writeTextFile({ sessionId: 's', path: join(root, 'a.txt'), content: 'edited' }, context());
    expect(await readFile(join(root, 'a.txt'), 'utf8')).toContain('line1');
    expect(written).toEqual([`${join(root, 'a.txt')}=edited`]);
  });
});
