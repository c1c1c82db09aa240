/**
 * Whether a Node release is inside package.json's `engines.node`, in the forms that field uses
 * here: alternatives joined by `||`, each `^x.y.z` (same major, at least x.y.z) or `>=x.y.z`.
 * A form it does not know counts as inside: a warning must never be a false alarm.
 */
export function nodeSatisfies(range: string, nodeVersion: string): boolean {
  const version = parse(nodeVersion);
  if (!version) return true;
  return range.split('||').some((alternative) => {
    const match = /^\s*(\^|>=)\s*v?(\d+(?:\.\d+){0,2})\s*$/.exec(alternative);
    const floor = match ? parse(match[2]) : undefined;
    if (!match || !floor) return true;
    if (match[1] === '^' && version[0] !== floor[0]) return false;
    return compare(version, floor) >= 0;
  });
}

/** The warning the service logs at start in production on a Node outside the range, if any. */
export function nodeEngineWarning(
  appEnv: string,
  range: string | undefined,
  nodeVersion = process.version,
): string | undefined {
  if (appEnv !== 'production' || !range || nodeSatisfies(range, nodeVersion)) return undefined;
  return (
    `Node ${nodeVersion} is outside the releases this service supports (package.json engines: ` +
    `${range}); run it on one of those.`
  );
}

function parse(text: string): [number, number, number] | undefined {
  const match = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?/.exec(text.trim());
  if (!match) return undefined;
  return [Number(match[1]), Number(match[2] ?? 0), Number(match[3] ?? 0)];
}

function compare(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return 0;
}
