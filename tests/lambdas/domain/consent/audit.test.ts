import { describe, expect, it } from 'vitest';
import {
  AuditUsageError,
  auditConsents,
  boundary,
  csvColumns,
  csvField,
  formatSummary,
  toCsv,
  toJson,
} from '#lambdas/domain/consent/audit.ts';
import { main, parseOptions } from '#scripts/audit-consents/run.ts';
import { InMemoryConsentLedger, sampleEntry } from '#tests/lambdas/domain/fakes.ts';

/** A ledger whose clock is set per append, so records fall on chosen days. */
function ledgerAt(times: string[]) {
  let index = 0;
  return new InMemoryConsentLedger({ now: () => new Date(times[index++] ?? '2030-01-01T00:00:00Z') });
}

async function fixture() {
  const ledger = ledgerAt([
    '2026-10-31T23:59:59.999Z',
    '2026-11-01T00:00:00.000Z',
    '2026-11-15T12:00:00.000Z',
    '2026-11-30T23:59:59.999Z',
    '2026-12-01T00:00:00.000Z',
  ]);
  await ledger.append(sampleEntry({ subjectId: 'auth0|alice', purpose: 'terms_of_service' })); // alice 1, Oct
  await ledger.append(sampleEntry({ subjectId: 'auth0|alice' })); // alice 2
  await ledger.append(sampleEntry({ subjectId: 'auth0|bob' })); // bob 1
  await ledger.append(sampleEntry({ subjectId: 'auth0|alice', purpose: 'privacy_policy' })); // alice 3
  await ledger.append(sampleEntry({ subjectId: 'auth0|bob' })); // bob 2, Dec
  return ledger;
}

describe('auditConsents', () => {
  it('exports the records of a purpose between two whole days, both included', async () => {
    const ledger = await fixture();
    const report = await auditConsents(ledger, {
      purpose: 'identity_verification',
      from: '2026-11-01',
      to: '2026-11-30',
    });
    expect(report.records.map((r) => [r.subjectId, r.sequence])).toEqual([
      ['auth0|alice', 2],
      ['auth0|bob', 1],
    ]);
    expect(report.query).toEqual({
      purpose: 'identity_verification',
      from: '2026-11-01T00:00:00.000Z',
      to: '2026-11-30T23:59:59.999Z',
    });
    expect(report.ok).toBe(true);
    // Whole chains: alice's 3 records and bob's 2, not only the 2 in range.
    expect(report.summary).toEqual({
      records: 2,
      subjects: 2,
      chainRecords: 5,
      brokenSubjects: 0,
      breaks: 0,
    });
  });

  it("exports one user's records and verifies that user's chain", async () => {
    const ledger = await fixture();
    const report = await auditConsents(ledger, { user: 'auth0|alice' });
    expect(report.records.map((r) => r.sequence)).toEqual([1, 2, 3]);
    expect(report.summary.subjects).toBe(1);
    const narrowed = await auditConsents(ledger, { user: 'auth0|alice', purpose: 'privacy_policy' });
    expect(narrowed.records.map((r) => r.sequence)).toEqual([3]);
    expect(narrowed.summary.chainRecords).toBe(3);
  });

  it('reports a break in a record outside the range, in the chain of a subject in the range', async () => {
    const ledger = await fixture();
    const october = ledger.records[0];
    if (!october) throw new Error('fixture');
    october.statements = { termsAgreed: false };
    const report = await auditConsents(ledger, {
      purpose: 'identity_verification',
      from: '2026-11-01',
      to: '2026-11-30',
    });
    expect(report.ok).toBe(false);
    expect(report.breaks).toEqual([
      expect.objectContaining({ subjectId: 'auth0|alice', sequence: 1, kind: 'hash_mismatch' }),
    ]);
    expect(formatSummary(report)).toMatch(
      /BROKEN: 1 break\(s\) in 1 chain\(s\):\n {2}auth0\|alice #1 \[hash_mismatch\]/,
    );
  });

  it('reports a deleted record as a missing sequence', async () => {
    const ledger = await fixture();
    ledger.records.splice(1, 1); // alice 2
    const report = await auditConsents(ledger, { user: 'auth0|alice' });
    expect(report.breaks).toEqual([expect.objectContaining({ sequence: 2, kind: 'missing_sequence' })]);
  });

  it.each([
    [{ purpose: 'identity_verification', from: '2026-11-01' }, /--purpose, --from and --to, or --user/],
    [{ purpose: 'marketing', from: '2026-11-01', to: '2026-11-02' }, /Unknown purpose marketing/],
    [{ purpose: 'identity_verification', from: '2026-02-30', to: '2026-03-01' }, /Not a date: 2026-02-30/],
    [{ purpose: 'identity_verification', from: '2026-12-01', to: '2026-11-01' }, /must not be after/],
  ])('refuses the query %j', async (query, message) => {
    await expect(auditConsents(new InMemoryConsentLedger(), query)).rejects.toThrow(message);
    await expect(auditConsents(new InMemoryConsentLedger(), query)).rejects.toBeInstanceOf(AuditUsageError);
  });

  it('takes full timestamps as they are', () => {
    expect(boundary('2026-11-01T10:00:00+01:00', 'start')).toBe('2026-11-01T09:00:00.000Z');
  });
});

