/**
 * Hand-written examples of ACP v2 (draft) messages, modelled on the v2 schema's own descriptions.
 * Every value here is checked against ajv by the v2 oracle tests, so a wrong example fails loudly.
 */
import type { MethodExamples } from './corpus.js';

const SESSION = 'sess_01JQ7Z3M8X2K4T6V9B';
const CWD = '/home/ada/projects/acp-kit';
const MESSAGE = 'msg_user_01';

// ------------------------------------------------------------------ building blocks

const text = { type: 'text', text: 'Refactor `parseConfig` to return a `Result`.' };
const image = {
  type: 'image',
  mimeType: 'image/png',
  data: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
};
const resourceLink = {
  type: 'resource_link',
  uri: 'file:///home/ada/projects/acp-kit/src/config.ts',
  name: 'config.ts',
  mimeType: 'text/x-typescript',
};
const embedded = {
  type: 'resource',
  resource: { uri: 'file:///home/ada/notes.md', mimeType: 'text/markdown', text: '# Notes' },
};
const audio = {
  type: 'audio',
  mimeType: 'audio/wav',
  data: 'UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQAAAAA=',
};

/** Every v2 ContentBlock type. */
export const CONTENT_BLOCKS_V2: unknown[] = [text, image, audio, resourceLink, embedded];

/** Every v2 ToolCallContent type. */
export const TOOL_CALL_CONTENT_V2: unknown[] = [
  { type: 'content', content: text },
  {
    type: 'diff',
    changes: [
      { operation: 'modify', path: `${CWD}/src/config.ts` },
      { operation: 'move', oldPath: `${CWD}/a.ts`, path: `${CWD}/b.ts` },
    ],
    patch: { format: 'git_patch', text: '--- a\n+++ b\n@@ -1 +1 @@\n-a\n+b\n' },
  },
  { type: 'terminal', terminalId: 'term_1' },
];

const permissionOptions = [
  { optionId: 'allow-once', name: 'Allow once', kind: 'allow_once' },
  { optionId: 'allow-always', name: 'Always allow', kind: 'allow_always' },
  { optionId: 'reject-once', name: 'Reject', kind: 'reject_once' },
  { optionId: 'reject-always', name: 'Never allow', kind: 'reject_always' },
];

const configOptions = [
  {
    configId: 'model',
    name: 'Model',
    category: 'model',
    type: 'select',
    currentValue: 'fast',
    options: [
      { value: 'fast', name: 'Fast' },
      { value: 'deep', name: 'Deep', description: 'Slower, more thorough' },
    ],
  },
  { configId: 'web', name: 'Web search', type: 'boolean', currentValue: false },
];

