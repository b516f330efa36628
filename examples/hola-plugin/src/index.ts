import { definePlugin, HostServices, invalidField, Reply } from '@cerebro/sdk';

/** Longest greeting a space may store. */
const MAX_TEXT = 200;

export default definePlugin({
  manifest: {
    id: 'hola',
    version: '1.0.0',
    sdk: '^2.0.0',
    title: 'Hola',
    description: 'Plugin de ejemplo: saluda y guarda saludos por espacio.',
    needs: [HostServices.Database],
    migrations: [
      {
        id: '0001_saludos',
        sql: 'CREATE TABLE hola_saludos (id INTEGER PRIMARY KEY, space_id TEXT NOT NULL, texto TEXT NOT NULL)',
      },
    ],
    // The same table for a host on PostgreSQL (CEREBRO_DATABASE_URL): same id, PostgreSQL's dialect.
    postgresMigrations: [
      {
        id: '0001_saludos',
        sql: 'CREATE TABLE hola_saludos (id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY, space_id TEXT NOT NULL, texto TEXT NOT NULL)',
      },
    ],
    routes: [
      { id: 'saludo', method: 'GET', path: '/saludo', permission: 'lee', summary: 'Saluda al espacio' },
      { id: 'listar', method: 'GET', path: '/saludos', permission: 'lee', summary: 'Saludos guardados en el espacio' },
      {
        id: 'guardar',
        method: 'POST',
        path: '/saludos',
        permission: 'escribe',
        credits: 2,
        summary: 'Guarda un saludo (2 créditos)',
        requestSchema: {
          type: 'object',
          required: ['texto'],
          additionalProperties: false,
          properties: { texto: { type: 'string', minLength: 1, maxLength: MAX_TEXT } },
        },
      },
    ],
  },
  setup(scope) {
    // The plugin's own database: async, `?` parameters bound in order (never interpolated), the same calls on
    // SQLite and on PostgreSQL.
    const db = scope.resolve(HostServices.Database);
    return {
      handlers: {
        saludo: (req) => ({ saludo: `Hola, ${req.space.id}` }),
        listar: async (req) => {
          const rows = await db.query<{ texto: string }>(
            'SELECT texto FROM hola_saludos WHERE space_id = ? ORDER BY id',
            [req.space.id],
          );
          return { saludos: rows.map((row) => row.texto) };
        },
        guardar: async (req) => {
          const { texto } = req.body; // typed { texto: string } from requestSchema, which the host enforced
          if (texto.trim() === '') throw invalidField('texto', 'El saludo no puede estar en blanco.');
          await db.execute('INSERT INTO hola_saludos (space_id, texto) VALUES (?, ?)', [req.space.id, texto]);
          return Reply.json(201, { texto });
        },
      },
    };
  },
});
