import { readFileSync } from 'node:fs';
import * as path from 'node:path';

const ROOT = path.join(__dirname, '../..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

interface Panel {
  id: number;
  type: string;
  title: string;
  description?: string;
  gridPos: { x: number; y: number; w: number; h: number };
  targets?: Array<{ expr: string }>;
  fieldConfig?: {
    defaults?: {
      thresholds?: { steps: Array<{ value: number | null }> };
      custom?: { thresholdsStyle?: { mode: string } };
    };
  };
}

/** Each `- alert: Name` of alerts.yml with the text of its rule (up to the next one). */
function alerts(): Array<{ name: string; rule: string }> {
  const text = read('deploy/prometheus/alerts.yml');
  const starts = [...text.matchAll(/^\s*- alert: (\w+)$/gm)];
  return starts.map((match, i) => ({
    name: match[1],
    rule: text.slice(match.index, starts[i + 1]?.index ?? text.length),
  }));
}

const panels = (): Panel[] =>
  (JSON.parse(read('deploy/grafana/pos-read-api.json')) as { panels: Panel[] }).panels;

/** Issue 46, item 6: alerts lead to their runbook; the dashboard reads at 3 AM. */
describe('Alerts lead to their runbook in docs/operations.md', () => {
  const anchors = new Set(
    [...read('docs/operations.md').matchAll(/<a id="([^"]+)"><\/a>/g)].map((m) => m[1]),
  );

  it('should give every alert a runbook_url to an anchor docs/operations.md has, in the row of the alert', () => {
    const operations = read('docs/operations.md');
    const all = alerts();
    expect(all.length).toBeGreaterThanOrEqual(16);
    for (const { name, rule } of all) {
      const url = /^\s+runbook_url: '([^']+)'$/m.exec(rule)?.[1];
      expect([name, url]).toEqual([name, expect.stringMatching(/^docs\/operations\.md#[\w-]+$/)]);
      const anchor = (url as string).split('#')[1];
      expect([name, anchors.has(anchor)]).toEqual([name, true]);
      // The anchor opens the alerts table's row that names the alert (its ...Slow variant shares it).
      const row = operations.split('\n').find((line) => line.includes(`<a id="${anchor}">`));
      expect([name, row]).toEqual([
        name,
        expect.stringContaining(`\`${name.replace(/Slow$/, '')}\``),
      ]);
    }
  });
});

describe('The dashboard (deploy/grafana/pos-read-api.json)', () => {
  it('should describe every panel', () => {
    const undescribed = panels().filter((p) => !p.description?.trim());
    expect(undescribed.map((p) => p.title)).toEqual([]);
  });

  it('should open with a row of stat panels: both SLOs over 30 days, the error budgets left, the burn rates', () => {
    const top = panels()
      .filter((p) => p.gridPos.y === 1)
      .sort((a, b) => a.gridPos.x - b.gridPos.x);
    expect(top.every((p) => p.type === 'stat')).toBe(true);
    const exprs = top.map((p) => p.targets?.[0]?.expr ?? '');
    expect(exprs).toEqual([
      expect.stringMatching(/^1 - job:pos_api_data_errors:ratio_rate30d\{/),
      expect.stringMatching(/^1 - job:pos_api_page_slow:ratio_rate30d\{/),
      expect.stringMatching(/^1 - job:pos_api_data_errors:ratio_rate30d\{.*\} \/ 0\.001$/),
      expect.stringMatching(/^1 - job:pos_api_page_slow:ratio_rate30d\{.*\} \/ 0\.01$/),
      expect.stringMatching(/^job:pos_api_data_errors:ratio_rate1h\{.*\} \/ 0\.001$/),
      expect.stringMatching(/^job:pos_api_page_slow:ratio_rate1h\{.*\} \/ 0\.01$/),
    ]);
    // Nothing but the row's header above them.
    expect(
      panels()
        .filter((p) => p.gridPos.y === 0)
        .map((p) => p.type),
    ).toEqual(['row']);
  });

  it('should draw the objectives as threshold lines on the SLO and latency graphs', () => {
    const line = (title: RegExp) => {
      const panel = panels().find((p) => title.test(p.title));
      const defaults = panel?.fieldConfig?.defaults;
      return [
        defaults?.custom?.thresholdsStyle?.mode,
        defaults?.thresholds?.steps.map((s) => s.value),
      ];
    };
    expect(line(/^SLO: share of data answers that are 5xx/)).toEqual(['line', [null, 0.001]]);
    expect(line(/^SLO: share of pages slower than 0\.5 s/)).toEqual(['line', [null, 0.01]]);
    expect(line(/^p99 latency by route$/)).toEqual(['line', [null, 0.5]]);
  });

  it('should read recording rules that exist', () => {
    const recorded = new Set(
      [...read('deploy/prometheus/recording-rules.yml').matchAll(/- record: (\S+)/g)].map(
        (m) => m[1],
      ),
    );
    const used = panels().flatMap((p) =>
      (p.targets ?? []).flatMap((t) =>
        [...t.expr.matchAll(/\bjob(?:_route)?:[\w:]+/g)].map((m) => m[0]),
      ),
    );
    expect(used.filter((name) => !recorded.has(name))).toEqual([]);
  });
});
