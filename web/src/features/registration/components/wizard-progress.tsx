import { registration as copy } from '#web/content/registration.ts';

type StepState = keyof typeof copy.stepState;

/** The progress dots: each step's title, and which is done, current or still to come. */
export function WizardProgress({ titles, current }: { titles: readonly string[]; current: number }) {
  return (
    <ol className="wizard-progress" aria-label={copy.progressLabel}>
      {titles.map((title, index) => {
        const state: StepState = index < current ? 'done' : index === current ? 'current' : 'upcoming';
        return (
          <li
            key={title}
            className={`wizard-progress__step wizard-progress__step--${state}`}
            aria-current={state === 'current' ? 'step' : undefined}
          >
            <span className="wizard-progress__dot" aria-hidden="true" />
            <span className="wizard-progress__label">
              {title}
              <span className="visually-hidden"> ({copy.stepState[state]})</span>
            </span>
          </li>
        );
      })}
    </ol>
  );
}
