// One server and one browser for a test file, started before its tests and stopped after.
import { before, after } from 'node:test';
import { startServer } from './server.mjs';
import { launchBrowser } from './browser.mjs';

/** Returns `{ server, browser }`, filled in before the file's first test. */
export function serverAndBrowser(options) {
  const suite = {};
  before(async () => {
    suite.server = await startServer(options);
    suite.browser = await launchBrowser();
  });
  after(async () => {
    await suite.browser?.close();
    await suite.server?.stop();
  });
  return suite;
}
