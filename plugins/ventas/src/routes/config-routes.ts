import { validationError, type RouteHandler } from '@cerebro/sdk';
import { applyLeadsConfigPatch } from '../agent/index.js';
import type { LeadsConfigStore } from '../store/config-store.js';
import { fieldIssues } from './validation.js';

/** GET and PATCH `/leads-config`: the agent settings (PATCH changes only the fields sent). */
export function configHandlers(store: LeadsConfigStore) {
  return {
    getLeadsConfig: (req) => store.get(req.space.id),
    patchLeadsConfig: async (req) => {
      const result = applyLeadsConfigPatch(await store.get(req.space.id), req.body ?? {});
      if (!result.ok) throw validationError(fieldIssues(result.errores));
      await store.save(req.space.id, result.config);
      return result.config;
    },
  } satisfies Record<string, RouteHandler>;
}
