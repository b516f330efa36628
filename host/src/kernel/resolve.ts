import type { DependencyContainer } from 'tsyringe';
import { tokenName, type Token } from '@cerebro/sdk';

/** Typed resolution that refuses tokens nobody registered (tsyringe would otherwise try to build them). */
export function resolveToken<T>(container: DependencyContainer, token: Token<T>): T {
  if (!container.isRegistered(token, true))
    throw new Error(`Servicio no registrado en el contenedor: ${tokenName(token)}`);
  return container.resolve<T>(token);
}
