/**
 * A session for tests of the transcript browser: a prompt, an answer with two code blocks, a tool
 * call with two locations (one outside the session) and output, an edit with a diff, a command
 * with terminal output, and a notice.
 */
import {
  initialSessionState,
  reduceSessionEvents,
  type SessionEvent,
  type SessionState,
  v1UpdateEvents,
} from '@acp-kit/client';
import type { SessionUpdate } from '@acp-kit/protocol';

/** The session's directory in {@link browseSession}. */
export const BROWSE_CWD = '/work/project';

let at = 0;
/** The events of a v1 update, as the client's v1 face makes them. */
const update = (u: SessionUpdate): SessionEvent[] => v1UpdateEvents(u, ++at);

/** The answer of the sample session (Markdown with two fenced blocks). */
export const ANSWER = [
  'Run the tests:',
  '',
  '```sh',
  'npm test',
  '```',
  '',
  'Then fix `parse` in src/parse.ts:',
  '',
  '```ts',
  'export function parse(text: string) {',
  '\treturn JSON.parse(text);',
  '}',
  '```',
].join('\n');

/**
 * The sample session's state (optionally with more events after it).
 *
 * @example
 * const document = new BrowseDocumentBuilder().build(browseSession());
 */
export function browseSession(...more: SessionEvent[]): SessionState {
  const events: SessionEvent[] = [
    { type: 'prompt', at: ++at, turn: 1, prompt: [{ type: 'text', text: 'Why does the parser fail?' }] },
    ...update({
      sessionUpdate: 'tool_call',
      toolCallId: 'read-1',
      title: 'Read src/parse.ts',
      kind: 'read',
      status: 'completed',
      locations: [{ path: `${BROWSE_CWD}/src/parse.ts`, line: 12 }, { path: '/etc/hosts' }],
      content: [
        {
          type: 'content',
          content: { type: 'text', text: 'export function parse(text) {\n  return eval(text);\n}' },
        },
      ],
    }),
    ...update({
      sessionUpdate: 'tool_call',
      toolCallId: 'edit-1',
      title: 'Edit src/parse.ts',
      kind: 'edit',
      status: 'completed',
      locations: [{ path: 'src/parse.ts', line: 13 }],
      content: [
        {
          type: 'diff',
          path: `${BROWSE_CWD}/src/parse.ts`,
          oldText: 'a\n  return eval(text);\nc\n',
          newText: 'a\n  return JSON.parse(text);\nc\n',
        },
      ],
    }),
    ...update({
      sessionUpdate: 'tool_call',
      toolCallId: 'run-1',
      title: 'Run npm test',
      kind: 'execute',
      status: 'completed',
      _meta: {
        terminal_info: { terminal_id: 'T1', cwd: BROWSE_CWD },
        terminal_output: { terminal_id: 'T1', data: '\x1b[32mPASS\x1b[0m parse.test.ts\n' },
      },
    }),
    ...update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: ANSWER } }),
    { type: 'turn_end', at: ++at, turn: 1, stopReason: 'cancelled' },
    ...more,
  ];
  return reduceSessionEvents(initialSessionState('browse', BROWSE_CWD), events);
}
