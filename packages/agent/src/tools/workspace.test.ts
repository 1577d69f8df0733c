import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { removeDir, tempDir } from '../test-support/harness.js';
import { Workspace } from './workspace.js';

let root: string;
let extra: string;
let outside: string;

beforeEach(async () => {
  root = await tempDir('root');
  extra = await tempDir('extra');
  outside = await tempDir('outside');
  await writeFile(join(outside, 'secret.txt'), 'secret');
  await mkdir(join(root, 'src'));
  await symlink(join(outside, 'secret.txt'), join(root, 'link-to-secret'));
  await symlink(outside, join(root, 'link-dir'));
  await symlink(join(outside, 'not-yet.txt'), join(root, 'dangling'));
  await symlink(join(root, 'src'), join(root, 'inner-link'));
});

afterEach(async () => {
  await Promise.all([root, extra, outside].map(removeDir));
});

describe('Workspace confinement', () => {
  it('accepts paths in cwd and additional directories, existing or not', async () => {
    const ws = await Workspace.create(root, [extra]);
    expect((await ws.resolve('src/new-file.ts')).inside).toBe(true);
    expect((await ws.resolve(join(extra, 'a/b/c.txt'))).inside).toBe(true);
    expect((await ws.resolve('inner-link/x.ts')).inside).toBe(true);
    expect((await ws.resolve(`file://${join(root, 'src')}`)).path).toBe(join(root, 'src'));
  });

  it('sees through symlinks, .. and dangling links that point outside', async () => {
    const ws = await Workspace.create(root, [extra]);
    expect((await ws.resolve('../outside.txt')).inside).toBe(false);
    expect((await ws.resolve(join(outside, 'secret.txt'))).inside).toBe(false);
    expect((await ws.resolve('link-to-secret')).inside).toBe(false);
    expect((await ws.resolve('link-dir/new.txt')).inside).toBe(false);
    const dangling = await ws.resolve('dangling');
    expect(dangling.inside).toBe(false);
    expect(dangling.real).toBe(join(outside, 'not-yet.txt'));
    expect((await ws.resolve('src/../../x')).inside).toBe(false);
  });

  it('rejects roots that are not directories', async () => {
    await expect(Workspace.create(join(root, 'missing'))).rejects.toThrow(/Not a directory/);
    await expect(Workspace.create('relative/path')).rejects.toThrow(/Not an absolute path/);
  });
});
