/**
 * The unit specs alone, as one flat project (Stryker's jest runner takes no `projects`): what
 * `npm run test:mutation` runs against each mutant (stryker.config.mjs). End-to-end specs start
 * the whole service and are too slow for the mutation loop.
 */
const { projects } = require('./jest.config.js');

const { displayName: _name, ...unit } = projects.find((project) => project.displayName === 'unit');

// Instrumented code runs slower, and mutants run beside each other: a spec's 5 s is too tight.
module.exports = { ...unit, testTimeout: 30_000 };
