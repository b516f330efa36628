/**
 * Child-process check that whisper.cpp really loads a model: `node model-probe.js <model>` exits 0 after loading
 * and freeing it. whisper.cpp (through smart-whisper) segfaults on a file it rejects, so this runs in its own
 * process: a bad model kills the probe, never the server.
 */
import { createRequire } from 'node:module';
import { whisperAddon } from './whisper-addon.js';

process.env.NODE_ENV = 'production'; // keep whisper.cpp's logging off
const require = createRequire(import.meta.url);
const binding = require(whisperAddon().path) as {
  WhisperModel: { load(file: string, gpu: boolean): Promise<{ free(): Promise<void> }> };
};

const file = process.argv[2];
if (!file) {
  process.stderr.write('usage: model-probe <model.bin>\n');
  process.exit(2);
}
const model = await binding.WhisperModel.load(file, false);
await model.free();
process.exit(0);
