import { createToken } from '@cerebro/sdk';
import type { AdminService } from '../admin/admin-service.js';

/** Token of the operator service inside the host container. */
export const AdminToken = createToken<AdminService>('host:admin-service');
