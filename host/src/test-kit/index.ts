// `@cerebro/host/test-kit`: what test kits need from the host beyond `startHost` (kept off the main entry point so that
// neither the embedded start nor the executable carries it).
export {
  dropScratchDatabases,
  scratchBackend,
  scratchPrefix,
  TEST_REDIS_URL,
  TEST_SERVER_URL,
  testBackend,
  type ScratchBackend,
  type ScratchOptions,
  type TestBackend,
} from './scratch-backend.js';
export { dropFinishedScratchDatabases } from './scratch-sweeper.js';
export { dropWithPluginRoles } from './scratch-server.js';
export { LOCAL_S3_KEYS, startLocalS3, type LocalS3 } from './local-s3.js';
