// A number with its noun in Spanish, agreeing in number: "1 carácter", "3 caracteres", "0 elementos". Every message
// that puts a variable count before a noun goes through here, so none can say "al menos 1 caracteres".

/** `n` followed by `singular` when n is exactly 1 (or -1), else by `plural`. */
export function countOf(n: number, singular: string, plural: string): string {
  return `${n} ${Math.abs(n) === 1 ? singular : plural}`;
}
