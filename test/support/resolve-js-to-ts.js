/**
 * With swc-register.js: lets a child process run packages/client's ES-module source, whose
 * relative imports end in `.js` (`./run.js` is `./run.ts` until compiled), as jest's
 * moduleNameMapper does for the specs themselves.
 */
const Module = require('node:module');

const resolve = Module._resolveFilename;
Module._resolveFilename = function resolveTypeScript(request, parent, ...rest) {
  try {
    return resolve.call(this, request, parent, ...rest);
  } catch (error) {
    if (!/^\.{1,2}\/.*\.js$/.test(request)) throw error;
    return resolve.call(this, request.replace(/\.js$/, '.ts'), parent, ...rest);
  }
};
