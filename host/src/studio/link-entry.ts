import type { Logger as PinoLogger } from 'pino';
import type { Polka } from 'polka';
import type { HostConfig } from '../config/host-config.js';
import { callerIp } from '../http/request-context.js';
import type { Lifecycle } from '../kernel/lifecycle.js';
import type { ConsoleSessions } from './console-sessions.js';
import { startBrowserSession } from './session-start.js';
import type { SignInLinks } from './sign-in-links.js';
import { beginStudioAnswer, plainAnswer, redirectAnswer } from './studio-answers.js';

export interface LinkEntryDeps {
  config: HostConfig;
  log: PinoLogger;
  lifecycle: Lifecycle;
  sessions: ConsoleSessions;
  links: SignInLinks;
}

/**
 * `GET /studio/entrar?token=…`: a one-time sign-in link. A good token opens a session (origin `enlace`), sets the
 * cookie and sends the browser to the console; any other answers `/studio/?enlace=no-valido`, which the console
 * explains, and sets nothing. Like a request of the API it waits for readiness and counts as in flight.
 */
export function mountLinkEntry(app: Polka, deps: LinkEntryDeps): void {
  const { config, log } = deps;
  app.get('/studio/entrar', (req, res) => {
    beginStudioAnswer(req, res, log);
    try {
      deps.lifecycle.enter();
    } catch {
      res.setHeader('Retry-After', '5');
      return plainAnswer(res, 503, 'El servicio está arrancando o deteniéndose; reintenta en unos segundos.');
    }
    try {
      const ownerId = deps.links.consume((req.query as Record<string, unknown>).token);
      if (!ownerId) return redirectAnswer(res, 303, '/studio/?enlace=no-valido');
      const started = startBrowserSession(req, ownerId, 'enlace', callerIp(req, config.trustProxy), deps.sessions, config);
      log.info({ propietario: ownerId, sesion: started.id }, 'entrada en Studio con enlace de un solo uso');
      redirectAnswer(res, 303, '/studio/', { 'Set-Cookie': started.cookie });
    } catch (err) {
      log.error({ err }, 'no se pudo usar el enlace de entrada');
      plainAnswer(res, 500, 'Error interno del servidor.');
    } finally {
      deps.lifecycle.leave();
    }
  });
}
