import assert from 'node:assert/strict';
import { test } from 'node:test';
import { languageName, srt, timestamp, vtt } from './openai-formats.js';

const segments = [
  { startS: 0, endS: 2.5, text: 'Hola.' },
  { startS: 2.5, endS: 3661.0014, text: 'Adiós.' },
];

test('subtitle times: hours, minutes, seconds and milliseconds, with each format’s separator', () => {
  assert.equal(timestamp(0, ','), '00:00:00,000');
  assert.equal(timestamp(3661.0014, '.'), '01:01:01.001');
  assert.equal(timestamp(59.9996, ','), '00:01:00,000');
});

test('SRT numbers its cues; WebVTT starts with its header', () => {
  assert.equal(
    srt(segments),
    '1\n00:00:00,000 --> 00:00:02,500\nHola.\n\n2\n00:00:02,500 --> 01:01:01,001\nAdiós.\n\n',
  );
  assert.equal(
    vtt(segments),
    'WEBVTT\n\n00:00:00.000 --> 00:00:02.500\nHola.\n\n00:00:02.500 --> 01:01:01.001\nAdiós.\n\n',
  );
  assert.equal(srt([]), '');
  assert.equal(vtt([]), 'WEBVTT\n\n');
});

test('languages are named as OpenAI names them', () => {
  assert.deepEqual(['es', 'en', 'pt'].map(languageName), ['spanish', 'english', 'portuguese']);
});
