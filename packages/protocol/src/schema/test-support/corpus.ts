/**
 * Hand-written examples of ACP messages, modelled on the schema's own descriptions and on what real
 * agents and clients send. Every value here is checked against ajv by the oracle tests, so a wrong
 * example fails loudly instead of silently testing nothing.
 */

const SESSION = 'sess_01JQ7Z3M8X2K4T6V9B';
const CWD = '/home/ada/projects/acp-kit';

// ------------------------------------------------------------------ building blocks

const text = { type: 'text', text: 'Refactor `parseConfig` to return a `Result`.' };
const emptyText = { type: 'text', text: '' };
const annotatedText = {
  type: 'text',
  text: '## Plan\n\n1. Read the file\n2. Edit it',
  annotations: { audience: ['user', 'assistant'], priority: 0.8, lastModified: '2025-06-01T12:00:00Z' },
};
const image = {
  type: 'image',
  mimeType: 'image/png',
  data: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  uri: 'file:///home/ada/screenshot.png',
};
const audio = {
  type: 'audio',
  mimeType: 'audio/wav',
  data: 'UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQAAAAA=',
};
const resourceLink = {
  type: 'resource_link',
  uri: 'file:///home/ada/projects/acp-kit/src/config.ts',
  name: 'config.ts',
  mimeType: 'text/x-typescript',
  title: 'Configuration loader',
  description: 'Reads and validates acp-kit.json',
  size: 4096,
};
const minimalResourceLink = { type: 'resource_link', uri: 'https://example.com/spec.md', name: 'spec.md' };
const embeddedText = {
  type: 'resource',
  resource: {
    uri: 'file:///home/ada/projects/acp-kit/src/config.ts',
    mimeType: 'text/x-typescript',
    text: 'export function parseConfig(text: string) {\n  return JSON.parse(text);\n}\n',
  },
};
const embeddedBlob = {
  type: 'resource',
  resource: { uri: 'file:///home/ada/logo.png', mimeType: 'image/png', blob: 'iVBORw0KGgo=' },
  annotations: { audience: ['assistant'] },
};

/** Every ContentBlock type. */
export const CONTENT_BLOCKS: unknown[] = [
  text,
  emptyText,
  annotatedText,
  image,
  audio,
  resourceLink,
  minimalResourceLink,
  embeddedText,
  embeddedBlob,
  { type: 'text', text: 'with meta', _meta: { 'zed.dev/source': 'clipboard' } },
];

/** Every ToolCallContent type. */
export const TOOL_CALL_CONTENT: unknown[] = [
  { type: 'content', content: { type: 'text', text: 'Found 3 matches in 2 files.' } },
  { type: 'content', content: resourceLink },
  {
    type: 'diff',
    path: '/home/ada/projects/acp-kit/src/config.ts',
    oldText: 'return JSON.parse(text);',
    newText: 'return safeParse(text);',
  },
  // A new file: no old text.
  {
    type: 'diff',
    path: '/home/ada/projects/acp-kit/src/result.ts',
    oldText: null,
    newText: 'export type Result = {};\n',
  },
  { type: 'diff', path: '/home/ada/projects/acp-kit/NOTES.md', newText: '# Notes\n' },
  { type: 'terminal', terminalId: 'term_7f3a' },
];

const readToolCall = {
  toolCallId: 'toolu_01ABC',
  title: 'Read src/config.ts',
  kind: 'read',
  status: 'pending',
  locations: [{ path: '/home/ada/projects/acp-kit/src/config.ts', line: 1 }],
  rawInput: { file_path: '/home/ada/projects/acp-kit/src/config.ts' },
};

