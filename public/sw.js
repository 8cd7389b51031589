// The service worker: shows the server's push notifications while no page of the site is open,
// and opens (or brings forward) the page a notification names when it is tapped. A payload is
// JSON: { title, body, url, tag }.
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
    icon: '/favicon.svg',
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
