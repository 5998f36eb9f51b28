// Shared with the bench, which reads the steps (scripts/lib/journey-steps.ts), re-exported for the tests.
export { journeySteps } from '#scripts/lib/journey-steps.ts';
