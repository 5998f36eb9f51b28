import { kycCopy } from '#web/content/kyc.ts';

const copy = kycCopy.start;

/**
 * The three steps of verification (consent, identity verification, full access) with where the
 * user is: steps before `current` are done, `current` is marked `aria-current="step"`. The state
 * is written out, not only coloured, so it reads the same to everyone.
 */
export function VerificationSteps({ current }: { current: number }) {
  return (
    <ol className="kyc-steps" aria-label={copy.stepsLabel}>
      {copy.steps.map((step, index) => {
        const state = index < current ? 'done' : index === current ? 'current' : 'upcoming';
        return (
          <li
            key={step.name}
            className={`kyc-step kyc-step--${state}`}
            aria-current={state === 'current' ? 'step' : undefined}
          >
            <span className="kyc-step__marker" aria-hidden="true">
              {state === 'done' ? '✓' : index + 1}
            </span>
            <div className="kyc-step__text">
              <p className="kyc-step__name">
                {step.name} <span className="kyc-step__state">({copy.state[state]})</span>
              </p>
              <p className="kyc-step__body">{step.body}</p>
            </div>
          </li>
        );
      })}
    </ol>
  );
}
