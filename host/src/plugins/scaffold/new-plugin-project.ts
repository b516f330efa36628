// `cerebro plugins nuevo <id>`: writes a plugin project that depends on the sdk and host tarballs of this checkout.
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { SDK_VERSION } from '@cerebro/sdk';
import { HOST_VERSION } from '../../main/version.js';
import { PLUGIN_ID } from '../manifest-validator.js';
import { reservedIdReason } from '../reserved-ids.js';
import { pluginProjectFiles, type KitPackages } from './plugin-template.js';

export interface NewPluginOptions {
  id: string;
  /** The project folder; created, or empty. */
  dir: string;
  /** The sdk and host tarballs; by default those `npm run build` packs into `<checkout>/dist-sdk/`. */
  sdk?: string;
  host?: string;
  /** The checkout the running host comes from (null: an installed package or the executable). */
  checkout: string | null;
}

/** The folder `npm run build` packs the sdk and host into (scripts/pack-plugin-kit.mjs). */
export const KIT_FOLDER = 'dist-sdk';

/** The two tarballs, checked to exist: a project pointing at a missing file fails only later, in `npm install`. */
function kitPackages(options: NewPluginOptions): KitPackages {
  const packed = (name: string, version: string) =>
    options.checkout ? join(options.checkout, KIT_FOLDER, `cerebro-${name}-${version}.tgz`) : undefined;
  const sdk = options.sdk ? resolve(options.sdk) : packed('sdk', SDK_VERSION);
  const host = options.host ? resolve(options.host) : packed('host', HOST_VERSION);
  for (const [what, file] of [
    ['sdk', sdk],
    ['host', host],
  ] as const) {
    if (!file || !existsSync(file)) {
      throw new Error(
        file
          ? `no encuentro el paquete del ${what} (${file}): ejecuta "npm run build" en el repositorio de Cerebro, o indica --${what} <archivo .tgz>.`
          : `indica el paquete del ${what} con --${what} <archivo .tgz> (lo genera "npm run build" en ${KIT_FOLDER}/ del repositorio de Cerebro).`,
      );
    }
  }
  return { sdk: sdk!, host: host! };
}

/** Writes the project; returns its absolute folder. Refuses a bad or reserved id and a folder with files in it. */
export function newPluginProject(options: NewPluginOptions): string {
  if (!PLUGIN_ID.test(options.id))
    throw new Error(
      `"${options.id}" no vale como id de plugin: minúsculas, cifras y guiones, empezando por una letra (2 a 32).`,
    );
  const reserved = reservedIdReason(options.id);
  if (reserved) throw new Error(reserved);
  const dir = resolve(options.dir);
  if (existsSync(dir) && readdirSync(dir).length > 0) throw new Error(`la carpeta ${dir} no está vacía.`);
  const kit = kitPackages(options);
  for (const [path, text] of Object.entries(pluginProjectFiles(options.id, kit))) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}
