import './styles/index.css';

// The entry module. On a built page the entry loader (web/inline-scripts.ts, inline at the end of
// <body>) imports it only after the page has loaded and painted, so it starts React at once; in
// development Vite's module script runs it as soon as the document is parsed.
import('./app/boot.tsx')
  .then(({ boot }) => boot())
  .catch((error: unknown) => console.error('the page failed to start', error));
