import {
  applyDecorators,
  Controller,
  Get,
  Header,
  Injectable,
  Query,
  StreamableFile,
  type Type,
} from '@nestjs/common';
import { ApiExtension, ApiSchema } from '@nestjs/swagger';
import { BEARER_PROBLEMS } from '../auth/bearer-problems';
import { Caller, CallerClaims } from '../auth/caller';
import { FEED } from './feed/feed.mode';
import { LIST } from './list/list.mode';
import { pagedEndpoint } from './paging/paged-endpoint';
import { Paginator } from './paging/paginator';
import { ApiTagDescription } from '../common/openapi/api-tag';
import { ApiDigestEndpoint } from './digest/digest-endpoint.decorator';
import { BulkBudget, DigestBudget } from './digest/digest-budget';
import { DigestDto } from './digest/digest.dto';
import { ApiPageEndpoint } from './paging/page-endpoint.decorator';
import { PageDto } from './paging/page.dto';
import { RawQuery } from '../common/query/query-parameters';
import { apiPath } from '../config/api-prefix';
import { type AnyResource, camelName, digestRecords, pascalName } from '../catalogue/resource';
import { ApiBulkEndpoint } from './bulk/bulk-endpoint.decorator';
import { bulkRoute } from './bulk/bulk-query';
import { BulkReader } from './bulk/bulk-read';

/** The list and feed endpoints of a resource (the digest reads the list's); no feed: null. */
export function resourceEndpoints(resource: AnyResource) {
  if (resource.feed && resource.source.only) {
    throw new TypeError(`${resource.route}: a source with \`only\` has a list, no feed`);
  }
  return {
    list: pagedEndpoint(resource.route, LIST, resource.source, resource.toRecord),
    feed: resource.feed
      ? pagedEndpoint(resource.route, FEED, resource.source, resource.toRecord)
      : null,
  };
}

/** A page schema of the document (`SalesPage`, `SalesFeedPage`), named for its resource. */
function pageSchema(name: string, description: string, page: Type<unknown>): Type<unknown> {
  ApiSchema({ name, description })(page);
  return page;
}

/**
 * The controller of a resource: GET /<route> (the list), and when declared /<route>/feed and
 * /<route>/digest, each documented from the declaration (operation ids `listSales`,
 * `salesFeed`, `salesDigest`; page schemas `SalesPage`, `SalesFeedPage`), and each one call of
 * the Paginator, which reads through the wall with the caller's shop scope.
 */
export function resourceController(resource: AnyResource): Type<unknown> {
  const { route, tag, record, example } = resource;
  const name = pascalName(route);
  const camel = camelName(route);
  const records = tag.name.toLowerCase();
  const { list, feed } = resourceEndpoints(resource);
  const ListPage = pageSchema(
    `${name}Page`,
    `A page of ${records}.`,
    class extends PageDto(record, LIST.docs) {},
  );

  /** The list's route and documentation, on the list method of either controller below. */
  const ListRoute = applyDecorators(
    Get(list.route),
    // The record's field that dates it (its day in a copy): the client's mirror reads it.
    ApiExtension('x-dated-by', resource.datedBy),
    ApiPageEndpoint(list, {
      operationId: `list${name}`,
      tag: tag.name,
      ...resource.list,
      page: ListPage,
      example,
      problems: BEARER_PROBLEMS,
    }),
  );

  const bulk = {
    resource: route,
    source: resource.source,
    toRecord: resource.toRecord,
    feed: resource.feed !== undefined,
  };
  const bulkPath = apiPath(bulkRoute(route));

  // Decorated so that its constructor's parameter types are emitted for Nest's injection. The
  // bulk read is every resource's, so it is here, once (Nest finds routes up the prototypes).
  @Injectable()
  class PagesController {
    constructor(
      protected readonly pages: Paginator,
      private readonly bulks: BulkReader,
    ) {}

    @Get(bulkRoute(route))
    @BulkBudget()
    @Header('Cache-Control', 'no-store')
    @ApiBulkEndpoint({
      path: bulkPath,
      operationId: `${camel}Bulk`,
      tag: tag.name,
      name,
      record,
      records,
      list: `GET ${list.path}`,
      route,
      feed: bulk.feed,
      problems: BEARER_PROBLEMS,
    })
    bulk(@Caller() caller: CallerClaims, @Query() query: RawQuery): Promise<StreamableFile> {
      return this.bulks.open(bulk, caller, query, bulkPath);
    }
  }

  let Controlled: Type<unknown>;
  if (feed && resource.feed && resource.digest) {
    const feedEndpoint = feed;
    const feedText = resource.feed;
    const digestText = resource.digest;
    const FeedPage = pageSchema(
      `${name}FeedPage`,
      `A page of the feed of ${records}.`,
      class extends PageDto(record, FEED.docs) {},
    );
    class ResourceController extends PagesController {
      @ListRoute
      list(@Caller() caller: CallerClaims, @Query() query: RawQuery): Promise<object> {
        return this.pages.read(list, caller, query);
      }

      @Get(feedEndpoint.route)
      @ApiPageEndpoint(feedEndpoint, {
        operationId: `${camel}Feed`,
        tag: tag.name,
        ...feedText,
        page: FeedPage,
        example,
        problems: BEARER_PROBLEMS,
      })
      feed(@Caller() caller: CallerClaims, @Query() query: RawQuery): Promise<object> {
        return this.pages.read(feedEndpoint, caller, query);
      }

      @Get(`${route}/digest`)
      @DigestBudget()
      @ApiDigestEndpoint({
        path: apiPath(`${route}/digest`),
        operationId: `${camel}Digest`,
        tag: tag.name,
        records: digestRecords(resource),
        list: `GET ${list.path}`,
        problems: BEARER_PROBLEMS,
        fields: digestText.fields,
      })
      digest(@Caller() caller: CallerClaims, @Query() query: RawQuery): Promise<DigestDto> {
        return this.pages.digest(list, digestText.fields, caller, query);
      }
    }
    Controlled = ResourceController;
  } else if (resource.feed || resource.digest) {
    throw new TypeError(`${route}: a feed and a digest go together`);
  } else {
    class ListOnlyController extends PagesController {
      @ListRoute
      list(@Caller() caller: CallerClaims, @Query() query: RawQuery): Promise<object> {
        return this.pages.read(list, caller, query);
      }
    }
    Controlled = ListOnlyController;
  }
  Controller()(Controlled);
  ApiTagDescription(tag.name, tag.description)(Controlled);
  Object.defineProperty(Controlled, 'name', { value: `${name}Controller` });
  return Controlled;
}
