import 'reflect-metadata';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Answer } from '../cerebro/index.js';
import { openDatabase } from '../storage/database.js';
import { applyMigrations } from '../storage/migrator.js';
import { HOST_MIGRATIONS } from '../storage/migrations/index.js';
import { ConversationStore } from './conversations.js';
import { RecordedConversations } from './recorded-conversations.js';
import { SqliteConversationRepository } from '../storage/sqlite/conversation-repository.js';

const NOT_FOUND: Answer = {
  text: 'No encuentro esa información.',
  found: false,
  engine: 'extractive',
  model: null,
  sources: [],
  usage: { passages: 0, promptTokens: 0, completionTokens: 0, ms: 1 },
};

test('turns recorded before migration 0014 read back with null answer details; later ones with everything', async () => {
  const db = openDatabase(':memory:');
  applyMigrations(db, { owner: 'host', migrations: HOST_MIGRATIONS.filter((m) => m.id < '0014') });
  // A conversation as the service recorded it before: sources as bare ids, nothing about the answer.
  db.exec(`INSERT INTO cerebro_conversations VALUES ('conv_viejo', 'uno', '2026-01-01T10:00:00.000Z', '2026-01-01T10:00:00.000Z');
    INSERT INTO cerebro_messages (conversation_id, seq, role, content, sources, created_at) VALUES
      ('conv_viejo', 1, 'user', '¿Horario?', NULL, '2026-01-01T10:00:00.000Z'),
      ('conv_viejo', 2, 'assistant', 'De 9 a 5 [1].', '[{"documento":"d1","pasaje":3}]', '2026-01-01T10:00:00.000Z');`);
  applyMigrations(db, { owner: 'host', migrations: HOST_MIGRATIONS });

  let clock = Date.parse('2026-02-01T10:00:00.000Z');
  const now = () => clock;
  const repo = new SqliteConversationRepository(db);
  const store = new ConversationStore(repo, now);
  const log = new RecordedConversations(repo, now);
  await store.record('conv_viejo', '¿Y los sábados?', NOT_FOUND, false);

  const read = (await log.get('uno', 'conv_viejo'))!;
  assert.deepEqual(
    read.turns.map((t) => [t.turn, t.question, t.found, t.relevance, t.cached, t.sources]),
    [
      [1, '¿Horario?', null, null, null, []],
      [2, '¿Y los sábados?', false, 0, false, []],
    ],
  );
  assert.equal(await log.get('otro', 'conv_viejo'), null, 'an id of another space is not found');

  // The old turn can be rated; another space cannot rate it; a turn beyond the last is refused.
  clock += 1000;
  assert.deepEqual(await log.rate('uno', 'conv_viejo', 1, 'positiva', null), {
    rating: 'positiva',
    comment: null,
    at: '2026-02-01T10:00:01.000Z',
  });
  assert.equal(await log.rate('otro', 'conv_viejo', 1, 'negativa', null), null);
  assert.equal(await log.rate('uno', 'conv_viejo', 3, 'negativa', null), null);
  assert.equal((await log.get('uno', 'conv_viejo'))!.turns[0]!.rating?.rating, 'positiva');

  // Only answers known to be unanswered are listed (the old turn's is unknown); dates filter by when it was asked.
  const unanswered = await log.unanswered('uno', {}, { limit: 10, offset: 0 });
  assert.deepEqual(unanswered, {
    total: 1,
    questions: [
      { question: '¿Y los sábados?', times: 1, lastAt: '2026-02-01T10:00:00.000Z', lastConversation: 'conv_viejo' },
    ],
  });
  assert.equal((await log.unanswered('uno', { until: '2026-02-01T00:00:00.000Z' }, { limit: 10, offset: 0 })).total, 0);
  assert.equal((await log.list('uno', { since: '2026-01-15T00:00:00.000Z' }, { limit: 10, offset: 0 })).total, 1);
  assert.equal((await log.list('otro', {}, { limit: 10, offset: 0 })).total, 0);
  db.close();
});
