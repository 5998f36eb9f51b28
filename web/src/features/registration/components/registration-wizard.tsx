import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { registrationRequest } from '#contracts/registration.ts';
import { CheckboxField, Field, SelectField } from '#web/components/field.tsx';
import { useToast } from '#web/components/toast.tsx';
import { paths } from '#web/config/paths.ts';
import { registration as copy } from '#web/content/registration.ts';
import { createRegistration } from '#web/features/registration/api/create-registration.ts';
import {
  lastStep,
  type RegistrationControl,
  type RegistrationValues,
  registrationFields,
  registrationSteps,
  type StepIndex,
  stepFields,
  stepOf,
  toRegistrationRequest,
} from '#web/features/registration/lib/registration-steps.ts';
import { loadProgress, saveProgress } from '#web/features/registration/lib/saved-progress.ts';
import { ApiError } from '#web/lib/api-client.ts';
import { clearJourneyData } from '#web/lib/journey-storage.ts';
import { type FieldErrors, useContractForm } from '#web/lib/use-contract-form.ts';
import { WizardProgress } from './wizard-progress.tsx';

const stepCopy = [copy.steps.responsible, copy.steps.organization, copy.steps.agreements] as const;
const fieldOrder = registrationSteps.flatMap((_, index) => stepFields(index as StepIndex));

const documents = {
  termsAgreed: paths.termsAndConditions,
  privacyAgreed: paths.privacyPolicy,
  nonHarmAgreed: paths.acceptableUsePolicy,
} as const;

/** What the failure toast says under its title. */
function failureDescription(error: unknown): string {
  // The server answered with a refusal: its own explanation, or that it refused.
  if (error instanceof ApiError && error.status >= 400) return error.detail ?? copy.failure.refused;
  return copy.failure.fallback;
}

/** The first step (before `upTo`) whose saved values the contract refuses: the person resumes there. */
function firstIncompleteStep(values: Partial<RegistrationValues>, upTo: StepIndex): StepIndex {
  const parsed = registrationRequest.safeParse(toRegistrationRequest({ ...registrationFields, ...values }));
  if (parsed.success) return upTo;
  const invalid = new Set(parsed.error.issues.map((issue) => issue.path[0]));
  for (let index = 0; index < upTo; index++) {
    if (stepFields(index as StepIndex).some((field) => invalid.has(field))) return index as StepIndex;
  }
  return upTo;
}

