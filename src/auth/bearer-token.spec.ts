import { ProblemException } from '../common/errors/problem';
import { authorizationHeaderOf, bearerTokenOf } from './bearer-token';

/** What a caller reads of the 401: its detail and its WWW-Authenticate challenge. */
function refusalOf(header: string | string[] | undefined): { detail: string; challenge: string } {
  try {
    bearerTokenOf(header);
  } catch (error) {
    if (!(error instanceof ProblemException)) throw error;
    expect(error.getStatus()).toBe(401);
    return { detail: error.detail, challenge: error.headers['WWW-Authenticate'] };
  }
  throw new Error(`${JSON.stringify(header)} was accepted`);
}

describe(bearerTokenOf.name, () => {
  it('should return the token of "Bearer <token>"', () => {
    expect(bearerTokenOf('Bearer aa.bb.cc')).toBe('aa.bb.cc');
    expect(bearerTokenOf('Bearer aa.bb.')).toBe('aa.bb.');
  });

  it('should call an empty header missing, without invalid_token (no credentials were sent)', () => {
    for (const header of [undefined, '']) {
      const { detail, challenge } = refusalOf(header);
      expect(detail).toMatch(/^The Authorization header is missing/);
      expect(challenge).not.toMatch(/invalid_token/);
    }
  });

  it('should call a word that is not a JWS a malformed token, with invalid_token', () => {
    const { detail, challenge } = refusalOf('Bearer not-a-token');
    expect(detail).toMatch(/^The bearer token is malformed/);
    expect(challenge).toMatch(/error="invalid_token"/);
  });

  it('should say "Bearer" was sent twice when the token came with its prefix (issue 46)', () => {
    for (const header of ['Bearer Bearer aa.bb.cc', 'Bearer bearer aa.bb.cc', 'bearer BEARER x']) {
      const { detail, challenge } = refusalOf(header);
      expect([header, detail]).toEqual([
        header,
        'The Authorization header sends the word "Bearer" twice: send "Bearer", one space, ' +
          'then the token alone (a tool that adds "Bearer " itself was given the token with its prefix).',
      ]);
      expect(challenge).toMatch(/error="invalid_token"/);
    }
  });

  it('should call anything but exactly "Bearer", one space and one word a wrong header form', () => {
    for (const header of [
      'Basic Bearer abc',
      'Bearer abc def',
      'Bearer abc ',
      'bearer abc',
      'Bearer  Bearer aa.bb.cc',
      'Basic Bearer Bearer aa.bb.cc',
    ]) {
      const { detail, challenge } = refusalOf(header);
      expect([header, detail]).toEqual([
        header,
        'The Authorization header must be exactly "Bearer", one space, then the token.',
      ]);
      expect(challenge).toMatch(/error="invalid_token"/);
    }
  });
});

describe(authorizationHeaderOf.name, () => {
  it('should find the Authorization line among the others, whatever its case', () => {
    expect(
      authorizationHeaderOf({
        rawHeaders: ['Host', 'example.test', 'authorization', 'Bearer a.b.c', 'Accept', '*/*'],
      }),
    ).toBe('Bearer a.b.c');
    expect(authorizationHeaderOf({ rawHeaders: ['Host', 'example.test'] })).toBeUndefined();
  });

  it('should return every value when the line is sent more than once', () => {
    expect(
      authorizationHeaderOf({
        rawHeaders: ['AUTHORIZATION', 'Bearer a.b.c', 'Host', 'x', 'Authorization', 'Basic dTpw'],
      }),
    ).toEqual(['Bearer a.b.c', 'Basic dTpw']);
  });
});
