import * as z from 'zod/mini';
import { route } from './route.ts';

export const healthResponse = z.object({ status: z.literal('ok') });
export type HealthResponse = z.infer<typeof healthResponse>;

export const getHealthRoute = route('GetHealth', {
  auth: 'public',
  response: healthResponse,
  successStatus: 200,
  problems: [],
});
