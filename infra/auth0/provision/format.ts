import type { FieldChange, Plan } from './plan.ts';

// The plan as an operator reads it. Secret values never reach a plan, so they cannot be printed.

function short(value: unknown): string {
  const text = value === undefined ? '(unset)' : JSON.stringify(value);
  return text.length > 160 ? `${text.slice(0, 157)}...` : text;
}

function describeChange(change: FieldChange): string {
  if (change.field === 'code') {
    const from = typeof change.from === 'string' ? change.from.length : 0;
    const to = typeof change.to === 'string' ? change.to.length : 0;
    return `code: differs from lambdas/auth0-actions/post-login.cjs (${from} -> ${to} characters)`;
  }
  if (change.field === 'scope' && Array.isArray(change.from) && Array.isArray(change.to)) {
    const from = change.from as string[];
    const to = change.to as string[];
    const added = to.filter((s) => !from.includes(s)).map((s) => `+${s}`);
    const removed = from.filter((s) => !to.includes(s)).map((s) => `-${s}`);
    return `scope: ${[...added, ...removed].join(' ')}`;
  }
  if (change.field === 'secrets') return `secrets: write ${short(change.to)} (values are never shown)`;
  return `${change.field}: ${short(change.from)} -> ${short(change.to)}`;
}

export function formatPlan(plan: Plan, stage: string): string {
  const lines = [`Auth0 tenant ${plan.managementDomain}, stage ${stage}`];
  if (plan.steps.length === 0) {
    lines.push('No changes: the tenant already matches the stage.');
  } else {
    lines.push(`Plan: ${plan.steps.length} step(s)`);
    for (const step of plan.steps) {
      switch (step.op) {
        case 'create':
          lines.push(`  + create ${step.label}`, `      fields: ${step.fields.join(', ')}`);
          break;
        case 'update':
          lines.push(`  ~ update ${step.label} (${step.id})`);
          for (const change of step.changes) lines.push(`      ${describeChange(change)}`);
          break;
        case 'deploy':
          lines.push(`  > deploy ${step.label} (${step.reason})`);
          break;
        case 'enable':
          lines.push(
            `  + enable ${step.label}: ${step.clients.map((c) => (c === 'spa' ? 'SPA' : c.replace(/^m2m:/, ''))).join(', ')}`,
          );
          break;
        case 'bind':
          lines.push(
            `  ~ bind ${step.label}`,
            `      ${short(step.from)} -> ${short(step.bindings.map((b) => b.display_name))}`,
          );
          break;
      }
    }
  }
  for (const note of plan.notes) lines.push(`Note: ${note}`);
  for (const refusal of plan.refusals) lines.push(`Refused: ${refusal}`);
  return lines.join('\n');
}
