import { decodeStrictBase64 } from './strict-base64';

describe(decodeStrictBase64.name, () => {
  it('should decode what .NET writes: padded, standard alphabet, every length', () => {
    for (const bytes of ['', 'a', 'ab', 'abc', 'abcd', '\u00ff\u00fe\u00fd>?']) {
      const buffer = Buffer.from(bytes, 'latin1');
      const encoded = buffer.toString('base64');
      if (encoded === '') continue;
      expect(decodeStrictBase64(encoded)).toEqual(buffer);
    }
    expect(decodeStrictBase64('+/+/')).toEqual(Buffer.from([0xfb, 0xff, 0xbf]));
  });

  it('should refuse what Buffer would decode by skipping or guessing', () => {
    for (const bad of [
      '',
      'YQ', // padding missing
      'YQ=', // padding short
      'YWJj=', // padding where none belongs
      'YW Jj', // a space
      'YW\nJj', // a line break
      '-_-_', // the URL-safe alphabet
      'YWJj!', // a character outside any alphabet
      'YWJjZA===', // padding too long
      'Y===',
      'YR==', // non-zero padding bits: 'a' is YQ==, never YR==
      'YWK=', // the same, on two bytes ('ab' is YWI=)
    ]) {
      expect([bad, decodeStrictBase64(bad)]).toEqual([bad, undefined]);
    }
  });

  it('should decode up to 1,024 characters and refuse anything longer unread', () => {
    const longest = Buffer.alloc(768, 7).toString('base64');
    expect(longest).toHaveLength(1024);
    expect(decodeStrictBase64(longest)).toEqual(Buffer.alloc(768, 7));
    expect(decodeStrictBase64(Buffer.alloc(771, 7).toString('base64'))).toBeUndefined();
  });
});
