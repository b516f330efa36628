// The transcription threads' entry as piscina loads it: CommonJS that imports the ES module worker asynchronously.
// Node 20 loads an ES module handler with require(esm), and a thread terminated while that is instantiating the
// module aborts the whole process (v8::Module::IsGraphAsync); an asynchronous import ends cleanly instead.
import type { WorkerTask } from './worker-protocol.js';

// The worker's default export is the promise of its handler (it loads the models first): `then` waits for both.
const loaded = import('./worker.js').then((m) => m.default);
loaded.catch(() => {}); // a failed load is the first task's error, not an unhandled rejection of the thread
export = async (task: WorkerTask) => (await loaded)(task);
