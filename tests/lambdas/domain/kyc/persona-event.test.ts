import { describe, expect, it } from 'vitest';
import { normaliseInstant } from '#lambdas/domain/kyc/persona-event.ts';

describe('normaliseInstant', () => {
  it('keeps microseconds so string order is time order', () => {
    expect(normaliseInstant('2026-01-05T18:50:02.000123Z')).toBe('2026-01-05T18:50:02.000123Z');
    expect(normaliseInstant('2026-01-05T18:50:02Z')).toBe('2026-01-05T18:50:02.000000Z');
    expect(normaliseInstant('2026-01-05T20:50:02.5+02:00')).toBe('2026-01-05T18:50:02.500000Z');
  });
});
