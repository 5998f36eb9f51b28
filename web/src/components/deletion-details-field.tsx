import { Field, type TextControl } from '#web/components/field.tsx';

interface DetailsCopy {
  detailsLabel: string;
  detailsHint: string;
  optional: string;
}

/**
 * An erasure request's optional free text (`details` in lambdas/contracts/data-deletion.ts): the
 * same field on the public data-deletion form and on the account page, each with its own hint.
 */
export function DeletionDetailsField({ copy, ...control }: TextControl & { copy: DetailsCopy }) {
  return (
    <Field
      label={copy.detailsLabel}
      labelNote={copy.optional}
      hint={copy.detailsHint}
      multiline
      {...control}
    />
  );
}
