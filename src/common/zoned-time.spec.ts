import { instantOf } from './zoned-time';

describe(instantOf.name, () => {
  it.each([
    // Europe/Madrid, spring forward 2026-03-29 02:00 → 03:00 (+01:00 → +02:00)
    ['2026-03-29 01:59:59.999', 'Europe/Madrid', '2026-03-29T00:59:59.999Z'],
    ['2026-03-29 02:30:00.000', 'Europe/Madrid', '2026-03-29T01:30:00.000Z'], // gap: after it
    ['2026-03-29 03:00:00.000', 'Europe/Madrid', '2026-03-29T01:00:00.000Z'],
    ['2026-03-29 03:30:00.000', 'Europe/Madrid', '2026-03-29T01:30:00.000Z'],
    // Europe/Madrid, fall back 2026-10-25 03:00 → 02:00 (+02:00 → +01:00)
    ['2026-10-25 01:59:00.000', 'Europe/Madrid', '2026-10-24T23:59:00.000Z'],
    ['2026-10-25 02:30:00.000', 'Europe/Madrid', '2026-10-25T00:30:00.000Z'], // overlap: earlier
    ['2026-10-25 03:00:00.000', 'Europe/Madrid', '2026-10-25T02:00:00.000Z'],
    // Australia/Sydney, fall back 2026-04-05 03:00 → 02:00 (+11:00 → +10:00)
    ['2026-04-05 02:30:00.000', 'Australia/Sydney', '2026-04-04T15:30:00.000Z'], // overlap: earlier
    ['2026-04-05 03:00:00.000', 'Australia/Sydney', '2026-04-04T17:00:00.000Z'],
    // Australia/Sydney, spring forward 2026-10-04 02:00 → 03:00 (+10:00 → +11:00)
    ['2026-10-04 01:59:00.000', 'Australia/Sydney', '2026-10-03T15:59:00.000Z'],
    ['2026-10-04 02:30:00.000', 'Australia/Sydney', '2026-10-03T16:30:00.000Z'], // gap: after it
    ['2026-10-04 03:00:00.000', 'Australia/Sydney', '2026-10-03T16:00:00.000Z'],
    // Australia/Lord_Howe, half an hour forward 2026-10-04 02:00 → 02:30 and back 2026-04-05
    // 02:00 → 01:30 (+10:30 ↔ +11:00): a change inside an hour, read minute by minute
    ['2026-10-04 01:59:00.000', 'Australia/Lord_Howe', '2026-10-03T15:29:00.000Z'],
    ['2026-10-04 02:15:00.000', 'Australia/Lord_Howe', '2026-10-03T15:45:00.000Z'], // gap
    ['2026-10-04 02:30:00.000', 'Australia/Lord_Howe', '2026-10-03T15:30:00.000Z'],
    ['2026-04-05 01:45:00.000', 'Australia/Lord_Howe', '2026-04-04T14:45:00.000Z'], // overlap
    ['2026-04-05 02:00:00.000', 'Australia/Lord_Howe', '2026-04-04T15:30:00.000Z'],
    // No DST, and the forms the API accepts
    ['2026-07-01T12:00:00.5', 'UTC', '2026-07-01T12:00:00.500Z'],
    ['2026-07-01 12:00', 'Asia/Kolkata', '2026-07-01T06:30:00.000Z'],
  ])('should read %s in %s as %s', (local, zone, instant) => {
    expect(instantOf(local, zone)).toBe(instant);
    // Again, from the cache.
    expect(instantOf(local, zone)).toBe(instant);
  });

  it('should answer null for an unknown or absent zone, or a value that is no date-time', () => {
    expect(instantOf('2026-03-29 02:30:00.000', 'Europe/Atlantis')).toBeNull();
    expect(instantOf('2026-03-29 02:30:00.000', '')).toBeNull();
    expect(instantOf('2026-03-29 02:30:00.000', null)).toBeNull();
    expect(instantOf('29/03/2026 02:30', 'Europe/Madrid')).toBeNull();
  });

  it('should agree with Intl for every minute of both of Madrid’s transition days', () => {
    const format = new Intl.DateTimeFormat('sv-SE', {
      timeZone: 'Europe/Madrid',
      dateStyle: 'short',
      timeStyle: 'short',
    });
    for (const day of ['2026-03-29', '2026-10-25']) {
      for (let minute = 0; minute < 24 * 60; minute += 7) {
        const hh = String(Math.floor(minute / 60)).padStart(2, '0');
        const mm = String(minute % 60).padStart(2, '0');
        const instant = instantOf(`${day} ${hh}:${mm}:00.000`, 'Europe/Madrid') as string;
        const back = format.format(new Date(instant));
        // Outside the gap the instant shows the same wall-clock time; in it, one hour later.
        const gap = day === '2026-03-29' && hh === '02';
        expect(back).toBe(gap ? `${day} 03:${mm}` : `${day} ${hh}:${mm}`);
      }
    }
  });
  it.each(['Europe/Madrid', 'America/New_York', 'Australia/Lord_Howe', 'Pacific/Apia'])(
    'should give, for a year of local times in %s, instants that read back as the same wall clock (after a gap, the time past it)',
    (zone) => {
      const format = new Intl.DateTimeFormat('sv-SE', {
        timeZone: zone,
        dateStyle: 'short',
        timeStyle: 'short',
      });
      const wall = (ms: number) => new Date(ms).toISOString().slice(0, 16).replace('T', ' ');
      const start = Date.UTC(2011, 11, 1);
      const wrong: string[] = [];
      for (let at = start; at < start + 400 * 86_400_000; at += 37 * 60_000) {
        const local = wall(at);
        const instant = Date.parse(instantOf(`${local}:00.000`, zone) as string);
        const back = format.format(new Date(instant));
        // A local time in a gap names no instant: it is read past the gap, by the gap's length
        // (the earlier offset), and that length before its instant the clock showed a time
        // before the gap.
        const shift = Date.parse(`${back}Z`) - Date.parse(`${local}Z`);
        const inGap = shift > 0 && format.format(new Date(instant - shift)) < local;
        if (back !== local && !inGap)
          wrong.push(`${local} → ${new Date(instant).toISOString()} (${back})`);
      }
      expect(wrong).toEqual([]);
    },
  );
});
