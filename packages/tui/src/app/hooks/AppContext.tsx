/**
 * The controller and the app store as React context: screens read state with
 * {@link useAppState} and act through {@link useController}.
 */
import { createContext, useContext, useSyncExternalStore, type ReactNode } from 'react';
import type { Controller } from '../services/controller.js';
import type { AppState } from '../state/app-state.js';

const ControllerContext = createContext<Controller | undefined>(undefined);

/** Props of {@link ControllerProvider}. */
export interface ControllerProviderProps {
  readonly controller: Controller;
  readonly children?: ReactNode;
}

/** Makes the controller available to the screens below. */
export function ControllerProvider({ controller, children }: ControllerProviderProps) {
  return <ControllerContext.Provider value={controller}>{children}</ControllerContext.Provider>;
}

/** The application's controller. */
export function useController(): Controller {
  const controller = useContext(ControllerContext);
  if (!controller) throw new Error('useController() needs a <ControllerProvider>');
  return controller;
}

/** The application state (re-renders when it changes). */
export function useAppState(): AppState {
  const store = useController().store;
  return useSyncExternalStore(store.subscribe, store.getSnapshot);
}
