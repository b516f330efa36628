// `CEREBRO_ARCHIVOS`: where document originals live (issue #25). Unset: the data folder. `fs:<dir>`: a folder every
// host mounts. `s3://bucket[/prefix][?endpoint=…&region=…&path_style=true|false]`: an S3-compatible store (AWS S3,
// MinIO, Ceph, Garage…), its keys from CEREBRO_ARCHIVOS_ACCESS_KEY / CEREBRO_ARCHIVOS_SECRET_KEY or the standard
// AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY (and AWS_SESSION_TOKEN). Keys never go in the URL: it is logged.
import { isAbsolute, resolve } from 'node:path';

export interface S3Location {
  bucket: string;
  /** Key prefix, empty or ending in `/`. */
  prefix: string;
  /** `http(s)://host[:port]` of the server; AWS's regional endpoint when not given. */
  endpoint: string;
  region: string;
  /** `endpoint/bucket/key` (MinIO and most self-hosted servers) instead of `bucket.endpoint/key` (AWS). */
  pathStyle: boolean;
}

export interface S3Credentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

export type OriginalsSetting =
  | { kind: 'carpeta_de_datos' }
  | { kind: 'carpeta'; dir: string }
  | { kind: 's3'; location: S3Location; credentials: S3Credentials };

const EXAMPLE = 'fs:/srv/cerebro/archivos o s3://cubo/prefijo?endpoint=http://127.0.0.1:9000&region=us-east-1';
const S3_PARAMS = new Set(['endpoint', 'region', 'path_style']);

const refuse = (why: string): never => {
  throw new Error(`CEREBRO_ARCHIVOS ${why} (por ejemplo ${EXAMPLE}).`);
};

export function parseOriginalsSetting(env: NodeJS.ProcessEnv): OriginalsSetting {
  const value = (env.CEREBRO_ARCHIVOS ?? '').trim();
  if (value === '') return { kind: 'carpeta_de_datos' };
  if (value.startsWith('fs:')) {
    const dir = value.slice(3);
    if (!isAbsolute(dir)) refuse('fs: necesita una ruta absoluta');
    return { kind: 'carpeta', dir: resolve(dir) };
  }
  if (value.startsWith('s3://')) return { kind: 's3', location: parseS3(value), credentials: s3Credentials(env) };
  return refuse('debe empezar por fs: o s3://');
}

function parseS3(value: string): S3Location {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (!url || url.hostname === '') return refuse('no es una dirección s3://cubo/prefijo válida');
  if (url.username || url.password)
    refuse('no admite claves en la dirección: usa CEREBRO_ARCHIVOS_ACCESS_KEY y CEREBRO_ARCHIVOS_SECRET_KEY');
  for (const name of url.searchParams.keys())
    if (!S3_PARAMS.has(name)) refuse(`no conoce el parámetro "${name}" (admite endpoint, region y path_style)`);
  const region = url.searchParams.get('region') || 'us-east-1';
  const given = url.searchParams.get('endpoint');
  let endpoint = `https://s3.${region}.amazonaws.com`;
  if (given) {
    const parsed = URL.canParse(given) ? new URL(given) : null;
    if (!parsed || !['http:', 'https:'].includes(parsed.protocol) || parsed.pathname.replace(/\/+$/, '') !== '')
      refuse('necesita un endpoint http(s)://servidor[:puerto] sin ruta');
    endpoint = parsed!.origin;
  }
  const style = url.searchParams.get('path_style');
  if (style !== null && style !== 'true' && style !== 'false') refuse('admite path_style=true o path_style=false');
  const path = decodeURIComponent(url.pathname).replace(/^\/+|\/+$/g, '');
  return {
    bucket: url.hostname,
    prefix: path === '' ? '' : `${path}/`,
    endpoint,
    region,
    pathStyle: style === null ? given !== null : style === 'true',
  };
}

function s3Credentials(env: NodeJS.ProcessEnv): S3Credentials {
  const accessKeyId = env.CEREBRO_ARCHIVOS_ACCESS_KEY || env.AWS_ACCESS_KEY_ID;
  const secretAccessKey = env.CEREBRO_ARCHIVOS_SECRET_KEY || env.AWS_SECRET_ACCESS_KEY;
  if (!accessKeyId || !secretAccessKey)
    return refuse(
      'pide un almacén S3, pero faltan las claves: define CEREBRO_ARCHIVOS_ACCESS_KEY y CEREBRO_ARCHIVOS_SECRET_KEY (o AWS_ACCESS_KEY_ID y AWS_SECRET_ACCESS_KEY)',
    );
  const sessionToken = env.CEREBRO_ARCHIVOS_ACCESS_KEY ? undefined : env.AWS_SESSION_TOKEN;
  return { accessKeyId, secretAccessKey, ...(sessionToken ? { sessionToken } : {}) };
}

/** The setting as health and logs may show it (never keys). */
export function describeOriginals(setting: OriginalsSetting): string {
  if (setting.kind === 'carpeta') return `fs:${setting.dir}`;
  if (setting.kind === 's3') return `s3://${setting.location.bucket}/${setting.location.prefix}`;
  return 'carpeta de datos';
}
