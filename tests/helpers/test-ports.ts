import type { LocalPorts } from '#local/ports.ts';

/**
 * The stack tests' ports: apart from the defaults, so `npm test` works while `npm start` runs.
 * `STACK_PORT_OFFSET` shifts them all, so several test runs can share a machine.
 */
const offset = Number(process.env.STACK_PORT_OFFSET ?? 0);

export const testPorts: LocalPorts = {
  web: 15173 + offset,
  api: 13000 + offset,
  idp: 14010 + offset,
  persona: 14020 + offset,
  ses: 18005 + offset,
  dynamodb: 18000 + offset,
  realtime: 14030 + offset,
};
