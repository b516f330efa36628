// The files of a new plugin project (`cerebro plugins nuevo`): a free route, a paid route with a typed body, tests
// with the sdk's testing kit, and the project settings that build, test and pack it outside this repository.
// `__ID__` stands for the plugin id.

/** Where the project takes the two Cerebro packages from (`file:` paths to the tarballs `npm run build` packs). */
export interface KitPackages {
  sdk: string;
  host: string;
}

const INDEX_TS = `import { definePlugin, HostServices, Reply } from '@cerebro/sdk';

export default definePlugin({
  manifest: {
    id: '__ID__',
    version: '0.1.0',
    sdk: '^2.0.0',
    title: '__ID__',
    description: 'Módulo __ID__ de Cerebro.',
    needs: [HostServices.Logger],
    routes: [
      { id: 'saludo', method: 'GET', path: '/saludo', permission: 'lee', summary: 'Saluda al espacio' },
      {
        id: 'eco', method: 'POST', path: '/eco', permission: 'escribe', credits: 1, summary: 'Devuelve el texto recibido (1 crédito)',
        requestSchema: {
          type: 'object', required: ['texto'], additionalProperties: false,
          properties: { texto: { type: 'string', minLength: 1, maxLength: 200 } },
        },
      },
    ],
  },
  setup(scope) {
    const log = scope.resolve(HostServices.Logger);
    return {
      handlers: {
        saludo: (req) => ({ saludo: \`Hola desde __ID__, \${req.space.id}\` }),
        eco: (req) => {
          const { texto } = req.body; // typed { texto: string } from requestSchema, which the host enforced
          log.info({ longitud: texto.length }, 'eco');
          return Reply.json(201, { texto });
        },
      },
    };
  },
});
`;

const INDEX_TEST_TS = `import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestHost } from '@cerebro/sdk/testing';
import plugin from './index.js';

test('saluda al espacio con una clave de lectura', async (t) => {
  const h = await startTestHost(t, { plugins: [plugin] });
  const res = await h.client.get(\`/mod/__ID__/\${h.spaceId}/saludo\`, { key: h.readKey });
  assert.equal(res.status, 200);
  assert.deepEqual(res.body, { saludo: \`Hola desde __ID__, \${h.spaceId}\` });
});

test('eco cuesta 1 crédito; un cuerpo no válido es un 422 que no se cobra', async (t) => {
  const h = await startTestHost(t, { plugins: [plugin], credits: 1 });
  const eco = (json: unknown) => h.client.post(\`/mod/__ID__/\${h.spaceId}/eco\`, { json });
  assert.equal((await eco({ texto: 'hola', otro: 1 })).status, 422);
  const res = await eco({ texto: 'hola' });
  assert.equal(res.status, 201);
  assert.deepEqual(res.body, { texto: 'hola' });
  assert.equal((await eco({ texto: 'sin saldo' })).status, 402);
});

test('una clave de lectura no puede usar eco', async (t) => {
  const h = await startTestHost(t, { plugins: [plugin] });
  const res = await h.client.post(\`/mod/__ID__/\${h.spaceId}/eco\`, { json: { texto: 'hola' }, key: h.readKey });
  assert.equal(res.status, 403);
});
`;

const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    lib: ['ES2023'],
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    strict: true,
    declaration: true,
    composite: true,
    skipLibCheck: true,
    types: ['node'],
    rootDir: 'src',
    outDir: 'dist',
  },
  include: ['src'],
};

const README = `# cerebro-plugin-__ID__

Módulo \`__ID__\` de Cerebro, creado con \`cerebro plugins nuevo __ID__\`.

\`\`\`sh
npm install        # el sdk y el host de Cerebro desde sus paquetes (package.json), lo demás del registro
npm test           # compila y prueba con el kit de pruebas del sdk (@cerebro/sdk/testing): un Cerebro real
npm pack           # cerebro-plugin-__ID__-0.1.0.tgz
\`\`\`

En el servidor: \`cerebro plugins add ./cerebro-plugin-__ID__-0.1.0.tgz\`, reinicia el servicio y habilita el
módulo en un espacio (la orden exacta la escribe \`plugins add\`). El manifiesto está en \`src/index.ts\`; la guía
completa, en la sección "Writing a plugin" del README de Cerebro.
`;

const GITIGNORE = 'node_modules/\ndist/\n*.tsbuildinfo\n*.tgz\n';

function packageJson(id: string, kit: KitPackages): object {
  return {
    name: `cerebro-plugin-${id}`,
    version: '0.1.0',
    description: `Módulo ${id} de Cerebro.`,
    type: 'module',
    keywords: ['cerebro-plugin'],
    main: './dist/index.js',
    types: './dist/index.d.ts',
    files: ['dist/**/*.js', 'dist/**/*.d.ts', '!dist/**/*.test.*', 'README.md'],
    cerebro: { id, plugin: './dist/index.js' },
    scripts: { build: 'tsc -b', test: 'tsc -b && node --test dist/', prepack: 'tsc -b' },
    // A peer: an installed plugin uses the sdk of the host that loads it (one copy: tokens and errors are shared).
    peerDependencies: { '@cerebro/sdk': '^2.0.0' },
    devDependencies: {
      '@cerebro/sdk': `file:${kit.sdk}`,
      '@cerebro/host': `file:${kit.host}`,
      '@types/node': '^20.19.0',
      typescript: '5.9.3',
    },
    // The host depends on the sdk too: the same tarball, not a registry lookup (the sdk is not published there).
    overrides: { '@cerebro/sdk': '$@cerebro/sdk' },
  };
}

/** The project's files, by path relative to its folder. */
export function pluginProjectFiles(id: string, kit: KitPackages): Record<string, string> {
  const json = (value: object) => `${JSON.stringify(value, null, 2)}\n`;
  return {
    'package.json': json(packageJson(id, kit)),
    'tsconfig.json': json(TSCONFIG),
    '.gitignore': GITIGNORE,
    'README.md': README.replaceAll('__ID__', id),
    'src/index.ts': INDEX_TS.replaceAll('__ID__', id),
    'src/index.test.ts': INDEX_TEST_TS.replaceAll('__ID__', id),
  };
}
