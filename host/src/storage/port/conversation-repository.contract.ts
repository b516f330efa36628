import assert from 'node:assert/strict';
import { contractCase } from './contract-case.js';
import type { ConversationRepository, Exchange } from './conversation-repository.js';

/** A conversation repository under test and a second handle on the same storage. */
export interface ConversationFixture {
  repo: ConversationRepository;
  other: ConversationRepository;
  close(): Promise<void>;
}

const exchange = (question: string, found: boolean, extra: Partial<Exchange> = {}): Exchange => ({
  question,
  questionNorm: question.toLowerCase().replace(/[¿?]/g, '').trim(),
  answer: found ? `Respuesta a ${question}` : 'No lo encuentro.',
  sources: found ? '[{"documento":"guia.md"}]' : '[]',
  found,
  relevance: found ? 0.8 : 0,
  cached: false,
  ...extra,
});

/** The behaviour every conversation repository must have, whatever its database. */
export function conversationRepositoryContract(name: string, make: () => Promise<ConversationFixture>): void {
  const withRepo = contractCase(name, make);

  withRepo('a conversation belongs to its space; exchanges read back in order with their details', async ({ repo }) => {
    await repo.create('uno', 'c1', [], '2026-03-01T10:00:00.000Z');
    assert.equal(await repo.exists('uno', 'c1'), true);
    assert.equal(await repo.exists('dos', 'c1'), false);
    await repo.recordExchange('c1', exchange('¿Horario?', true), '2026-03-01T10:01:00.000Z');
    await repo.recordExchange('c1', exchange('¿Sábados?', false, { cached: true }), '2026-03-01T10:02:00.000Z');
    assert.equal(await repo.conversation('dos', 'c1'), null);
    const stored = (await repo.conversation('uno', 'c1'))!;
    assert.deepEqual([stored.createdAt, stored.updatedAt], ['2026-03-01T10:00:00.000Z', '2026-03-01T10:02:00.000Z']);
    assert.deepEqual(
      stored.messages.map((m) => [m.seq, m.role, m.content, m.found, m.cached]),
      [
        [1, 'user', '¿Horario?', null, null],
        [2, 'assistant', 'Respuesta a ¿Horario?', 1, 0],
        [3, 'user', '¿Sábados?', null, null],
        [4, 'assistant', 'No lo encuentro.', 0, 1],
      ],
    );
    assert.deepEqual(stored.messages[1]?.sources, '[{"documento":"guia.md"}]');
    assert.deepEqual(await repo.recentMessages('c1', 2), [
      { role: 'user', content: '¿Sábados?' },
      { role: 'assistant', content: 'No lo encuentro.' },
    ]);
  });

  withRepo('a conversation created with earlier turns continues after them', async ({ repo }) => {
    const turns = [
      { role: 'user' as const, content: 'Hola' },
      { role: 'assistant' as const, content: '¿En qué ayudo?' },
    ];
    await repo.create('uno', 'c1', turns, '2026-03-01T10:00:00.000Z');
    await repo.recordExchange('c1', exchange('¿Horario?', true), '2026-03-01T10:01:00.000Z');
    const stored = (await repo.conversation('uno', 'c1'))!;
    assert.deepEqual(
      stored.messages.map((m) => [m.seq, m.content]),
      [
        [1, 'Hola'],
        [2, '¿En qué ayudo?'],
        [3, '¿Horario?'],
        [4, 'Respuesta a ¿Horario?'],
      ],
    );
  });

  withRepo('exchanges recorded at once from two handles never share a turn', async (f) => {
    await f.repo.create('uno', 'c1', [], '2026-03-01T10:00:00.000Z');
    await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        (i % 2 ? f.other : f.repo).recordExchange('c1', exchange(`¿Pregunta ${i}?`, true), '2026-03-01T10:01:00.000Z'),
      ),
    );
    const stored = (await f.repo.conversation('uno', 'c1'))!;
    assert.deepEqual(
      stored.messages.map((m) => m.seq),
      Array.from({ length: 12 }, (_, i) => i + 1),
    );
    for (let i = 0; i < 12; i += 2)
      assert.equal(
        stored.messages[i + 1]?.content,
        `Respuesta a ${stored.messages[i]?.content}`,
        'pairs stay together',
      );
  });

  withRepo('ratings are stored per turn, replaced, and only for turns of the space', async ({ repo }) => {
    await repo.create('uno', 'c1', [], '2026-03-01T10:00:00.000Z');
    await repo.recordExchange('c1', exchange('¿Horario?', true), '2026-03-01T10:01:00.000Z');
    assert.equal(await repo.rate('dos', 'c1', 1, 'positiva', null, '2026-03-01T11:00:00.000Z'), false);
    assert.equal(await repo.rate('uno', 'c1', 2, 'positiva', null, '2026-03-01T11:00:00.000Z'), false);
    assert.equal(await repo.rate('uno', 'c1', 1, 'positiva', null, '2026-03-01T11:00:00.000Z'), true);
    assert.equal(await repo.rate('uno', 'c1', 1, 'negativa', 'Incompleta', '2026-03-01T12:00:00.000Z'), true);
    assert.deepEqual((await repo.conversation('uno', 'c1'))!.ratings, [
      { turn: 1, rating: 'negativa', comment: 'Incompleta', updatedAt: '2026-03-01T12:00:00.000Z' },
    ]);
  });

  withRepo('lists count turns, unanswered answers and ratings, newest first within the range', async ({ repo }) => {
    await repo.create('uno', 'vacia', [], '2026-03-01T09:00:00.000Z');
    await repo.create('uno', 'c1', [], '2026-03-01T10:00:00.000Z');
    await repo.recordExchange('c1', exchange('¿Horario?', true), '2026-03-01T10:01:00.000Z');
    await repo.recordExchange('c1', exchange('¿Sábados?', false), '2026-03-01T10:02:00.000Z');
    await repo.rate('uno', 'c1', 1, 'positiva', null, '2026-03-01T10:03:00.000Z');
    await repo.create('uno', 'c2', [], '2026-03-02T10:00:00.000Z');
    await repo.recordExchange('c2', exchange('¿Precio?', true), '2026-03-02T10:01:00.000Z');
    const all = await repo.list('uno', {}, { limit: 10, offset: 0 });
    assert.equal(all.total, 2, 'a conversation without messages is not listed');
    assert.deepEqual(
      all.conversations.map((c) => [c.id, c.turns, c.firstQuestion, c.unanswered, c.positive, c.negative]),
      [
        ['c2', 1, '¿Precio?', 0, 0, 0],
        ['c1', 2, '¿Horario?', 1, 1, 0],
      ],
    );
    const before = await repo.list('uno', { until: '2026-03-02T00:00:00.000Z' }, { limit: 10, offset: 0 });
    assert.deepEqual(
      before.conversations.map((c) => c.id),
      ['c1'],
    );
    assert.equal((await repo.list('dos', {}, { limit: 10, offset: 0 })).total, 0);
  });

  withRepo('unanswered questions group the same question asked again, most asked first', async ({ repo }) => {
    await repo.create('uno', 'c1', [], '2026-03-01T10:00:00.000Z');
    await repo.create('uno', 'c2', [], '2026-03-01T10:00:00.000Z');
    await repo.recordExchange('c1', exchange('¿Sábados?', false), '2026-03-01T10:01:00.000Z');
    await repo.recordExchange('c2', exchange('sábados', false), '2026-03-01T10:05:00.000Z');
    await repo.recordExchange('c2', exchange('¿Domingos?', false), '2026-03-01T10:06:00.000Z');
    await repo.recordExchange('c2', exchange('¿Horario?', true), '2026-03-01T10:07:00.000Z');
    const page = await repo.unanswered('uno', {}, { limit: 10, offset: 0 });
    assert.equal(page.total, 2);
    assert.deepEqual(page.questions, [
      { question: 'sábados', times: 2, lastAt: '2026-03-01T10:05:00.000Z', lastConversation: 'c2' },
      { question: '¿Domingos?', times: 1, lastAt: '2026-03-01T10:06:00.000Z', lastConversation: 'c2' },
    ]);
    assert.equal(
      (await repo.unanswered('uno', { since: '2026-03-01T10:06:00.000Z' }, { limit: 10, offset: 0 })).total,
      1,
    );
  });
}