/** Every permission option kind, as agents send them. */
export const PERMISSION_OPTIONS: unknown[] = [
  { optionId: 'allow', name: 'Allow', kind: 'allow_once' },
  { optionId: 'allow_always', name: 'Always allow edits in this session', kind: 'allow_always' },
  { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
  { optionId: 'reject_always', name: 'Never allow', kind: 'reject_always' },
];

/** Every permission outcome. */
export const PERMISSION_OUTCOMES: unknown[] = [
  { outcome: 'selected', optionId: 'allow' },
  { outcome: 'selected', optionId: 'proceed_always', _meta: { remember: true } },
  { outcome: 'cancelled' },
];

/** Auth methods: the stable agent and terminal shapes, plus shapes seen from real agents. */
export const AUTH_METHODS: unknown[] = [
  { id: 'claude-login', name: 'Log in with Claude Code', description: 'Opens a browser to sign in' },
  { id: 'chatgpt', name: 'Sign in with ChatGPT', description: null },
  {
    id: 'terminal-login',
    name: 'Log in from a terminal',
    type: 'terminal',
    args: ['--login'],
    env: { FORCE_LOGIN: '1' },
  },
  { id: 'terminal-bare', name: 'Terminal login', type: 'terminal' },
  // Not in the stable schema, but valid as the agent shape (extra keys are allowed).
  { id: 'openai-api-key', name: 'Use OPENAI_API_KEY', type: 'env_var', vars: [{ name: 'OPENAI_API_KEY' }] },
  {
    id: 'gemini-api-key',
    name: 'Use Gemini API key',
    _meta: { 'terminal-auth': { command: 'gemini', args: ['--auth'], label: 'Gemini login' } },
  },
  {
    id: 'gateway',
    name: 'Company gateway',
    _meta: { gateway: { url: 'https://llm.internal.example' }, 'api-key': {} },
  },
];

/** MCP servers: stdio, http and sse. */
export const MCP_SERVERS: unknown[] = [
  {
    name: 'filesystem',
    command: '/usr/local/bin/mcp-server-filesystem',
    args: ['--root', CWD],
    env: [{ name: 'LOG_LEVEL', value: 'warn' }],
  },
  { name: 'git', command: 'uvx', args: [], env: [] },
  {
    type: 'http',
    name: 'linear',
    url: 'https://mcp.linear.app/mcp',
    headers: [{ name: 'Authorization', value: 'Bearer lin_api_xyz' }],
  },
  { type: 'sse', name: 'legacy-tools', url: 'http://127.0.0.1:3001/sse', headers: [] },
];

/** Session config options: select (ungrouped, grouped) and boolean. */
export const CONFIG_OPTIONS: unknown[] = [
  {
    id: 'mode',
    name: 'Mode',
    description: 'How the agent asks for permission',
    category: 'mode',
    type: 'select',
    currentValue: 'default',
    options: [
      { value: 'default', name: 'Default', description: 'Ask before edits and commands' },
      { value: 'acceptEdits', name: 'Accept edits' },
      { value: 'plan', name: 'Plan mode', description: null },
    ],
  },
  {
    id: 'model',
    name: 'Model',
    category: 'model',
    type: 'select',
    currentValue: 'claude-sonnet-4-5',
    options: [
      {
        group: 'anthropic',
        name: 'Anthropic',
        options: [
          { value: 'claude-sonnet-4-5', name: 'Sonnet 4.5' },
          { value: 'claude-opus-4-1', name: 'Opus 4.1' },
        ],
      },
      { group: 'openai', name: 'OpenAI', options: [{ value: 'gpt-5', name: 'GPT-5' }] },
    ],
  },
  {
    id: 'reasoning_effort',
    name: 'Reasoning effort',
    category: 'thought_level',
    type: 'select',
    currentValue: 'medium',
    options: [
      { value: 'low', name: 'Low' },
      { value: 'medium', name: 'Medium' },
      { value: 'high', name: 'High' },
    ],
  },
  { id: 'fast_mode', name: 'Fast mode', type: 'boolean', currentValue: false, category: null },
  // Categories are open: an unknown one is still valid.
  { id: 'budget', name: 'Budget', type: 'boolean', currentValue: true, category: '_acme_budget' },
];

const modes = {
  currentModeId: 'default',
  availableModes: [
    { id: 'default', name: 'Default', description: 'Ask before edits and commands' },
    { id: 'acceptEdits', name: 'Accept Edits' },
    { id: 'plan', name: 'Plan Mode', description: 'Read-only exploration' },
  ],
};

const elicitationSchema = {
  type: 'object',
  title: 'Deployment',
  description: 'Where and how to deploy',
  properties: {
    environment: {
      type: 'string',
      title: 'Environment',
      oneOf: [
        { const: 'staging', title: 'Staging' },
        { const: 'production', title: 'Production', description: 'Live traffic' },
      ],
      default: 'staging',
    },
    branch: { type: 'string', minLength: 1, maxLength: 100, pattern: '^[\\w./-]+$', default: 'main' },
    contact: { type: 'string', format: 'email' },
    color: { type: 'string', enum: ['red', 'green'] },
    replicas: { type: 'integer', minimum: 1, maximum: 10, default: 2 },
    ratio: { type: 'number', minimum: 0, maximum: 1, default: 0.5 },
    confirm: { type: 'boolean', title: 'I understand', default: false },
    regions: {
      type: 'array',
      items: { type: 'string', enum: ['eu-west-1', 'us-east-1'] },
      minItems: 1,
      default: ['eu-west-1'],
    },
    teams: {
      type: 'array',
      title: 'Teams to notify',
      items: {
        anyOf: [
          { const: 'infra', title: 'Infrastructure' },
          { const: 'web', title: 'Web' },
        ],
      },
      maxItems: 2,
    },
  },
  required: ['environment', 'confirm'],
};

// ------------------------------------------------------------------ session/update

/** One of every `session/update` variant, plus realistic repeats. */
export const SESSION_UPDATES: unknown[] = [
  { sessionUpdate: 'user_message_chunk', content: text },
  { sessionUpdate: 'user_message_chunk', content: embeddedText, messageId: 'msg_user_1' },
  { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: "I'll start by reading" } },
  { sessionUpdate: 'agent_message_chunk', content: emptyText, messageId: 'msg_01' },
  { sessionUpdate: 'agent_message_chunk', content: image, messageId: null },
  { sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: 'The user wants a Result type…' } },
  { sessionUpdate: 'tool_call', ...readToolCall },
  { sessionUpdate: 'tool_call', toolCallId: 'call_2', title: 'Thinking' },
  {
    sessionUpdate: 'tool_call',
    toolCallId: 'call_3',
    title: 'npm test',
    name: 'Bash',
    kind: 'execute',
    status: 'in_progress',
    content: [{ type: 'terminal', terminalId: 'call_3' }],
    rawInput: { command: 'npm test', timeout: 120000 },
    _meta: { terminal_info: { terminal_id: 'call_3', cwd: CWD } },
  },
  {
    sessionUpdate: 'tool_call',
    toolCallId: 'call_4',
    title: 'Switch to plan mode',
    kind: 'switch_mode',
    status: 'pending',
    content: [],
    locations: [],
  },
  {
    sessionUpdate: 'tool_call_update',
    toolCallId: 'call_3',
    _meta: { terminal_output: { terminal_id: 'call_3', data: '\u001b[32m✓\u001b[0m 42 tests passed\n' } },
  },
  {
    sessionUpdate: 'tool_call_update',
    toolCallId: 'call_3',
    status: 'completed',
    rawOutput: { exit_code: 0 },
    _meta: { terminal_exit: { terminal_id: 'call_3', exit_code: 0, signal: null } },
  },
  {
    sessionUpdate: 'tool_call_update',
    toolCallId: 'toolu_01ABC',
    status: 'completed',
    kind: 'edit',
    title: 'Edit src/config.ts',
    content: TOOL_CALL_CONTENT,
    locations: [{ path: '/home/ada/projects/acp-kit/src/config.ts', line: 12 }, { path: '/tmp/x' }],
  },
  {
    sessionUpdate: 'tool_call_update',
    toolCallId: 'call_5',
    status: 'failed',
    content: null,
    locations: null,
    kind: null,
  },
  {
    sessionUpdate: 'plan',
    entries: [
      { content: 'Read the configuration loader', priority: 'high', status: 'completed' },
      { content: 'Introduce a Result type', priority: 'medium', status: 'in_progress' },
      { content: 'Update the callers', priority: 'low', status: 'pending' },
    ],
  },
  { sessionUpdate: 'plan', entries: [] },
  {
    sessionUpdate: 'available_commands_update',
    availableCommands: [
      { name: 'init', description: 'Create an AGENTS.md file' },
      { name: 'review', description: 'Review the current diff', input: { hint: 'optional focus area' } },
      { name: 'pr comments', description: 'Address PR comments', input: null },
    ],
  },
  { sessionUpdate: 'current_mode_update', currentModeId: 'plan' },
  { sessionUpdate: 'config_option_update', configOptions: CONFIG_OPTIONS },
  { sessionUpdate: 'session_info_update', title: 'Refactor parseConfig', updatedAt: '2025-06-01T12:34:56Z' },
  { sessionUpdate: 'session_info_update', title: null },
  { sessionUpdate: 'usage_update', used: 53_000, size: 200_000, cost: { amount: 0.42, currency: 'USD' } },
  { sessionUpdate: 'usage_update', used: 0, size: 1_000_000 },
  { sessionUpdate: 'notice', severity: 'warning', title: 'Rate limited; retrying in 20 s' },
  { sessionUpdate: 'notice', severity: 'info', title: 'Using cached credentials', description: null },
  { sessionUpdate: 'notice', severity: 'debug', title: 'Severities are open' },
  { sessionUpdate: 'compaction_update', compactionId: 'cmp_1', status: 'in_progress' },
  {
    sessionUpdate: 'compaction_update',
    compactionId: 'cmp_1',
    status: 'completed',
    summary: [{ type: 'text', text: 'Earlier: refactored the loader.' }],
    error: null,
  },
  { sessionUpdate: 'compaction_update', compactionId: 'cmp_2', status: 'failed', error: 'context too small' },
  {
    sessionUpdate: 'compaction_summary_chunk',
    compactionId: 'cmp_1',
    content: { type: 'text', text: 'Earlier: ' },
  },
];

