// The session rules' public face: what the app shell wires (see use-session-rules.ts).
export { type SessionEndReason, sessionLimits } from './session-rules.ts';
export { sessionStorageKeys } from './session-store.ts';
export type { SessionLogoutDetails } from './session-tab.ts';
export {
  currentTabId,
  endSession,
  lastActiveRoute,
  type SessionRulesOptions,
  startSession,
  useSessionRules,
} from './use-session-rules.ts';
