import { type DecisionReasonCode, decisionReasons } from '#contracts/kyc-reasons.ts';

// A verification decision's reason as the reader's language says it (ADR 0089): the label the
// admin queue shows, and the sentence the person reads on the status screen. The codes and the
// English are the contract's (#contracts/kyc-reasons.ts); the German build uses the German twin.

export function reasonLabel(code: DecisionReasonCode): string {
  return decisionReasons[code].label;
}

export function reasonMessage(code: DecisionReasonCode): string {
  return decisionReasons[code].message;
}
