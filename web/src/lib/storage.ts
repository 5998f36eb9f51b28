// Local storage that never throws: it can be disabled or full, and the site must still work.
export const storage = {
  get(key: string): string | null {
    try {
      return localStorage.getItem(key);
    } catch {
      return null;
    }
  },
  set(key: string, value: string): void {
    try {
      localStorage.setItem(key, value);
    } catch {
      // The choice then lasts for this page only.
    }
  },
  remove(key: string): void {
    try {
      localStorage.removeItem(key);
    } catch {
      // Nothing stored, nothing to remove.
    }
  },
};

/** Session storage (this tab only), equally forgiving. */
export const tabStorage = {
  get(key: string): string | null {
    try {
      return sessionStorage.getItem(key);
    } catch {
      return null;
    }
  },
  set(key: string, value: string): void {
    try {
      sessionStorage.setItem(key, value);
    } catch {
      // The notice is then lost, which is acceptable.
    }
  },
  take(key: string): string | null {
    const value = tabStorage.get(key);
    try {
      sessionStorage.removeItem(key);
    } catch {
      // Already gone.
    }
    return value;
  },
};
