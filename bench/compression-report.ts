import { levelsMarkdown } from './compression-levels';
import type { CompressionResults, LinkWalk } from './compression';
import { markdownTable } from './report';
import type { ResultRow } from './result-row';
import { LINK_BYTES_PER_SECOND } from './throttled-link';

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const ratioRow = (
  what: string,
  value: string,
  reference: string,
  ratio: number,
  target: { atLeast?: number; atMost?: number },
): ResultRow => {
  const pass =
    target.atLeast !== undefined ? ratio >= target.atLeast : ratio <= (target.atMost ?? Infinity);
  return {
    what,
    service: value,
    reference,
    ratio: `${ratio.toFixed(2)}x`,
    target: target.atLeast !== undefined ? `≥ ${target.atLeast}x` : `≤ ${target.atMost}x`,
    verdict: pass ? 'pass' : 'FAIL',
  };
};

/** The comparison rows: gzip against no compression, same server, same run. */
export function compressionRows(c: CompressionResults): ResultRow[] {
  const { none, gzip } = c.walks;
  const perPage = (w: LinkWalk) => w.wireBytes / w.pages;
  const linkSeconds = (w: LinkWalk) => w.wireBytes / LINK_BYTES_PER_SECOND;
  return [
    ratioRow(
      'sales page of 500, bytes on the wire: gzip vs none',
      kb(c.pageBytes.gzip),
      kb(c.pageBytes.none),
      c.pageBytes.gzip / c.pageBytes.none,
      { atMost: 0.2 },
    ),
    ratioRow(
      'sales page of 500, throughput: gzip vs none',
      `${c.pages.gzip.rps.toFixed(1)} req/s`,
      `${c.pages.none.rps.toFixed(1)} req/s`,
      c.pages.gzip.rps / c.pages.none.rps,
      { atLeast: 0.6 },
    ),
    {
      what: 'sales page of 500, p99: gzip vs none',
      service: `${c.pages.gzip.p99.toFixed(1)} ms`,
      reference: `${c.pages.none.p99.toFixed(1)} ms`,
      ratio: `${(c.pages.gzip.p99 / c.pages.none.p99).toFixed(2)}x`,
      target: '',
      verdict: '',
    },
    ratioRow(
      `full-year walk (${none.pages} pages), bytes per page: gzip vs none`,
      kb(perPage(gzip)),
      kb(perPage(none)),
      perPage(gzip) / perPage(none),
      { atMost: 0.2 },
    ),
    ratioRow(
      'full-year walk over 50 Mbit/s, speed-up of gzip (time none / time gzip)',
      `${gzip.seconds.toFixed(1)} s`,
      `${none.seconds.toFixed(1)} s`,
      none.seconds / gzip.seconds,
      { atLeast: 4 },
    ),
    {
      what: 'full-year walk over 50 Mbit/s, of which pure transfer',
      service: `${linkSeconds(gzip).toFixed(1)} s`,
      reference: `${linkSeconds(none).toFixed(1)} s`,
      ratio: `${(linkSeconds(none) / linkSeconds(gzip)).toFixed(2)}x`,
      target: '',
      verdict: '',
    },
  ];
}

/** The compression part of docs/performance.md's generated section. */
export function compressionMarkdown(c: CompressionResults): string {
  return [
    '#### Compression',
    '',
    'The service alone, gzip against no `Accept-Encoding`, in the same run: the first sales page ' +
      '(500 sales of every shop) at the same concurrency, alternating; one shop’s year through ' +
      'the cursor, one request at a time, through a TCP proxy of the bench limited to ' +
      '50 Mbit/s towards the client (a token bucket paced segment by segment, `bench/throttled-link.ts`), the client ' +
      'decoding every page.',
    '',
    markdownTable(compressionRows(c)),
    '',
    levelsMarkdown(c.levels, c.pageBytes.none),
  ].join('\n');
}
