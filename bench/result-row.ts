/** One line of the results: a value of the service, what it is compared with, and the target. */
export interface ResultRow {
  what: string;
  service: string;
  reference: string;
  ratio: string;
  target: string;
  verdict: 'pass' | 'FAIL' | '';
}
