import { CASH_DRAWER_SESSIONS } from '../cash-drawer-sessions/cash-drawer-sessions.source';
import { CASH_MOVEMENTS } from '../cash-movements/cash-movements.source';
import { PAYMENTS } from '../payments/payments.source';
import { SALES } from '../sales/sales.source';
import type { ChangePoint, ChangeQuestion, Changes } from '../sync/changes/change-source';
import { addDays } from '../common/query/filter-parameters';
import {
  closeQuestions,
  closeTables,
  closeText,
  heldDays,
  MAX_SPAN_DAYS,
  parseClose,
  runsOf,
  type StoredClose,
  vouched,
} from './day-close-cache';
import { DayClose } from './day-close';

const FIELDS = { sales: ['id'], payments: ['id'], cashMovements: ['id'] };
const DATES = ['2026-03-01', '2026-03-02', '2026-03-03', '2026-03-04'];
/** The empty close of each date, as a fresh close gives it. */
const EMPTY = new DayClose(DATES, FIELDS).entries();
const point = (position: number, epoch = 'e1'): ChangePoint => ({ epoch, position, at: 1000 });
const stored = (i: number, since: ChangePoint, until = DATES[i]): StoredClose => ({
  since,
  until,
  day: EMPTY[i],
});
const TABLES = { byDay: ['sales#day'], bySpan: ['moves'] };

describe(parseClose.name, () => {
  it('should read back what it stored, for its own date only, and nothing of any other text', () => {
    const text = closeText(point(7), '2026-03-03', EMPTY[0]);
    expect(parseClose(text, '2026-03-01')).toEqual({
      since: point(7),
      until: '2026-03-03',
      day: EMPTY[0],
    });
    expect(parseClose(text, '2026-03-02')).toBeNull();
    for (const other of [
      null,
      '',
      text.slice(0, -1),
      text.replace('e1@', 'x@'),
      `- 0 ${'0'.repeat(64)}`,
    ]) {
      expect(parseClose(other, '2026-03-01')).toBeNull();
    }
    const spaced = {
      ...EMPTY[0],
      payments: {
        count: 1,
        amount: '1.00',
        methods: [{ method: 'A B', count: 1, amount: '1.00' }],
      },
    };
    expect(parseClose(closeText(point(7), '2026-03-01', spaced), '2026-03-01')?.day).toEqual(
      spaced,
    );
  });
});

describe(closeTables.name, () => {
  it("should ask the sales' and payments' business days, and the calendar dates of the cash movements' table", () => {
    const inputs = [SALES, PAYMENTS, CASH_MOVEMENTS, CASH_DRAWER_SESSIONS];
    expect(closeTables(inputs, [SALES, PAYMENTS, CASH_MOVEMENTS])).toEqual({
      byDay: [`${SALES.table}#business-day`, `${PAYMENTS.table}#business-day`],
      bySpan: [CASH_MOVEMENTS.table],
    });
  });

  it('should give nothing to ask when an input is of a table the change source does not follow', () => {
    expect(closeTables([SALES, CASH_DRAWER_SESSIONS], [SALES])).toBeNull();
  });
});

describe(closeQuestions.name, () => {
  it('should ask nothing when nothing is stored', () => {
    expect(
      closeQuestions(
        TABLES,
        DATES,
        DATES.map(() => null),
      ),
    ).toEqual([]);
  });

  it('should ask each business-day table the stored dates since their stamps, and each calendar table every date of their spans since the oldest stamp over it', () => {
    const entries = [stored(0, point(5), '2026-03-02'), null, stored(2, point(9)), null];
    const [byDay, bySpan] = closeQuestions(TABLES, DATES, entries);
    expect(byDay).toEqual({
      table: 'sales#day',
      dates: ['2026-03-01', '2026-03-03'],
      since: [point(5), point(9)],
      span: false,
    });
    expect(bySpan).toEqual({
      table: 'moves',
      dates: ['2026-03-01', '2026-03-02', '2026-03-03'],
      since: [point(5), point(5), point(9)],
      span: true,
    });
  });

  it('should ask a calendar date between two spans since no stamp', () => {
    const entries = [stored(0, point(5)), null, stored(2, point(9), '2026-03-04'), null];
    const [, bySpan] = closeQuestions(TABLES, DATES, entries);
    expect(bySpan.dates).toEqual(DATES);
    expect(bySpan.since).toEqual([point(5), null, point(9), point(9)]);
  });

  it('should vouch for no calendar date that entries of two epochs span, and keep no span past its bound', () => {
    const entries = [
      stored(0, point(5), '2026-03-02'),
      stored(1, point(3, 'e2')),
      stored(2, point(9), '2026-03-03'),
      stored(3, point(9), addDays(DATES[3], MAX_SPAN_DAYS + 1)),
    ];
    const [byDay, bySpan] = closeQuestions(TABLES, DATES, entries);
    expect(byDay.dates).toEqual(DATES.slice(0, 3));
    expect(bySpan.since).toEqual([point(5), null, point(9)]);
  });
});

