import assert from 'node:assert/strict';
import { test } from 'node:test';
import { contrastRatio } from './contrast.js';
import { contrastFailures, THEMES } from './themes.js';

test('contrast ratio matches the WCAG reference values', () => {
  assert.equal(contrastRatio('#000000', '#ffffff').toFixed(2), '21.00');
  assert.equal(contrastRatio('#ffffff', '#ffffff').toFixed(2), '1.00');
  // #767676 on white is the classic lightest AA grey (4.54:1).
  assert.equal(contrastRatio('#767676', '#ffffff').toFixed(2), '4.54');
});

test('every theme keeps every text pair at AA (4.5:1) or better', () => {
  for (const theme of Object.values(THEMES)) assert.deepEqual(contrastFailures(theme), [], theme.id);
});

test('a colour pair below AA is reported by name', () => {
  const failures = contrastFailures({ ...THEMES.azul, suave: '#9aa5b1' });
  assert.ok(
    failures.some((f) => f.startsWith('azul suave/fondo')),
    failures.join(),
  );
});
