/**
 * Waits for a condition, never for a fixed time (docs/testing.md): asks `check` every `everyMs`
 * until it holds, and throws when it still does not after `timeoutMs`, a bound that leaves a
 * machine running another job beside the suite room to be slow.
 */
export async function eventually(
  check: () => boolean | Promise<boolean>,
  timeoutMs = 20_000,
  everyMs = 100,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`condition not met in ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
