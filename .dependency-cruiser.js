/**
 * The layers of src/ (docs/architecture.md, "Layers"), checked by `npm run lint:deps`.
 *
 *   the app's root (main.ts, app.factory.ts, app.module.ts, app.catalogue.ts)
 *     -> features: every other folder of src/ (sales, payments, cash-movements, reports, shops,
 *        business-days, openapi, operations), read from the disk
 *        (each imports no other feature)
 *       -> sync -> wall -> auth -> database -> catalogue -> common -> config
 *
 * An arrow is "may import"; every layer may import any layer below it, none above it. The
 * programs of tools/ (seed, backoffice-admin, openapi) stand on src/ and import none of each
 * other; src/ imports nothing of them. test/ and bench/ may import anything of src/ and tools/,
 * and src/ nothing of them; packages/client imports nothing of src/.
 */
const { readdirSync } = require('node:fs');
const { join } = require('node:path');

const ROOT = '^src/(main|app\\.factory|app\\.module|app\\.catalogue)(\\.spec)?\\.ts$';
/** The programs that are not the service (tools/<name>/), each with its own entry points. */
const TOOLS = ['seed', 'backoffice-admin', 'openapi', 'migrations', 'sql'];
const APP_FILES = '^src/';

/** The shared layers, bottom first: each imports only itself and the layers before it. */
const LAYERS = [
  ['config', 'AppConfig, limits, the prefix: every layer may import it, it imports none'],
  [
    'common',
    'what every capability uses: errors, HTTP, query parameters, OpenAPI helpers, time, values',
  ],
  [
    'catalogue',
    'the declaration language: what a source (table, columns) and a resource (record, routes, digest fields) are',
  ],
  ['database', 'data source, replicas, migrations, schema copies, the recommended indexes'],
  ['auth', 'sign-in, tokens, guards, the users: a feature that needs auth imports it'],
  [
    'wall',
    'reads inside the caller\'s shop scope, and all SQL of the business tables: never sync or a feature',
  ],
  [
    'sync',
    "paging, list, feed, digest and changes, and a declared resource's routes: the resource folders declare, this layer serves",
  ],
];/**
 * The features are every other folder of src/, read from the disk: a new resource folder is a
 * feature with its rules without an edit here.
 */
const FEATURES = readdirSync(join(__dirname, 'src'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .filter((name) => !LAYERS.some(([layer]) => layer === name))
  .sort();
const layerRules = LAYERS.map(([layer, what], index) => {
  const allowed = LAYERS.slice(0, index + 1).map(([name]) => name);
  return {
    name: `${layer}-imports-only-${allowed.join('-')}`,
    comment: `${layer}/ (${what}) imports ${allowed.join(', ')} only.`,
    severity: 'error',
    from: { path: `^src/${layer}/` },
    to: { path: APP_FILES, pathNot: `^src/(${allowed.join('|')})/` },
  };
});

/**
 * A feature's files import no other feature's, except its `<resource>.source.ts`: the declaration
 * of a back-office table (the report reads the sales' source and the payments' methods), which
 * runs nothing itself (the wall spec checks it) and imports only catalogue/ and common/.
 */
const featureRules = FEATURES.map((feature) => ({
  name: `feature-${feature}-imports-no-other-feature`,
  comment: `${feature}/ is a feature: it may import sync, wall, auth, database, catalogue, common and config, and another feature's *.source.ts, never the rest of another feature (what two features share goes down a layer)`,
  severity: 'error',
  from: { path: `^src/${feature}/` },
  to: {
    path: `^src/(${FEATURES.filter((other) => other !== feature).join('|')})/`,
    pathNot: '^src/[a-z-]+/[a-z-]+\\.source\\.ts$',
  },
}));

/** A source declares: it imports catalogue/'s source types and common/ only. */
const sourceRule = {
  name: 'a-source-imports-only-declarations',
  comment:
    'A <resource>.source.ts declares a table for the wall (catalogue/source.ts) and may use common/ values; it imports nothing else, so importing it from another feature brings nothing more.',
  severity: 'error',
  from: { path: '^src/[a-z-]+/[a-z-]+\\.source\\.ts$' },
  to: {
    path: APP_FILES,
    pathNot: [
      '^src/catalogue/source\\.ts$',
      '^src/common/',
      '^src/[a-z-]+/[a-z-]+\\.source\\.ts$',
    ],
  },
};

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No import cycle, of files or therefore of folders.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    ...layerRules,
    ...featureRules,
    sourceRule,
    {
      name: 'every-file-has-a-layer',
      comment:
        'A file of src/ is the root or sits in a folder (a feature, or one of LAYERS); no other file goes directly into src/.',
      severity: 'error',
      from: {
        path: APP_FILES,
        pathNot: [ROOT, `^src/(${[...FEATURES, ...LAYERS.map(([name]) => name)].join('|')})/`],
      },
      to: {},
    },
    {
      name: 'only-entry-points-import-the-root',
      comment:
        'The root (main.ts, app.factory.ts, app.module.ts) wires the features; nothing else of src/ imports it (the programs of tools/ may).',
      severity: 'error',
      from: { path: APP_FILES, pathNot: ROOT },
      to: { path: ROOT },
    },
    {
      name: 'src-imports-no-test-nor-bench',
      comment: 'The service never depends on its tests or its benchmark.',
      severity: 'error',
      from: { path: APP_FILES },
      to: { path: '^(test|bench)/' },
    },
    {
      name: 'src-imports-no-tool',
      comment:
        'The service runs without tools/ (the image ships only the admin CLI of it): a tool imports src/, never the reverse.',
      severity: 'error',
      from: { path: APP_FILES },
      to: { path: '^tools/' },
    },
    ...TOOLS.map((tool) => ({
      name: `tool-${tool}-imports-no-other-tool`,
      comment: `tools/${tool}/ is a program of its own: it imports src/, never another tool (the image ships some tools and not others)`,
      severity: 'error',
      from: { path: `^tools/${tool}/` },
      to: { path: `^tools/(${TOOLS.filter((other) => other !== tool).join('|')})/` },
    })),
    {
      name: 'every-tool-is-listed',
      comment: 'A new folder of tools/ goes into TOOLS of .dependency-cruiser.js.',
      severity: 'error',
      from: { path: '^tools/', pathNot: `^tools/(${TOOLS.join('|')})/` },
      to: {},
    },
    {
      name: 'shipped-tools-need-no-dev-dependency',
      comment:
        'The admin CLI runs in the image, installed by `npm ci --omit=dev`; so does what the others import.',
      severity: 'error',
      from: { path: '^tools/', pathNot: ['\\.spec\\.ts$', '/testing/'] },
      to: { dependencyTypes: ['npm-dev'] },
    },
    {
      name: 'service-code-needs-no-dev-dependency',
      comment:
        'What runs in production (src/ less its specs and testing helpers) is installed by `npm ci --omit=dev`.',
      severity: 'error',
      from: { path: APP_FILES, pathNot: ['\\.spec\\.ts$', '/testing/'] },
      // pino-pretty, the one exception: operations/logging/pretty-logs.ts loads it with a dynamic
      // import and logs JSON lines where it is not installed (decision 72).
      to: { dependencyTypes: ['npm-dev'], pathNot: '^node_modules/pino-pretty/' },
    },
    {
      name: 'client-imports-nothing-of-src',
      comment:
        'packages/client is published on its own: it knows the service only through docs/openapi.json.',
      severity: 'error',
      from: { path: '^packages/client/' },
      to: { path: '^(src|test|bench)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(dist|dist-bench|coverage)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
    },
  },
};
