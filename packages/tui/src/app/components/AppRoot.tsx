import { useEffect, type ReactNode } from 'react';
import { useStdout } from 'ink';
import { resolveKeyBindings } from '../../keys/key-bindings.js';
import { KeyBindingsProvider } from '../../keys/KeyBindingsContext.js';
import { ThemeProvider } from '../../theme/ThemeContext.js';
import { resolveTheme } from '../../theme/theme.js';
import { ControllerProvider, useAppState, useController } from '../hooks/AppContext.js';
import type { Controller } from '../services/controller.js';
import { App } from './App.js';

/** Props of {@link AppRoot}. */
export interface AppRootProps {
  readonly controller: Controller;
  /** Receives Ink's stdout writer (which keeps Ink's bookkeeping right), for screen clears. */
  readonly onWriter?: (write: (data: string) => void) => void;
  /** Typeahead guard of permission prompts (tests set 0). */
  readonly armDelayMs?: number;
}

function ScreenBridge({ onWriter }: { onWriter: (write: (data: string) => void) => void }) {
  const { write } = useStdout();
  useEffect(() => onWriter(write), [write, onWriter]);
  return null;
}

/** Theme and key bindings from the settings. */
function Providers({ children }: { children?: ReactNode }) {
  const { settings } = useAppState();
  const theme = resolveTheme(settings.theme, useController().env);
  const bindings = resolveKeyBindings(settings.keys).bindings;
  return (
    <ThemeProvider theme={theme}>
      <KeyBindingsProvider bindings={bindings}>{children}</KeyBindingsProvider>
    </ThemeProvider>
  );
}

/**
 * The application with its providers: controller, theme and key bindings from the settings.
 *
 * @example
 * render(<AppRoot controller={controller} />);
 */
export function AppRoot({ controller, onWriter, armDelayMs }: AppRootProps) {
  return (
    <ControllerProvider controller={controller}>
      <Providers>
        {onWriter && <ScreenBridge onWriter={onWriter} />}
        <App {...(armDelayMs !== undefined ? { armDelayMs } : {})} />
      </Providers>
    </ControllerProvider>
  );
}
