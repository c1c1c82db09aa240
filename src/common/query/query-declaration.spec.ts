import { ProblemException } from '../errors/problem';
import { parameterError, QueryParameter, readQuery } from './query-declaration';

const count: QueryParameter<number, false> = {
  required: false,
  shape: 'a count',
  description: 'How many.',
  schema: { type: 'integer', minimum: 1 },
  example: 2,
  parse: (value, name) => {
    if (!/^[1-9]\d*$/.test(value)) throw parameterError(name, 'must be a positive whole number');
    return Number(value);
  },
};
const word: QueryParameter<string, true> = {
  required: true,
  shape: 'a word',
  description: 'Which one.',
  schema: { type: 'string' },
  example: 'one',
  parse: (value) => value.toUpperCase(),
};
const DECLARATION = { Word: word, Count: count, Other: count };

function problemOf(raw: Record<string, string | string[]>): ProblemException {
  try {
    readQuery(raw, DECLARATION);
  } catch (error) {
    if (error instanceof ProblemException) return error;
    throw error;
  }
  throw new Error('expected a 400');
}

describe(readQuery.name, () => {
  it('should parse each given parameter by its declaration, names case-insensitive', () => {
    expect(readQuery({ word: 'a', COUNT: '3' }, DECLARATION)).toEqual({ Word: 'A', Count: 3 });
  });

  it('should name every missing required parameter with its shape', () => {
    const problem = problemOf({ Count: '1' });
    expect(problem.errors).toEqual([{ field: 'Word', message: 'is required (a word)' }]);
    expect(problem.detail).toBe('Word is required (a word).');
  });

  it('should answer one invalid parameter with its own problem, unchanged', () => {
    const problem = problemOf({ Word: 'a', Count: '0' });
    expect(problem.detail).toBe('Count: must be a positive whole number.');
    expect(problem.errors).toEqual([
      { field: 'Count', message: 'must be a positive whole number' },
    ]);
  });

  it('should name every invalid parameter in one problem', () => {
    const problem = problemOf({ Word: 'a', Count: 'x', Other: '-1' });
    expect(problem.getStatus()).toBe(400);
    expect(problem.errors?.map((e) => e.field)).toEqual(['Count', 'Other']);
    expect(problem.detail).toBe(
      'Count: must be a positive whole number. Other: must be a positive whole number.',
    );
  });

  it('should refuse unknown and repeated names before anything is parsed', () => {
    expect(problemOf({ Word: 'a', Page: '2' }).errors?.map((e) => e.field)).toEqual(['Page']);
    expect(problemOf({ Word: 'a', count: '1', Count: '2' }).errors).toEqual([
      { field: 'Count', message: 'given more than once' },
    ]);
  });

  it('should let errors that are not problems through (a bug is not a 400)', () => {
    const broken = {
      Word: {
        ...word,
        parse: (): string => {
          throw new TypeError('bug');
        },
      },
    };
    expect(() => readQuery({ Word: 'a' }, broken)).toThrow(TypeError);
  });
});
