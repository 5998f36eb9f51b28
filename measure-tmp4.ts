import { measureJs } from '#scripts/bench/web.ts';

console.log(
  (await measureJs())
    .filter((r) => r.schemas)
    .map((r) => r.path)
    .join(' '),
);
