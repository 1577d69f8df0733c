/** Compact number, size and duration formats for narrow status areas. */
import { sanitizeInline } from '../sanitize/sanitize-text.js';

/** 950 → "950", 12_345 → "12.3k", 200_000 → "200k", 1_500_000 → "1.5M". */
export function formatCount(n: number): string {
  const abs = Math.abs(n);
  const compact = (value: number, suffix: string): string => {
    const text = value >= 100 ? Math.round(value).toString() : (Math.round(value * 10) / 10).toString();
    return `${text}${suffix}`;
  };
  if (abs >= 999_950_000) return compact(n / 1e9, 'G');
  if (abs >= 999_950) return compact(n / 1e6, 'M');
  if (abs >= 1000) return compact(n / 1e3, 'k');
  return Math.round(n).toString();
}

/** Bytes as "512 B", "12.3 KB", "4.1 MB". */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${Math.round(bytes)} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value >= 100 ? Math.round(value) : Math.round(value * 10) / 10} ${units[unit]}`;
}

/** Decoded size of base64 data, without decoding it. */
export function base64ByteLength(data: string): number {
  const clean = data.replace(/[^A-Za-z0-9+/=_-]/g, '');
  const padding = clean.endsWith('==') ? 2 : clean.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((clean.length * 3) / 4) - padding);
}

/** Seconds as "40 s", "2 min", "1 h 5 min". */
export function formatDuration(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  if (seconds < 120) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return rest === 0 ? `${hours} h` : `${hours} h ${rest} min`;
}

/** Longest currency name shown beside a cost. */
const MAX_CURRENCY_CHARS = 16;

/** A cost as "$0.42" for ISO currency codes, "12.5 credits" otherwise. */
export function formatCost(amount: number, currency: string): string {
  if (/^[A-Z]{3}$/.test(currency)) {
    try {
      return new Intl.NumberFormat('en-US', {
        style: 'currency',
        currency,
        minimumFractionDigits: 2,
        maximumFractionDigits: amount < 1 ? 4 : 2,
      }).format(amount);
    } catch {
      // Not a currency Intl knows: fall through to the plain form.
    }
  }
  // The agent's text, drawn in the one-line status bar: made safe, and short (a currency as long as
  // a paragraph wrapped the status bar until Ink's frame outgrew the screen, and Ink then clears
  // the terminal, scrollback included).
  const unit = sanitizeInline(currency);
  return `${Math.round(amount * 100) / 100} ${unit.length > MAX_CURRENCY_CHARS ? `${unit.slice(0, MAX_CURRENCY_CHARS - 1)}…` : unit}`;
}
