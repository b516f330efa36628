// The scheme of a web or file address ("https://", "ftp://") is the address's syntax, not a word the text says: a
// passage that links to an https address says nothing about HTTPS. In the Debian handbook 194 of 1694 passages say
// "https", 6 of them outside an address; counted as words, every page of links outranked the one passage on HTTPS.

/** A scheme followed by "://" (the letters before it, any case). */
const SCHEME = /\b[a-z][a-z0-9+.-]{1,9}:\/\//gi;

/** The text with each address's scheme blanked out (the rest of the address stays: its host and path are words). */
export function withoutLinkSchemes(text: string): string {
  return text.includes('://') ? text.replace(SCHEME, ' ') : text;
}
