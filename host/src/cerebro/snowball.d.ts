declare module 'snowball-stemmers' {
  interface SnowballStemmer {
    stem(word: string): string;
  }
  const snowball: { newStemmer(language: string): SnowballStemmer; algorithms(): string[] };
  export default snowball;
}
