export { PosReadClient, DEFAULT_RENEW_BEFORE_MS } from './client.js';
export type { PosReadClientOptions } from './client.js';
export {
  PosReadError,
  AuthenticationError,
  ForbiddenError,
  RateLimitError,
  ServiceUnavailableError,
  ApiError,
  NetworkError,
} from './errors.js';
export { CursorList } from './pagination.js';
export type { Resume } from './pagination.js';
export { FeedPoll } from './feed.js';
export type { FeedPage } from './feed.js';
export { MemoryCursorStore, FileCursorStore } from './cursor-store.js';
export type { CursorStore } from './cursor-store.js';
export { CursorResource, ShopsResource, ReportsResource } from './resources.js';
export type { ListOptions, FeedOptions, ReportQuery } from './resources.js';
export type { RetryOptions, Sleep } from './retry.js';
export type { Credentials, CredentialsProvider, ClientLogger } from './token-manager.js';
export type * from './types.js';
export type { paths, components, operations } from './generated/openapi.js';
