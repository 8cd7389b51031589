// A league's or a tournament's page, live. Its <main data-standings="id"> names the season or
// tournament: the page follows its standings on the live stream and, when they change, fetches
// itself again and puts the new <main> in place (standings, pairings, the viewer's game), so a
// round that begins shows its games to every player at once. [data-countdown] (unix ms) counts
// down each second.
(() => {
  const main = () => document.querySelector('main[data-standings]');
  const tick = () => {
    for (const clock of document.querySelectorAll('[data-countdown]')) {
      const left = Math.max(0, Math.floor((Number(clock.dataset.countdown) - Date.now()) / 1000));
      clock.textContent = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, '0')}`;
    }
  };
  // One fetch at a time; a change during it fetches once more after it.
  let fetching = false;
  let again = false;
  const refresh = async () => {
    if (fetching) {
      again = true;
      return;
    }
    fetching = true;
    try {
      const response = await fetch(location.pathname, { headers: { accept: 'text/html' } });
      if (response.ok) {
        const page = new DOMParser().parseFromString(await response.text(), 'text/html');
        const fresh = page.querySelector('main[data-standings]');
        const old = main();
        if (fresh && old) {
          old.replaceWith(fresh);
          if (window.localTimes) window.localTimes(fresh);
          tick();
        }
      }
    } catch (error) {
      console.warn('the standings were not refreshed', error);
    } finally {
      fetching = false;
      if (again) {
        again = false;
        refresh();
      }
    }
  };
  document.addEventListener('DOMContentLoaded', () => {
    const page = main();
    if (!page) return;
    tick();
    setInterval(tick, 1000);
    if (!('EventSource' in window)) return;
    const live = new EventSource(`/api/live?standings=${encodeURIComponent(page.dataset.standings)}`);
    live.addEventListener('standings', refresh);
  });
})();
