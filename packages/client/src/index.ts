/**
 * `@acp-kit/client`: the headless ACP client engine — agent catalog and processes,
 * authentication, sessions with per-session stores, permission policy, fs and terminal services,
 * and persistence. No UI: render the stores however you like.
 */
export {
  AcpClient,
  INTERACTIVE_READ_PACING_MS,
  type AcpClientOptions,
  type ReopenedSession,
  type SessionRule,
} from './client.js';
export {
  AgentConnection,
  type AgentConnectionEvents,
  type AgentConnectionOptions,
} from './agent/agent-connection.js';
export type { AgentFeatures, AgentPort, OpenedSession, SessionSetup } from './session/agent-port.js';
export { nextRemoteStatus, remoteNotice, type RemoteStatus } from './agent/remote-status.js';
export type { NewSessionOptions, OpenOptions, ReattachOptions } from './agent/session-opener.js';
export { DEFAULT_TIMEOUTS, resolveTimeouts, type ClientTimeouts } from './agent/timeouts.js';
export { clientCapabilities, CLIENT_INFO, type AdvertiseOptions } from './agent/capabilities.js';
export { toProtocolError } from './protocol-v1/v1-handlers.js';
export type {
  ClientHost,
  PermissionAnswer,
  PermissionAsk,
  WriteReview,
  WriteReviewAnswer,
  WriteReviewMode,
  ElicitationOrigin,
} from './agent/host.js';

export {
  AgentCatalog,
  isRemoteUrl,
  remoteEntry,
  type CatalogOptions,
  type DetectedAgent,
} from './catalog/catalog.js';
export { builtinAgents } from './catalog/builtins.js';
export {
  convertRegistry,
  currentPlatform,
  readRegistry,
  type ReadRegistryOptions,
  type RegistryImport,
} from './catalog/registry.js';
export type { AgentEntry, AgentSource, Detection, LaunchSpec } from './catalog/types.js';
export { lookupCommand, which, type CommandLookup } from './catalog/which.js';

export {
  describeAuthMethods,
  authMethodsFromErrorData,
  type AuthAction,
  type AuthOption,
} from './auth/auth-methods.js';
export { runTerminalAuth, type TerminalAuthResult } from './auth/terminal-auth.js';

export {
  ClientError,
  describeError,
  isAuthRequiredError,
  toErrorInfo,
  cancelledTurnError,
  type ClientErrorCode,
  type ErrorInfo,
} from './errors.js';
export { resolveClientPaths, type ClientPaths } from './paths.js';

export {
  agentEnvironment,
  isCredentialVariable,
  parsePassEnv,
  passesEnv,
  sharedPassEnv,
  type AgentEnvironment,
} from './process/agent-env.js';
export {
  startAgentProcess,
  NoiseDetector,
  type AgentProcess,
  type AgentProcessOptions,
} from './process/agent-process.js';
export { startEarlyAgent, type AgentLaunch, type EarlyAgent } from './process/early-agent.js';
export { RestartBudget } from './process/restart-budget.js';

export * from './model/index.js';
export { fromV1Update, toolCallPatchFromV1 } from './protocol-v1/from-v1-update.js';
export { upgradeV1Event, v1UpdateEvents } from './protocol-v1/v1-events.js';
export { V2UpdateTranslator } from './protocol-v2/from-v2-update.js';
export { ClientSession, type ReplayMode, type TurnResult } from './session/client-session.js';
export { FrameFeed, RECENT_FRAMES, RECENT_FRAME_BYTES } from './session/frame-feed.js';
export { SessionStore } from './session/store.js';
export { MAX_WAITING_QUESTIONS } from './session/question-queue.js';
export { DECISION_META_KEY } from './session/permission-broker.js';
export { retain, type SessionRetention } from './session/retention.js';
export { reduceSession, reduceSessionEvents } from './session/reducer.js';
export { locateSnippet, placeDiffs, type DiffPlacement } from './session/diff-placement.js';
export {
  initialSessionState,
  type CompactionItem,
  type MessageItem,
  type SessionState,
  type SessionStatus,
  type TerminalView,
  type ToolCallItem,
  type TranscriptItem,
} from './session/state.js';
export {
  EPHEMERAL_EVENTS,
  type AttachMode,
  type PermissionRequestView,
  type SessionEvent,
} from './session/events.js';
export { buildPrompt, type BuildPromptOptions, type BuiltPrompt, type PromptPart } from './session/prompt.js';
export { continuityBlock, transcriptText, DEFAULT_CONTINUITY_CHARS } from './session/continuity.js';
export { TERMINAL_VIEW_CHARS } from './session/apply-update.js';
export {
  agentTerminalKey,
  contentTerminalIds,
  toolCallTerminal,
  toolCallTerminals,
} from './session/tool-terminals.js';

