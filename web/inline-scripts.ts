// The two inline scripts of a built page. Each is inlined byte for byte by the Vite plugins in
// vite.config.ts and allowed by its hash in the CSP (web/dist/csp-hashes.json, read by infra and
// the local server), never by 'unsafe-inline'. They are written from constants here, so their
// hashes change only when these texts or the cookie policy revision change.

import { localeStorageKey } from './src/config/locale.ts';
import { cookieConsentMonths, cookiePolicyRevision } from './src/content/cookie-policy-revision.ts';
import { consentKeys } from './src/features/cookie-consent/lib/keys.ts';
import { themeStorageKey } from './src/lib/theme-key.ts';

// Build-time only: the client bundle never imports this module (the scripts are inlined).

const { consent, date, revision } = consentKeys;

/**
 * Runs in <head>, right after <meta charset>, before the first paint. On <html> it sets:
 * - `data-theme`: the stored theme, else the system's, so the page never flashes the wrong one;
 * - `data-stale` when the HTML was prerendered for another URL (a host that answers every path
 *   with one page): CSS hides its content until the client has rendered the right page. The 404
 *   page (`data-prerendered=""`, made for any path) and the app shell (no `data-prerendered`) are
 *   never stale;
 * - `data-cookie-banner` when the visitor has no current cookie choice (none, another policy
 *   revision, older than the months the policy states; consent-store.ts `readConsent` is the full
 *   rule, which also validates the stored JSON). The prerendered banner is then shown with the
 *   first paint instead of popping up after hydration, where it would become the page's largest
 *   paint and push its LCP to the hydration time.
 *
 * And it takes the reader to their language (ADR 0089). Their choice is the switcher's, stored
 * under `locale` (the switcher's link also says it in the query, `?locale=de`, so a click before
 * the page has hydrated counts too: the choice is stored here and the parameter removed); without one, the first of the browser's languages that the site has, else English.
 * - A prerendered page in another language than a stored choice is replaced by its version in the
 *   chosen one (`/pricing` <-> `/de/pricing`). Without a stored choice only the English home page
 *   follows the browser: a link to a page in one language stays in it (and crawlers, which store
 *   nothing, see each page as it is).
 * - The app shell (English HTML, never hydrated) is marked stale (hidden until React renders it) and
 *   `data-locale` tells the entry loader to start the German entry.
 */
export const headScript = `(()=>{const d=document.documentElement;let t;try{t=localStorage.getItem('${themeStorageKey}')}catch{}if(t!=='dark'&&t!=='light')t=matchMedia('(prefers-color-scheme: dark)').matches?'dark':'light';d.dataset.theme=t;const p=d.dataset.prerendered;if(p&&(location.pathname.replace(/\\/index\\.html$/,'/').replace(/\\/+$/,'')||'/')!==p)d.dataset.stale='';let l;try{l=localStorage.getItem('${localeStorageKey}')}catch{}const u=new URL(location.href),c=u.searchParams.get('${localeStorageKey}');if(c==='en'||c==='de'){l=c;try{localStorage.setItem('${localeStorageKey}',c)}catch{}u.searchParams.delete('${localeStorageKey}');history.replaceState(history.state,'',u.pathname+u.search+u.hash)}const k=l==='en'||l==='de',g=d.lang||'en';if(p===undefined){const w=k?l:(navigator.languages||[navigator.language]).map(x=>String(x).slice(0,2).toLowerCase()).find(x=>x==='de'||x==='en')||'en';if(w!==g){d.lang=w;d.dataset.locale=w;d.dataset.stale=''}}else if(p&&d.dataset.stale===undefined){const w=k?l:p==='/'&&(navigator.languages||[navigator.language]).map(x=>String(x).slice(0,2).toLowerCase()).find(x=>x==='de'||x==='en')||g;if(w!==g){location.replace((g==='de'?p.slice(3)||'/':'/de'+(p==='/'?'':p))+location.search+location.hash);return}}try{const s=localStorage,e=new Date(Date.parse(s.getItem('${date}')));e.setMonth(e.getMonth()+${cookieConsentMonths});if(!s.getItem('${consent}')||s.getItem('${revision}')!=='${cookiePolicyRevision}'||!(e>new Date()))d.dataset.cookieBanner=''}catch{d.dataset.cookieBanner=''}})()`;

/**
 * Ends <body> on a built page and starts the app. The page's entry module is named in the
 * script's `data-entry` attribute (which changes from build to build, the text does not) rather
 * than loaded by a `<script type="module" src>`, so a prerendered page requests no script at all
 * before it has loaded and painted (docs/design.md section 10): the entry and everything after it are
 * fetched once both `load` and the first contentful paint have happened, a task later.
 * Lighthouse's simulated throttling charges every request made before the observed LCP to the
 * LCP, so even a 1 KB entry fetched up front cost ~100 ms of simulated mobile LCP.
 *
 * A page without content of its own (the app shell, which has no `data-prerendered`, or HTML
 * marked stale by the head script) has nothing to show until React renders it, so it starts at
 * once. A tab that never paints (hidden) starts after 3 s anyway.
 *
 * The app shell names each language's entry (`data-entry`, `data-entry-de`): the head script's
 * `data-locale` picks one (ADR 0089).
 *
 * If the entry cannot be imported it sets `data-start-failed` on <html> (as main.tsx does when
 * the app fails to boot): CSS (web/src/styles/start.css) then hides the "Loading..." slot and shows
 * the layout's prerendered message asking the visitor to reload, also in the app shell.
 */
export const entryLoaderScript = `(()=>{const s=document.currentScript,d=document.documentElement,e=s&&(d.dataset.locale==='de'&&s.dataset.entryDe||s.dataset.entry);if(!e)return;const go=()=>import(e).catch(r=>{d.dataset.startFailed='';console.error('the page failed to start',r)});if(d.dataset.prerendered===undefined||d.dataset.stale!==undefined){go();return}let done=false;const once=()=>{if(!done){done=true;setTimeout(go,0)}},painted=()=>{try{const o=new PerformanceObserver(l=>{if(l.getEntriesByName('first-contentful-paint').length){o.disconnect();once()}});o.observe({type:'paint',buffered:true})}catch{once()}setTimeout(once,3000)};if(document.readyState==='complete')painted();else addEventListener('load',painted,{once:true})})()`;

/** Both, in page order: what csp-hashes.json lists. */
export const inlineScripts = [headScript, entryLoaderScript] as const;
