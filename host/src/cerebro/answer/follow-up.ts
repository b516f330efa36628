// Multi-turn retrieval: a short follow-up ("¿y cuánto cuesta?") names no topic of its own, so the previous
// question of the conversation is searched together with it.
import { queryTermGroups } from '../text/analyzer.js';
import type { AnswerRequest } from './types.js';

/** Questions with fewer content words than this borrow the previous user turn. */
const FOLLOW_UP_MAX_WORDS = 2;

export function retrievalQuery(request: AnswerRequest): string {
  const previous = [...(request.history ?? [])].reverse().find((t) => t.role === 'user')?.content;
  if (!previous || queryTermGroups(request.question).length > FOLLOW_UP_MAX_WORDS) return request.question;
  return `${request.question}\n${previous}`;
}
