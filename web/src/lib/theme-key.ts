/** Local storage key holding the reader's choice: `dark` or `light` (read by the head script too). */
export const themeStorageKey = 'theme';
