import { publicRouteKeys } from '#contracts/route-keys.ts';
import { createApiClient } from './api-client.ts';

/**
 * The public routes' client (no token). Apart from ./api-client.ts, which the signed-in pages load
 * too, so that they load no public route's path (`/kyc/persona` has a byte budget).
 */
export const api = createApiClient(publicRouteKeys);
