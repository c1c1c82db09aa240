/** One line of the results: a value of the service, what it is compared with, and the target. */
export interface ResultRow {
  what: string;
  service: string;
  reference: string;
  ratio: string;
  target: string;
  verdict: 'pass' | 'FAIL' | '';
}

/** A row comparing a value of the service with a reference, and its target if any. */
export type Compared = (
  what: string,
  service: number,
  reference: number,
  show: (v: number) => string,
  target?: { atLeast?: number; atMost?: number },
) => ResultRow;
