import './styles/index.css';

// The entry module. On a built page the entry loader (web/inline-scripts.ts, inline at the end of
// <body>) imports it only after the page has loaded and painted; in development Vite's module
// script runs it as soon as the document is parsed.
// React starts in steps, each in its own task (ADR 0044): React DOM first, then the router and the
// layout (boot.tsx), then the page's own module, then hydration as a transition, which React cuts
// into slices of about 5 ms. Run in one go, the steps made one long task that blocked input (the
// longer the page, the longer the task: Total Blocking Time).
// If it fails, `data-start-failed` on <html> lets CSS say so (web/src/styles/start.css), as the
// entry loader does when this module itself cannot be imported.
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

import('react-dom/client')
  .then(async (reactDom) => {
    await nextTask();
    const { boot } = await import('./app/boot.tsx');
    await boot(reactDom, nextTask);
  })
  .catch((error: unknown) => {
    document.documentElement.dataset.startFailed = '';
    console.error('the page failed to start', error);
  });
