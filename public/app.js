// The installable app, on every page: registers the service worker (sw.js: the app's files kept
// for offline use), says when the device is offline (the body's data-offline-text, in the page's
// language, shown by the stylesheet while data-offline is set), and offers installing once, from
// the menu: the [data-install] button shows only while the browser offers it and this device has
// not been offered it before.
(() => {
  // Once the page is loaded and the browser idle: the worker then fetches the app's files to
  // keep, which must not compete with the page's own on a slow link.
  if ('serviceWorker' in navigator) {
    const register = () => navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch((error) => {
      console.warn('the service worker was not registered', error);
    });
    const later = window.requestIdleCallback || ((run) => setTimeout(run, 1000));
    window.addEventListener('load', () => later(register, { timeout: 5000 }));
  }

  const offline = () => {
    if (document.body) document.body.toggleAttribute('data-offline', !navigator.onLine);
  };
  window.addEventListener('online', offline);
  window.addEventListener('offline', offline);
  document.addEventListener('DOMContentLoaded', offline);

  const OFFERED = 'install-offered';
  let prompt = null;
  const buttons = () => document.querySelectorAll('[data-install]');
  window.addEventListener('beforeinstallprompt', (event) => {
    event.preventDefault();
    if (localStorage.getItem(OFFERED)) return;
    prompt = event;
    for (const button of buttons()) button.hidden = false;
  });
  document.addEventListener('click', async (event) => {
    if (!event.target.closest('[data-install]') || !prompt) return;
    const asked = prompt;
    prompt = null;
    localStorage.setItem(OFFERED, '1');
    for (const button of buttons()) button.hidden = true;
    await asked.prompt();
  });
  window.addEventListener('appinstalled', () => {
    localStorage.setItem(OFFERED, '1');
    for (const button of buttons()) button.hidden = true;
  });
})();
