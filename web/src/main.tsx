import './styles/index.css';

// The entry module. On a built page the entry loader (web/inline-scripts.ts, inline at the end of
// <body>) imports it only after the page has loaded and painted, so it starts React at once; in
// development Vite's module script runs it as soon as the document is parsed.
// If it fails, `data-start-failed` on <html> lets CSS say so (web/src/styles/start.css), as the
// entry loader does when this module itself cannot be imported.
import('./app/boot.tsx')
  .then(({ boot }) => boot())
  .catch((error: unknown) => {
    document.documentElement.dataset.startFailed = '';
    console.error('the page failed to start', error);
  });
