/** How the screen's rows are shared out, apart from the components so that the first frame can use it. */

/** Rows kept for the tab bar, the two status lines and the hint line. */
export const STATUS_ROWS = 4;

/** Rows the lower panel (composer, modal, picker…) may take on a terminal of `rows`. */
export function bottomPanelRows(rows: number): number {
  return Math.max(6, rows - STATUS_ROWS - 1);
}

/** Rows of a list in an overlay screen (pickers, menu…) in a panel of `panelRows`. */
export function overlayListRows(panelRows: number): number {
  return Math.max(3, panelRows - 6);
}
