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
      // Nothing stored, or nothing we can reach: either way the key is gone for this page.
    }
  },
};
