import type { PolicyDocument } from '#web/content/pages/types.ts';
import { policyFacts as f } from './facts.ts';

export const cookiePolicy = {
  meta: {
    title: 'Cookie Policy',
    description:
      'Which cookies and local storage entries the website uses, why, for how long, and how to change your cookie settings at any time.',
  },
  title: 'Cookie Policy',
  lastUpdated: '2025-06-08',
  lastUpdatedLabel: 'Last updated',
  revisionLabel: 'Policy revision',
  settingsButton: 'Cookie settings',
  intro: [
    'This policy explains the cookies and browser storage entries our website uses. We ask for your choice when you first visit and again whenever this policy changes in a way that matters.',
  ],
  sections: [
    {
      id: 'what',
      heading: 'What cookies and local storage are',
      paragraphs: [
        'Cookies and local storage entries are small pieces of data a website keeps in your browser. Our website uses local storage rather than cookies for everything it stores itself.',
      ],
    },
    {
      id: 'categories',
      heading: 'Categories',
      subsections: [
        {
          id: 'essential',
          heading: 'Essential (always on)',
          paragraphs: ['Needed for the website to work; they need no consent.'],
          items: [
            '"theme": your light or dark theme choice. Kept until you clear it.',
            '"cookie-consent" and "cookie-consent-date": your cookie choice and when you made it.',
            'Sign-in session (only after you log in): tokens from our identity provider Auth0 that keep you signed in.',
          ],
        },
        {
          id: 'analytics',
          heading: 'Analytics',
          paragraphs: [
            'Help us understand how the website is used, in aggregate, so we can improve it. Used only with your consent.',
          ],
        },
        {
          id: 'marketing',
          heading: 'Marketing',
          paragraphs: [
            'Measure the effect of our campaigns and show you relevant information about the platform elsewhere. Used only with your consent.',
          ],
        },
        {
          id: 'personalization',
          heading: 'AI personalization',
          paragraphs: [
            'Tailor the content you see, such as examples for your sector, based on how you use the website. Used only with your consent.',
          ],
        },
      ],
    },
    {
      id: 'record',
      heading: 'How we record your choice',
      paragraphs: [
        `When you choose, we store your choice in your browser and send it to our servers with a random identifier and the policy revision, so that we can prove it. We keep that record for ${f.cookieConsentMonths} months without your user agent and with your IP address shortened; after ${f.cookieConsentMonths} months, or when the policy revision changes, we ask again.`,
      ],
    },
    {
      id: 'change',
      heading: 'Changing your choice',
      paragraphs: [
        'You can change or withdraw your choice at any time with the Cookie settings button below or in the footer of every page. Withdrawing does not affect what happened before.',
      ],
      slot: 'cookie-settings',
    },
    {
      id: 'more',
      heading: 'More information',
      paragraphs: [
        `Our privacy policy explains how we process personal data and your rights. Website logs are deleted after ${f.websiteLogRetentionDays} days.`,
      ],
    },
  ],
} as const satisfies PolicyDocument & { revisionLabel: string; settingsButton: string };
