import { afterEach, describe, expect, it, vi } from 'vitest';
import { logger, maskEmail, redact } from '#lambdas/runtime/logger.ts';

describe('log redaction', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    logger.setLogLevel('SILENT');
  });

  it('masks email addresses and removes tokens from any text', () => {
    const text =
      'SES rejected ada.lovelace@analytical-engines.example; header Bearer abc.def.ghi; ' +
      'token eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJhdXRoMHwxIn0.c2lnbmF0dXJl';
    const redacted = redact(text);
    expect(redacted).toContain('a***@analytical-engines.example');
    expect(redacted).not.toMatch(/lovelace|abc\.def\.ghi|eyJ/);
  });

  it('leaves an already masked address as it is', () => {
    expect(redact(maskEmail('ada@example.com'))).toBe('a***@example.com');
  });

  it('applies to what the logger writes, including error messages', async () => {
    // In dev mode Powertools writes through the global console, which the test can observe.
    vi.stubEnv('POWERTOOLS_DEV', 'true');
    vi.stubEnv('POWERTOOLS_LOG_LEVEL', 'INFO');
    vi.resetModules();
    const fresh = await import('#lambdas/runtime/logger.ts');
    const lines: string[] = [];
    vi.spyOn(console, 'error').mockImplementation((line: unknown) => {
      lines.push(String(line));
    });
    fresh.logger.error('send failed', {
      error: new Error('Email address is not verified: grace@hopper.example'),
    });
    vi.unstubAllEnvs();
    expect(lines.join('')).toContain('g***@hopper.example');
    expect(lines.join('')).not.toContain('grace@');
  });
});
