import 'reflect-metadata';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { container } from 'tsyringe';
import { AnswerCacheRepositoryToken } from '../storage/port/answer-cache-repository.js';
import { ConversationRepositoryToken } from '../storage/port/conversation-repository.js';
import { CreditLedgerRepositoryToken } from '../storage/port/credit-ledger-repository.js';
import { DocumentJobRepositoryToken, DocumentReadsNowToken } from '../storage/port/document-job-repository.js';
import { DocumentLabelRepositoryToken } from '../storage/port/document-label-repository.js';
import { DocumentOriginRepositoryToken, DocumentOriginsNowToken } from '../storage/port/document-origin-repository.js';
import { PassageIndexRepositoryToken } from '../storage/port/passage-index-repository.js';
import { MetricsRepositoryToken } from '../storage/port/metrics-repository.js';
import { RagSettingsRepositoryToken } from '../storage/port/rag-settings-repository.js';
import { VectorRepositoriesToken } from '../storage/port/vector-repository.js';
import { WebhookRepositoryToken } from '../storage/port/webhook-repository.js';
import { createPgPool } from '../storage/postgres/pg-driver.js';
import { resolveToken } from '../kernel/resolve.js';
import { PgPluginSchemasToken, registerPgContentRepositories } from './pg-content-repositories.js';

test('every content repository resolves to its PostgreSQL implementation; the synchronous reads refuse', async () => {
  // A pool opens no connection until it is used.
  const pool = await createPgPool('postgres://nadie@127.0.0.1:1/ninguna');
  try {
    const c = container.createChildContainer();
    registerPgContentRepositories(c, pool);
    const names = [
      CreditLedgerRepositoryToken,
      WebhookRepositoryToken,
      MetricsRepositoryToken,
      AnswerCacheRepositoryToken,
      RagSettingsRepositoryToken,
      ConversationRepositoryToken,
      DocumentLabelRepositoryToken,
      DocumentJobRepositoryToken,
      PassageIndexRepositoryToken,
      DocumentOriginRepositoryToken,
      VectorRepositoriesToken,
      PgPluginSchemasToken,
    ].map((token) => (c.resolve(token) as object).constructor.name);
    assert.ok(
      names.every((n) => n.startsWith('Pg')),
      names.join(', '),
    );
    // The sdk's deprecated synchronous reads name their async replacements instead of reading a local file.
    assert.throws(() => resolveToken(c, DocumentReadsNowToken).getByNameNow('s', 'a.txt'), /usa Documents\.find\./);
    assert.throws(
      () => resolveToken(c, DocumentOriginsNowToken).ofModuleNow('s', 'fuentes'),
      /usa Documents\.findOwn\./,
    );
  } finally {
    await pool.end();
  }
});

test('importing the registration does not load the pg driver (the embedded start must not carry it)', () => {
  // A resolve hook that fails the import of "pg": the child prints only if nothing reached from here asks for it.
  const module = fileURLToPath(new URL('./pg-content-repositories.js', import.meta.url));
  const probe = `import('node:module').then(async (m) => {
    m.register('data:text/javascript,export async function resolve(s, c, n) { if (s === "pg") throw new Error("pg cargado"); return n(s, c); }');
    await import(${JSON.stringify(module)});
    console.log('sin pg');
  })`;
  assert.equal(execFileSync(process.execPath, ['-e', probe], { encoding: 'utf8' }).trim(), 'sin pg');
});
