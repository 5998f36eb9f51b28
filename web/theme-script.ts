// The one inline script of the site. It runs in <head> before first paint so the page never flashes
// the wrong theme. Its exact text is injected by the Vite plugin in vite.config.ts and hashed for
// the CSP, so infra and the local server can allow it without 'unsafe-inline'.
//
// It also marks a page as stale when the HTML was prerendered for another URL: the fallback page
// (the prerendered home) also answers app routes and unknown paths, and CSS hides its content
// until the client has rendered the right page, so nobody sees home at a 404 URL.

/** Local storage key holding the reader's choice: `dark` or `light`. */
export const themeStorageKey = 'theme';

export const themeScript = `(()=>{const d=document.documentElement;let t;try{t=localStorage.getItem(${JSON.stringify(themeStorageKey)})}catch{}if(t!=='dark'&&t!=='light')t=matchMedia('(prefers-color-scheme: dark)').matches?'dark':'light';d.dataset.theme=t;const p=d.dataset.prerendered;if(p&&(location.pathname.replace(/\\/index\\.html$/,'/').replace(/\\/+$/,'')||'/')!==p)d.dataset.stale=''})()`;
