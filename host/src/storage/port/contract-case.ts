import { test } from 'node:test';

/**
 * The `node:test` case maker of a repository contract: each case gets a fresh fixture from `make` (a new store of
 * the backend under test) and closes it whatever the outcome; titles are prefixed with the backend's name.
 */
export function contractCase<F extends { close(): Promise<void> }>(
  name: string,
  make: () => Promise<F>,
): (title: string, body: (fixture: F) => Promise<void>) => void {
  return (title, body) => {
    test(`${name}: ${title}`, async () => {
      const fixture = await make();
      try {
        await body(fixture);
      } finally {
        await fixture.close();
      }
    });
  };
}
