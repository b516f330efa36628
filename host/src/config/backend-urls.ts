// Where shared storage lives when the service runs on several machines (issue #25): a PostgreSQL server instead of
// the SQLite files of the data folder, and a Redis server for the counters of limits. Both unset: the embedded
// defaults, and neither driver is ever loaded.

/** `CEREBRO_DATABASE_URL`: a `postgres://` or `postgresql://` URL, or null (SQLite in the data folder). */
export function parseDatabaseUrl(raw: string | undefined): string | null {
  return parseServerUrl(
    'CEREBRO_DATABASE_URL',
    raw,
    ['postgres:', 'postgresql:'],
    'postgres://usuario@servidor:5432/cerebro',
  );
}

/** `CEREBRO_REDIS_URL`: a `redis://` or `rediss://` URL, or null (limits counted in the database). */
export function parseRedisUrl(raw: string | undefined): string | null {
  return parseServerUrl('CEREBRO_REDIS_URL', raw, ['redis:', 'rediss:'], 'redis://servidor:6379/0');
}

function parseServerUrl(name: string, raw: string | undefined, protocols: string[], example: string): string | null {
  const value = (raw ?? '').trim();
  if (value === '') return null;
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  // The message never repeats the value: a URL may carry a password.
  if (!url || !protocols.includes(url.protocol) || url.hostname === '') {
    throw new Error(`${name} debe ser una dirección ${protocols.map((p) => `${p}//`).join(' o ')} como ${example}.`);
  }
  return value;
}

/** The URL without its password, for messages and logs. */
export function redactUrl(value: string): string {
  const url = new URL(value);
  if (url.password) url.password = '***';
  return url.toString();
}
