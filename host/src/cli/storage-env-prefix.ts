/** A shell word as typed: bare when it needs no quoting, otherwise in single quotes. */
const shellWord = (value: string): string =>
  /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replaceAll("'", `'\\''`)}'`;

/** The URL with its password, if any, shown as a placeholder to fill in, like the `<id>` of a hint. */
function withoutPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (!parsed.password) return url;
    return url.replace(`:${parsed.password}@`, ':<contraseña>@');
  } catch {
    return url;
  }
}

/**
 * The variables an administration command named in a hint needs to reach the same storage as the process printing
 * it, written before the command (`CEREBRO_DATA_DIR=/srv/cerebro npx cerebro admin …`), or '' on the defaults. A
 * server started with `CEREBRO_DATA_DIR=/tmp/x npm start` printed a bare `npx cerebro admin …`, which then looked
 * for a database in the checkout's `data/` and refused. The folder goes as the absolute path the process resolved
 * (the hint may be run from another directory); a database URL's password as a placeholder (a hint on stderr may
 * end up in a log).
 */
export function storageEnvPrefix(env: NodeJS.ProcessEnv, dataDir: string): string {
  const parts: string[] = [];
  if (env.CEREBRO_DATA_DIR) parts.push(`CEREBRO_DATA_DIR=${shellWord(dataDir)}`);
  if (env.CEREBRO_DATABASE_URL)
    parts.push(`CEREBRO_DATABASE_URL=${shellWord(withoutPassword(env.CEREBRO_DATABASE_URL))}`);
  return parts.map((part) => `${part} `).join('');
}
