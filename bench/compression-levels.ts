import zlib from 'node:zlib';
import { BROTLI_QUALITY, GZIP_LEVEL, ZSTD_LEVEL } from '../src/common/http/encoders';

export interface LevelRow {
  encoding: string;
  level: number;
  /** Encoded size as a share of the plain page. */
  share: number;
  /** Median time to encode the page once, on one core. */
  ms: number;
  chosen: boolean;
}

type Encode = (input: Buffer, level: number) => Buffer;

const zstd = zlib as unknown as {
  zstdCompressSync?: (input: Buffer, options: { params: Record<number, number> }) => Buffer;
  constants: { ZSTD_c_compressionLevel?: number };
};

const CODECS: Array<{ encoding: string; levels: number[]; chosen: number; encode?: Encode }> = [
  {
    encoding: 'gzip',
    levels: [1, 3, 4, 6],
    chosen: GZIP_LEVEL,
    encode: (input, level) => zlib.gzipSync(input, { level }),
  },
  {
    encoding: 'br',
    levels: [1, 2, 4],
    chosen: BROTLI_QUALITY,
    encode: (input, level) =>
      zlib.brotliCompressSync(input, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: level } }),
  },
  {
    encoding: 'zstd',
    levels: [1, 3, 6],
    chosen: ZSTD_LEVEL,
    encode: zstd.zstdCompressSync
      ? (input, level) =>
          (zstd.zstdCompressSync as NonNullable<typeof zstd.zstdCompressSync>)(input, {
            params: { [zstd.constants.ZSTD_c_compressionLevel as number]: level },
          })
      : undefined,
  },
];

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1];

/** Size and time of each encoder and level on the run's own page (why the levels were chosen). */
export function measureLevels(page: Buffer, repeats = 9): LevelRow[] {
  const rows: LevelRow[] = [];
  for (const codec of CODECS) {
    if (!codec.encode) continue;
    for (const level of codec.levels) {
      const times: number[] = [];
      let size = 0;
      for (let i = 0; i < repeats; i++) {
        const started = performance.now();
        size = codec.encode(page, level).length;
        times.push(performance.now() - started);
      }
      rows.push({
        encoding: codec.encoding,
        level,
        share: size / page.length,
        ms: median(times),
        chosen: level === codec.chosen,
      });
    }
  }
  return rows;
}

/** The levels as a Markdown table. */
export function levelsMarkdown(rows: LevelRow[], pageBytes: number): string {
  return [
    `Encoders on the run's first sales page (${(pageBytes / 1024).toFixed(0)} KB), median of 9 ` +
      'encodings on one core, the service’s levels in bold:',
    '',
    '| encoding | level | size | time per page |',
    '| --- | ---: | ---: | ---: |',
    ...rows.map((r) => {
      const cells = [
        r.encoding,
        String(r.level),
        `${(r.share * 100).toFixed(1)}%`,
        `${r.ms.toFixed(2)} ms`,
      ];
      return `| ${(r.chosen ? cells.map((c) => `**${c}**`) : cells).join(' | ')} |`;
    }),
  ].join('\n');
}
