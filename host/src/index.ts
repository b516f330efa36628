import 'reflect-metadata';
import './main/no-onnx-telemetry.js';

export { startHost, type HostOptions, type RunningHost } from './main/start-host.js';
export { loadHostConfig, type HostConfig } from './config/host-config.js';
export type { CreatedKey } from './access/access-services.js';
export type { AdminActions } from './admin/admin-services.js';
export type { AdminService } from './admin/admin-service.js';
export { PluginError, type PluginErrorCode } from './plugins/plugin-error.js';
export { MigrationError, type MigrationErrorCode } from './storage/migrator.js';
export { openPluginDatabase } from './storage/open-plugin-database.js';
export { runCli } from './cli/run-cli.js';
export { logDestination } from './logging/logger.js';
