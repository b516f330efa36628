// The sitemap scan against fast-xml-parser's reading of the same text: same pages whenever it answers; the rest
// is left to fast-xml-parser.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { scanSitemap } from './sitemap-scan.js';
import { parseSitemap, parseSitemapTree } from './xml-lists.js';

const urlset = (inner: string, attrs = ' xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"') =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<urlset${attrs}>${inner}</urlset>`;

/** Plain sitemaps, as sites and generators write them: the scan reads each. */
const PLAIN = [
  urlset(
    '\n  <url>\n    <loc> https://a.test/1 </loc>\n    <lastmod>2026-01-01</lastmod>\n    <changefreq>daily</changefreq>\n    <priority>0.5</priority>\n  </url>\n  <url><loc>https://a.test/2</loc></url>\n',
  ),
  // Entities stay as written (fast-xml-parser is told not to expand them).
  urlset('<url><loc>https://a.test/?a=1&amp;b=2&#39;&lt;</loc></url>'),
  // Empty, missing or repeated <loc>: no page; other children skipped, whatever they hold.
  urlset(
    '<url><loc></loc></url><url><loc/></url><url/><url><lastmod>x</lastmod></url><url><loc>https://a/1</loc><loc>https://a/2</loc></url>',
  ),
  urlset(
    '<url><loc>https://a/1</loc><xhtml:link rel="alternate" hreflang="en" href="https://a/en"/><image:image><image:loc>https://a/i.png</image:loc></image:image></url><url><loc>https://a/3</loc><image:loc>https://a/4</image:loc></url>',
    ' xmlns="x" xmlns:image="y" xmlns:xhtml="z"',
  ),
  urlset('<!-- c --><url a="1" b=\'x>y\'><!-- c --><loc>https://a/1</loc><extra attr="&lt;&gt;"/></url><!-- c -->'),
  urlset(
    '<URL><loc>https://a/1</loc></URL><url><LOC>https://a/2</LOC></url><url><loc >https://a/ñ?q=á b</loc ></url >',
  ),
  urlset('<url><loc>https://a/1</loc></url><sitemap><loc>https://a/s.xml</loc></sitemap><otro><a><b>x</b></a></otro>'),
  '<sitemapindex><sitemap><loc>https://a.test/s1.xml</loc><lastmod>2026</lastmod></sitemap><sitemap><loc>https://a.test/s2.xml</loc></sitemap><url><loc>https://a/2</loc></url></sitemapindex>',
  '<sm:urlset xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9"><sm:url><sm:loc>https://a/1</sm:loc></sm:url></sm:urlset>',
  '\ufeff<?xml version="1.0"?>\n<urlset><url><loc>https://a/1</loc></url></urlset>\n<!-- fin -->\n',
];

/** What the scan leaves to fast-xml-parser. */
const UNUSUAL = [
  urlset('<url><loc>123</loc></url><url><loc>1e5</loc></url><url><loc>0x1F</loc></url>'),
  urlset('<url><loc><![CDATA[https://a/1]]></loc></url>'),
  urlset('<url><loc>https://a/1<!-- c --></loc></url>'),
  urlset('<url><loc a="1">https://a/1</loc></url>'),
  urlset('texto<url><loc>https://a/1</loc></url>'),
  urlset('<url>texto<loc>https://a/1</loc></url>'),
  urlset(''),
  urlset('  \n ', ''),
  '<urlset xmlns="x"/>',
  '<sitemapindex></sitemapindex>',
  '<?xml version="1.0"?><?xml-stylesheet type="text/xsl" href="s.xsl"?><urlset><url><loc>https://a/1</loc></url></urlset>',
  '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaaaaaaaa">]><urlset><url><loc>https://a.test/&a;</loc></url></urlset>',
  '<urlset><url><loc>https://a/1</loc></url></urlset><urlset><url><loc>https://a/2</loc></url></urlset>',
  '<urlset><url><loc>https://a/1</loc></url></urlset>texto',
  '<urlset><url><loc>https://a/1</loc></url>',
  '<urlset><url><loc>https://a/1</url></urlset>',
  '<urlset><url$><loc>https://a/1</loc></url$></urlset>',
  '<html><body>no</body></html>',
  '<feed><entry/></feed>',
  'no es xml <<<',
  '',
];

test('plain sitemaps are scanned, with the pages fast-xml-parser reads in them', () => {
  for (const xml of PLAIN) {
    const scanned = scanSitemap(xml);
    assert.notEqual(scanned, undefined, xml);
    assert.deepEqual(scanned, parseSitemapTree(xml), xml);
  }
  assert.deepEqual(scanSitemap(PLAIN[1]!), { pages: ['https://a.test/?a=1&amp;b=2&#39;&lt;'], sitemaps: [] });
});

test('anything less plain is left to fast-xml-parser, which parseSitemap then asks', () => {
  for (const xml of UNUSUAL) {
    assert.equal(scanSitemap(xml), undefined, xml);
    assert.deepEqual(parseSitemap(xml), parseSitemapTree(xml), xml);
  }
});

test('a large sitemap: the same 50,000 pages either way', () => {
  const entries = Array.from(
    { length: 50_000 },
    (_, i) => `<url><loc>https://a.test/p/${i}.html</loc><lastmod>2026-01-01</lastmod></url>`,
  );
  const xml = urlset(entries.join('\n'));
  const scanned = scanSitemap(xml);
  assert.equal(scanned?.pages.length, 50_000);
  assert.deepEqual(scanned, parseSitemapTree(xml));
});
