import { createContext, useContext, type ReactNode } from 'react';
import { ansiTheme, type Theme } from './theme.js';

const ThemeContext = createContext<Theme>(ansiTheme);

/** Props of {@link ThemeProvider}. */
export interface ThemeProviderProps {
  readonly theme: Theme;
  readonly children?: ReactNode;
}

/**
 * Supplies the colour theme to every component below. Without a provider components use the
 * `ansi` theme (the terminal's own colours).
 *
 * @example
 * <ThemeProvider theme={darkTheme}><App /></ThemeProvider>
 */
export function ThemeProvider({ theme, children }: ThemeProviderProps) {
  return <ThemeContext.Provider value={theme}>{children}</ThemeContext.Provider>;
}

/** The current theme. */
export function useTheme(): Theme {
  return useContext(ThemeContext);
}
