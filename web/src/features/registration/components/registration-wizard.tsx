import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
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

/** The step a URL shows: `?step=2` and `?step=3`; anything else is the first. */
function stepFromSearch(search: string): StepIndex {
  const step = Number(new URLSearchParams(search).get('step')) - 1;
  return step > 0 && step <= lastStep ? (step as StepIndex) : 0;
}

const stepSearch = (step: StepIndex) => (step === 0 ? '' : `?step=${step + 1}`);

/** A step's history entry pushed by Continue from the step before it: its Back is the browser's. */
interface StepEntry {
  wizardStep?: number;
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
  const location = useLocation();
  const [step, setStep] = useState<StepIndex>(0);
  const [restored, setRestored] = useState(false);
  const following = useRef(false);
  const headings = useRef<(HTMLHeadingElement | null)[]>([]);
  const focusHeading = useRef(false);
  const finished = useRef(false);

  const form = useContractForm({
    fields: registrationFields,
    schema: registrationRequest,
    toInput: toRegistrationRequest,
    // The request goes on to /check-your-email (its history entry): the address it shows, and
    // what its "Resend" sends again (ADR 0086).
    submit: (request) => createRegistration(request).then(() => request),
    onSuccess: (request) => {
      finished.current = true;
      clearJourneyData();
      toast.success(copy.success.description, { title: copy.success.title });
      navigate(paths.checkYourEmail.getHref(), { state: { registration: request } });
    },
    onFailure: (error) => toast.error(failureDescription(error), { title: copy.failure.title }),
    onInvalid: (errors: FieldErrors<RegistrationValues>, error) => {
      // The form focuses the first field in error once its step shows.
      const first = fieldOrder.find((field) => errors[field]);
      if (first) {
        setStep(stepOf(first));
        navigate({ search: stepSearch(stepOf(first)) }, { replace: true, preventScrollReset: true });
      }
      if (error) toast.error(failureDescription(error), { title: copy.failure.title });
    },
  });

  // Each step is a history entry, `/register?step=2` (ADR 0086): Continue pushes one, and the
  // browser's Back and Forward move between the steps with the values kept. A step whose earlier
  // steps are not complete shows the first incomplete one instead.
  // biome-ignore lint/correctness/useExhaustiveDependencies: on each move through the history
  useEffect(() => {
    if (!following.current) return;
    const wanted = stepFromSearch(location.search);
    const allowed = firstIncompleteStep(form.values, wanted);
    if (allowed !== wanted) {
      navigate({ search: stepSearch(allowed) }, { replace: true, preventScrollReset: true });
      return;
    }
    if (allowed !== step) {
      focusHeading.current = true;
      setStep(allowed);
    }
  }, [location.key]);

  // Saved progress comes back after hydration (the prerendered page cannot know it). What the
  // person typed before hydration wins over it; the restore never moves focus. The URL's step
  // wins over the saved one.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, right after hydration
  useEffect(() => {
    const saved = loadProgress();
    const fromUrl = new URLSearchParams(location.search).has('step')
      ? stepFromSearch(location.search)
      : undefined;
    if (saved) form.restore(saved.values);
    const shown = firstIncompleteStep(saved ? saved.values : form.values, fromUrl ?? saved?.step ?? 0);
    setStep(shown);
    if (shown !== stepFromSearch(location.search))
      navigate({ search: stepSearch(shown) }, { replace: true, preventScrollReset: true });
    following.current = true;
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

  /** Continue: the next step's own history entry. */
  function goTo(next: StepIndex) {
    navigate(
      { search: stepSearch(next) },
      { state: { wizardStep: next } satisfies StepEntry, preventScrollReset: true },
    );
  }

  /** Back (and Change): the browser's Back when Continue came from there, else this entry replaced. */
  function goBackTo(previous: StepIndex) {
    if ((location.state as StepEntry | null)?.wizardStep === step && previous === step - 1) navigate(-1);
    else navigate({ search: stepSearch(previous) }, { replace: true, preventScrollReset: true });
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
              onClick={() => goBackTo((index - 1) as StepIndex)}
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
              {entry.id === 'agreements' && (
                // The address the login instructions go to, to check before Create Account.
                <p className="wizard-review">
                  {copy.review.label} <strong>{form.values.responsibleEmail.trim()}</strong>{' '}
                  <button
                    type="button"
                    className="link-button"
                    disabled={!shown || !idle}
                    onClick={() => goBackTo(0)}
                  >
                    {copy.review.change}
                  </button>
                </p>
              )}
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
