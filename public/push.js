// Push notifications on this device, opted into from a button (the permission is asked only
// after the player presses it). Elements:
//   [data-push-offer]  shown only where this browser can take notifications and this device is
//                      not yet subscribed (hidden otherwise);
//   [data-push-on]     a button that subscribes this device; [data-push-off] one that stops it;
//   [data-push-said]   where the outcome is written, in the words of the element's data-said-*
//                      attributes (on, off, denied, failed), which the server wrote in the
//                      page's language.
(() => {
  const able = 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;

  const said = (button, outcome) => {
    const place = document.querySelector('[data-push-said]');
    if (place) place.textContent = button.dataset[`said${outcome[0].toUpperCase()}${outcome.slice(1)}`] || outcome;
  };

  const post = (path, body) => fetch(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(body),
  });

  const key = async () => {
    const base64 = (await (await post('/api/push/key', {})).json()).Ok;
    const raw = atob(base64.replace(/-/g, '+').replace(/_/g, '/'));
    return Uint8Array.from(raw, (c) => c.charCodeAt(0));
  };

  const subscription = async () => {
    const registration = await navigator.serviceWorker.getRegistration('/');
    return registration ? registration.pushManager.getSubscription() : null;
  };

  const show = async () => {
    const subscribed = able && Notification.permission === 'granted' && (await subscription().catch(() => null));
    for (const offer of document.querySelectorAll('[data-push-offer]')) {
      offer.hidden = !able || Notification.permission === 'denied' || Boolean(subscribed);
    }
    for (const off of document.querySelectorAll('[data-push-off]')) off.hidden = !subscribed;
  };

  const turnOn = async (button) => {
    if (!able) return said(button, 'failed');
    if ((await Notification.requestPermission()) !== 'granted') return said(button, 'denied');
    try {
      await navigator.serviceWorker.register('/sw.js', { scope: '/' });
      const registration = await navigator.serviceWorker.ready;
      const made = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: await key() });
      const { endpoint, keys } = made.toJSON();
      const answer = await (await post('/api/push/subscribe', { endpoint, p256dh: keys.p256dh, auth: keys.auth })).json();
      said(button, answer && answer.Ok !== undefined ? 'on' : 'failed');
    } catch (error) {
      console.warn('push: subscribing failed', error);
      said(button, 'failed');
    }
    show();
  };

  const turnOff = async (button) => {
    const made = await subscription().catch(() => null);
    if (made) {
      await post('/api/push/unsubscribe', { endpoint: made.endpoint });
      await made.unsubscribe();
    }
    said(button, 'off');
    show();
  };

  document.addEventListener('click', (event) => {
    const on = event.target.closest('[data-push-on]');
    const off = event.target.closest('[data-push-off]');
    if (on) turnOn(on);
    if (off) turnOff(off);
  });
  // Quiet hours are kept in UTC: the form shows and sends them in this device's time.
  const localTime = () => {
    const offset = new Date().getTimezoneOffset();
    for (const input of document.querySelectorAll('[data-push-offset]')) input.value = String(offset);
    for (const select of document.querySelectorAll('select[data-utc-minute]')) {
      const minute = Number(select.dataset.utcMinute) - offset;
      select.value = String(Math.floor((((minute % 1440) + 1440) % 1440) / 60));
    }
  };

  // The game page builds its part after loading: look again once it has.
  const start = () => { localTime(); show(); setTimeout(show, 1500); };
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
})();
