import type { Type } from '@nestjs/common';
import type { Source } from './source';
import { type DigestDeclaration, type DigestFields, digestFieldsOf } from './digest-versions';

/** An operation's prose in the OpenAPI document; its id and the rest are derived. */
export interface OperationText {
  summary: string;
  description: string;
}

/**
 * What a resource is, declared once in its folder (`<resource>.resource.ts`): its back-office
 * source (table, typed columns, shop, time and arrival columns, attached rows), its record (the
 * DTO class with its example, and the mapping from a row) and its operations' prose. The root's
 * catalogue (`src/app.catalogue.ts`) lists every resource; the routes, page schemas, digests, the
 * feed-index check, the seed's tables and the specs all read the declaration from there.
 */
export interface Resource<R extends { id: string }, T extends { id: string }> {
  /** Its route below the API prefix and the name its cursors carry: `cash-movements`. */
  route: string;
  /** Its tag in the document; the tag's name, lower-cased, names the records in prose. */
  tag: { name: string; description: string };
  source: Source<R>;
  /** The record's schema class (`SaleDto`). */
  record: Type<T>;
  example: T;
  /** A row as the list, the feed and the digest return it. */
  toRecord(row: R): T;
  /**
   * The record's field of the source's `time`, which orders the list and dates the digest (a
   * field of `T`: defineResource checks it).
   */
  datedBy: string;
  list: OperationText;
  /**
   * Its feed and its digest; a resource without them has a list only (the drawer sessions:
   * a session changes when it is counted, after its opening's arrival and date).
   */
  feed?: OperationText;
  /**
   * The fields each digest version covers, frozen (docs/sync.md, "Digest versions"), derived by
   * defineResource from the declaration's `since`.
   */
  digest?: { fields: DigestFields };
}

/**
 * A resource as its folder declares it: a digest names only the version each later field joined
 * (`digest: { since: { soldAtUtc: 2 } }`; `{}`: every field since version 1).
 */
export type ResourceDeclaration<R extends { id: string }, T extends { id: string }> = Omit<
  Resource<R, T>,
  'digest'
> & { datedBy: keyof T & string; digest?: DigestDeclaration<T> };

/** Any resource of the catalogue (toRecord is a method, so a resource's own types fit). */
export type AnyResource = Resource<{ id: string }, { id: string }>;

/**
 * A resource's declaration, checked against `Resource` and with its own types kept; its digest's
 * fields per version follow from its record's fields (its example's) and `since`.
 */
export function defineResource<R extends { id: string }, T extends { id: string }>(
  declaration: ResourceDeclaration<R, T>,
): Resource<R, T> {
  const { digest, ...resource } = declaration;
  if (!digest) return resource;
  const fields = Object.keys(declaration.example) as Array<keyof T & string>;
  return { ...resource, digest: { fields: digestFieldsOf(fields, digest) } };
}

/** How the digest's description names its records: 'cash movements (dated by `movedAt`)'. */
export function digestRecords(resource: AnyResource): string {
  return `${resource.tag.name.toLowerCase()} (dated by \`${resource.datedBy}\`)`;
}

/** `cash-movements` → `CashMovements`: the prefix of its schema names and operation ids. */
export function pascalName(route: string): string {
  return route.replace(/(^|-)([a-z])/g, (_, _dash: string, c: string) => c.toUpperCase());
}

/** `cash-movements` → `cashMovements`: its operation ids' prefix and its key in a seed batch. */
export function camelName(route: string): string {
  const name = pascalName(route);
  return name[0].toLowerCase() + name.slice(1);
}
