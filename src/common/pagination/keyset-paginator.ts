import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { CallerClaims } from '../../auth/caller';
import { shopsInScope } from '../shop-scope';
import { CursorCodec } from './cursor-codec';
import { buildKeysetQuery } from './keyset-query';
import { KeysetResource, Page, Row } from './keyset-resource';
import { parsePageQuery } from './page-query';
import { RawQuery } from './query-parameters';

/** The one pagination mechanism of sales, payments and cash movements. */
@Injectable()
export class KeysetPaginator {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly cursors: CursorCodec,
  ) {}

  async page<T>(
    resource: KeysetResource<T>,
    caller: CallerClaims,
    raw: RawQuery,
  ): Promise<Page<T>> {
    const query = parsePageQuery(raw, resource.name, caller, this.cursors);
    const shops = shopsInScope(caller, query.shopCode ?? undefined);
    if (shops.length === 0 || (query.from !== null && query.from === query.to)) {
      return { data: [], nextCursor: null };
    }
    const { sql, params } = buildKeysetQuery(resource, shops, query);
    const rows: Row[] = await this.db.query(sql, params);
    const hasMore = rows.length > query.limit;
    if (hasMore) rows.length = query.limit;
    const data = rows.map((row) => resource.toRecord(row));
    if (resource.attachChildren && data.length > 0) await resource.attachChildren(data, this.db);
    const last = rows[rows.length - 1];
    const nextCursor = hasMore
      ? this.cursors.encode({
          resource: resource.name,
          subject: caller.userId,
          shopCode: query.shopCode,
          from: query.from,
          to: query.to,
          afterTime: String(last.k_t),
          afterId: String(last.k_id),
        })
      : null;
    return { data, nextCursor };
  }
}