export {
  PermissionPolicy,
  SessionPermissions,
  type BaseMode,
  type Grant,
  type PolicyDecision,
  type PolicyOptions,
} from './permissions/policy.js';
export {
  approvedContent,
  approveDiffs,
  diffsOfContent,
  type ApprovedDiff,
  type ProposedDiff,
} from './permissions/approved-writes.js';
export {
  isInside,
  parseRule,
  ruleAllowsEnv,
  ruleEnvText,
  ruleMatches,
  TOOL_KINDS,
  type EnvValues,
  type PermissionRule,
  type PermissionScope,
  type PermissionSubject,
  type RuleAction,
} from './permissions/rules.js';
export { RuleStore, loadRulesFile, parseRulesDocument } from './permissions/rule-store.js';
export {
  ENV_ALLOW_LIST,
  effectiveEnv,
  envNeedingApproval,
  isAllowedEnv,
  type AllowedVariable,
  type EnvVariable,
} from './permissions/env-allow-list.js';
export {
  parseSimpleCommand,
  quoteArgv,
  quoteWord,
  shellScript,
  simpleArgv,
  type CommandSpec,
} from './permissions/shell-words.js';
export { commandFromInput, commandText, subjectFromToolCall, suggestRule } from './permissions/subject.js';
export {
  answerDecision,
  rememberedRule,
  type RememberAnswer,
  type RememberedRule,
  type RememberQuestion,
} from './permissions/remember.js';
export {
  optionFor,
  outcomeFor,
  decisionOfOption,
  normalizeOptions,
  MAX_PERMISSION_OPTIONS,
  type PermissionDecision,
} from './permissions/options.js';

export {
  FsService,
  sliceLines,
  type FsCallContext,
  type FsOverlay,
  type FsServiceOptions,
} from './fs/fs-service.js';
export { isSecretPath } from './fs/secrets.js';
export { MAX_PATH_LENGTH, validateAgentPath } from './fs/path-guard.js';

export {
  TerminalService,
  type TerminalCallContext,
  type TerminalEvent,
  type TerminalServiceOptions,
} from './terminal/terminal-service.js';
export { OutputBuffer, utf8StartBoundary } from './terminal/output-buffer.js';
export type { ExitStatus } from './terminal/managed-terminal.js';

export {
  redactMeta,
  TranscriptStore,
  TranscriptWriter,
  type LoadedSession,
  type SessionMeta,
} from './persistence/transcript-store.js';
export {
  TraceRouter,
  TraceWriter,
  MAX_TRACE_BYTES,
  traceFrame,
  writerSink,
  type TraceFrame,
  type TraceSink,
} from './persistence/trace.js';
export { parseTraceLine, readTraceTail, type RecordedFrame } from './persistence/trace-tail.js';
export { startTraceProxy, type TraceProxy } from './proxies/trace-proxy.js';
export { startRulesProxy, type RulesProxyOptions } from './proxies/rules-proxy.js';
export {
  isSecretKey,
  redactArgv,
  redactCommandLine,
  redactReplacer,
  redactValue,
  redactString,
  REDACTED,
} from './persistence/redact.js';
export { stringifyJson, type JsonReplacer } from './util/stringify-json.js';

export { Emitter, type Unsubscribe } from './util/emitter.js';

// Safe display text
export { TextSanitizer, sanitizeInline, sanitizeText } from './text/sanitize-text.js';
export { visiblePath, visibleText } from './text/visible-text.js';
export {
  EscapeScanner,
  isBidiControl,
  isPlainText,
  isUnsafeCodeUnit,
  type ScanHandler,
} from './text/escape-scanner.js';
