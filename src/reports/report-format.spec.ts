import { negotiateReportFormat } from './report-format';

describe(negotiateReportFormat.name, () => {
  it.each([
    [undefined, 'json'],
    ['', 'json'],
    ['*/*', 'json'],
    ['application/json', 'json'],
    ['application/*', 'json'],
    ['text/html', 'json'],
    ['text/csv;q=0', 'json'],
    ['application/json, text/csv', 'json'],
    ['text/csv;q=0.5, application/json', 'json'],
    ['text/csv', 'csv'],
    ['TEXT/CSV; charset=utf-8', 'csv'],
    ['text/*', 'csv'],
    ['text/csv, */*', 'csv'],
    ['application/json;q=0.4, text/csv;q=0.9', 'csv'],
    ['text/csv, application/json;q=0', 'csv'],
  ])('should answer %p with %s', (accept, format) => {
    expect(negotiateReportFormat(accept)).toBe(format);
  });
});
