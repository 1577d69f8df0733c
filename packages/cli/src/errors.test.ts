/** The one error style: every error becomes `acp: …` and `hint: …`, with its exit code. */
import { CommanderError } from 'commander';
import { describe, expect, it } from 'vitest';
import { AcpKitError, ErrorCodes, ProtocolError } from '@acp-kit/protocol';
import { ClientError } from '@acp-kit/client';
import { errorReport, formatErrorReport, reportError } from './errors.js';
import { EXIT_CODES, UsageError } from './exit-codes.js';

const text = (error: unknown, command?: string): string =>
  formatErrorReport(errorReport(error, command ? { command } : {}));

describe('error reports', () => {
  it('gives every kind of error one "acp:" line and a "hint:" line', () => {
    const cases: [unknown, string | undefined, RegExp, number][] = [
      [
        new UsageError('the prompt is empty'),
        'run',
        /^acp: the prompt is empty\nhint: see `acp run --help`\n$/,
        2,
      ],
      [new UsageError('bad', { hint: 'do this' }), undefined, /^acp: bad\nhint: do this\n$/, 2],
      [
        new CommanderError(
          1,
          'commander.unknownOption',
          "error: unknown option '--fromat'\n(Did you mean --format?)",
        ),
        'run',
        /^acp: unknown option '--fromat'\nhint: did you mean --format\? see `acp run --help`\n$/,
        2,
      ],
      [
        new ClientError('AGENT_NOT_FOUND', 'no agent named "x"'),
        'run',
        /^acp: no agent named "x"\nhint: `acp agents` lists/,
        8,
      ],
      [
        new ClientError('AGENT_NOT_INSTALLED', 'x was not found on PATH'),
        'run',
        /\nhint: install it.*`acp doctor`/,
        8,
      ],
      [
        new ClientError('AGENT_EXITED', 'agent exited with code 3'),
        'run',
        /\nhint: the agent stopped; run again with --verbose/,
        7,
      ],
      [
        new AcpKitError('PEER_EXITED', 'gone'),
        'sessions list',
        /\nhint: the agent stopped; `acp doctor --probe`/,
        7,
      ],
      [new ClientError('SESSION_NOT_FOUND', 'no such session'), undefined, /\nhint: `acp sessions` lists/, 2],
      [
        new ClientError('CONFIG_INVALID', '/c/rules.json: bad'),
        undefined,
        /\nhint: fix or remove the file/,
        1,
      ],
      [
        new ProtocolError(ErrorCodes.AuthRequired, 'login first'),
        'run',
        /^acp: the agent needs authentication: login first\nhint: sign in/,
        1,
      ],
      [
        new ProtocolError(ErrorCodes.MethodNotFound, 'session/list'),
        undefined,
        /\nhint: the agent does not implement this/,
        1,
      ],
      [
        Object.assign(new Error('EACCES: permission denied, open /x'), { code: 'EACCES' }),
        undefined,
        /\nhint: check the permissions/,
        1,
      ],
      [
        new Error('something odd'),
        undefined,
        /^acp: something odd\nhint: if this looks like a bug in acp, `acp doctor`/,
        1,
      ],
      ['a string', undefined, /^acp: a string\nhint: /, 1],
    ];
    for (const [error, command, expected, exitCode] of cases) {
      expect(text(error, command)).toMatch(expected);
      expect(errorReport(error, command ? { command } : {}).exitCode).toBe(exitCode);
    }
  });

  it('lists the auth methods an agent offers in the hint, one per line', () => {
    const error = new ClientError('AUTH_REQUIRED', 'the agent needs authentication', {
      authOptions: [
        { id: 'key', name: 'API key', action: 'authenticate', instructions: '', input: { label: 'API key' } },
        { id: 'login', name: 'Log in', action: 'run-terminal', instructions: 'run `x login`' },
      ],
      authHint: 'or set X_KEY',
    });
    expect(text(error, 'run')).toBe(
      'acp: the agent needs authentication\n' +
        'hint: sign in to the agent, then run again; it offers:\n' +
        '      - API key: set ACP_KIT_AUTH_API_KEY to your API key and run again with --auth key\n' +
        '      - Log in: run `x login`, or run again with --auth login to do it here\n' +
        '      or set X_KEY\n',
    );
    expect(errorReport(error).exitCode).toBe(EXIT_CODES.AUTH_REQUIRED);
    // The UI's line mode (TERM=dumb) has no --auth: it points to acp run.
    expect(text(error)).toContain(
      '- API key: set ACP_KIT_AUTH_API_KEY to your API key and sign in with `acp run --agent AGENT --auth key "hello"`',
    );
    expect(text(error)).not.toContain('run again with --auth');
    const named = new ClientError('AUTH_REQUIRED', 'x needs authentication', {
      authOptions: [{ id: 'key', name: 'API key', action: 'authenticate', instructions: '' }],
      agentId: 'gemini',
    });
    expect(text(named)).toContain('sign in with `acp run --agent gemini --auth key "hello"`');
  });

  it('never lets escape sequences from an agent reach the terminal', () => {
    const error = new ClientError(
      'AGENT_EXITED',
      'agent exited\n--- last stderr ---\n\x1b[2J\x1b]0;pwned\x07boom\x9b31m',
    );
    const out = text(error, 'run');
    expect(out).toContain('boom');
    expect(out).not.toMatch(/[\x1b\x07\x9b]/); // eslint-disable-line no-control-regex
  });

  it('writes on stderr only and returns the exit code', () => {
    let stderr = '';
    const code = reportError(
      new UsageError('nope'),
      { stderr: { write: (t: string) => (stderr += t) } },
      { command: 'rules add' },
    );
    expect(code).toBe(2);
    expect(stderr).toBe('acp: nope\nhint: see `acp rules add --help`\n');
  });
});
