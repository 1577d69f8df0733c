import { describe, expect, it } from 'vitest';
import { parseDroppedPaths } from './dropped-paths.js';

const HOME = '/home/me';
const parse = (text: string): string[] | undefined => parseDroppedPaths(text, HOME);

describe('parseDroppedPaths', () => {
  it('reads paths as terminals paste dropped files: plain, quoted, escaped, file:// URLs, ~', () => {
    expect(parse('/tmp/shot.png')).toEqual(['/tmp/shot.png']);
    expect(parse("'/tmp/My shot.PNG' ")).toEqual(['/tmp/My shot.PNG']);
    expect(parse('"/tmp/a \\"b\\".jpg"')).toEqual(['/tmp/a "b".jpg']);
    expect(parse('/tmp/My\\ shot\\ \\(2\\).jpeg')).toEqual(['/tmp/My shot (2).jpeg']);
    expect(parse('file:///tmp/My%20shot.webp')).toEqual(['/tmp/My shot.webp']);
    expect(parse('~/Pictures/cat.gif')).toEqual(['/home/me/Pictures/cat.gif']);
  });

  it('reads several files separated by spaces or lines, once each', () => {
    expect(parse('/a/1.png /b/2.jpg\r\n/c/3.webp\n/a/1.png')).toEqual(['/a/1.png', '/b/2.jpg', '/c/3.webp']);
  });

  it('takes one unquoted path with spaces whole', () => {
    expect(parse('/Users/me/Screen Shot 2024-05-01 at 10.00.00.png')).toEqual([
      '/Users/me/Screen Shot 2024-05-01 at 10.00.00.png',
    ]);
  });

  it('leaves text alone: words around a path, other files, relative paths, remote URLs, open quotes', () => {
    for (const text of [
      'look at /tmp/shot.png',
      '/tmp/notes.txt',
      '/tmp/shot.png /tmp/notes.txt',
      'shot.png',
      './shot.png',
      'file://server/share/shot.png',
      'https://example.com/shot.png',
      "'/tmp/shot.png",
      '/tmp/a.png\nand some words.png',
      '   ',
      '',
    ]) {
      expect(parse(text), JSON.stringify(text)).toBeUndefined();
    }
  });
});
