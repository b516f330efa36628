import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Conversation, PERSONA } from './test-fixtures.js';
import { wordingMessages } from './wording.js';
import type { WordingRequest } from './ports.js';

test('external wording with the right figures is sent; the model gets persona and draft', async () => {
  const seen: WordingRequest[] = [];
  const conv = new Conversation({
    brand: undefined,
    deps: {
      wording: {
        reword: async (req) => {
          seen.push(req);
          return '¡Claro! Las Zapatillas Runner valen 250.000 COP.';
        },
      },
    },
  });
  const r = await conv.say('¿cuánto cuestan las zapatillas?');
  assert.equal(r.redaccion, 'externa');
  assert.ok(r.respuesta!.startsWith('¡Claro! Las Zapatillas Runner valen 250.000 COP.'));
  assert.equal(seen[0].descripcion, PERSONA);
  assert.equal(seen[0].borrador, 'El precio de las zapatillas Runner es 250.000 COP.');
  const [system, user] = wordingMessages(seen[0]);
  assert.ok(system.content.startsWith(PERSONA));
  assert.match(system.content, /cada cifra exactamente/);
  assert.match(user.content, /BORRADOR:\nEl precio de las zapatillas Runner es 250\.000 COP\.$/);
});

test('external wording that fails, hangs or returns nothing falls back to the draft', async () => {
  const behaviours = [
    async () => {
      throw new Error('502');
    },
    () => new Promise<string>(() => undefined),
    async () => '   ',
  ];
  for (const reword of behaviours) {
    const conv = new Conversation({ deps: { wording: { reword }, timeoutMs: 20 } });
    const r = await conv.say('¿cuánto cuestan las zapatillas?');
    assert.equal(r.redaccion, 'plantilla');
    assert.ok(r.respuesta!.startsWith('El precio de las zapatillas Runner es 250.000 COP.'));
  }
});

test('a hand-off is never reworded', async () => {
  let calls = 0;
  const conv = new Conversation({
    deps: {
      wording: {
        reword: async () => {
          calls++;
          return 'x';
        },
      },
    },
  });
  const r = await conv.say('quiero hablar con una persona');
  assert.equal(r.tipo, 'derivacion');
  assert.equal(calls, 0);
});
