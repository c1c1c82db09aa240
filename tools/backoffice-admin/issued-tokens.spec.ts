import { issuedTokensNote } from './issued-tokens';

describe(issuedTokensNote.name, () => {
  const NOW = Date.parse('2026-11-25T03:40:12.345Z');

  it('should say the tokens keep working and when the last of them expires: 48 hours after this second', () => {
    const note = issuedTokensNote('carol', ' with shop S1', NOW);
    expect(note).toEqual([
      'Tokens already issued to carol keep working with shop S1 until they expire,',
      '48 hours after their sign-in: the last of them by 2026-11-27T03:40:12.000Z.',
      'To end them now: npm run backoffice -- revoke-tokens --user carol',
      '(every instance refuses them within TOKEN_REVOCATION_REFRESH_MS, 5 s by default).',
    ]);
  });

  it('should quote a username the shell would split', () => {
    expect(issuedTokensNote("o'neil shop", '', NOW)[2]).toBe(
      "To end them now: npm run backoffice -- revoke-tokens --user 'o'\\''neil shop'",
    );
    expect(issuedTokensNote('erp.acme@example.com', '', NOW)[2]).toMatch(
      /--user erp\.acme@example\.com$/,
    );
  });
});
