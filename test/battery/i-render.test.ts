/**
 * I. Rendering: the payload corpus of RELIABILITY I1 (CSI, OSC 0/8/52, DCS, C1, BEL, backspace,
 * bare CR, bidi, zero-width) in every agent-controlled sink — message and thought chunks, tool
 * titles, file paths, plan entries, terminal output, the permission question, error messages,
 * agent stderr, agent name and version — through `acp run`'s text output and the terminal UI in a
 * real terminal (tmux); and I2, a property of the sanitizers on any string.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { sanitizeTerminalText } from '@acp-kit/protocol/node';
import { visibleText } from '@acp-kit/client';
import { sanitizeInline, sanitizeText } from '@acp-kit/tui';
import { describe, expect, it } from 'vitest';
import { TuiHarness } from '../../packages/tui/src/e2e/tmux-harness.js';
import { fileWatch } from './support/canary.js';
import { figure, zero } from './support/figures.js';
import { Collected, exitOf, makeHome, spawnAcp } from './support/procs.js';
import { RELAY_AGENT, relayCommand, script } from './support/relay.js';
import { COUNTS, seedOf, timeoutMs } from './support/size.js';
import { findUnsafe, marked, PAYLOADS, unsafeRegions } from './support/unsafe.js';

const watch = fileWatch('i-render');

const all = (sink: string) => PAYLOADS.map((_, i) => marked(sink, i));

/** The relay agent's options and turn that put every payload in every sink. */
function corpus(): { options: Record<string, unknown>; steps: unknown[]; sinks: string[] } {
  const steps: unknown[] = [
    ...all('msg').map((text) => ({ text: `${text}\n` })),
    ...all('thought').map((text) => ({
      update: { sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text } },
    })),
    ...all('tool').map((title, i) => ({
      update: {
        sessionUpdate: 'tool_call',
        toolCallId: `tool-${i}`,
        title,
        kind: 'read',
        status: 'completed',
        locations: [{ path: `/tmp/${marked('path', i)}` }],
      },
    })),
    {
      update: {
        sessionUpdate: 'plan',
        entries: all('plan').map((content) => ({ content, priority: 'high', status: 'pending' })),
      },
    },
    {
      update: {
        sessionUpdate: 'tool_call',
        toolCallId: 'term',
        title: 'terminal',
        kind: 'execute',
        status: 'in_progress',
        content: [{ type: 'terminal', terminalId: 'term-1' }],
        _meta: { terminal_info: { terminal_id: 'term-1' } },
      },
    },
    ...all('term').map((data) => ({
      update: {
        sessionUpdate: 'tool_call_update',
        toolCallId: 'term',
        _meta: { terminal_output: { terminal_id: 'term-1', data: `${data}\r\n` } },
      },
    })),
    {
      update: {
        sessionUpdate: 'tool_call_update',
        toolCallId: 'term',
        status: 'completed',
        _meta: { terminal_exit: { terminal_id: 'term-1', exit_code: 0, signal: null } },
      },
    },
    {
      request: 'session/request_permission',
      params: {
        toolCall: { toolCallId: 'perm', title: all('perm').join(' '), kind: 'edit' },
        options: [
          { optionId: 'y', name: marked('opt', 0), kind: 'allow_once' },
          { optionId: 'n', name: 'No', kind: 'reject_once' },
        ],
      },
    },
    { stderrText: `${all('stderr').join('\n')}\n` },
    { text: '\ncorpus done\n' },
    { fail: all('error').join(' ') },
  ];
  const options = { name: marked('name', 3), version: marked('version', 11), script: steps };
  return {
    options,
    steps,
    sinks: [
      'msg',
      'thought',
      'tool',
      'path',
      'plan',
      'term',
      'perm',
      'opt',
      'stderr',
      'error',
      'name',
      'version',
    ],
  };
}

