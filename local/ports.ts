// Every port of the local stack, overridable by environment variables (docs/design.md section 8).
export interface LocalPorts {
  web: number;
  api: number;
  idp: number;
  persona: number;
  ses: number;
  dynamodb: number;
  /** The AppSync Events emulator: real-time WebSocket and HTTP publish (ADR 0060). */
  realtime: number;
}

export const defaultPorts: LocalPorts = {
  web: 5173,
  api: 3000,
  idp: 4010,
  persona: 4020,
  ses: 8005,
  dynamodb: 8000,
  realtime: 4030,
};

/** The variable that sets each port: read here, set by `spawnStack` for a child stack. */
export const portEnvNames: Record<keyof LocalPorts, string> = {
  web: 'WEB_PORT',
  api: 'API_PORT',
  idp: 'IDP_PORT',
  persona: 'PERSONA_PORT',
  ses: 'SES_PORT',
  dynamodb: 'DYNAMODB_PORT',
  realtime: 'REALTIME_PORT',
};

export function portsFromEnv(env: NodeJS.ProcessEnv = process.env): LocalPorts {
  const ports = { ...defaultPorts };
  for (const key of Object.keys(portEnvNames) as (keyof LocalPorts)[]) {
    const raw = env[portEnvNames[key]];
    if (raw === undefined || raw === '') continue;
    const port = Number(raw);
    if (!Number.isInteger(port) || port < 1 || port > 65535) {
      throw new Error(`${portEnvNames[key]} must be a port number between 1 and 65535, got "${raw}"`);
    }
    ports[key] = port;
  }
  return ports;
}
