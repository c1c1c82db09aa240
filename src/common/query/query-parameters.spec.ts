import { ProblemException } from '../errors/problem';
import { readQueryParameters } from './query-parameters';

const NAMES = ['ShopCode', 'From', 'Limit'] as const;

const errorsOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    return (e as ProblemException).errors?.map((x) => x.field);
  }
  return undefined;
};

describe(readQueryParameters.name, () => {
  it('should match names case-insensitively and return canonical names', () => {
    expect(readQueryParameters({ shopcode: 'A', FROM: '2026-01-01' }, NAMES)).toEqual({
      ShopCode: 'A',
      From: '2026-01-01',
    });
  });
  it('should name unknown parameters', () => {
    expect(errorsOf(() => readQueryParameters({ page: '2', offset: '3' }, NAMES))).toEqual([
      'page',
      'offset',
    ]);
  });
  it('should name repeated parameters, also across cases', () => {
    expect(errorsOf(() => readQueryParameters({ ShopCode: ['A', 'B'] }, NAMES))).toEqual([
      'ShopCode',
    ]);
    expect(errorsOf(() => readQueryParameters({ ShopCode: 'A', shopcode: 'B' }, NAMES))).toEqual([
      'ShopCode',
    ]);
  });
  it('should refuse over-long values', () => {
    expect(errorsOf(() => readQueryParameters({ From: 'x'.repeat(1025) }, NAMES))).toEqual([
      'From',
    ]);
  });
});
