// Kept apart so the configuration can name the default without loading the search code.

/**
 * Spaces smaller than this are matched on the calling thread even when search threads exist: a match over a few
 * thousand passages takes about a millisecond, less than a round trip to a thread that may be busy.
 */
export const INLINE_MATCH_PASSAGES = 5000;