// ------------------------------------------------------------------ methods

export interface MethodExamples {
  params: unknown[];
  result?: unknown[];
  invalidParams?: unknown[];
  invalidResult?: unknown[];
}

/** Params and results of every stable method, as they appear in `params` / `result`. */
export const METHOD_EXAMPLES: Record<string, MethodExamples> = {
  initialize: {
    params: [
      {
        protocolVersion: 1,
        clientCapabilities: {
          fs: { readTextFile: true, writeTextFile: true },
          terminal: true,
          auth: { terminal: true },
          elicitation: { form: {}, url: {} },
          session: { configOptions: { boolean: {} }, notices: {}, compaction: {} },
          _meta: { terminal_output: true },
        },
        clientInfo: { name: 'zed', title: 'Zed', version: '0.190.4' },
      },
      { protocolVersion: 1 },
      { protocolVersion: 1, clientCapabilities: {}, clientInfo: null },
    ],
    result: [
      {
        protocolVersion: 1,
        agentCapabilities: {
          loadSession: true,
          promptCapabilities: { image: true, audio: false, embeddedContext: true },
          mcpCapabilities: { http: true, sse: false },
          sessionCapabilities: { list: {}, resume: {}, close: {}, delete: {}, additionalDirectories: {} },
          auth: { logout: {} },
        },
        authMethods: AUTH_METHODS,
        agentInfo: { name: 'claude-code-acp', title: 'Claude Code', version: '0.6.1' },
      },
      { protocolVersion: 1 },
      { protocolVersion: 1, agentCapabilities: { loadSession: false }, authMethods: [] },
    ],
    invalidParams: [
      {},
      { protocolVersion: '1' },
      { protocolVersion: 70000 },
      { protocolVersion: -1 },
      { protocolVersion: 1.5 },
    ],
    invalidResult: [
      { agentCapabilities: {} },
      { protocolVersion: 1, agentCapabilities: { loadSession: 'yes' } },
    ],
  },
  authenticate: {
    params: [{ methodId: 'claude-login' }],
    result: [{}, { _meta: { account: 'ada@example.com' } }],
    invalidParams: [{}, { methodId: 7 }],
  },
  logout: { params: [{}], result: [{}] },
  'session/new': {
    params: [
      { cwd: CWD, mcpServers: MCP_SERVERS },
      { cwd: CWD, mcpServers: [], additionalDirectories: ['/home/ada/projects/shared'] },
    ],
    result: [
      { sessionId: SESSION },
      { sessionId: SESSION, modes, configOptions: CONFIG_OPTIONS },
      { sessionId: SESSION, modes: null, configOptions: null },
    ],
    invalidParams: [{ cwd: CWD }, { mcpServers: [] }, { cwd: CWD, mcpServers: [{ name: 'x' }] }],
    invalidResult: [{}, { sessionId: 12 }],
  },
  'session/load': {
    params: [{ sessionId: SESSION, cwd: CWD, mcpServers: [] }],
    result: [{}, { modes, configOptions: CONFIG_OPTIONS }],
    invalidParams: [{ sessionId: SESSION, cwd: CWD }],
  },
  'session/list': {
    params: [{}, { cwd: CWD }, { cwd: null, cursor: 'eyJvZmZzZXQiOjIwfQ==' }],
    result: [
      {
        sessions: [
          { sessionId: SESSION, cwd: CWD, title: 'Refactor parseConfig', updatedAt: '2025-06-01T12:34:56Z' },
          { sessionId: 'sess_2', cwd: CWD, additionalDirectories: ['/srv/shared'] },
        ],
        nextCursor: 'eyJvZmZzZXQiOjQwfQ==',
      },
      { sessions: [] },
    ],
    invalidResult: [{}, { sessions: [{ sessionId: SESSION }] }],
  },
  'session/delete': { params: [{ sessionId: SESSION }], result: [{}] },
  'session/resume': {
    params: [
      { sessionId: SESSION, cwd: CWD },
      { sessionId: SESSION, cwd: CWD, mcpServers: MCP_SERVERS },
    ],
    result: [{}, { modes, configOptions: [] }],
  },
  'session/close': { params: [{ sessionId: SESSION }], result: [{}] },
  'session/set_mode': {
    params: [{ sessionId: SESSION, modeId: 'plan' }],
    result: [{}],
    invalidParams: [{ sessionId: SESSION }],
  },
  'session/set_config_option': {
    params: [
      { sessionId: SESSION, configId: 'model', value: 'claude-opus-4-1' },
      { sessionId: SESSION, configId: 'fast_mode', type: 'boolean', value: true },
    ],
    result: [{ configOptions: CONFIG_OPTIONS }],
    invalidParams: [
      { sessionId: SESSION, configId: 'model' },
      { sessionId: SESSION, configId: 'fast_mode', type: 'boolean', value: 1 },
    ],
    invalidResult: [{}],
  },
  'session/prompt': {
    params: [
      { sessionId: SESSION, prompt: [text, resourceLink, embeddedText] },
      { sessionId: SESSION, prompt: CONTENT_BLOCKS },
      { sessionId: SESSION, prompt: [] },
    ],
    result: [
      { stopReason: 'end_turn' },
      { stopReason: 'max_tokens' },
      { stopReason: 'max_turn_requests' },
      { stopReason: 'refusal' },
      { stopReason: 'cancelled' },
    ],
    invalidParams: [
      { sessionId: SESSION },
      { sessionId: SESSION, prompt: 'hello' },
      { sessionId: SESSION, prompt: [{ text: 'no type' }] },
      { sessionId: SESSION, prompt: [{ type: 'image', data: 'x' }] },
    ],
    invalidResult: [{}, { stopReason: 'done' }],
  },
  'session/cancel': { params: [{ sessionId: SESSION }], invalidParams: [{}] },
  'fs/read_text_file': {
    params: [
      { sessionId: SESSION, path: '/home/ada/projects/acp-kit/src/config.ts' },
      { sessionId: SESSION, path: '/home/ada/projects/acp-kit/src/config.ts', line: 10, limit: 50 },
      { sessionId: SESSION, path: '/etc/hosts', line: null, limit: null },
    ],
    result: [{ content: 'export function parseConfig() {}\n' }, { content: '' }],
    invalidParams: [
      { sessionId: SESSION, path: '/x', line: -1 },
      { sessionId: SESSION, path: '/x', limit: 4294967296 },
    ],
    invalidResult: [{}],
  },
  'fs/write_text_file': {
    params: [
      { sessionId: SESSION, path: '/home/ada/projects/acp-kit/src/result.ts', content: 'export {};\n' },
    ],
    result: [{}],
    invalidParams: [{ sessionId: SESSION, path: '/x' }],
  },
  'session/request_permission': {
    params: [
      {
        sessionId: SESSION,
        toolCall: {
          toolCallId: 'call_3',
          title: 'npm test',
          kind: 'execute',
          status: 'pending',
          rawInput: { command: 'npm test' },
        },
        options: PERMISSION_OPTIONS,
      },
      // Gemini: a tool call that was never announced, with only an id.
      {
        sessionId: SESSION,
        toolCall: { toolCallId: 'unannounced' },
        options: PERMISSION_OPTIONS.slice(0, 3),
      },
      {
        sessionId: SESSION,
        toolCall: { toolCallId: 'toolu_01ABC', content: TOOL_CALL_CONTENT.slice(2, 3) },
        options: [],
      },
    ],
    result: PERMISSION_OUTCOMES.map((outcome) => ({ outcome })),
    invalidParams: [
      { sessionId: SESSION, toolCall: {}, options: [] },
      { sessionId: SESSION, toolCall: { toolCallId: 'a' }, options: [{ optionId: 'x', name: 'X' }] },
    ],
    invalidResult: [{}, { outcome: { outcome: 'selected' } }, { outcome: 'cancelled' }],
  },
  'terminal/create': {
    params: [
      {
        sessionId: SESSION,
        command: 'npm',
        args: ['test', '--', '--run'],
        env: [{ name: 'CI', value: '1' }],
        cwd: CWD,
        outputByteLimit: 1_048_576,
      },
      { sessionId: SESSION, command: 'ls' },
      { sessionId: SESSION, command: 'ls', cwd: null, outputByteLimit: null },
    ],
    result: [{ terminalId: 'term_7f3a' }],
    invalidParams: [
      { sessionId: SESSION, command: 'ls', args: 'test' },
      { sessionId: SESSION, command: 'ls', outputByteLimit: -1 },
    ],
  },
  'terminal/output': {
    params: [{ sessionId: SESSION, terminalId: 'term_7f3a' }],
    result: [
      { output: 'PASS src/config.test.ts\n', truncated: false },
      { output: '…tail', truncated: true, exitStatus: { exitCode: 1, signal: null } },
      { output: '', truncated: false, exitStatus: { exitCode: null, signal: 'SIGKILL' } },
      { output: '', truncated: false, exitStatus: null },
    ],
    invalidResult: [{ output: '' }, { output: '', truncated: 'no' }],
  },
  'terminal/release': { params: [{ sessionId: SESSION, terminalId: 'term_7f3a' }], result: [{}] },
  'terminal/wait_for_exit': {
    params: [{ sessionId: SESSION, terminalId: 'term_7f3a' }],
    result: [{ exitCode: 0 }, { exitCode: null, signal: 'SIGTERM' }, {}],
  },
  'terminal/kill': {
    params: [{ sessionId: SESSION, terminalId: 'term_7f3a' }],
    result: [{}],
    invalidParams: [{ sessionId: SESSION }],
  },
  'elicitation/create': {
    params: [
      {
        sessionId: SESSION,
        toolCallId: 'call_9',
        mode: 'form',
        message: 'The deploy tool needs a few details.',
        requestedSchema: elicitationSchema,
      },
      { sessionId: SESSION, mode: 'form', message: 'Anything else?', requestedSchema: {} },
      {
        requestId: 0,
        mode: 'url',
        message: 'Sign in to GitHub to continue.',
        elicitationId: 'elic_42',
        url: 'https://github.com/login/device?code=ABCD-1234',
      },
      {
        sessionId: SESSION,
        mode: 'url',
        message: 'Approve in browser',
        elicitationId: 'e2',
        url: 'https://example.com',
      },
    ],
    result: [
      {
        action: 'accept',
        content: {
          environment: 'production',
          replicas: 3,
          ratio: 0.25,
          confirm: true,
          regions: ['eu-west-1', 'us-east-1'],
        },
      },
      { action: 'accept' },
      { action: 'decline' },
      { action: 'cancel' },
    ],
    invalidParams: [
      { sessionId: SESSION, mode: 'form', requestedSchema: {} },
      { sessionId: SESSION, mode: 'url', message: 'x', url: 'https://example.com' },
      { mode: 'form', message: 'no scope', requestedSchema: {} },
    ],
    invalidResult: [{}, { action: 'accept', content: { x: { nested: true } } }],
  },
  'session/update': {
    params: SESSION_UPDATES.map((update) => ({ sessionId: SESSION, update })),
    invalidParams: [
      { update: SESSION_UPDATES[0] },
      { sessionId: SESSION },
      { sessionId: SESSION, update: { sessionUpdate: 'agent_message_chunk' } },
      { sessionId: SESSION, update: { sessionUpdate: 'tool_call', toolCallId: 'x' } },
      { sessionId: SESSION, update: { sessionUpdate: 'usage_update', used: -1, size: 10 } },
      { sessionId: SESSION, update: { sessionUpdate: 'notice', severity: 'info', title: '' } },
      { sessionId: SESSION, update: { sessionUpdate: 'brand_new_update', payload: 1 } },
      // Seen on the wire: `used` null. The stable schema requires an integer.
      { sessionId: SESSION, update: { sessionUpdate: 'usage_update', used: null, size: 200000 } },
    ],
  },
  'elicitation/complete': { params: [{ elicitationId: 'elic_42' }], invalidParams: [{}] },
  '$/cancel_request': {
    params: [{ requestId: 7 }, { requestId: '8f14e45f-ceea-4672-9a2d-1e1a5c3b7e11' }, { requestId: null }],
    invalidParams: [{}, { requestId: 1.5 }, { requestId: true }],
  },
};

