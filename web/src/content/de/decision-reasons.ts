import { type DecisionReasonCode, germanDecisionReasons } from '#contracts/kyc-reasons.ts';

// The German of a decision's reason (#contracts/kyc-reasons.ts `germanDecisionReasons`, which the
// German decision email also reads).

export function reasonLabel(code: DecisionReasonCode): string {
  return germanDecisionReasons[code].label;
}

export function reasonMessage(code: DecisionReasonCode): string {
  return germanDecisionReasons[code].message;
}