describe(heldDays.name, () => {
  it('should hold a day only when it is stored and every table vouches for it: its date, or each date of its span', () => {
    const entries = [
      stored(0, point(5), '2026-03-02'),
      stored(1, point(5)),
      stored(2, point(5)),
      null,
    ];
    const questions = closeQuestions(TABLES, DATES, entries);
    const all = questions.map((q) => q.dates.map(() => true));
    expect(heldDays(DATES, entries, questions, all)).toEqual([true, true, true, false]);
    // The sales of the 3rd moved; the cash of the 2nd, which the 1st's span holds.
    const moved = [
      [true, true, false],
      [true, false, true],
    ];
    expect(heldDays(DATES, entries, questions, moved)).toEqual([false, false, false, false]);
    expect(heldDays(DATES, entries, [], [])).toEqual([false, false, false, false]);
  });
});

/** A change source that answers from `holds` (the dates it vouches for) at `now`. */
function fakeChanges(holds: ReadonlySet<string>, now: Array<ChangePoint | null>) {
  const asked: ChangeQuestion[] = [];
  const changes: Changes = {
    async changedDays(question) {
      asked.push(question);
      const prints = await question.fingerprints(0, question.dates.length - 1);
      return {
        now: now[asked.length - 1] ?? null,
        days: question.dates.map((date, i) =>
          holds.has(`${question.table} ${date}`) && question.stored[i]
            ? 'unchanged'
            : prints.get(date) === undefined
              ? 'empty'
              : 'changed',
        ),
      };
    },
  };
  return { changes, asked };
}

describe(vouched.name, () => {
  it('should ask one question for a position alone when nothing is stored, and hold nothing', async () => {
    const { changes, asked } = fakeChanges(new Set(), [point(4)]);
    const answer = await vouched(
      changes,
      'S1',
      TABLES,
      DATES,
      DATES.map(() => null),
    );
    expect(answer).toEqual({ now: point(4), held: [false, false, false, false] });
    expect(asked.map((q) => [q.table, q.shop, q.dates])).toEqual([['sales#day', 'S1', []]]);
  });

  it('should hold what the log vouches for in every table, stamp with the oldest position, and read no fingerprint', async () => {
    const entries = [stored(0, point(2)), stored(1, point(2)), null, null];
    const holds = new Set(['sales#day 2026-03-01', 'sales#day 2026-03-02', 'moves 2026-03-01']);
    const { changes, asked } = fakeChanges(holds, [point(8), point(6)]);
    const answer = await vouched(changes, 'S1', TABLES, DATES, entries);
    expect(answer).toEqual({ now: point(6), held: [true, false, false, false] });
    expect(asked.map((q) => q.stored)).toEqual([
      [
        { fingerprint: '', since: point(2) },
        { fingerprint: '', since: point(2) },
      ],
      [
        { fingerprint: '', since: point(2) },
        { fingerprint: '', since: point(2) },
      ],
    ]);
  });

  it('should stamp nothing when a question could not be answered by the log', async () => {
    const entries = [stored(0, point(2)), null, null, null];
    const { changes } = fakeChanges(new Set(), [point(8), null]);
    expect((await vouched(changes, 'S1', TABLES, DATES, entries)).now).toBeNull();
  });
});

describe(runsOf.name, () => {
  it('should walk the dates that do not hold in runs of consecutive dates', () => {
    expect(runsOf(DATES, [false, true, false, false])).toEqual([
      ['2026-03-01'],
      ['2026-03-03', '2026-03-04'],
    ]);
    expect(runsOf(DATES, [true, true, true, true])).toEqual([]);
    expect(runsOf(DATES, [false, false, false, false])).toEqual([DATES]);
  });
});
