import { createToken } from '@cerebro/sdk';
import type { KeyManagement, SpaceApiSettings } from '../access/access-services.js';
import type { AdminActions } from '../admin/admin-services.js';
import type { OwnerCreditPools } from '../credits/credit-services.js';
import type { RoutePipeline } from '../http/http-services.js';
import type { OwnSpaces } from '../studio/own-space-services.js';

/**
 * Tokens of the host services that only the composition root, the CLI and the host's routes resolve (never a service
 * of the container), typed by interfaces like every other token: their modules import no implementing class.
 */
export const HostRootTokens = {
  Admin: createToken<AdminActions>('host:admin-service'),
  Keys: createToken<KeyManagement>('host:key-service'),
  Pipeline: createToken<RoutePipeline>('host:request-pipeline'),
  ApiConfig: createToken<SpaceApiSettings>('host:space-api-config'),
  CreditPools: createToken<OwnerCreditPools>('host:credit-pools'),
  OwnSpaces: createToken<OwnSpaces>('host:own-spaces'),
};
