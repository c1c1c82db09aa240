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
  UnknownShopError,
} from './errors.js';
export { CursorList } from './pagination.js';
export type { Resume } from './pagination.js';
export { FeedPoll } from './feed.js';
export { BulkRead } from './bulk.js';
export type { BulkBatch, BulkOptions, BulkStart } from './bulk.js';
export type { FeedPage } from './feed.js';
export { MemoryCursorStore, FileCursorStore } from './cursor-store.js';
export type { CursorStore } from './cursor-store.js';
export {
  CursorResource,
  ShopsResource,
  ReportsResource,
  BusinessDaysResource,
} from './resources.js';
export type {
  ListOptions,
  FeedOptions,
  ReportQuery,
  DayDigest,
  DigestQuery,
  BusinessDaysQuery,
} from './resources.js';
export type { MirrorOptions, MirrorSummary } from './mirror/mirror.js';
export type { MirrorEvent } from './mirror/feeds.js';
export type { DifferingDay } from './mirror/reconcile.js';
export { MirrorFileError } from './mirror/mirror-error.js';
export { SqliteDriverError } from './mirror/sqlite-driver.js';
export { canonicalJson, dayChecksum } from './mirror/jcs.js';
export type { RetryOptions, Sleep } from './retry.js';
export type { Credentials, CredentialsProvider, ClientLogger } from './token-manager.js';
export type * from './types.js';
export type { paths, components, operations } from './generated/openapi.js';
