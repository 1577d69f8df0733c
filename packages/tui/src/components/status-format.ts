/** Pure formatting for the status bar (tested without rendering). */
import type { ConnectionState, UsageView } from '../view-model/status.js';
import { formatCost, formatCount, formatDuration } from '../text/format.js';
import type { Theme, ThemeColor } from '../theme/theme.js';

/** Icon and word for a connection state. */
export function connectionLabel(state: ConnectionState): {
  icon: string;
  text: string;
  tone: 'ok' | 'busy' | 'bad';
} {
  switch (state) {
    case 'ready':
      return { icon: '●', text: 'connected', tone: 'ok' };
    case 'starting':
      return { icon: '◌', text: 'starting', tone: 'busy' };
    case 'initializing':
      return { icon: '◌', text: 'connecting', tone: 'busy' };
    case 'authenticating':
      return { icon: '◔', text: 'signing in', tone: 'busy' };
    case 'reconnecting':
      return { icon: '◌', text: 'reconnecting', tone: 'busy' };
    case 'disconnected':
      return { icon: '○', text: 'disconnected', tone: 'bad' };
    case 'crashed':
      return { icon: '✗', text: 'agent exited', tone: 'bad' };
  }
}

/** The colour of a connection label's tone (see {@link connectionLabel}). */
export function toneColor(tone: 'ok' | 'busy' | 'bad', theme: Theme): ThemeColor {
  return tone === 'ok' ? theme.status.success : tone === 'bad' ? theme.status.error : theme.status.warning;
}

/** A `width`-cell bar for `fraction` (0–1) of the context window. */
export function gaugeBar(fraction: number, width = 10): string {
  const clamped = Math.min(1, Math.max(0, Number.isFinite(fraction) ? fraction : 0));
  const filled = Math.round(clamped * width);
  return '█'.repeat(filled) + '░'.repeat(width - filled);
}

/** Context usage: bar, percentage, `used/size`, cost. */
export function usageSummary(usage: UsageView): { bar: string; text: string; fraction: number | undefined } {
  const cost = usage.cost ? ` · ${formatCost(usage.cost.amount, usage.cost.currency)}` : '';
  if (usage.used === null || usage.size <= 0) {
    return { bar: gaugeBar(0), text: `?/${formatCount(usage.size)}${cost}`, fraction: undefined };
  }
  const fraction = usage.used / usage.size;
  return {
    bar: gaugeBar(fraction),
    text: `${Math.round(fraction * 100)}% ${formatCount(usage.used)}/${formatCount(usage.size)}${cost}`,
    fraction,
  };
}

/** The stall notice when a running turn has been silent for at least `stallAfterMs`. */
export function stallNotice(
  lastUpdateAt: number | undefined,
  now: number,
  stallAfterMs: number,
): string | undefined {
  if (lastUpdateAt === undefined) return undefined;
  const silent = now - lastUpdateAt;
  return silent >= stallAfterMs ? `no updates for ${formatDuration(silent)}` : undefined;
}
