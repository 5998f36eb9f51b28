import { writeFileSync } from 'node:fs';

// The journey's wall time per step, for `npm run bench -- --only journey` (issue 13): the journey
// test marks each step; with JOURNEY_STEPS_FILE set the marks are written there. No assertion is
// ever made on them (timings stay in the benchmark).

export interface JourneyStep {
  name: string;
  ms: number;
}

export function journeySteps() {
  const steps: JourneyStep[] = [];
  let last = performance.now();
  return {
    /** Ends the step under way (the time since the previous mark) under `name`. */
    mark(name: string): void {
      const now = performance.now();
      steps.push({ name, ms: now - last });
      last = now;
    },
    /** Restarts the clock without recording (what comes between is not the product's time). */
    skip(): void {
      last = performance.now();
    },
    save(): void {
      const file = process.env.JOURNEY_STEPS_FILE;
      if (file) writeFileSync(file, JSON.stringify(steps));
    },
  };
}
