import type { LocalPorts } from '#local/ports.ts';

/** The stack tests' ports: apart from the defaults, so `npm test` works while `npm start` runs. */
export const testPorts: LocalPorts = {
  web: 15173,
  api: 13000,
  idp: 14010,
  persona: 14020,
  ses: 18005,
  dynamodb: 18000,
};
