// The search threads' entry as piscina loads it: CommonJS that imports the ES module worker asynchronously
// (why: kernel/thread-pool.ts).
import type { SearchTask } from './search-worker.js';

const loaded = import('./search-worker.js').then((m) => m.default);
loaded.catch(() => {}); // a failed load is the first task's error, not an unhandled rejection of the thread
export = async (task: SearchTask) => (await loaded)(task);
