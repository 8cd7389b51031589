// The service worker. The server prepends `const VERSION = '…';`, the build's name, so each
// release is a new worker with a cache of its own: it keeps that release's files (the app's
// bundles, its styles, the offline page), and drops the caches of earlier releases once it takes
// over. Pages come from the network; without one, the start page and the device game page as
// last fetched (a device game is read from the device: one copy serves them all), or else the
// offline page. The bundles too
// come from the network while there is one (a page is never run with an older release's
// bundle), from this release's cache when there is not. Dictionaries are named by their content,
// so the ones a player has used are kept in a cache of their own, across releases.
//
// It also shows the server's push notifications while no page of the site is open, and opens
// (or brings forward) the page a notification names when it is tapped. A push payload is JSON:
// { title, body, url, tag }.
const SHELL = `shell-${VERSION}`;
const DICTIONARIES = 'dictionaries';
/// The pages kept for when there is no network, and the copy that serves each.
const KEPT_PAGE = (path) => (path === '/' ? '/' : path.startsWith('/device/') ? DEVICE_PAGE : null);
const DEVICE_PAGE = '/device/shell';
const FILES = [
  '/offline',
  DEVICE_PAGE,
  '/app.js',
  '/push.js',
  '/manifest.webmanifest',
  '/favicon.svg',
  '/icon-192.png',
  '/pkg/alfakraft.css',
  '/pkg/alfakraft.js',
  '/pkg/alfakraft_bg.wasm',
  '/pkg/boot.js',
  '/pkg/game.js',
  '/pkg/game_bg.wasm',
  '/pkg/game-boot.js',
  '/pkg/device.js',
  '/pkg/device_bg.wasm',
  '/pkg/device-boot.js',
  // The engine, for the bots of games played on the device.
  '/bot-worker.js',
  '/pkg/analysis.js',
  '/pkg/analysis_bg.wasm',
];

self.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(SHELL);
    // One by one: a file missing from a development build does not stop the others.
    await Promise.all(FILES.map((file) => cache.add(new Request(file, { cache: 'no-cache' })).catch(() => {})));
    await self.skipWaiting();
  })());
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    // A page's request starts while the worker wakes, instead of after.
    if (self.registration.navigationPreload) await self.registration.navigationPreload.enable();
    for (const name of await caches.keys()) {
      if (name !== SHELL && name !== DICTIONARIES) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

/// What is never kept: the API, the live stream, the panel, downloads.
const passing = (path) => ['/api/', '/events', '/admin', '/settings', '/healthz', '/metrics']
  .some((prefix) => path.startsWith(prefix));

self.addEventListener('fetch', (event) => {
  const { request } = event;
  const url = new URL(request.url);
  if (request.method !== 'GET' || url.origin !== self.location.origin || passing(url.pathname)) return;
  if (url.pathname.startsWith('/dict/')) {
    event.respondWith((async () => {
      const cache = await caches.open(DICTIONARIES);
      const kept = await cache.match(request);
      if (kept) return kept;
      const fetched = await fetch(request);
      if (fetched.ok) await cache.put(request, fetched.clone());
      return fetched;
    })());
    return;
  }
  if (request.mode === 'navigate') {
    const kept = KEPT_PAGE(url.pathname);
    event.respondWith((async () => {
      try {
        const page = (await event.preloadResponse) || await fetch(request);
        if (kept && page.ok) {
          const copy = page.clone();
          event.waitUntil(caches.open(SHELL).then((cache) => cache.put(kept, copy)));
        }
        return page;
      } catch {
        return (kept && await caches.match(kept, { cacheName: SHELL }))
          || (await caches.match('/offline', { cacheName: SHELL }))
          || new Response('offline', { status: 503, headers: { 'content-type': 'text/plain' } });
      }
    })());
    return;
  }
  if (FILES.includes(url.pathname)) {
    event.respondWith(fetch(request).catch(async () => (await caches.match(url.pathname, { cacheName: SHELL }))
      || Response.error()));
  }
});

self.addEventListener('push', (event) => {
  let message = {};
  try {
    message = event.data ? event.data.json() : {};
  } catch {
    message = { body: event.data ? event.data.text() : '' };
  }
  event.waitUntil(self.registration.showNotification(message.title || 'Alfa Kraft', {
    body: message.body || '',
    tag: message.tag,
    icon: '/icon-192.png',
    data: { url: message.url || '/' },
  }));
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  // Only a page of this site: a payload cannot send the player elsewhere.
  const target = new URL(event.notification.data?.url || '/', self.location.origin);
  const url = target.origin === self.location.origin ? target.href : self.location.origin + '/';
  event.waitUntil(self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((pages) => {
    const open = pages.find((page) => page.url === url);
    return open ? open.focus() : self.clients.openWindow(url);
  }));
});
