// A small evaluator of the WAF statements the edge stack synthesizes (CloudFormation's PascalCase
// shape), written from WAF's documentation rather than from lambdas/http/edge.ts, so a test can ask
// whether a request would be counted by the rule as deployed.

export interface WafRequest {
  method: string;
  /** The path as the viewer sent it (percent-encoding and case untouched). */
  uriPath: string;
}

type Statement = Record<string, unknown>;
type Transformation = { Priority: number; Type: string };

const transforms: Record<string, (value: string) => string> = {
  NONE: (value) => value,
  LOWERCASE: (value) => value.toLowerCase(),
  URL_DECODE: (value) =>
    value.replace(/%([0-9a-f]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))),
};

function field(request: WafRequest, fieldToMatch: Record<string, unknown>): string {
  if ('UriPath' in fieldToMatch) return request.uriPath;
  if ('Method' in fieldToMatch) return request.method;
  throw new Error(`field not emulated: ${JSON.stringify(fieldToMatch)}`);
}

export function matches(statement: Statement, request: WafRequest): boolean {
  if (statement.AndStatement)
    return (statement.AndStatement as { Statements: Statement[] }).Statements.every((s) =>
      matches(s, request),
    );
  if (statement.OrStatement)
    return (statement.OrStatement as { Statements: Statement[] }).Statements.some((s) => matches(s, request));
  if (statement.NotStatement)
    return !matches((statement.NotStatement as { Statement: Statement }).Statement, request);
  const byte = statement.ByteMatchStatement as
    | {
        FieldToMatch: Record<string, unknown>;
        PositionalConstraint: string;
        SearchString: string;
        TextTransformations: Transformation[];
      }
    | undefined;
  if (!byte) throw new Error(`statement not emulated: ${Object.keys(statement).join()}`);
  const value = [...byte.TextTransformations]
    .sort((a, b) => a.Priority - b.Priority)
    .reduce(
      (current, t) => {
        const apply = transforms[t.Type];
        if (!apply) throw new Error(`transformation not emulated: ${t.Type}`);
        return apply(current);
      },
      field(request, byte.FieldToMatch),
    );
  const search = byte.SearchString;
  switch (byte.PositionalConstraint) {
    case 'EXACTLY':
      return value === search;
    case 'STARTS_WITH':
      return value.startsWith(search);
    case 'ENDS_WITH':
      return value.endsWith(search);
    case 'CONTAINS':
      return value.includes(search);
    default:
      throw new Error(`constraint not emulated: ${byte.PositionalConstraint}`);
  }
}