// ------------------------------------------------------------------ definitions

/** Valid examples of individual definitions (beyond those reachable from the methods). */
export const VALID_DEFS: Record<string, unknown[]> = {
  ContentBlock: CONTENT_BLOCKS,
  ToolCallContent: TOOL_CALL_CONTENT,
  SessionUpdate: SESSION_UPDATES,
  AuthMethod: AUTH_METHODS,
  McpServer: MCP_SERVERS,
  RequestPermissionOutcome: PERMISSION_OUTCOMES,
  PermissionOption: PERMISSION_OPTIONS,
  SessionConfigOption: CONFIG_OPTIONS,
  ElicitationSchema: [elicitationSchema, {}, { type: 'object', properties: {}, required: null }],
  ElicitationPropertySchema: [
    ...Object.values(elicitationSchema.properties),
    // Unknown property types are accepted by the open branch.
    { type: 'date', title: 'When' },
  ],
  MultiSelectItems: [
    { type: 'string', enum: ['a', 'b'] },
    { anyOf: [{ const: 'a', title: 'A' }] },
    { type: 'object' },
  ],
  ToolKind: ['read', 'edit', 'delete', 'move', 'search', 'execute', 'think', 'fetch', 'switch_mode', 'other'],
  ToolCallStatus: ['pending', 'in_progress', 'completed', 'failed'],
  StopReason: ['end_turn', 'max_tokens', 'max_turn_requests', 'refusal', 'cancelled'],
  SessionConfigOptionCategory: ['mode', 'model', 'model_config', 'thought_level', 'x_custom'],
  NoticeSeverity: ['info', 'warning', 'error', 'verbose'],
  CompactionStatus: ['in_progress', 'completed', 'failed', 'cancelled', 'paused'],
  RequestId: [null, 0, 42, -7, 'req-1', 9007199254740991],
  ErrorCode: [-32700, -32600, -32601, -32602, -32603, -32800, -32000, -32002, 1, -2147483648],
  ProtocolVersion: [0, 1, 65535],
  Error: [
    { code: -32602, message: 'Invalid params', data: { path: 'sessionId' } },
    { code: -32000, message: 'Authentication required', data: { authMethods: AUTH_METHODS.slice(0, 1) } },
    { code: -32002, message: 'Resource not found: /x' },
    { code: -32800, message: 'Request cancelled', data: null },
  ],
  ElicitationContentValue: ['x', 0, 1.5, true, ['a', 'b'], []],
  Annotations: [{}, { audience: ['user'] }, { priority: 0, lastModified: null, audience: null }],
  AgentRequest: [
    { id: 1, method: 'fs/read_text_file', params: { sessionId: SESSION, path: '/x' } },
    { id: 'a', method: '_x', params: null },
  ],
  ClientNotification: [{ method: 'session/cancel', params: { sessionId: SESSION } }],
  AgentResponse: [
    { id: 1, result: { stopReason: 'end_turn' } },
    { id: 2, error: { code: -32000, message: 'Authentication required' } },
  ],
  EmbeddedResourceResource: [
    embeddedText.resource,
    embeddedBlob.resource,
    { uri: 'x', text: 'both', blob: 'both' },
  ],
  Cost: [
    { amount: 0, currency: 'credits' },
    { amount: 12.5, currency: 'EUR' },
  ],
};

