import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SpeechGate, VAD_WINDOW } from './silero-vad.js';

const feed = (gate: SpeechGate, probs: number[]) => probs.map((p) => gate.push(p));

test('speech is found once voiced windows have run for the minimum duration since the first of them', () => {
  // 0.25 s at 16 kHz = 4000 samples: the run must reach 8 windows past its first one (8 × 512 = 4096).
  const gate = new SpeechGate(0.5, 4000);
  const results = feed(gate, Array(9).fill(0.9));
  assert.deepEqual(results, [false, false, false, false, false, false, false, false, true]);
});

test('a window at or below the threshold breaks the run, so short bursts of noise never count', () => {
  const gate = new SpeechGate(0.5, 2 * VAD_WINDOW);
  assert.deepEqual(feed(gate, [0.9, 0.9, 0.5, 0.9, 0.9, 0.1, 0.9, 0.9, 0.9]), [
    false,
    false,
    false,
    false,
    false,
    false,
    false,
    false,
    true,
  ]);
});

test('with no minimum duration the first voiced window is speech', () => {
  assert.deepEqual(feed(new SpeechGate(0.5, 0), [0.2, 0.7]), [false, true]);
});
