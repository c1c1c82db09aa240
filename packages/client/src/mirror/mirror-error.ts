/**
 * The file or database cannot be used as a mirror (another program's, a newer mirror's, another
 * copy's, unreachable, full); nothing in it was changed by the refusal.
 */
export class MirrorFileError extends Error {
  override name = 'MirrorFileError';
}
