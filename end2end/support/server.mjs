// Starts the release server binary on a free port, for one test file: with a fresh SQLite
// database, or on a Postgres database that several instances share.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * Starts the server; resolves to `{ url, stop }` once it prints the address it listens on.
 * `databaseUrl` (a Postgres URL) replaces the fresh SQLite file; `port` (to restart an instance
 * where its pages expect it) replaces a free port; `env` adds settings.
 */
export async function startServer({ databaseUrl, port = 0, env = {} } = {}) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'alfakraft-e2e-'));
  const child = spawn(path.join(root, 'target/release/alfakraft'), ['--addr', `127.0.0.1:${port}`], {
    env: {
      ...process.env,
      ALFAKRAFT_DATA_DIR: dataDir,
      ALFAKRAFT_LOG: 'warn',
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`server did not start; output:\n${out}`)), 20_000);
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const match = out.match(/running at (http:\/\/\S+)/);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.on('exit', (code) => reject(new Error(`server exited with ${code}; output:\n${out}`)));
  });
  return {
    url,
    dataDir,
    /** Runs the binary's `make-admin NAME` on this server's database, as an operator would. */
    makeAdmin(name) {
      const result = spawnSync(path.join(root, 'target/release/alfakraft'), ['make-admin', name], {
        env: { ...process.env, ALFAKRAFT_DATA_DIR: dataDir, ALFAKRAFT_LOG: 'warn',
          ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) },
        encoding: 'utf8',
      });
      if (result.status !== 0) throw new Error(`make-admin failed: ${result.stdout}${result.stderr}`);
    },
    /** Runs `sql` with `args` on this server's SQLite file, as an operator could. */
    sql(statement, ...args) {
      const ran = spawnSync('python3', ['-c', `import json, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.execute(sys.argv[2], json.loads(sys.argv[3]))
db.commit()`, path.join(dataDir, 'alfakraft.db'), statement, JSON.stringify(args)], { encoding: 'utf8' });
      if (ran.status !== 0) throw new Error(`sql failed: ${ran.stderr}`);
    },
    async stop() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
