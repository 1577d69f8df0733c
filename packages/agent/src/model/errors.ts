/**
 * Provider failures: which are worth retrying, and what the user is told about the rest (a
 * JSON-RPC error with a message to act on, no stack trace, no secrets).
 */
import { APICallError, RetryError } from 'ai';
import { ErrorCodes, ProtocolError } from '@acp-kit/protocol';
import type { ModelSettings, ProviderSettings } from '../config/settings.js';
import { clip } from '../util/text.js';

/** Node's network error codes that a retry may cure. */
const TRANSIENT_NETWORK = /ECONNRESET|ETIMEDOUT|EPIPE|EAI_AGAIN|UND_ERR_SOCKET|socket hang up/i;

function causeChain(error: unknown): unknown[] {
  const chain: unknown[] = [];
  let current: unknown = error;
  while (current && chain.length < 6) {
    chain.push(current);
    current = (current as { cause?: unknown }).cause;
  }
  return chain;
}

function describeCause(error: unknown): string {
  return causeChain(error)
    .map((e) => `${(e as { code?: unknown }).code ?? ''} ${(e as { message?: unknown }).message ?? ''}`)
    .join(' ');
}

/** Whether retrying the same request may succeed (rate limits, overload, 5xx, dropped connections). */
export function isTransient(error: unknown): boolean {
  if (APICallError.isInstance(error)) return error.isRetryable;
  return TRANSIENT_NETWORK.test(describeCause(error));
}

/** How long the provider asked us to wait (`retry-after`), in ms, if it said. */
export function retryAfterMs(error: unknown): number | undefined {
  if (!APICallError.isInstance(error)) return undefined;
  const header = error.responseHeaders?.['retry-after'];
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return seconds * 1000;
  const date = Date.parse(header);
  return Number.isFinite(date) ? Math.max(0, date - Date.now()) : undefined;
}

/** The provider's own error message from a JSON error body (`{"error":{"message":…}}`). */
function providerMessage(error: APICallError): string | undefined {
  try {
    const body = JSON.parse(error.responseBody ?? '') as {
      error?: { message?: unknown } | string;
      message?: unknown;
    };
    const message = typeof body.error === 'string' ? body.error : (body.error?.message ?? body.message);
    return typeof message === 'string' ? clip(message, 300) : undefined;
  } catch {
    return undefined;
  }
}

function where(provider: ProviderSettings): string {
  return provider.baseUrl ?? (provider.type === 'anthropic' ? 'api.anthropic.com' : 'api.openai.com');
}

/**
 * The JSON-RPC error answering a prompt whose model request failed for good.
 *
 * @example
 * throw toProtocolError(error, provider, model, 3);
 */
export function toProtocolError(
  error: unknown,
  provider: ProviderSettings,
  model: ModelSettings,
  attempts: number,
): ProtocolError {
  const inner = RetryError.isInstance(error) ? error.lastError : error;
  const data = { provider: provider.id, model: model.model };
  // Connection failures come as APICallErrors without a status.
  if (APICallError.isInstance(inner) && inner.statusCode !== undefined) {
    const status = inner.statusCode;
    const said = providerMessage(inner);
    const detail = said ? `: ${said}` : '';
    if (status === 401 || status === 403) {
      const key = provider.apiKeySource ?? 'the API key';
      return new ProtocolError(
        ErrorCodes.AuthRequired,
        `${provider.id} rejected the credentials (HTTP ${status})${detail}. Check ${key}.`,
        { ...data, statusCode: status },
      );
    }
    if (status === 404) {
      return new ProtocolError(
        ErrorCodes.InternalError,
        `${provider.id} at ${where(provider)} does not know model "${model.model}" (HTTP 404)${detail}. Check the model name (ACP_KIT_MODEL or the config file).`,
        { ...data, statusCode: status },
      );
    }
    const retried = attempts > 1 ? ` after ${attempts} attempts` : '';
    if (status === 429) {
      return new ProtocolError(
        ErrorCodes.InternalError,
        `${provider.id} is rate-limiting requests (HTTP 429)${retried}${detail}. Wait a moment and try again.`,
        { ...data, statusCode: status },
      );
    }
    return new ProtocolError(
      ErrorCodes.InternalError,
      `The model request to ${provider.id} failed (HTTP ${status})${retried}${detail}.`,
      { ...data, statusCode: status },
    );
  }
  const cause = describeCause(inner);
  if (/ECONNREFUSED|ENOTFOUND|fetch failed|Cannot connect/i.test(cause)) {
    return new ProtocolError(
      ErrorCodes.InternalError,
      `Could not reach ${provider.id} at ${where(provider)}. Is the server running and the base URL right (ACP_KIT_BASE_URL)?`,
      data,
    );
  }
  const message = inner instanceof Error ? inner.message : String(inner);
  return new ProtocolError(ErrorCodes.InternalError, `The model request failed: ${clip(message, 300)}`, data);
}
