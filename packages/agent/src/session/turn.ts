/**
 * A prompt turn as the engines see it, and the contract an engine (the model loop or the demo
 * script) fulfils. Engines only decide what to say and which tools to call: sessions, tools,
 * permissions and persistence are shared.
 */
import { randomUUID } from 'node:crypto';
import type { ClientFeatures } from '../core/client-port.js';
import type {
  AuthMethod,
  ContentBlock,
  McpServer,
  MessageRole,
  PromptFeatures,
  StopReason,
} from '../core/events.js';
import type { AuthenticateContext } from '../config/setup-acp.js';
import type { ToolRunner } from '../tools/runner.js';
import type { ConfigOptionSource, Session } from './session.js';
import type { AgentKind } from './store.js';

/** Streams one agent message or thought; chunks of one writer share a `messageId`. */
export class MessageWriter {
  private id = randomUUID();
  private written = false;

  constructor(
    private readonly session: Session,
    private readonly role: Exclude<MessageRole, 'user'>,
  ) {}

  get messageId(): string {
    return this.id;
  }

  /** Whether anything was written to the current message. */
  get hasContent(): boolean {
    return this.written;
  }

  async write(text: string): Promise<void> {
    if (text === '') return;
    this.written = true;
    await this.session.emit({
      type: 'message_chunk',
      role: this.role,
      messageId: this.id,
      content: { type: 'text', text },
    });
  }

  /** Starts a new message (after a tool call, the next text is a new message). */
  next(): void {
    if (!this.written) return;
    this.id = randomUUID();
    this.written = false;
  }
}

/** One `session/prompt`. */
export class Turn {
  readonly message: MessageWriter;
  readonly thought: MessageWriter;

  constructor(
    readonly session: Session,
    /** The prompt (for a slash command: what followed the command). */
    readonly prompt: readonly ContentBlock[],
    /** Aborted on `session/cancel`, `$/cancel_request` or session close. */
    readonly signal: AbortSignal,
    readonly tools: ToolRunner,
  ) {
    this.message = new MessageWriter(session, 'agent');
    this.thought = new MessageWriter(session, 'thought');
  }

  /** The same turn with another prompt (what follows a slash command). */
  withPrompt(prompt: readonly ContentBlock[]): Turn {
    return new Turn(this.session, prompt, this.signal, this.tools);
  }

  /** The prompt's text blocks, joined. */
  get text(): string {
    return promptText(this.prompt);
  }

  /** Writes a whole agent message (a new one). */
  async say(text: string): Promise<void> {
    this.message.next();
    await this.message.write(text);
    this.message.next();
  }
}

/** The text blocks of a prompt, joined by blank lines. */
export function promptText(prompt: readonly ContentBlock[]): string {
  return prompt
    .map((block) => (block.type === 'text' ? (block as { text: string }).text : ''))
    .filter((text) => text !== '')
    .join('\n\n');
}

/** What produces a turn's content: the model loop or the demo script. */
export interface TurnEngine extends ConfigOptionSource {
  readonly kind: AgentKind;
  /** The agent's title in `initialize`. */
  readonly title: string;
  /** Whether prompts may carry images. */
  promptCapabilities(): PromptFeatures;
  /** Sign-in methods of `initialize`, for a client that can do `client`. */
  authMethods(client?: ClientFeatures): AuthMethod[];
  /** Throws a -32000 `ProtocolError` naming what to set when sessions cannot be started. */
  assertReady(client?: ClientFeatures): void;
  /** `authenticate` (v1) / `auth/login` (v2): sets up or re-reads configuration; throws -32000 when still not ready. */
  authenticate(methodId: string, ctx: AuthenticateContext): void | Promise<void>;
  /** Values of the engine's config options for a new session. */
  initialConfig(): Record<string, string | boolean>;
  /** Runs a turn; returns its stop reason (`cancelled` when the signal aborted). */
  runTurn(turn: Turn): Promise<StopReason>;
  /** `/compact`: summarises the history to free context. */
  compact(turn: Turn, focus: string): Promise<StopReason>;
  /** Text of `/help` specific to the engine. */
  helpText(): string;
  /** Text of `/model` without argument. */
  describeModels(session: Session): string;
}

/** MCP servers a session was started with (kept so load and resume can restart them). */
export type SessionMcpServers = readonly McpServer[];
