/** The two representations of the report. */
export type ReportFormat = 'json' | 'csv';

const OFFERED: ReadonlyArray<{ format: ReportFormat; type: string; subtype: string }> = [
  { format: 'json', type: 'application', subtype: 'json' },
  { format: 'csv', type: 'text', subtype: 'csv' },
];

interface MediaRange {
  type: string;
  subtype: string;
  q: number;
}

function parseAccept(header: string): MediaRange[] {
  return header.split(',').flatMap((part) => {
    const [range, ...params] = part.split(';').map((p) => p.trim().toLowerCase());
    const [type, subtype] = range.split('/');
    if (!type || !subtype) return [];
    const qParam = params.find((p) => p.startsWith('q='));
    const q = qParam === undefined ? 1 : Number(qParam.slice(2));
    return Number.isFinite(q) ? [{ type, subtype, q: Math.min(Math.max(q, 0), 1) }] : [];
  });
}

/** Quality and specificity (2 exact, 1 type/*, 0 * / *) of the most specific range matching an offer. */
function rank(ranges: MediaRange[], offer: (typeof OFFERED)[number]): [number, number] {
  let best: [number, number] = [0, -1];
  for (const r of ranges) {
    const specificity =
      r.type === offer.type && r.subtype === offer.subtype
        ? 2
        : r.type === offer.type && r.subtype === '*'
          ? 1
          : r.type === '*' && r.subtype === '*'
            ? 0
            : -1;
    if (specificity > best[1]) best = [r.q, specificity];
  }
  return best;
}

/**
 * JSON unless the Accept header prefers text/csv (RFC 9110 proactive negotiation, quality
 * values honoured). No Accept, `* / *`, a tie, or nothing acceptable: JSON.
 */
export function negotiateReportFormat(accept: string | undefined): ReportFormat {
  if (!accept) return 'json';
  const ranges = parseAccept(accept);
  const [jsonQ, jsonSpecificity] = rank(ranges, OFFERED[0]);
  const [csvQ, csvSpecificity] = rank(ranges, OFFERED[1]);
  if (csvQ <= 0) return 'json';
  if (csvQ > jsonQ) return 'csv';
  return csvQ === jsonQ && csvSpecificity > jsonSpecificity ? 'csv' : 'json';
}
