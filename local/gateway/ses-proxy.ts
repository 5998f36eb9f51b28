import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { createFaultKnob, faultSchemas } from '#local/faults.ts';
import { writeGatewayError } from './http-api.ts';

/** The SES v2 API, proxied to aws-ses-v2-local through the SES fault knob (ADR 0035). */
export const sesPath = '/__aws/ses';

export type SesFaultKnob = ReturnType<typeof createFaultKnob<typeof faultSchemas.ses>>;

/**
 * SES v2 in front of aws-ses-v2-local (`upstream`): a send the knob fails is answered as SES
 * throttles (429 `TooManyRequestsException`), so the SDK's own retries and the target's see the
 * real shape.
 */
export function createSesProxy(upstream: string, faults: SesFaultKnob) {
  return async (req: IncomingMessage, res: ServerResponse, url: URL, body: Buffer): Promise<void> => {
    const path = url.pathname.slice(sesPath.length);
    if (
      req.method === 'POST' &&
      path === '/v2/email/outbound-emails' &&
      faults.roll(faults.config?.sendFailureRate ?? 0, 'sendEmail')
    ) {
      const throttled = (faults.config?.failureStatus ?? 429) === 429;
      res.writeHead(throttled ? 429 : 503, {
        'content-type': 'application/json',
        'x-amzn-errortype': throttled ? 'TooManyRequestsException' : 'ServiceUnavailable',
        'x-amzn-requestid': randomUUID(),
      });
      return void res.end(
        JSON.stringify({
          message: throttled
            ? 'Injected fault: Maximum sending rate exceeded.'
            : 'Injected fault: Service unavailable.',
        }),
      );
    }
    try {
      const answer = await fetch(`${upstream}${path}${url.search}`, {
        method: req.method ?? 'GET',
        // As sent (aws-ses-v2-local wants to see the SDK's authorization), minus the hop's own.
        headers: Object.fromEntries(
          Object.entries(req.headers).flatMap(([key, value]) =>
            typeof value === 'string' && !['host', 'connection', 'content-length'].includes(key)
              ? [[key, value]]
              : [],
          ),
        ),
        ...(body.byteLength > 0 ? { body: new Uint8Array(body) } : {}),
      });
      const headers: Record<string, string> = {};
      answer.headers.forEach((value, key) => {
        if (key !== 'content-length' && key !== 'transfer-encoding' && key !== 'content-encoding')
          headers[key] = value;
      });
      res.writeHead(answer.status, headers);
      res.end(Buffer.from(await answer.arrayBuffer()));
    } catch (error) {
      writeGatewayError(res, 502, `SES upstream: ${String(error)}`);
    }
  };
}
