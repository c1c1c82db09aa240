import { nodeEngineWarning, nodeSatisfies } from './node-engines';

const RANGE = '^20.19.0 || ^22.14.0 || ^24.0.0 || ^26.0.0';

describe(nodeSatisfies.name, () => {
  it.each(['v20.19.0', 'v20.20.1', 'v22.14.0', 'v24.0.0', 'v26.3.2'])(
    'should accept %s, inside the range',
    (version) => expect(nodeSatisfies(RANGE, version)).toBe(true),
  );

  it.each(['v18.20.0', 'v20.18.9', 'v21.7.3', 'v22.13.9', 'v23.0.0', 'v27.0.0'])(
    'should refuse %s, outside the range',
    (version) => expect(nodeSatisfies(RANGE, version)).toBe(false),
  );

  it('should read >= floors and count an unknown form as inside', () => {
    expect(nodeSatisfies('>=20.0.0', 'v19.9.9')).toBe(false);
    expect(nodeSatisfies('>=20', 'v30.0.0')).toBe(true);
    expect(nodeSatisfies('20.x', 'v12.0.0')).toBe(true);
  });
});

describe(nodeEngineWarning.name, () => {
  it('should warn only in production, naming the version and the range', () => {
    expect(nodeEngineWarning('production', RANGE, 'v21.7.3')).toBe(
      `Node v21.7.3 is outside the releases this service supports (package.json engines: ${RANGE}); run it on one of those.`,
    );
    expect(nodeEngineWarning('development', RANGE, 'v21.7.3')).toBeUndefined();
    expect(nodeEngineWarning('production', RANGE, 'v22.14.0')).toBeUndefined();
    expect(nodeEngineWarning('production', undefined, 'v21.7.3')).toBeUndefined();
  });
});
