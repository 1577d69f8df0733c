/**
 * `@acp-kit/tui`: the `acp` terminal UI ({@link runTui}, {@link tuiMain}) and its building
 * blocks — safe text, streaming Markdown, tool call cards, diffs with per-hunk review, permission
 * prompts, the composer and the status bar — as Ink components driven by plain data.
 */

// The application
export { runTui, type TuiOptions } from './app/run-tui.js';
export { terminalProblem, tuiMain, type TuiArguments, type TuiMainIo } from './bin-entry.js';
export { AppRoot, type AppRootProps } from './app/components/AppRoot.js';
export { Controller, type ControllerOptions } from './app/services/controller.js';
export { AppStore } from './app/state/app-store.js';
export type { AppState, Overlay, TabInfo, TabPhase } from './app/state/app-state.js';
export {
  DEFAULT_SETTINGS,
  parseSettings,
  usableMcpServers,
  type ConfiguredMcpServer,
  type ParsedSettings,
  type TuiSettings,
} from './app/settings/settings.js';
export { loadSettings, settingsPath, SETTINGS_FILE_NAME } from './app/settings/settings-file.js';

// Safety layer
export { TextSanitizer, sanitizeInline, sanitizeText } from './sanitize/sanitize-text.js';
export {
  parseTerminalOutput,
  sanitizeTerminalOutput,
  styledLinesToPlainText,
  styledLinesToSgrText,
  type StyledLine,
  type StyledSpan,
} from './sanitize/terminal-output.js';
export {
  applySgr,
  inkColor,
  PLAIN_STYLE,
  styleToSgr,
  type TerminalColor,
  type TextStyle,
} from './sanitize/sgr.js';
export {
  findUnsafeSequences,
  visualizeControls,
  type FindUnsafeOptions,
  type UnsafeFinding,
} from './sanitize/find-unsafe.js';
export { ESCAPE_CORPUS, type EscapeCorpusEntry } from './sanitize/corpus.js';

// Markdown
export { MarkdownView, type MarkdownViewProps } from './markdown/MarkdownView.js';
export { blockLines, markdownLines, type MarkdownLayout } from './markdown/markdown-lines.js';
export { IncrementalMarkdown, lexMarkdown } from './markdown/markdown-stream.js';
export {
  getLoadedHighlighter,
  loadHighlighter,
  type CodeSegment,
  type HighlightedLine,
  type Highlighter,
  type SyntaxRole,
} from './markdown/highlight.js';
export { MarkdownToneContext, type MarkdownTone } from './markdown/tone.js';

// Diffs
export {
  applyHunkDecisions,
  computeReviewHunks,
  diffSegments,
  summarizeHunkDecisions,
  type DiffSegment,
  type HunkDecision,
  type HunkReviewSummary,
  type ReviewHunk,
} from './diff/review-hunks.js';
export { computeUnifiedHunks, countChanges, diffTextLines, type DiffTextLine } from './diff/unified.js';
export { hunkHeader, type DiffHunk, type DiffLine, type DiffLineKind } from './diff/display.js';

// Components
export { ToolCallCard, type ToolCallCardProps } from './components/ToolCallCard.js';
export { ToolCallContentView, type ToolCallContentViewProps } from './components/ToolCallContentView.js';
export { DiffView, type DiffViewProps } from './components/DiffView.js';
export { DiffLines, type DiffLinesProps } from './components/DiffLines.js';
export { TerminalView, type TerminalViewProps } from './components/TerminalView.js';
export { PlanPanel, type PlanPanelProps } from './components/PlanPanel.js';
export { planProgress } from './components/lines/item-lines.js';
export { MessageView, type MessageViewProps } from './components/MessageView.js';
export { ContentBlockView, type ContentBlockViewProps } from './components/ContentBlockView.js';
export { NoticeView, type NoticeViewProps } from './components/NoticeView.js';
export { StatusBar, type StatusBarProps } from './components/StatusBar.js';
export { TranscriptItemView, type TranscriptItemViewProps } from './components/TranscriptItemView.js';
export { KeyHelp, type KeyHelpProps } from './components/KeyHelp.js';
export { Spinner, spinnerFrame, SPINNER_FRAMES, type SpinnerProps } from './components/Spinner.js';
export { annotationBadges, describeAttachment, type AttachmentLabel } from './components/attachments.js';
export { messageSegments, stopReasonNotice, type MessageSegment } from './components/message-segments.js';
export { PermissionPrompt, type PermissionPromptProps } from './permission/PermissionPrompt.js';
export { OperationView, type OperationViewProps } from './permission/OperationView.js';
export {
  arrangePermissionOptions,
  type PermissionGroup,
  type ShownOption,
} from './permission/permission-options.js';
export { HunkReview, type HunkReviewProps } from './review/HunkReview.js';
export type { HunkReviewResult } from './review/useHunkReview.js';
export { Composer, type ComposerProps } from './composer/Composer.js';
export { computeSuggestions, extractMentions, type Suggestions } from './composer/suggestions.js';
export { fuzzyFilter, fuzzyScore, type FuzzyMatch } from './composer/fuzzy.js';

// View models
export {
  applyToolCallUpdate,
  isFinishedStatus,
  toolCallViewFromToolCall,
  type TerminalExit,
  type TerminalSnapshot,
  type ToolCallDisplayStatus,
  type ToolCallView,
} from './view-model/tool-call.js';
export { noticeOf, type Notice, type NoticeSeverity } from './view-model/notice.js';
export { commandOutputText } from './view-model/command-output.js';
export type { MessagePart, TranscriptUnit } from './view-model/transcript-unit.js';
export type { ConnectionState, StatusView, UsageView } from './view-model/status.js';
export {
  commandLineFrom,
  describePermissionOperation,
  quoteArgument,
  type PermissionOperation,
  type PermissionRequestView,
} from './view-model/permission.js';

// Theme, keys, clock, utilities
export {
  ansiTheme,
  darkTheme,
  lightTheme,
  noColorRequested,
  noColorTheme,
  resolveTheme,
  THEMES,
  themeByName,
  type Theme,
  type ThemeColor,
  type ThemeName,
} from './theme/theme.js';
export { ThemeProvider, useTheme, type ThemeProviderProps } from './theme/ThemeContext.js';
export {
  DEFAULT_KEY_BINDINGS,
  findKeyConflicts,
  isKeyAction,
  KEY_ACTIONS,
  resolveKeyBindings,
  type KeyAction,
  type KeyActionDefinition,
  type KeyBindings,
  type KeyConflict,
  type KeyScope,
  type ResolvedKeyBindings,
} from './keys/key-bindings.js';
export { formatKeySpec, matchesKey, parseKeySpec, type NamedKey, type ParsedKey } from './keys/key-spec.js';
export {
  KeyBindingsProvider,
  useActionMatcher,
  useKeyBindings,
  useKeyLabel,
  type ActionMatcher,
  type KeyBindingsProviderProps,
} from './keys/KeyBindingsContext.js';
export {
  ClockProvider,
  FixedClock,
  useNow,
  type ClockProviderProps,
  type FixedClockProps,
} from './clock/ClockContext.js';
export { DEFAULT_COALESCE_MS, ManualScheduler, realScheduler, type Scheduler } from './text/coalesce.js';
export { foldLines, plural, splitLines, type FoldedLines } from './text/fold.js';
export { displayPath } from './text/paths.js';
export { displayWidth } from './text/width.js';
