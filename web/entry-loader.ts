// The second inline script of a built page, at the end of <body>: it starts the app. The page's
// entry module is named in the script's `data-entry` attribute rather than loaded by a
// `<script type="module" src>`, so a prerendered page requests no script at all before it has
// loaded and painted (DESIGN section 10): the entry and everything after it are fetched once both
// `load` and the first contentful paint have happened, a task later. Lighthouse's simulated
// throttling charges every request made before the observed LCP to the LCP, so even a 1 KB entry
// fetched up front cost ~100 ms of simulated mobile LCP.
//
// A page that is not prerendered for this URL (the fallback page answering an app route or an
// unknown path, marked stale by the theme script) has nothing to show until React renders it, so
// it starts at once. A tab that never paints (hidden) starts after 3 s anyway.
//
// The text below is inlined byte for byte and hashed for the CSP (vite.config.ts); only the
// attribute changes from build to build, so the hash is stable.

export const entryLoaderScript = `(()=>{const s=document.currentScript,e=s&&s.dataset.entry;if(!e)return;const d=document.documentElement,go=()=>import(e).catch(r=>console.error('the page failed to start',r));if(d.dataset.prerendered===undefined||d.dataset.stale!==undefined){go();return}let done=false;const once=()=>{if(!done){done=true;setTimeout(go,0)}},painted=()=>{try{const o=new PerformanceObserver(l=>{if(l.getEntriesByName('first-contentful-paint').length){o.disconnect();once()}});o.observe({type:'paint',buffered:true})}catch{once()}setTimeout(once,3000)};if(document.readyState==='complete')painted();else addEventListener('load',painted,{once:true})})()`;
