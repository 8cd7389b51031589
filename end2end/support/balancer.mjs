// A load balancer for the tests with several instances: a TCP proxy on a free port that hands each
// new connection to the next instance in turn, skipping one that refuses (it is restarting), as a
// real balancer with health checks would. A connection stays with the instance it was given.
import net from 'node:net';

/** Starts balancing over `urls` (`http://127.0.0.1:PORT`); resolves to `{ url, close }`. */
export async function startBalancer(urls) {
  const backends = urls.map((u) => Number(new URL(u).port));
  let next = 0;
  const sockets = new Set();
  const server = net.createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.pause();
    const tryBackend = (left) => {
      if (left === 0) return client.destroy();
      const port = backends[next++ % backends.length];
      const upstream = net.connect(port, '127.0.0.1');
      upstream.once('error', () => {
        if (!upstream.connected) tryBackend(left - 1);
        else client.destroy();
      });
      upstream.once('connect', () => {
        upstream.connected = true;
        sockets.add(upstream);
        upstream.on('close', () => { sockets.delete(upstream); client.destroy(); });
        client.on('close', () => upstream.destroy());
        client.on('error', () => upstream.destroy());
        client.pipe(upstream);
        upstream.pipe(client);
        client.resume();
      });
    };
    tryBackend(backends.length * 2);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
