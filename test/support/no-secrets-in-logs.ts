/**
 * Runs after every end-to-end spec file (jest setupFilesAfterEnv), after the hooks of its
 * describe blocks (which close its apps): the log of every app the spec started (log-capture.ts)
 * must hold no secret (log-secrets.ts). A secret fails the spec file with its path and the kind
 * of secret, never the secret itself; the log is kept under test-artifacts/ (ignored by git).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { capturedLogLines } from './log-capture';
import { findSecrets, secretsFoundMessage } from './log-secrets';

const ROOT = path.join(__dirname, '../..');

afterAll(() => {
  const lines = capturedLogLines();
  const found = findSecrets(lines);
  if (found.size === 0) return;
  const spec = path.relative(ROOT, expect.getState().testPath ?? 'unknown-spec');
  const logFile = path.join('test-artifacts', 'logs', `${spec.replace(/[\\/]/g, '__')}.log`);
  mkdirSync(path.join(ROOT, path.dirname(logFile)), { recursive: true });
  writeFileSync(path.join(ROOT, logFile), lines.join('\n'));
  throw new Error(secretsFoundMessage(spec, found, logFile));
});
