import { initialJsBudget, measureJs, measureSignedIn } from '#scripts/bench/web.ts';

const rows = await measureJs();
for (const r of rows)
  if (Number.isFinite(initialJsBudget(r.path)))
    console.log(r.path, r.gzip, initialJsBudget(r.path), r.chunks);
for (const l of ['en', 'de'] as const) {
  const s = await measureSignedIn(undefined, l);
  const k = s.routes.find((r) => r.path === '/kyc/persona');
  console.log(l, 'kyc', k?.gzip, s.auth0Copies);
}
