import type { IncomingMessage } from 'node:http';
import { requestIsSecure } from '../access/session-cookie.js';
import type { HostConfig } from '../config/host-config.js';

/**
 * Where people reach the service, for the links it hands out (sign-in links, invitations): the configured public
 * address (`CEREBRO_PUBLIC_URL`), else the one this request came to.
 */
export const publicOrigin = (req: IncomingMessage, config: HostConfig): string =>
  config.publicUrl ||
  `${requestIsSecure(req, config.trustProxy) ? 'https' : 'http'}://${req.headers.host ?? `${config.host}:${config.port}`}`;
