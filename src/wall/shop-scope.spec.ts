import type { CallerClaims } from '../common/caller-claims';
import { shopsInScope } from './shop-scope';

const caller = (shopCodes: string[]): CallerClaims => ({
  userId: '1',
  username: 'u',
  roles: ['ApiUser'],
  shopCodes,
  tokenId: 'j',
});

describe(shopsInScope.name, () => {
  it('should read every claimed shop when no shop is asked for', () => {
    expect(shopsInScope(caller(['B', 'A', 'B']))).toEqual(['A', 'B']);
  });
  it('should read the asked shop when it is claimed', () => {
    expect(shopsInScope(caller(['A', 'B']), 'B')).toEqual(['B']);
  });
  it('should read nothing for a shop outside the claims', () => {
    expect(shopsInScope(caller(['A']), 'B')).toEqual([]);
    expect(shopsInScope(caller([]), 'A')).toEqual([]);
  });
  it('should compare shop codes exactly (binary collation)', () => {
    expect(shopsInScope(caller(['SHOP1']), 'shop1')).toEqual([]);
  });
});