/** Invalid examples of individual definitions: each breaks one rule. */
export const INVALID_DEFS: Record<string, unknown[]> = {
  ContentBlock: [
    { text: 'no type' },
    { type: 'text' },
    { type: 'image', data: 'x' },
    { type: 'audio', mimeType: 'audio/wav' },
    { type: 'resource_link', uri: 'x' },
    { type: 'resource', resource: { uri: 'x' } },
    { type: 'video', data: 'x' },
    { type: 'text', text: 42 },
    { type: 'text', text: 'x', annotations: { priority: 'high' } },
    { type: 'resource_link', uri: 'x', name: 'y', size: 1.5 },
    'hello',
    null,
    [],
  ],
  ToolCallContent: [
    { type: 'content' },
    { type: 'diff', path: '/x' },
    { type: 'diff', newText: 'x' },
    { type: 'terminal' },
    { type: 'terminal', terminalId: 5 },
    { type: 'widget' },
  ],
  SessionUpdate: [
    { sessionUpdate: 'agent_message_chunk' },
    { sessionUpdate: 'agent_message_chunk', content: { type: 'text' } },
    { sessionUpdate: 'tool_call', toolCallId: 'x' },
    { sessionUpdate: 'tool_call', toolCallId: 'x', title: 't', kind: 'teleport' },
    { sessionUpdate: 'tool_call_update' },
    { sessionUpdate: 'plan' },
    { sessionUpdate: 'plan', entries: [{ content: 'x', priority: 'urgent', status: 'pending' }] },
    { sessionUpdate: 'current_mode_update' },
    { sessionUpdate: 'usage_update', used: 1 },
    { sessionUpdate: 'notice', severity: 'info' },
    { sessionUpdate: 'compaction_update', compactionId: 'c' },
    { sessionUpdate: 'compaction_summary_chunk', compactionId: 'c' },
    { sessionUpdate: 'available_commands_update', availableCommands: [{ name: 'x' }] },
    { content: text },
  ],
  AuthMethod: [{ id: 'x' }, { name: 'x' }, { id: 'x', name: 1 }, { type: 'terminal', name: 'x' }],
  McpServer: [
    { name: 'x', command: 'y' },
    { type: 'http', name: 'x', url: 'y' },
    { type: 'sse', name: 'x', headers: [] },
    { name: 'x', command: 'y', args: [], env: [{ name: 'A' }] },
  ],
  RequestPermissionOutcome: [{ outcome: 'selected' }, { outcome: 'approved' }, {}, 'cancelled'],
  SessionConfigOption: [
    { id: 'mode', name: 'Mode', type: 'select', currentValue: 'a' },
    { id: 'mode', name: 'Mode', type: 'select', options: [] },
    { id: 'x', name: 'X', type: 'boolean', currentValue: 'true' },
    { id: 'x', name: 'X', type: 'toggle', currentValue: true },
    { id: 'x', type: 'boolean', currentValue: true },
    {
      id: 'x',
      name: 'X',
      type: 'select',
      currentValue: 'a',
      options: [
        { value: 'a', name: 'A' },
        { group: 'g', name: 'G', options: [] },
      ],
    },
  ],
  ToolKind: ['teleport', 1, null],
  StopReason: ['done', ''],
  NoticeSeverity: [3],
  RequestId: [1.5, true, {}, 2 ** 63 + 2 ** 12],
  ErrorCode: [1.5, '-32600', 2147483648],
  ProtocolVersion: [-1, 65536, 1.5, '1'],
  ElicitationContentValue: [null, { a: 1 }, [1]],
  ElicitationPropertySchema: [{ type: 'string', minLength: -1 }, { type: 'array' }, { title: 'no type' }],
  Cost: [{ amount: '1', currency: 'USD' }, { amount: 1 }],
};
