import { useSyncExternalStore } from "react";

const subscribe = () => () => {};

/**
 * False in the server render and during hydration, true afterwards. Controls
 * that only make sense with JavaScript (disabling an empty form's button) use
 * it, so the server-rendered page stays usable with JavaScript off.
 */
export function useHydrated() {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
