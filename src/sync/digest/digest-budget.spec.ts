import { HttpStatus } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { MAX_WAITING_EXPENSIVE_READS } from '../../config/limits';
import { Deadline, runWithDeadline } from '../../common/deadline/deadline';
import { meterCurrentRequest } from '../../common/deadline/read-meter';
import { ProblemException } from '../../common/errors/problem';
import { CostLedger } from '../../common/throttling/cost-ledger';
import { SharedLimitStorage } from '../../common/throttling/shared-limit.storage';
import { DigestAdmission } from './digest-budget';

function admission(settings: Partial<AppConfig> = {}) {
  const config = Object.assign(new AppConfig(), {
    DIGEST_MAX_IN_FLIGHT: 2,
    DIGEST_MAX_IN_FLIGHT_PER_USER: 1,
    DIGEST_QUEUE_PER_USER: 2,
    REQUEST_DEADLINE_MS: 60_000,
    ...settings,
  });
  const storage = new SharedLimitStorage(config);
  const ledger = new CostLedger(storage);
  return { budget: new DigestAdmission(storage, ledger, config), ledger };
}

/** The status, Retry-After and detail of a refusal. */
async function refusal(call: Promise<unknown>) {
  const error = await call.then(
    () => {
      throw new Error('admitted');
    },
    (e: unknown) => e,
  );
  if (!(error instanceof ProblemException)) throw error;
  return {
    status: error.getStatus(),
    detail: error.detail,
    retryAfter: error.headers['Retry-After'],
  };
}

const settle = () => new Promise((r) => setImmediate(r));

describe(DigestAdmission.name, () => {
  it('should make a call past the running share wait for a turn, and refuse the one past the waiting share with 429 naming both limits', async () => {
    const { budget } = admission();
    const end = await budget.admit('a');
    const waiting = [budget.admit('a'), budget.admit('a')];
    await settle();
    expect([budget.inFlight('a'), budget.waiting('a')]).toEqual([1, 2]);
    const refused = await refusal(budget.admit('a'));
    expect(refused.status).toBe(HttpStatus.TOO_MANY_REQUESTS);
    expect(refused.detail).toBe(
      'Digest limit exceeded (DIGEST_MAX_IN_FLIGHT_PER_USER, DIGEST_QUEUE_PER_USER): at most 1 digests running and 2 waiting per user; retry when one has been answered.',
    );
    expect(refused.retryAfter).toBe('1');
    // Another user takes the free place at once: a's share is one running.
    const other = await budget.admit('b');
    end(200);
    (await waiting[0])(200);
    (await waiting[1])(200);
    other(200);
  });

  it("should refuse with 429 naming the deadline a call that waited as long as half its request's deadline", async () => {
    const { budget } = admission({ DIGEST_MAX_IN_FLIGHT: 1, REQUEST_DEADLINE_MS: 600 });
    const end = await budget.admit('a');
    const started = performance.now();
    const refused = await refusal(budget.admit('b'));
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    expect(refused.status).toBe(HttpStatus.TOO_MANY_REQUESTS);
    expect(refused.detail).toBe(
      "Digest limit exceeded (REQUEST_DEADLINE_MS): waited 300 ms for a turn, as long as the request's deadline allows, behind other digests; retry shortly.",
    );
    expect(refused.retryAfter).toBe('1');
    expect(budget.waiting('b')).toBe(0);
    end(200);
  });

  it('should answer 503 only when every waiting place of the instance is taken', async () => {
    const { budget } = admission({ DIGEST_MAX_IN_FLIGHT: 1 });
    const end = await budget.admit('first');
    const waiting = Array.from({ length: MAX_WAITING_EXPENSIVE_READS }, (_, i) =>
      budget.admit(`user${i}`),
    );
    await settle();
    const refused = await refusal(budget.admit('one-more'));
    expect(refused.status).toBe(HttpStatus.SERVICE_UNAVAILABLE);
    expect(refused.detail).toBe(
      `This instance has ${MAX_WAITING_EXPENSIVE_READS} digests waiting for a turn; retry shortly.`,
    );
    end(200);
    for (const call of waiting) (await call)(200);
  });

  it('should charge the rows a call read to its user, refuse them with 429 past DIGEST_ROWS_PER_MINUTE, and not another user', async () => {
    const { budget, ledger } = admission({ DIGEST_ROWS_PER_MINUTE: 1000 });
    const deadline = new Deadline(60_000);
    await runWithDeadline(deadline, async () => {
      const end = await budget.admit('reader');
      meterCurrentRequest()!.rows += 1200;
      end(200);
    });
    deadline.finish();
    await settle();
    expect((await ledger.spent('digest-budget:reader')).spent).toBe(1200);
    const refused = await refusal(budget.admit('reader'));
    expect(refused.status).toBe(HttpStatus.TOO_MANY_REQUESTS);
    expect(refused.detail).toBe(
      'Digest limit exceeded (DIGEST_ROWS_PER_MINUTE): at most 1000 rows read a minute per user by digests, day closes and reports.',
    );
    expect(Number(refused.retryAfter)).toBeGreaterThan(50);
    (await budget.admit('another'))(200);
  });

  it('should neither charge nor check the rows of a bulk read (rows: false), yet take its turn and call', async () => {
    const { budget, ledger } = admission({
      DIGEST_ROWS_PER_MINUTE: 1000,
      DIGEST_CALLS_PER_MINUTE: 2,
    });
    await runWithDeadline(new Deadline(60_000), async () => {
      const end = await budget.admit('streamer');
      meterCurrentRequest()!.rows += 1200;
      end(200);
    });
    await settle();
    // Past the rows: a digest is refused, a bulk read is not, and reads without charging.
    await expect(refusal(budget.admit('streamer'))).resolves.toMatchObject({ status: 429 });
    await runWithDeadline(new Deadline(60_000), async () => {
      const end = await budget.admit('streamer', undefined, false);
      expect(budget.inFlight('streamer')).toBe(1);
      meterCurrentRequest()!.rows += 5000;
      end(200);
    });
    await settle();
    expect((await ledger.spent('digest-budget:streamer')).spent).toBe(1200);
    // Its call counted: the third call of the minute is refused, whatever it is.
    const refused = await refusal(budget.admit('streamer', undefined, false));
    expect(refused.detail).toBe(
      'Digest limit exceeded (DIGEST_CALLS_PER_MINUTE): at most 2 digests a minute per user.',
    );
  });

  it('should charge a call that read almost nothing (a digest from the cache) almost nothing', async () => {
    const { budget, ledger } = admission({ DIGEST_ROWS_PER_MINUTE: 1000 });
    for (let call = 0; call < 5; call++) {
      await runWithDeadline(new Deadline(60_000), async () => {
        const end = await budget.admit('cached');
        meterCurrentRequest()!.rows += 3; // the dates' fingerprints
        end(200);
      });
    }
    await settle();
    expect((await ledger.spent('digest-budget:cached')).spent).toBe(15);
  });
});
