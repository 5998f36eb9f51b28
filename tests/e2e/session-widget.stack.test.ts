import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { installClock, launchBrowser, runClock } from '#tests/helpers/browser.ts';
import { giveConsent, personaWidget, signedInNewUser } from '#tests/helpers/kyc-journey.ts';
import { sessionMessages } from '#web/content/session.ts';

// Issue 21, item 1: the inactivity rule must not sign people out in the middle of identity
// verification. The Persona widget is a cross-origin frame (the emulator on its own port here,
// persona.com in production): its mouse and keyboard events never reach the page, so the rule is
// paused while the widget is open (ADR 0057). Real Chromium, the page's clock under the test's
// control from before the sign-in, a freshly registered user in front of the emulator's widget.

const stack = inject('stack');
const testTimeoutMs = 240_000;

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

const notices = (page: Page) => page.getByRole('status', { name: 'Notifications' });

describe('the session rules during identity verification', () => {
  it(
    'count the open widget as presence: 40 mouse and key events inside it over 20 minutes, no warning, no logout',
    async () => {
      const journey = await signedInNewUser(browser, stack, 'commercial', {
        prepare: installClock,
      });
      const { page } = journey;
      await giveConsent(stack, journey);
      const persona = page.getByRole('dialog', { name: 'Identity verification with Persona' });
      const approve = personaWidget(page).getByRole('button', { name: 'Approve' });
      await approve.waitFor();
      const frame = await page.locator('dialog iframe').boundingBox();
      if (!frame) throw new Error('the widget has no frame on screen');

      // One event every 30 s, alternately the mouse moving over the widget and a key pressed in
      // it: what the tester did, none of which the page itself sees.
      for (let event = 0; event < 40; event++) {
        if (event % 2 === 0) {
          await page.mouse.move(frame.x + 20 + event * 4, frame.y + 30 + event * 5);
        } else {
          await approve.focus();
          await page.keyboard.press('Shift');
        }
        await runClock(page, 30_000);
        expect(new URL(page.url()).pathname).toBe('/kyc/persona');
        expect(await notices(page).textContent()).not.toContain(sessionMessages.inactivityWarning);
      }

      expect(await persona.evaluate((dialog) => (dialog as HTMLDialogElement).open)).toBe(true);
      await approve.waitFor();
      expect(await notices(page).textContent()).not.toContain(sessionMessages.inactivityWarning);

      // Closing the widget counts as activity: the 5 minutes start again from there.
      await personaWidget(page).getByRole('button', { name: 'Cancel' }).click();
      await page.waitForURL(`${stack.web}/dashboard`);
      await runClock(page, 3 * 60_000 + 50_000);
      expect(await notices(page).textContent()).not.toContain(sessionMessages.inactivityWarning);
      await runClock(page, 15_000);
      await expect.poll(() => notices(page).textContent()).toContain(sessionMessages.inactivityWarning);
      await runClock(page, 60_000);
      await page.waitForURL(`${stack.web}/`);
      await expect.poll(() => notices(page).textContent()).toContain(sessionMessages.inactivity);

      expect(journey.problems).toEqual([]);
      await journey.context.close();
    },
    testTimeoutMs,
  );
});
