// The shape a translation must have (ADR 0089): `web/src/content/de/<file>.ts` exports what
// `web/src/content/<file>.ts` exports, each value `satisfies Localized<typeof en.value>`: the same
// keys, lists and functions, with any string where the English has a literal. A key missing in
// the German file, or one the English does not have, fails `npm run typecheck`; the translation
// test (tests/web/content/translations.test.ts) also compares the modules' exports and lists.
export type Localized<T> = T extends string
  ? string
  : T extends (...args: infer A) => infer R
    ? (...args: A) => Localized<R>
    : // Objects, and lists (a tuple keeps its length: a translation has as many paragraphs).
      T extends object
      ? { readonly [K in keyof T]: Localized<T[K]> }
      : T;
