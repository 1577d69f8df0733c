/** The hint line's text, apart from its component so that the first frame can draw it without React. */

/** Labels of the keys the hint line names (empty when an action has no key). */
export interface HintKeys {
  readonly menu: string;
  readonly cancel: string;
  readonly restart: string;
  readonly newTab: string;
}

/** The hints: what a running turn (or a silent one) can do, else what the screen offers. */
export function keyHints(keys: HintKeys, running: boolean, stalled: boolean): string {
  const parts = stalled
    ? [`${keys.cancel} cancel`, `${keys.restart} restart the agent`]
    : running
      ? [`${keys.cancel} cancel`, `${keys.menu} menu`]
      : [`${keys.menu} menu`, '? keys', `${keys.newTab} new tab`];
  return parts.join(' · ');
}
