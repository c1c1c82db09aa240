import {
  Body,
  CanActivate,
  Controller,
  ExecutionContext,
  Get,
  Injectable,
  Module,
  Post,
  Req,
} from '@nestjs/common';
import { APP_FILTER, APP_GUARD, NestFactory } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { setTimeout as sleep } from 'node:timers/promises';
import { Writable } from 'node:stream';
import { ProblemDetailsFilter, answerShedRequest } from '../errors/problem-details.filter';
import { ApiFastifyAdapter } from '../http/api-fastify-adapter';
import { currentDeadline, Deadline } from './deadline';
import { enforceRequestDeadlines } from './request-deadline';

const BUDGET_MS = 150;
/** A handler still working this long after the deadline answers late (abandoned work). */
const LATE_MS = BUDGET_MS + 150;

/** The deadlines the handlers ran under, to look at once their requests are over. */
const seen: Array<Deadline | undefined> = [];

type Seen = { guardSaw?: string };

/** What the deadline was when Nest's guards ran, for the handler to tell. */
@Injectable()
class SeeingGuard implements CanActivate {
  async canActivate(context: ExecutionContext): Promise<boolean> {
    await sleep(1);
    context.switchToHttp().getRequest<Seen>().guardSaw = currentDeadline()?.state;
    return true;
  }
}

@Controller('api/v1.0')
class DeadlineSpecController {
  @Get('now')
  now(@Req() request: Seen): { guard?: string; state?: string } {
    const deadline = currentDeadline();
    seen.push(deadline);
    return { guard: request.guardSaw, state: deadline?.state };
  }

  @Post('now')
  posted(@Req() request: Seen, @Body() body: { n: number }): object {
    return { guard: request.guardSaw, state: currentDeadline()?.state, n: body.n };
  }

  @Get('later')
  async later(): Promise<{ state?: string }> {
    await sleep(1);
    return { state: currentDeadline()?.state };
  }

  @Get('late')
  async late(): Promise<{ late: true }> {
    await sleep(LATE_MS);
    return { late: true };
  }

  @Get('late-failure')
  async lateFailure(): Promise<never> {
    await sleep(LATE_MS);
    throw new Error('the abandoned work failed');
  }
}

@Controller()
class OutsideController {
  @Get('outside')
  outside(): { state?: string } {
    return { state: currentDeadline()?.state };
  }
}

@Module({
  controllers: [DeadlineSpecController, OutsideController],
  providers: [
    { provide: APP_FILTER, useClass: ProblemDetailsFilter },
    { provide: APP_GUARD, useClass: SeeingGuard },
  ],
})
class DeadlineSpecModule {}

/** The service's wiring of the deadline, on a small app; Fastify's own log lines captured. */
async function start(): Promise<{ app: NestFastifyApplication; logged: string[] }> {
  const logged: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, next) {
      logged.push(chunk.toString());
      next();
    },
  });
  const adapter = new ApiFastifyAdapter({ logger: { level: 'warn', stream } });
  const app = await NestFactory.create<NestFastifyApplication>(DeadlineSpecModule, adapter, {
    logger: false,
  });
  const fastify = app.getHttpAdapter().getInstance();
  enforceRequestDeadlines(fastify, BUDGET_MS, '/api/v1.0/', answerShedRequest);
  // A request that spends most of its budget before its handler (a slow hook). A plain Fastify
  // route, outside Nest's abandoned-handler guard: it drops its own answer once the 503 is sent,
  // as the service's routes do, so that no "Reply was already sent" reaches a later test's log.
  fastify.get('/api/v1.0/slow-start', { onRequest: () => sleep(BUDGET_MS - 50) }, (_, reply) =>
    sleep(100).then(() => (reply.sent ? reply : { late: false })),
  );
  await app.init();
  await fastify.ready();
  return { app, logged };
}

describe(enforceRequestDeadlines.name, () => {
  let app: NestFastifyApplication;
  let logged: string[];

  beforeAll(async () => ({ app, logged } = await start()));
  afterAll(() => app?.close());
  beforeEach(() => {
    seen.length = 0;
    logged.length = 0;
  });

  it('should run the guards and handler in the deadline async context, with or without a body', async () => {
    const running = { guard: 'running', state: 'running' };
    expect((await app.inject({ url: '/api/v1.0/now' })).json()).toEqual(running);
    expect((await app.inject({ url: '/api/v1.0/later' })).json()).toEqual({ state: 'running' });
    const posted = await app.inject({ method: 'POST', url: '/api/v1.0/now', payload: { n: 7 } });
    expect(posted.json()).toEqual({ ...running, n: 7 });
  });

  it('should put no deadline on routes outside the API prefix', async () => {
    expect((await app.inject({ url: '/outside' })).json()).toEqual({});
  });

  it('should end the deadline when the answer is sent, so that it never expires after', async () => {
    expect((await app.inject({ url: '/api/v1.0/now' })).statusCode).toBe(200);
    await sleep(BUDGET_MS + 50);
    expect(seen.map((deadline) => deadline?.state)).toEqual(['finished']);
  });

  it('should answer 503 with Retry-After at the deadline, while the handler still works', async () => {
    const started = performance.now();
    const res = await app.inject({ url: '/api/v1.0/late' });
    const ms = performance.now() - started;
    expect(ms).toBeGreaterThanOrEqual(BUDGET_MS - 5);
    expect(ms).toBeLessThan(LATE_MS);
    expect(res.statusCode).toBe(503);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.json()).toMatchObject({
      status: 503,
      title: 'Service Unavailable',
      detail: expect.stringMatching(/deadline/),
      instance: '/api/v1.0/late',
    });
  });

  it.each([['late'], ['late-failure']])(
    'should drop what an abandoned handler answers after its 503 (%s): one answer, no "Reply was already sent"',
    async (route) => {
      expect((await app.inject({ url: `/api/v1.0/${route}` })).statusCode).toBe(503);
      await sleep(LATE_MS);
      expect(logged.join('')).toBe('');
    },
  );

  it('should count the deadline from the request arrival, not from the handler', async () => {
    expect((await app.inject({ url: '/api/v1.0/slow-start' })).statusCode).toBe(503);
  });
});
