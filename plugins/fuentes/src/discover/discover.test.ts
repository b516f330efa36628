// robots.txt, sitemaps and feeds as the crawl reads them.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseRobots } from './robots.js';
import { parseFeed, parseSitemap } from './xml-lists.js';

test('robots.txt: disallowed paths, crawl-delay and sitemaps for our agent; other origins are not governed', () => {
  const rules = parseRobots(
    'https://a.test/robots.txt',
    'User-agent: otro\nDisallow: /\n\nUser-agent: *\nDisallow: /privado/\nAllow: /privado/abierto.html\nCrawl-delay: 2\nSitemap: https://a.test/s.xml\n',
    'CerebroFuentes/1.0',
  );
  assert.equal(rules.allows('https://a.test/privado/x.html'), false);
  assert.equal(rules.allows('https://a.test/privado/abierto.html'), true);
  assert.equal(rules.allows('https://a.test/docs/'), true);
  assert.equal(rules.allows('https://b.test/privado/x.html'), true);
  assert.equal(rules.delayMs, 2000);
  assert.deepEqual(rules.sitemaps, ['https://a.test/s.xml']);
});

test('sitemaps: url sets, sitemap indexes, junk refused; entities are not expanded', () => {
  assert.deepEqual(
    parseSitemap(
      '<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc> https://a.test/1 </loc></url><url><loc>https://a.test/2</loc><lastmod>2026-01-01</lastmod></url></urlset>',
    ),
    { pages: ['https://a.test/1', 'https://a.test/2'], sitemaps: [] },
  );
  assert.deepEqual(parseSitemap('<sitemapindex><sitemap><loc>https://a.test/s1.xml</loc></sitemap></sitemapindex>'), {
    pages: [],
    sitemaps: ['https://a.test/s1.xml'],
  });
  assert.equal(parseSitemap('<html><body>no</body></html>'), null);
  assert.equal(parseSitemap('no es xml <<<'), null);
  const bomb =
    '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]><urlset><url><loc>https://a.test/&b;</loc></url></urlset>';
  const parsed = parseSitemap(bomb);
  assert.ok(!parsed || parsed.pages.every((p) => p.length < 100), 'no entity expansion');
});

test('feeds: RSS 2.0, RSS 1.0 (RDF) and Atom item links; an empty channel is a feed with no items', () => {
  assert.deepEqual(
    parseFeed(
      '<rss version="2.0"><channel><title>t</title><item><link>https://a.test/p1</link></item><item><guid>https://a.test/p2</guid></item></channel></rss>',
    ),
    ['https://a.test/p1', 'https://a.test/p2'],
  );
  assert.deepEqual(
    parseFeed(
      '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/"><channel><title>t</title></channel><item><link>https://a.test/r1</link></item></rdf:RDF>',
    ),
    ['https://a.test/r1'],
  );
  assert.deepEqual(
    parseFeed(
      '<feed xmlns="http://www.w3.org/2005/Atom"><entry><link rel="alternate" href="https://a.test/e1"/><link rel="edit" href="https://a.test/x"/></entry><entry><link href="https://a.test/e2"/></entry></feed>',
    ),
    ['https://a.test/e1', 'https://a.test/e2'],
  );
  assert.deepEqual(parseFeed('<rss version="2.0"><channel><title>vacío</title></channel></rss>'), []);
  assert.equal(parseFeed('<html></html>'), null);
});
