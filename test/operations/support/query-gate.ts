import type { INestApplication } from '@nestjs/common';
import { DataSource } from 'typeorm';

export interface QueryGate {
  /** Resolves once a gated query has started (the request is in flight). */
  entered: Promise<void>;
  /** Lets the held queries run. */
  open(): void;
}

/** Holds the app's queries whose SQL matches `pattern` until open(): a deterministic slow request. */
export function gateQueries(app: INestApplication, pattern: RegExp): QueryGate {
  const db = app.get(DataSource);
  const original: DataSource['query'] = db.query.bind(db);
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  let entered!: () => void;
  const enteredPromise = new Promise<void>((resolve) => (entered = resolve));
  jest.spyOn(db, 'query').mockImplementation(async (sql: string, ...rest: unknown[]) => {
    if (pattern.test(sql)) {
      entered();
      await gate;
    }
    return original(sql, ...(rest as [unknown[]]));
  });
  return { entered: enteredPromise, open };
}

export interface QueryHold {
  /** Queries held now. */
  count(): number;
  /** Lets the query held longest run. */
  releaseOldest(): void;
  /** Lets every held query run, and every later one pass. */
  releaseAll(): void;
}

/** Holds each of the app's queries matching `pattern`, each until released: one request at a time. */
export function holdQueries(app: INestApplication, pattern: RegExp): QueryHold {
  const db = app.get(DataSource);
  const original: DataSource['query'] = db.query.bind(db);
  const held: Array<() => void> = [];
  let open = false;
  jest.spyOn(db, 'query').mockImplementation(async (sql: string, ...rest: unknown[]) => {
    if (!open && pattern.test(sql)) await new Promise<void>((resolve) => held.push(resolve));
    return original(sql, ...(rest as [unknown[]]));
  });
  return {
    count: () => held.length,
    releaseOldest: () => held.shift()?.(),
    releaseAll: () => {
      open = true;
      held.splice(0).forEach((release) => release());
    },
  };
}
