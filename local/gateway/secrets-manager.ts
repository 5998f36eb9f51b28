import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

// The `GetSecretValue` action of Secrets Manager (AWS JSON 1.1), so handlers read their secrets
// through the real `@aws-sdk/client-secrets-manager` locally too.

export function createSecretsManager(secrets: Record<string, string>) {
  const created = Date.now() / 1000;
  return (req: IncomingMessage, res: ServerResponse, body: Buffer) => {
    const reply = (status: number, payload: unknown, errorType?: string) => {
      res.writeHead(status, {
        'content-type': 'application/x-amz-json-1.1',
        'x-amzn-requestid': randomUUID(),
        ...(errorType ? { 'x-amzn-errortype': errorType } : {}),
      });
      res.end(JSON.stringify(payload));
    };
    if (req.headers['x-amz-target'] !== 'secretsmanager.GetSecretValue') {
      return reply(
        400,
        { __type: 'UnknownOperationException', message: 'Unsupported operation' },
        'UnknownOperationException',
      );
    }
    let secretId: unknown;
    try {
      secretId = JSON.parse(body.toString('utf8')).SecretId;
    } catch {
      return reply(
        400,
        { __type: 'SerializationException', message: 'Invalid JSON' },
        'SerializationException',
      );
    }
    const value = typeof secretId === 'string' ? secrets[secretId] : undefined;
    if (value === undefined) {
      const message = "Secrets Manager can't find the specified secret.";
      return reply(400, { __type: 'ResourceNotFoundException', message }, 'ResourceNotFoundException');
    }
    return reply(200, {
      ARN: `arn:aws:secretsmanager:local:000000000000:secret:${String(secretId)}`,
      Name: secretId,
      SecretString: value,
      VersionId: 'local',
      VersionStages: ['AWSCURRENT'],
      CreatedDate: created,
    });
  };
}
