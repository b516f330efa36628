import { createToken } from '@cerebro/sdk';
import type { KeyService } from '../access/key-service.js';
import type { SpaceApiConfig } from '../access/space-api-config.js';
import type { AdminService } from '../admin/admin-service.js';
import type { CreditPools } from '../credits/credit-pools.js';
import type { RequestPipeline } from '../http/pipeline.js';

/**
 * Tokens of the host services that only the composition root, the CLI and the host's routes resolve (never a service
 * of the container): they sit at the top of the import graph, so naming their classes makes no circle.
 */
export const HostRootTokens = {
  Admin: createToken<AdminService>('host:admin-service'),
  Keys: createToken<KeyService>('host:key-service'),
  Pipeline: createToken<RequestPipeline>('host:request-pipeline'),
  ApiConfig: createToken<SpaceApiConfig>('host:space-api-config'),
  CreditPools: createToken<CreditPools>('host:credit-pools'),
};
