import { createContext, type Provider, useContext } from 'react';

/**
 * A context its provider must supply (the layout renders the providers): the provider, and a hook
 * that throws, naming the hook and the provider, when a component is rendered outside it.
 */
export function requiredContext<T>(hookName: string, providerName: string): [Provider<T | null>, () => T] {
  const Context = createContext<T | null>(null);
  const use = (): T => {
    const value = useContext(Context);
    if (!value) throw new Error(`${hookName}() needs a <${providerName}> (the layout renders one)`);
    return value;
  };
  return [Context.Provider, use];
}
