// Draws the installable app's icons (public/icon-192.png, icon-512.png and the maskable
// icon-maskable-512.png) from public/favicon.svg with the tests' Chromium: `node scripts/icons.mjs`
// from the repository's root. The icons are committed; run it again when the favicon changes.
import { chromium } from 'playwright-core';
import { readFileSync } from 'node:fs';
const svg = readFileSync('public/favicon.svg', 'utf8');
// The maskable icon: the tile fills the square (a launcher crops to its own shape), the letters
// inside the middle 80 %.
const maskable = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" fill="#f2c14e"/><g transform="translate(6.4 6.4) scale(0.8)"><text x="29" y="46" font-family="Arial,Helvetica,sans-serif" font-weight="700" font-size="38" text-anchor="middle" fill="#3b2a07">A</text><text x="50" y="54" font-family="Arial,Helvetica,sans-serif" font-weight="700" font-size="13" text-anchor="middle" fill="#3b2a07">1</text></g></svg>`;
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium' });
for (const [name, image, size] of [['icon-192.png', svg, 192], ['icon-512.png', svg, 512], ['icon-maskable-512.png', maskable, 512]]) {
  const page = await browser.newPage({ viewport: { width: size, height: size } });
  await page.setContent(`<html><body style="margin:0;background:transparent">${image.replace('<svg ', `<svg width="${size}" height="${size}" `)}</body></html>`);
  await page.screenshot({ path: `public/${name}`, omitBackground: true });
  await page.close();
}
await browser.close();