describe('I1 the escape corpus in every sink', () => {
  it('acp run --format text --verbose: nothing unsafe on stdout or stderr', async () => {
    const home = makeHome('i1-run');
    const { options, steps, sinks } = corpus();
    try {
      const child = spawnAcp(
        ['run', '--verbose', '--approve', 'all', script(steps), '--', ...relayCommand(options)],
        { cwd: home.work, env: home.env },
      );
      const stdout = new Collected(child.stdout);
      const stderr = new Collected(child.stderr);
      await exitOf(child, 60_000);
      const output = stdout.text + stderr.text;
      watch.see('acp run stderr (I1)', stderr.text);
      watch.scanTree(home.data, 'acp data dir (I1)');
      const raw = findUnsafe(output);
      const regions = unsafeRegions(output);
      figure({
        case: 'I1',
        name: `acp run text: payloads × sinks (${PAYLOADS.length} × ${sinks.length})`,
        value: PAYLOADS.length * sinks.length,
      });
      zero(
        {
          case: 'I1',
          name: `acp run text: raw ESC/C0/C1/bidi characters on stdout and stderr (regions: ${regions.join(' ').slice(0, 200)})`,
        },
        raw.length,
      );
      expect(output).toContain('corpus done');
      expect(regions).toEqual([]);
      expect(raw.slice(0, 10)).toEqual([]);
    } finally {
      home.cleanup();
    }
  }, 60_000);

  it('terminal UI in tmux: only text and SGR colours reach the terminal', async () => {
    const { options } = corpus();
    const dirs = makeHome('i1-tui');
    const rawLog = join(dirs.root, 'raw.log');
    const h = TuiHarness.launch({
      rawLog,
      columns: 200,
      rows: 60,
      args: ['--', process.execPath, RELAY_AGENT, JSON.stringify(options)],
    });
    try {
      await h.waitFor('new session');
      await h.submit('go');
      await h.waitFor(/Permission requested/);
      await h.answer('y');
      await h.waitFor('corpus done', { history: true });
      const captured = h.historyWithEscapes();
      const screenUnsafe = findUnsafe(captured, { allowSgr: true });
      // The raw bytes the UI wrote: its own cursor moves and erases are allowed, nothing else.
      const raw = readFileSync(rawLog, 'utf8')
        .replace(/\x1b\[(?:\d*[ABCDG]|2K|\?25[lh]|\?2026[hl]|\?2004[hl]|2J|3J|H)/g, '') // eslint-disable-line no-control-regex
        .replace(/\r/g, '');
      const regions = unsafeRegions(raw, { allowSgr: true });
      const rawUnsafe = findUnsafe(raw, { allowSgr: true });
      zero(
        {
          case: 'I1',
          name: `terminal UI: unsafe characters in capture-pane -e (regions: ${unsafeRegions(captured, { allowSgr: true }).join(' ').slice(0, 200)})`,
        },
        screenUnsafe.length,
      );
      zero(
        {
          case: 'I1',
          name: `terminal UI: raw escape bytes reaching the tty (regions: ${regions.join(' ').slice(0, 200)})`,
        },
        rawUnsafe.length,
      );
      expect(h.pane('#{pane_title}')).not.toContain('PWNED');
      expect(h.tmux('list-buffers')).toBe('');
      expect(screenUnsafe.slice(0, 10)).toEqual([]);
      expect(rawUnsafe.slice(0, 10)).toEqual([]);
    } finally {
      h.close();
      dirs.cleanup();
    }
  }, 120_000);
});

describe('I2 the sanitizers, on any string', () => {
  const sanitizers = [
    { name: 'sanitizeText (UI)', render: sanitizeText, inline: false },
    { name: 'sanitizeInline (UI)', render: sanitizeInline, inline: true },
    { name: 'sanitizeTerminalText (acp run, stderr)', render: sanitizeTerminalText, inline: false },
  ];
  /** Strings rich in controls: payload pieces, control characters and any code points. */
  const hostile = fc
    .array(
      fc.oneof(
        fc.constantFrom(...PAYLOADS),
        fc.string({ unit: 'binary', maxLength: 8 }),
        fc.integer({ min: 0, max: 0x9f }).map((c) => String.fromCharCode(c)),
        fc.constantFrom(
          '\u202a',
          '\u202b',
          '\u202c',
          '\u202d',
          '\u202e',
          '\u2066',
          '\u2067',
          '\u2068',
          '\u2069',
        ),
      ),
      { maxLength: 12 },
    )
    .map((parts) => parts.join(''));
  /** Printable text: no controls, no bidi. */
  const printable = fc.string({ unit: 'grapheme', maxLength: 40 }).filter((s) => findUnsafe(s).length === 0);

  for (const { name, render, inline } of sanitizers) {
    it(
      `${name}: no ESC, no C0 but \\n \\t, no C1, no bidi; printable text kept`,
      () => {
        const seed = seedOf(9001);
        let runs = 0;
        fc.assert(
          fc.property(hostile, printable, (s, text) => {
            runs++;
            expect(findUnsafe(render(s))).toEqual([]);
            expect(render(text)).toBe(inline ? text.replace(/[\n\t]+/g, ' ') : text);
          }),
          { seed, numRuns: COUNTS.propertyRuns },
        );
        figure({
          case: 'I2',
          name: `${name}: runs`,
          value: runs,
          target: `${COUNTS.propertyRuns}, property holds`,
          pass: runs === COUNTS.propertyRuns,
          seed,
        });
      },
      timeoutMs(60_000, 300_000),
    );
  }

  it(
    'visibleText (paths, commands, variables): nothing a terminal acts on, nothing invisible, every character kept',
    () => {
      const seed = seedOf(9002);
      const invisible = /[\n\t\u00a0\u00ad\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]|\u034f|\ufe0f/u;
      const zeroWidth = fc.constantFrom(
        '\u200b',
        '\u200c',
        '\u200d',
        '\u2060',
        '\ufeff',
        '\u00ad',
        '\n',
        '\t',
      );
      let runs = 0;
      fc.assert(
        fc.property(
          fc.array(fc.oneof(hostile, zeroWidth, printable), { maxLength: 6 }).map((parts) => parts.join('')),
          (s) => {
            runs++;
            const shown = visibleText(s);
            expect(findUnsafe(shown)).toEqual([]);
            expect(invisible.test(shown)).toBe(false);
            // Escapes only add characters: nothing was dropped.
            expect(shown.length).toBeGreaterThanOrEqual(s.length);
          },
        ),
        { seed, numRuns: COUNTS.propertyRuns },
      );
      figure({
        case: 'I2',
        name: 'visibleText (paths, commands, variables): runs',
        value: runs,
        target: `${COUNTS.propertyRuns}, property holds`,
        pass: runs === COUNTS.propertyRuns,
        seed,
      });
    },
    timeoutMs(60_000, 300_000),
  );
});
