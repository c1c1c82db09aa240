/**
 * Lets a child process run the TypeScript sources directly (`node -r <this> src/main.ts`), compiled
 * by SWC with the project's .swcrc, as the tests are: no build step before a spawned service.
 */
const { readFileSync } = require('node:fs');
const path = require('node:path');
const { transformSync } = require('@swc/core');

const swcrc = JSON.parse(readFileSync(path.join(__dirname, '../../.swcrc'), 'utf8'));

require.extensions['.ts'] = function compileTypeScript(module, filename) {
  const { code } = transformSync(readFileSync(filename, 'utf8'), {
    ...swcrc,
    filename,
    sourceMaps: 'inline',
    swcrc: false,
  });
  module._compile(code, filename);
};