/** Every v2 session/update variant, in the order of the schema. */
export const SESSION_UPDATES_V2: unknown[] = [
  { sessionUpdate: 'user_message_chunk', messageId: MESSAGE, content: text },
  { sessionUpdate: 'user_message', messageId: MESSAGE, content: [text, resourceLink] },
  {
    sessionUpdate: 'agent_message_chunk',
    messageId: 'msg_agent_01',
    content: { type: 'text', text: 'Sure' },
  },
  { sessionUpdate: 'agent_message', messageId: 'msg_agent_01', content: null },
  {
    sessionUpdate: 'agent_thought_chunk',
    messageId: 'msg_thought_01',
    content: { type: 'text', text: 'Hm.' },
  },
  { sessionUpdate: 'agent_thought', messageId: 'msg_thought_01' },
  { sessionUpdate: 'state_update', state: 'running' },
  {
    sessionUpdate: 'state_update',
    state: 'idle',
    stopReason: 'end_turn',
    background: [{ type: 'terminal', terminalId: 'term_1' }],
  },
  {
    sessionUpdate: 'state_update',
    state: 'idle',
    stopReason: 'error',
    error: { code: -32603, message: 'model unavailable' },
  },
  { sessionUpdate: 'state_update', state: 'requires_action' },
  { sessionUpdate: 'tool_call_content_chunk', toolCallId: 'call_1', content: TOOL_CALL_CONTENT_V2[0] },
  {
    sessionUpdate: 'tool_call_update',
    toolCallId: 'call_1',
    name: 'shell',
    title: 'Run the tests',
    kind: 'execute',
    status: 'in_progress',
    content: [{ type: 'terminal', terminalId: 'term_1' }],
    locations: [{ path: `${CWD}/package.json`, line: 3 }],
    rawInput: { command: 'npm test' },
    capabilities: { cancel: {} },
  },
  {
    sessionUpdate: 'terminal_update',
    terminalId: 'term_1',
    command: 'npm test',
    cwd: CWD,
    output: { data: 'UEFTUwo=' },
    size: { cols: 80, rows: 24 },
    capabilities: { cancel: {} },
  },
  { sessionUpdate: 'terminal_update', terminalId: 'term_1', exitStatus: { exitCode: 0 }, capabilities: null },
  { sessionUpdate: 'terminal_output_chunk', terminalId: 'term_1', data: 'G1szMm1vaxtbMG0K' },
  {
    sessionUpdate: 'plan_update',
    plan: {
      type: 'items',
      planId: 'plan_1',
      entries: [
        { content: 'Read the config loader', priority: 'high', status: 'completed' },
        { content: 'Return a Result', priority: 'medium', status: 'in_progress' },
      ],
    },
  },
  {
    sessionUpdate: 'available_commands_update',
    availableCommands: [
      { type: 'command', name: 'review', description: 'Review the diff' },
      {
        type: 'command',
        name: 'test',
        description: 'Run tests',
        input: { type: 'text', hint: 'test name pattern' },
      },
    ],
  },
  { sessionUpdate: 'config_option_update', configOptions },
  { sessionUpdate: 'session_info_update', title: 'Refactor parseConfig', updatedAt: '2026-11-02T10:00:00Z' },
  { sessionUpdate: 'usage_update', used: 53000, size: 200000, cost: { amount: 0.12, currency: 'USD' } },
  { sessionUpdate: 'notice', severity: 'warning', title: 'Rate limited', description: 'Retrying in 5 s' },
  {
    sessionUpdate: 'compaction_update',
    compactionId: 'cmp_1',
    status: 'completed',
    summary: [{ type: 'text', text: 'Earlier: we read the config.' }],
  },
  {
    sessionUpdate: 'compaction_summary_chunk',
    compactionId: 'cmp_1',
    content: { type: 'text', text: 'More' },
  },
];

const info = { name: 'acp-kit', title: 'acp-kit', version: '0.1.0' };

