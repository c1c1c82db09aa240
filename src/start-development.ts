/**
 * `npm start`: the service in development mode unless APP_ENV says otherwise, so a newcomer's
 * `npm ci && npm start` runs the embedded demo. `node dist/src/main.js` without APP_ENV is
 * production (it refuses to start without a signing key and DATABASE_URL).
 */
process.env.APP_ENV ??= 'development';
void import('./main');
