/**
 * Colour themes. A colour is an Ink colour string (a name such as `green`, `#rrggbb`, or
 * `ansi256(n)`); `undefined` means the terminal's default foreground. `NO_COLOR` selects the
 * `none` theme whatever the settings say (https://no-color.org).
 */

/** An Ink colour, or undefined for the terminal default. */
export type ThemeColor = string | undefined;

/** Names of the built-in themes. */
export type ThemeName = 'dark' | 'light' | 'ansi' | 'none';

/** Every colour role the components use. */
export interface Theme {
  readonly name: ThemeName;
  /** False: no colour at all, not even the SGR colours of terminal output (bold, underline, inverse stay). */
  readonly colors: boolean;
  readonly text: {
    readonly primary: ThemeColor;
    readonly muted: ThemeColor;
    readonly accent: ThemeColor;
    readonly heading: ThemeColor;
    readonly link: ThemeColor;
    readonly code: ThemeColor;
    readonly user: ThemeColor;
    readonly thought: ThemeColor;
  };
  readonly status: {
    readonly success: ThemeColor;
    readonly error: ThemeColor;
    readonly warning: ThemeColor;
    readonly info: ThemeColor;
    readonly pending: ThemeColor;
  };
  readonly diff: {
    readonly added: ThemeColor;
    readonly removed: ThemeColor;
    readonly lineNumber: ThemeColor;
    readonly hunkHeader: ThemeColor;
  };
  readonly syntax: {
    readonly keyword: ThemeColor;
    readonly string: ThemeColor;
    readonly number: ThemeColor;
    readonly comment: ThemeColor;
    readonly function: ThemeColor;
    readonly type: ThemeColor;
    readonly variable: ThemeColor;
    readonly meta: ThemeColor;
  };
  readonly border: ThemeColor;
  readonly focus: ThemeColor;
  readonly badge: ThemeColor;
}

/** For dark backgrounds. */
export const darkTheme: Theme = {
  name: 'dark',
  colors: true,
  text: {
    primary: undefined,
    muted: '#8a8f98',
    accent: '#87afff',
    heading: '#d7afff',
    link: '#5fafff',
    code: '#ffaf87',
    user: '#87d7ff',
    thought: '#9e9e9e',
  },
  status: { success: '#87d787', error: '#ff5f5f', warning: '#ffd75f', info: '#87afff', pending: '#8a8f98' },
  diff: { added: '#87d787', removed: '#ff8787', lineNumber: '#6c6c6c', hunkHeader: '#87afd7' },
  syntax: {
    keyword: '#d787ff',
    string: '#afd787',
    number: '#ffaf5f',
    comment: '#6c6c6c',
    function: '#87afff',
    type: '#5fd7d7',
    variable: '#ffd787',
    meta: '#af87ff',
  },
  border: '#5f5f87',
  focus: '#87afff',
  badge: '#8a8f98',
};

/** For light backgrounds. */
export const lightTheme: Theme = {
  name: 'light',
  colors: true,
  text: {
    primary: undefined,
    muted: '#6c6c6c',
    accent: '#005fd7',
    heading: '#870087',
    link: '#005faf',
    code: '#af5f00',
    user: '#005f87',
    thought: '#767676',
  },
  status: { success: '#008700', error: '#d70000', warning: '#af8700', info: '#005fd7', pending: '#767676' },
  diff: { added: '#008700', removed: '#d70000', lineNumber: '#949494', hunkHeader: '#005f87' },
  syntax: {
    keyword: '#8700af',
    string: '#008700',
    number: '#af5f00',
    comment: '#8a8a8a',
    function: '#005fd7',
    type: '#008787',
    variable: '#875f00',
    meta: '#5f00af',
  },
  border: '#a8a8a8',
  focus: '#005fd7',
  badge: '#767676',
};

/** Only the 16 palette colours: the terminal's own colour scheme decides what they look like. */
export const ansiTheme: Theme = {
  name: 'ansi',
  colors: true,
  text: {
    primary: undefined,
    muted: 'gray',
    accent: 'blue',
    heading: 'magenta',
    link: 'blue',
    code: 'yellow',
    user: 'cyan',
    thought: 'gray',
  },
  status: { success: 'green', error: 'red', warning: 'yellow', info: 'blue', pending: 'gray' },
  diff: { added: 'green', removed: 'red', lineNumber: 'gray', hunkHeader: 'cyan' },
  syntax: {
    keyword: 'magenta',
    string: 'green',
    number: 'yellow',
    comment: 'gray',
    function: 'blue',
    type: 'cyan',
    variable: 'yellow',
    meta: 'magenta',
  },
  border: 'gray',
  focus: 'blue',
  badge: 'gray',
};

const NONE = undefined;

/** No colours (`NO_COLOR`, or `"theme": "none"`): the terminal's own colour, with bold, dim and inverse. */
export const noColorTheme: Theme = {
  name: 'none',
  colors: false,
  text: {
    primary: NONE,
    muted: NONE,
    accent: NONE,
    heading: NONE,
    link: NONE,
    code: NONE,
    user: NONE,
    thought: NONE,
  },
  status: { success: NONE, error: NONE, warning: NONE, info: NONE, pending: NONE },
  diff: { added: NONE, removed: NONE, lineNumber: NONE, hunkHeader: NONE },
  syntax: {
    keyword: NONE,
    string: NONE,
    number: NONE,
    comment: NONE,
    function: NONE,
    type: NONE,
    variable: NONE,
    meta: NONE,
  },
  border: NONE,
  focus: NONE,
  badge: NONE,
};

/** The built-in themes by name. */
export const THEMES: Readonly<Record<ThemeName, Theme>> = {
  dark: darkTheme,
  light: lightTheme,
  ansi: ansiTheme,
  none: noColorTheme,
};

/** Looks up a theme by (user-configured) name; unknown names give undefined. */
export function themeByName(name: string): Theme | undefined {
  return Object.hasOwn(THEMES, name) ? THEMES[name as ThemeName] : undefined;
}

/** Whether the environment asks for no colours: `NO_COLOR` set to anything but the empty string. */
export function noColorRequested(env: NodeJS.ProcessEnv): boolean {
  return (env.NO_COLOR ?? '') !== '';
}

/**
 * The theme to draw with: the configured one (dark when unknown), or none at all under `NO_COLOR`.
 *
 * @example
 * resolveTheme(settings.theme, process.env); // noColorTheme when NO_COLOR=1
 */
export function resolveTheme(name: string, env: NodeJS.ProcessEnv): Theme {
  if (noColorRequested(env)) return noColorTheme;
  return themeByName(name) ?? darkTheme;
}
