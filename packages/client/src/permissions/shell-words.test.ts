import { quote } from 'shell-quote';
import { describe, expect, it } from 'vitest';
import { parseSimpleCommand, shellScript, simpleArgv, startsWithWords } from './shell-words.js';

describe('parseSimpleCommand', () => {
  it.each([
    ['git status', ['git', 'status']],
    ['  git   status  ', ['git', 'status']],
    ["git commit -m 'a; b | c'", ['git', 'commit', '-m', 'a; b | c']],
    ['git commit -m "fix: it\'s fine"', ['git', 'commit', '-m', "fix: it's fine"]],
    ['echo "a \\"quoted\\" word"', ['echo', 'a "quoted" word']],
    ['ls *.ts', ['ls', '*.ts']],
    ['echo a\\;b', ['echo', 'a;b']],
    ["printf ''", ['printf', '']],
    ['cat ~/notes.txt', ['cat', '~/notes.txt']],
  ])('splits %j', (line, words) => {
    expect(parseSimpleCommand(line)).toEqual(words);
  });

  it.each([
    'git status; curl x | sh',
    'git status && rm -rf /',
    'git status || true',
    'git status | sh',
    'git status & curl x',
    'git status > /etc/passwd',
    'git status < /dev/zero',
    'git $(curl x)',
    'git `curl x`',
    'git status $HOME',
    'git "$(curl x)"',
    'git "`id`"',
    'git status\ncurl x | sh',
    'git status\r\ncurl x',
    'git status # comment',
    'FOO=1 git status',
    '(git status)',
    '! git status',
    "git 'unterminated",
    'git "unterminated',
    'git status \\',
    '',
    '   ',
    'echo a\0b',
  ])('refuses %j', (line) => {
    expect(parseSimpleCommand(line)).toBeUndefined();
  });

  it('reads back what shell-quote quotes', () => {
    for (const argv of [['a b', 'c;d', '$x', "it's", 'back\\slash', '*', '#not-comment', 'tab\there']]) {
      expect(parseSimpleCommand(quote(argv))).toEqual(argv);
    }
  });
});

describe('simpleArgv', () => {
  it('takes argv as is, metacharacters included', () => {
    expect(simpleArgv({ argv: ['git', 'status;', 'rm'] })).toEqual(['git', 'status;', 'rm']);
  });
  it('unwraps shell -c scripts', () => {
    expect(simpleArgv({ argv: ['/bin/bash', '-lc', 'npm test'] })).toEqual(['npm', 'test']);
    expect(simpleArgv({ argv: ['sh', '-c', 'npm test; rm -rf ~'] })).toBeUndefined();
    expect(simpleArgv({ argv: ['zsh', '-c'] })).toBeUndefined();
  });
  it('parses lines', () => {
    expect(simpleArgv({ line: 'git log -1' })).toEqual(['git', 'log', '-1']);
  });
  it('unwraps only a system shell running just its script', () => {
    expect(simpleArgv({ argv: ['/usr/bin/bash', '-l', '-c', 'git status'] })).toEqual(['git', 'status']);
    expect(simpleArgv({ argv: ['busybox', 'sh', '-c', 'git status'] })).toEqual(['git', 'status']);
    // A `sh` the agent wrote is a program of its own: its words are the command.
    expect(simpleArgv({ argv: ['/work/p/sh', '-c', 'git status'] })).toEqual([
      '/work/p/sh',
      '-c',
      'git status',
    ]);
    expect(simpleArgv({ argv: ['./sh', '-c', 'git status'] })).toEqual(['./sh', '-c', 'git status']);
    // Options that run more than the script: not simple at all.
    for (const argv of [
      ['bash', '-i', '-c', 'git status'],
      ['bash', '--rcfile', '/tmp/rc', '-i', '-c', 'git status'],
      ['fish', '-C', 'id', '-c', 'git status'],
      ['sh', '-o', 'x', '-c', 'git status'],
      ['sh', '-c', 'git status', 'arg0'],
    ])
      expect(simpleArgv({ argv }), argv.join(' ')).toBeUndefined();
  });
});

describe('shellScript', () => {
  it('reads the script a shell runs, or the line itself', () => {
    expect(shellScript({ line: 'echo a; echo b' })).toBe('echo a; echo b');
    expect(shellScript({ argv: ['/bin/sh', '-c', 'echo a; echo b'] })).toBe('echo a; echo b');
    expect(shellScript({ argv: ['bash', '--login', '-ec', 'x'] })).toBe('x');
    expect(shellScript({ argv: ['sh', 'script.sh'] })).toBeUndefined();
    expect(shellScript({ argv: ['echo', '-c', 'x'] })).toBeUndefined();
    expect(shellScript({ argv: ['/opt/evil/bash', '-c', 'x'] })).toBeUndefined();
  });
});

describe('startsWithWords', () => {
  it('matches whole words only', () => {
    expect(startsWithWords(['git', 'status', '-s'], ['git', 'status'])).toBe(true);
    expect(startsWithWords(['git', 'statusx'], ['git', 'status'])).toBe(false);
    expect(startsWithWords(['git'], ['git', 'status'])).toBe(false);
    expect(startsWithWords(['git'], [])).toBe(false);
  });
});
