// Piscina worker entry: one task prepares one document. Unexpected exceptions propagate to the pool (and the job
// fails as corrupt); expected failures come back as values so their Spanish reason survives the thread boundary.
import { prepareDocument, type PrepareResult, type PrepareTask } from './prepare.js';

export default function prepare(task: PrepareTask): Promise<PrepareResult> {
  return prepareDocument(task);
}
