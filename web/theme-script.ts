// The one inline script of the site. It runs in <head> before first paint so the page never flashes
// the wrong theme. Its exact text is injected by the Vite plugin in vite.config.ts and hashed for
// the CSP, so infra and the local server can allow it without 'unsafe-inline'.

/** Local storage key holding the reader's choice: `dark` or `light`. */
export const themeStorageKey = 'theme';

export const themeScript = `(()=>{let t;try{t=localStorage.getItem(${JSON.stringify(themeStorageKey)})}catch{}if(t!=='dark'&&t!=='light')t=matchMedia('(prefers-color-scheme: dark)').matches?'dark':'light';document.documentElement.dataset.theme=t})()`;
