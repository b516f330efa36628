// A local S3-compatible server for tests (the `s3rver` package, a devDependency): started on a free 127.0.0.1 port
// with one bucket, files in a folder of the test's. Null, with the reason, when it cannot start (not installed, no
// port): the S3 cases are then skipped with that message.
import { mkdir } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The keys s3rver accepts (its documented defaults). */
export const LOCAL_S3_KEYS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

export interface LocalS3 {
  endpoint: string;
  bucket: string;
  /** The `CEREBRO_ARCHIVOS` value for `prefix` in this server's bucket, with its keys' variables. */
  env(prefix: string): Record<string, string>;
  close(): Promise<void>;
}

interface S3rverInstance {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
  httpServer?: Server;
}
type S3rverClass = new (options: Record<string, unknown>) => S3rverInstance;

export async function startLocalS3(
  directory: string,
  bucket = 'cerebro',
  port = 0,
): Promise<LocalS3 | { skip: string }> {
  let S3rver: S3rverClass;
  try {
    S3rver = ((await import('s3rver' as string)) as { default: S3rverClass }).default;
  } catch (err) {
    return { skip: `s3rver no está instalado (${(err as Error).message})` };
  }
  await mkdir(directory, { recursive: true });
  const server = new S3rver({
    address: '127.0.0.1',
    port,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  let address: AddressInfo;
  try {
    address = await server.run();
  } catch (err) {
    return { skip: `s3rver no arrancó (${(err as Error).message})` };
  }
  const endpoint = `http://127.0.0.1:${address.port}`;
  return {
    endpoint,
    bucket,
    env: (prefix) => ({
      CEREBRO_ARCHIVOS: `s3://${bucket}/${prefix}?endpoint=${endpoint}&region=us-east-1`,
      CEREBRO_ARCHIVOS_ACCESS_KEY: LOCAL_S3_KEYS.accessKeyId,
      CEREBRO_ARCHIVOS_SECRET_KEY: LOCAL_S3_KEYS.secretAccessKey,
    }),
    // Clients keep connections alive (a server process's agent): closed with the server, else close() waits for them.
    close: async () => {
      const closing = server.close();
      server.httpServer?.closeAllConnections();
      await closing;
    },
  };
}
