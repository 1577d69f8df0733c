/**
 * What a running agent says besides ACP, as `AgentConnection` events: its stderr (forwarded by
 * `acp serve` for a remote agent), non-JSON lines on stdout, and diagnostics about its frames, once
 * per message. While a sign-in runs, stderr and stray stdout lines are also `signInOutput`: logins
 * print their URL and code prompts there.
 */
import type { Logger, TypedConnection, ValidationReport } from '@acp-kit/protocol';
import { NoiseDetector, type AgentLink } from '../process/agent-process.js';
import { TextSanitizer } from '../text/sanitize-text.js';
import type { Emitter } from '../util/emitter.js';
import type { AgentConnectionEvents } from './connection-options.js';
import { diagnosticsOf } from './early-updates.js';

/** The event side of one connection's agent output. */
export class AgentOutput {
  /** `authenticate` calls running. */
  signingIn = 0;
  private readonly seenDiagnostics = new Set<string>();

  constructor(
    private readonly events: Emitter<AgentConnectionEvents>,
    private readonly logger: Logger | undefined,
  ) {}

  /** Sanitised stderr text of the agent. */
  readonly stderr = (text: string): void => {
    this.events.emit('stderr', { text });
    if (this.signingIn > 0) this.events.emit('signInOutput', { text });
  };

  /** A detector of non-JSON stdout for one process: reported once as `noise`, sign-in output meanwhile. */
  noiseDetector(): NoiseDetector {
    return new NoiseDetector(
      (sample) => this.events.emit('noise', { sample }),
      (line) => {
        if (this.signingIn > 0) this.events.emit('signInOutput', { text: line });
      },
    );
  }

  /** What the remote agent writes on stderr, forwarded by the server (`acp serve`), as `stderr` events. */
  forwardRemoteStderr(process: AgentLink, connection: TypedConnection): void {
    const remote = process.remote;
    if (!remote) return;
    const sanitizer = new TextSanitizer();
    connection.onExtNotification(remote.stderrMethod, (params) => {
      const text = (params as { text?: unknown } | null)?.text;
      if (typeof text !== 'string') return;
      const clean = sanitizer.write(text.replace(/\r\n?/g, '\n'));
      if (clean !== '') this.stderr(clean);
    });
  }

  /** The diagnostics of a validation report (unknown variants, rejected frames). */
  validation(report: ValidationReport): void {
    for (const message of diagnosticsOf(report)) this.diagnostic(message);
  }

  /** Reports something about the agent's behaviour through the `diagnostic` event, once per message. */
  diagnostic(message: string): void {
    if (this.seenDiagnostics.has(message) || this.seenDiagnostics.size > 500) return;
    this.seenDiagnostics.add(message);
    this.logger?.log('info', 'agent diagnostic', { message });
    this.events.emit('diagnostic', { message });
  }
}
