import { StreamableFile } from '@nestjs/common';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import type { Readable } from 'node:stream';
import { shedByDeadline } from '../deadline/request-deadline';

type Reply = Parameters<FastifyAdapter['reply']>[0];
type Sent = ReturnType<FastifyAdapter['reply']>;

/** Lets go of what an answer that is never sent holds (the report's stream holds its reads). */
function release(body: unknown): void {
  const stream = body instanceof StreamableFile ? body.getStream() : (body as Readable | null);
  if (typeof stream?.destroy === 'function') stream.destroy();
}

/**
 * Nest's Fastify adapter, but a handler's answer to a request its deadline already answered 503
 * (decision 27.3: the timer answers, the handler's work is abandoned) is dropped, not sent a
 * second time: Fastify would log "Reply was already sent", or, while the 503 is still in its
 * onSend hooks, write the headers twice.
 */
export class ApiFastifyAdapter extends FastifyAdapter {
  override reply(response: Reply, body: unknown, statusCode?: number): Sent {
    if ('request' in response && shedByDeadline(response.request)) {
      release(body);
      return response;
    }
    return super.reply(response, body, statusCode);
  }
}
