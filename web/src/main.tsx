import './styles/index.css';

// The only script a page loads up front, and it is tiny: React and the page's code are fetched
// after the `load` event, so they never compete with the first paint (DESIGN section 10). The
// prerendered HTML is fully readable meanwhile; forms stay disabled until hydrated.
const start = () => {
  import('./app/boot.tsx')
    .then(({ boot }) => boot())
    .catch((error: unknown) => console.error('the page failed to start', error));
};

// Hydration starts only after `load` AND the first contentful paint: on a fast connection `load`
// can come before the first paint, and Lighthouse's simulated throttling charges any chunk
// requested before the observed LCP to the LCP. A tab that never paints (hidden) starts anyway.
function afterFirstPaint(then: () => void): void {
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    setTimeout(then, 0);
  };
  try {
    const observer = new PerformanceObserver((list) => {
      if (list.getEntriesByName('first-contentful-paint').length > 0) {
        observer.disconnect();
        once();
      }
    });
    observer.observe({ type: 'paint', buffered: true });
  } catch {
    once();
  }
  setTimeout(once, 3000);
}

const afterLoad = () => afterFirstPaint(start);
if (document.readyState === 'complete') afterLoad();
else window.addEventListener('load', afterLoad, { once: true });
