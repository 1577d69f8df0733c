/** The spinner's frames, apart from its component so that the first frame can draw one without React. */

/** Frames of the spinner. */
export const SPINNER_FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'] as const;

/** The spinner frame shown at time `now`. */
export function spinnerFrame(now: number, frameMs = 80): string {
  const index = Math.floor(now / frameMs) % SPINNER_FRAMES.length;
  return SPINNER_FRAMES[index] ?? SPINNER_FRAMES[0];
}