describe('the exports', () => {
  it('quotes CSV fields as RFC 4180 says and ends lines with CRLF', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('line\nbreak')).toBe('"line\nbreak"');
  });

  it.each([
    ['=1+1', "'=1+1"],
    ['+49 30 1234', "'+49 30 1234"],
    ['-2', "'-2"],
    ['@SUM(A1:A2)', "'@SUM(A1:A2)"],
    ['\tcmd', "'\tcmd"],
    ['\rcmd', `"'\rcmd"`],
    ['\uFF1D1+1', "'\uFF1D1+1"],
    ['=HYPERLINK("https://evil.example","x")', `"'=HYPERLINK(""https://evil.example"",""x"")"`],
    ['a=1', 'a=1'],
    ['', ''],
  ])(
    'escapes a cell a spreadsheet would run as a formula, as csv-stringify does: %j -> %j (ADR 0071)',
    (value, cell) => {
      expect(csvField(value)).toBe(cell);
    },
  );

  it('escapes a formula in a record, whatever column holds it', async () => {
    const ledger = await fixture();
    const record = { ...ledger.records[0], userAgent: '=cmd|" /C calc"!A0' } as (typeof ledger.records)[0];
    const row = toCsv([record]).split('\r\n')[1];
    expect(row).toContain(`,"'=cmd|"" /C calc""!A0",`);
    expect(row?.split(',').some((cell) => /^[=+\-@]/.test(cell))).toBe(false);
  });

  it('writes one CSV row per record with every column, statements as canonical JSON', async () => {
    const ledger = await fixture();
    const csv = toCsv(ledger.records.slice(1, 2));
    const [header, row, end] = csv.split('\r\n');
    expect(header).toBe(csvColumns.join(','));
    expect(end).toBe('');
    expect(row).toContain(
      '"{""biometric_data_consent"":true,""identity_verification_consent"":true,""privacy_policy_consent"":true}"',
    );
    expect(
      row?.startsWith('auth0|alice,2,consent-2,https://tenant.example/,identity_verification,granted,'),
    ).toBe(true);
    // The first record's empty previousHash is an empty field, not "null".
    expect(toCsv(ledger.records.slice(0, 1)).split('\r\n')[1]).toMatch(/,,[0-9a-f]{64}$/);
  });

  it('writes JSON with the query, the summary, every break and the records', async () => {
    const ledger = await fixture();
    const report = await auditConsents(ledger, { user: 'auth0|bob' });
    const json = JSON.parse(toJson(report));
    expect(json).toMatchObject({ ok: true, query: { user: 'auth0|bob' }, breaks: [] });
    expect(json.records).toEqual(report.records);
  });
});

describe('the command line options', () => {
  it('reads the documented flags', () => {
    expect(
      parseOptions([
        '--purpose',
        'identity_verification',
        '--from',
        '2026-11-01',
        '--to',
        '2026-11-30',
        '--format',
        'json',
        '--out',
        'audit.json',
        '--stack',
        '.local/stack.json',
      ]),
    ).toEqual({
      query: { purpose: 'identity_verification', from: '2026-11-01', to: '2026-11-30' },
      format: 'json',
      out: 'audit.json',
      stack: '.local/stack.json',
    });
  });

  it.each([[['--format', 'xml']], [['--bogus']], [['positional']]])('refuses %j', (argv) => {
    expect(() => parseOptions(argv)).toThrow(AuditUsageError);
  });
});

describe('the audit command line', () => {
  it('prints its usage for --help and exits 0', async () => {
    let out = '';
    const status = await main(['--help'], { stdout: (text) => (out += text), stderr: () => {}, env: {} });
    expect(status).toBe(0);
    expect(out).toContain('Usage: npm run audit:consents');
  });
});
