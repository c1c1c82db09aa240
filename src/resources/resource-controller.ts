import { Controller, Get, Query, type Type } from '@nestjs/common';
import { ApiSchema } from '@nestjs/swagger';
import { BEARER_PROBLEMS } from '../auth/bearer-problems';
import { Caller, CallerClaims } from '../auth/caller';
import { FEED } from '../backoffice/modes/feed.mode';
import { LIST } from '../backoffice/modes/list.mode';
import { pagedEndpoint } from '../backoffice/paged-endpoint';
import { Paginator } from '../backoffice/paginator';
import { ApiTagDescription } from '../common/openapi/api-tag';
import { ApiDigestEndpoint } from '../common/pagination/digest-endpoint.decorator';
import { DigestBudget } from '../common/throttling/digest-budget';
import { DigestDto } from '../common/pagination/digest.dto';
import { ApiPageEndpoint } from '../common/pagination/page-endpoint.decorator';
import { PageDto } from '../common/pagination/page.dto';
import { RawQuery } from '../common/pagination/query-parameters';
import { apiPath } from '../config/api-prefix';
import { type AnyResource, pascalName } from './resource';

/** The list and feed endpoints of a resource (the digest reads the list's). */
export function resourceEndpoints(resource: AnyResource) {
  return {
    list: pagedEndpoint(resource.route, LIST, resource.source, resource.toRecord),
    feed: pagedEndpoint(resource.route, FEED, resource.source, resource.toRecord),
  };
}

/** A page schema of the document (`SalesPage`, `SalesFeedPage`), named for its resource. */
function pageSchema(name: string, description: string, page: Type<unknown>): Type<unknown> {
  ApiSchema({ name, description })(page);
  return page;
}

/**
 * The controller of a resource: GET /<route> (the list), /<route>/feed and /<route>/digest, each
 * documented from the declaration (operation ids `listSales`, `salesFeed`, `salesDigest`; page
 * schemas `SalesPage`, `SalesFeedPage`), and each one call of the Paginator, which reads through
 * the wall with the caller's shop scope.
 */
export function resourceController(resource: AnyResource): Type<unknown> {
  const { route, tag, record, example } = resource;
  const name = pascalName(route);
  const camel = name[0].toLowerCase() + name.slice(1);
  const records = tag.name.toLowerCase();
  const { list, feed } = resourceEndpoints(resource);
  const ListPage = pageSchema(
    `${name}Page`,
    `A page of ${records}.`,
    class extends PageDto(record, LIST.docs) {},
  );
  const FeedPage = pageSchema(
    `${name}FeedPage`,
    `A page of the feed of ${records}.`,
    class extends PageDto(record, FEED.docs) {},
  );

  @Controller()
  @ApiTagDescription(tag.name, tag.description)
  class ResourceController {
    constructor(private readonly pages: Paginator) {}

    @Get(list.route)
    @ApiPageEndpoint(list, {
      operationId: `list${name}`,
      tag: tag.name,
      ...resource.list,
      page: ListPage,
      example,
      problems: BEARER_PROBLEMS,
    })
    list(@Caller() caller: CallerClaims, @Query() query: RawQuery): Promise<object> {
      return this.pages.read(list, caller, query);
    }

    @Get(feed.route)
    @ApiPageEndpoint(feed, {
      operationId: `${camel}Feed`,
      tag: tag.name,
      ...resource.feed,
      page: FeedPage,
      example,
      problems: BEARER_PROBLEMS,
    })
    feed(@Caller() caller: CallerClaims, @Query() query: RawQuery): Promise<object> {
      return this.pages.read(feed, caller, query);
    }

    @Get(`${route}/digest`)
    @DigestBudget()
    @ApiDigestEndpoint({
      path: apiPath(`${route}/digest`),
      operationId: `${camel}Digest`,
      tag: tag.name,
      records: resource.digest.records,
      list: `GET ${list.path}`,
      problems: BEARER_PROBLEMS,
    })
    digest(@Caller() caller: CallerClaims, @Query() query: RawQuery): Promise<DigestDto> {
      return this.pages.digest(list, caller, query);
    }
  }
  Object.defineProperty(ResourceController, 'name', { value: `${name}Controller` });
  return ResourceController;
}
