// The session rules' public face: what the app shell wires (see use-session-rules.ts).
export { type SessionEndReason, type SessionWarning, sessionLimits } from './lib/session-rules.ts';
export { sessionStorageKeys } from './lib/session-store.ts';
export type { SessionLogoutDetails } from './lib/session-tab.ts';
export {
  currentTabId,
  endSession,
  holdSessionActivity,
  lastActiveRoute,
  recordSessionActivity,
  type SessionRulesOptions,
  startSession,
  useSessionRules,
} from './lib/use-session-rules.ts';
