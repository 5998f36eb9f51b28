import { clearJourneyData, registrationDataKey } from '#web/lib/journey-storage.ts';
import { storage } from '#web/lib/storage.ts';
import { lastStep, type RegistrationValues, type StepIndex, savedFields } from './registration-steps.ts';

// Progress survives a reload: the typed values of steps 1 and 2 and the current step, in local
// storage. The agreements are never saved (nor when they were given): consent is given afresh,
// in the step that submits, never pre-ticked from an earlier visit. Progress older than a week is
// dropped, so personal details do not linger on a shared computer.

const maxAgeMs = 7 * 24 * 60 * 60 * 1000;

export interface SavedProgress {
  step: StepIndex;
  values: Partial<Pick<RegistrationValues, (typeof savedFields)[number]>>;
}

/** As stored: the step counted from 1, as the page shows it ("Step 2 of 3"). */
interface Stored {
  step: number;
  values: SavedProgress['values'];
  savedAt: number;
}

export function loadProgress(now = Date.now()): SavedProgress | undefined {
  const raw = storage.get(registrationDataKey);
  if (!raw) return undefined;
  let stored: Partial<Stored>;
  try {
    stored = JSON.parse(raw) as Partial<Stored>;
  } catch {
    return undefined;
  }
  if (typeof stored !== 'object' || stored === null) return undefined;
  if (typeof stored.savedAt !== 'number' || now - stored.savedAt > maxAgeMs) return undefined;
  const values: SavedProgress['values'] = {};
  for (const field of savedFields) {
    const value = (stored.values as Record<string, unknown> | undefined)?.[field];
    if (typeof value === 'string') values[field] = value;
  }
  const step = Number.isInteger(stored.step) ? Math.min(Math.max(Number(stored.step) - 1, 0), lastStep) : 0;
  return { step: step as StepIndex, values };
}

export function saveProgress(progress: SavedProgress, now = Date.now()): void {
  const values: SavedProgress['values'] = {};
  for (const field of savedFields) {
    const value = progress.values[field];
    if (value) values[field] = value;
  }
  // Nothing typed and still on the first step: nothing worth keeping.
  if (Object.keys(values).length === 0 && progress.step === 0) {
    clearJourneyData();
    return;
  }
  storage.set(
    registrationDataKey,
    JSON.stringify({ step: progress.step + 1, values, savedAt: now } satisfies Stored),
  );
}