/** Params and results of every v2 method, as they appear in `params` / `result`. */
export const METHOD_EXAMPLES_V2: Record<string, MethodExamples> = {
  initialize: {
    params: [
      { protocolVersion: 2, info },
      {
        protocolVersion: 2,
        info: { name: 'zed', version: '0.200.0' },
        capabilities: { auth: { terminal: {} }, elicitation: { form: {}, url: {} } },
      },
      // What our negotiating client sends: the v1 fields beside the v2 ones (extra keys are allowed).
      {
        protocolVersion: 2,
        info,
        capabilities: { elicitation: { form: {} } },
        clientInfo: info,
        clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true },
      },
    ],
    invalidParams: [{ protocolVersion: 2 }, { protocolVersion: -1, info }, { protocolVersion: 2, info: {} }],
    result: [
      { protocolVersion: 2, info: { name: 'demo-agent', version: '1.0.0' } },
      {
        protocolVersion: 2,
        info: { name: 'demo-agent', version: '1.0.0' },
        capabilities: {
          session: {
            prompt: { image: {}, embeddedContext: {} },
            mcp: { stdio: {}, http: {} },
            delete: {},
            additionalDirectories: {},
          },
          auth: {},
        },
        authMethods: [
          { type: 'agent', methodId: 'oauth', name: 'Sign in' },
          { type: 'terminal', methodId: 'login', name: 'Log in in a terminal', args: ['--login'] },
        ],
      },
    ],
    invalidResult: [{ protocolVersion: 2 }],
  },
  'auth/login': { params: [{ methodId: 'oauth' }], result: [{}] },
  'auth/logout': { params: [{}], result: [{}] },
  'session/new': {
    params: [
      { cwd: CWD },
      {
        cwd: CWD,
        additionalDirectories: ['/home/ada/shared'],
        mcpServers: [
          { type: 'stdio', name: 'fs', command: '/usr/bin/mcp-fs', args: ['--root', CWD] },
          {
            type: 'http',
            name: 'docs',
            url: 'https://mcp.example.com',
            headers: [{ name: 'X', value: 'y' }],
          },
        ],
      },
    ],
    invalidParams: [{}, { cwd: 7 }],
    result: [{ sessionId: SESSION }, { sessionId: SESSION, configOptions }],
  },
  'session/list': {
    params: [{}, { cwd: CWD, cursor: 'page2' }],
    result: [
      {
        sessions: [{ sessionId: SESSION, cwd: CWD, title: 'Refactor', updatedAt: '2026-11-02T10:00:00Z' }],
        nextCursor: 'page3',
      },
    ],
  },
  'session/delete': { params: [{ sessionId: SESSION }], result: [{}] },
  'session/resume': {
    params: [
      { sessionId: SESSION, cwd: CWD },
      { sessionId: SESSION, cwd: CWD, replayFrom: { type: 'start' } },
    ],
    result: [{}, { configOptions }],
  },
  'session/close': { params: [{ sessionId: SESSION }], result: [{}] },
  'tool_call/cancel': { params: [{ sessionId: SESSION, toolCallId: 'call_1' }], result: [{}] },
  'terminal/cancel': { params: [{ sessionId: SESSION, terminalId: 'term_1' }], result: [{}] },
  'session/set_config_option': {
    params: [
      { sessionId: SESSION, configId: 'model', type: 'id', value: 'deep' },
      { sessionId: SESSION, configId: 'web', type: 'boolean', value: true },
    ],
    result: [{ configOptions }],
  },
  'session/prompt': {
    params: [
      { sessionId: SESSION, prompt: [text, resourceLink] },
      { sessionId: SESSION, prompt: [image] },
    ],
    // v2 forbids an empty prompt.
    invalidParams: [{ sessionId: SESSION, prompt: [] }],
    result: [{ messageId: MESSAGE }],
    invalidResult: [{}, { messageId: null }],
  },
  'session/cancel': { params: [{ sessionId: SESSION }] },
  'session/update': {
    params: SESSION_UPDATES_V2.map((update) => ({ sessionId: SESSION, update })),
    invalidParams: [{ sessionId: SESSION }, { sessionId: SESSION, update: { sessionUpdate: 'plan_update' } }],
  },
  'session/request_permission': {
    params: [
      { sessionId: SESSION, title: 'Run `npm test`?', options: permissionOptions },
      {
        sessionId: SESSION,
        title: 'Edit config.ts?',
        description: 'The agent wants to change one function.',
        subject: { type: 'tool_call', toolCall: { toolCallId: 'call_2', title: 'Edit', kind: 'edit' } },
        options: permissionOptions.slice(0, 2),
      },
      {
        sessionId: SESSION,
        title: 'Run a command?',
        subject: { type: 'command', command: 'rm -rf build', cwd: CWD, toolCallId: 'call_3' },
        options: [permissionOptions[0]],
      },
    ],
    // At least one option.
    invalidParams: [{ sessionId: SESSION, title: 'x', options: [] }],
    result: [
      { outcome: { outcome: 'selected', optionId: 'allow-once' } },
      { outcome: { outcome: 'cancelled' } },
    ],
  },
  'elicitation/create': {
    params: [
      {
        mode: 'form',
        sessionId: SESSION,
        message: 'Which branch?',
        requestedSchema: {
          type: 'object',
          properties: { branch: { type: 'string', title: 'Branch' } },
          required: ['branch'],
        },
      },
      {
        mode: 'url',
        requestId: 7,
        message: 'Sign in to continue',
        elicitationId: 'eli_1',
        url: 'https://example.com/login',
      },
    ],
    result: [{ action: 'accept', content: { branch: 'main' } }, { action: 'decline' }, { action: 'cancel' }],
  },
  'elicitation/complete': { params: [{ elicitationId: 'eli_1' }] },
  '$/cancel_request': { params: [{ requestId: 3 }, { requestId: 'req-1' }] },
};

/** Definitions with examples of their own. */
export const VALID_DEFS_V2: Record<string, unknown[]> = {
  ContentBlock: CONTENT_BLOCKS_V2,
  ToolCallContent: TOOL_CALL_CONTENT_V2,
  UnsupportedProtocolVersionErrorData: [{ requested: 3, supported: [1, 2] }],
  Error: [
    { code: -32022, message: 'Unsupported protocol version', data: { requested: 0, supported: [1, 2] } },
    { code: -32002, message: 'Session not found', data: { sessionId: SESSION } },
    { code: -32000, message: 'Authentication required' },
  ],
};

export const INVALID_DEFS_V2: Record<string, unknown[]> = {
  UnsupportedProtocolVersionErrorData: [{ requested: 3 }, { requested: 'two', supported: [] }],
  TerminalOutputChunk: [{ terminalId: 't', data: 7 }],
};