export function RegistrationWizard() {
  const id = useId();
  const toast = useToast();
  const navigate = useNavigate();
  const [step, setStep] = useState<StepIndex>(0);
  const [restored, setRestored] = useState(false);
  const headings = useRef<(HTMLHeadingElement | null)[]>([]);
  const focusHeading = useRef(false);
  const finished = useRef(false);

  const form = useContractForm({
    fields: registrationFields,
    schema: registrationRequest,
    toInput: toRegistrationRequest,
    submit: createRegistration,
    onSuccess: () => {
      finished.current = true;
      clearJourneyData();
      toast.success(copy.success.description, { title: copy.success.title });
      navigate(paths.checkYourEmail.getHref());
    },
    onFailure: (error) => toast.error(failureDescription(error), { title: copy.failure.title }),
    onInvalid: (errors: FieldErrors<RegistrationValues>, error) => {
      // The form focuses the first field in error once its step shows.
      const first = fieldOrder.find((field) => errors[field]);
      if (first) setStep(stepOf(first));
      if (error) toast.error(failureDescription(error), { title: copy.failure.title });
    },
  });

  // Saved progress comes back after hydration (the prerendered page cannot know it). What the
  // person typed before hydration wins over it; the restore never moves focus.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, right after hydration
  useEffect(() => {
    const saved = loadProgress();
    if (saved) {
      form.restore(saved.values);
      setStep(firstIncompleteStep(saved.values, saved.step));
    }
    setRestored(true);
  }, []);

  useEffect(() => {
    if (!restored || finished.current) return;
    saveProgress({ step, values: form.values });
  }, [restored, step, form.values]);

  useEffect(() => {
    if (!focusHeading.current) return;
    focusHeading.current = false;
    headings.current[step]?.focus();
  }, [step]);

  function goTo(next: StepIndex) {
    focusHeading.current = true;
    setStep(next);
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    if (step === lastStep) {
      void form.onSubmit(event);
      return;
    }
    // Enter in a field and Continue both land here: check this step before the next one.
    event.preventDefault();
    if (form.validate(stepFields(step))) goTo((step + 1) as StepIndex);
  }

  const idle = form.hydrated && !form.submitting;
  const honeypot = form.control('website');

  // Every step carries its own buttons, so each step is as tall on show as hidden; only the one on
  // show has a submit button (the default button for Enter) and enabled controls.
  const actions = (index: number) => {
    const live = index === step;
    return (
      <div className="wizard__actions">
        <div className="wizard__buttons">
          {index > 0 && (
            <button
              type="button"
              className="button button--secondary"
              disabled={!live || !idle}
              onClick={() => goTo((index - 1) as StepIndex)}
            >
              {copy.back}
            </button>
          )}
          <button
            type={live ? 'submit' : 'button'}
            className="button wizard__primary"
            disabled={!live || !idle}
          >
            {index < lastStep ? copy.continue : live && form.submitting ? copy.submitting : copy.submit}
          </button>
        </div>
        <p className="wizard__home">
          <Link to={paths.home.getHref()}>{copy.home}</Link>
        </p>
      </div>
    );
  };

  /** A field as its step's definition says; the honeypot is drawn apart, after the steps. */
  const renderField = (field: RegistrationControl) => {
    switch (field.control) {
      case 'select':
        return (
          <SelectField
            key={field.name}
            label={copy.fields[field.name].label}
            placeholder={copy.fields[field.name].placeholder}
            options={copy.organizationTypes}
            required
            {...form.control(field.name)}
          />
        );
      case 'agreement':
        return (
          <CheckboxField
            key={field.name}
            label={copy.agreements[field.name].statement}
            hint={
              <Link to={documents[field.name].getHref()} target="_blank" hrefLang="de">
                {copy.agreements[field.name].read} {copy.documentNote}
              </Link>
            }
            required
            {...form.control(field.name)}
          />
        );
      case 'honeypot':
        return null;
      default: {
        const text: { label: string; hint?: string } = copy.fields[field.name];
        return (
          <Field
            key={field.name}
            label={text.label}
            hint={text.hint}
            type={field.type}
            autoComplete={field.autoComplete}
            required
            {...form.control(field.name)}
          />
        );
      }
    }
  };

  return (
    <form className="wizard" noValidate aria-busy={form.submitting} onSubmit={onSubmit}>
      <WizardProgress titles={stepCopy.map((entry) => entry.title)} current={step} />

      <div className="wizard__steps">
        {registrationSteps.map((entry, index) => {
          const shown = index === step;
          const headingId = `${id}-step-${index}`;
          return (
            // Every step stays in the layout (hidden ones keep their space, see registration.css),
            // so moving between steps or restoring one after hydration never moves what follows.
            <section
              key={entry.id}
              className="wizard-step"
              aria-labelledby={headingId}
              hidden={!shown}
              inert={!shown}
            >
              <h2
                id={headingId}
                className="wizard-step__heading"
                tabIndex={-1}
                ref={(element) => {
                  headings.current[index] = element;
                }}
              >
                <span className="wizard-step__count">
                  {copy.stepCount(index + 1, registrationSteps.length)}
                </span>{' '}
                {stepCopy[index]?.title}
              </h2>
              <p className="wizard-step__intro">{stepCopy[index]?.intro}</p>
              {entry.fields.map(renderField)}
              {entry.id === 'agreements' && (
                <div className="wizard-next">
                  <h3>{copy.whatNext.title}</h3>
                  <ol>
                    {copy.whatNext.items.map((item) => (
                      <li key={item}>{item}</li>
                    ))}
                  </ol>
                </div>
              )}
              {actions(index)}
            </section>
          );
        })}
      </div>

      {/* People never see or reach it; a bot filling every field fills it too, and the API then creates nothing. */}
      <div className="honeypot" aria-hidden="true">
        <label htmlFor={`${id}-website`}>{copy.honeypotLabel}</label>
        <input
          id={`${id}-website`}
          ref={honeypot.ref}
          name={honeypot.name}
          type="text"
          tabIndex={-1}
          autoComplete="off"
          value={honeypot.value}
          onChange={(event) => honeypot.onChange(event.target.value)}
        />
      </div>
    </form>
  );
}
