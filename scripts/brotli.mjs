// Writes a brotli copy (`<file>.br`, quality 11) beside each file named on the command line, for
// the server to send browsers that accept brotli. Node's zlib has brotli built in, so no extra
// tool is needed.
import { readFileSync, writeFileSync } from 'node:fs';
import { brotliCompressSync, constants } from 'node:zlib';

for (const file of process.argv.slice(2)) {
  const data = readFileSync(file);
  const packed = brotliCompressSync(data, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_LGWIN]: constants.BROTLI_MAX_WINDOW_BITS,
      [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
    },
  });
  writeFileSync(`${file}.br`, packed);
}
