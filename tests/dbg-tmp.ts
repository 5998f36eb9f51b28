import { launchBrowser } from '#tests/helpers/browser.ts';

const web = 'http://localhost:5173';
const browser = await launchBrowser();
const context = await browser.newContext();
await context.clock.install({ time: new Date() });
const page = await context.newPage();
page.on('console', (m) => console.log(`console ${m.type()}: ${m.text()}`));
page.on('framenavigated', (f) => {
  if (f === page.mainFrame()) console.log('nav', f.url().slice(0, 90));
});
page.on('request', (r) => {
  if (!r.url().includes('/assets/')) console.log('req', r.method(), r.url().slice(0, 90));
});
await page.goto(`${web}/user-account`);
await page.waitForURL(/\/u\/login\//);
await page.getByLabel('Email address').fill('commercial@acme-pharma.example');
await page.getByLabel('Password').fill('Commercial-Local-Pass-1');
await page.getByRole('button', { name: 'Continue' }).click();
await page.waitForURL(`${web}/user-account`);
await page.getByRole('heading', { level: 1 }).waitFor();
console.log('--- signed in; storage', await page.evaluate(() => JSON.stringify(Object.keys(localStorage))));
await page.clock.runFor(4 * 60_000 + 1_000);
console.log('--- after 4 min', await page.locator('.toast-region').innerText());
await page.clock.runFor(60_000);
await page.waitForTimeout(5000);
console.log(
  '--- after 5 min',
  page.url(),
  await page
    .locator('.toast-region')
    .innerText()
    .catch(() => '?'),
);
await browser.close();
