import { mkdirSync } from 'node:fs';

/**
 * Creates DATA_DIR (and any missing parent) for its owner only, 0700: it holds the embedded
 * database and the development signing key, each 0600. A folder that exists keeps its mode: it may
 * be a mounted volume or a folder the operator chose (`chmod 700` it).
 */
export function makeDataDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: DATA_DIR_MODE });
}

const DATA_DIR_MODE = 0o700;
