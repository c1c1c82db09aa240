import type { ApiPropertyOptions } from '@nestjs/swagger';

/**
 * What a pagination mode (sync/list, sync/feed) says in the OpenAPI document: the
 * note added to each of its operations, its 200 answer, and its page envelope. Data, so that one
 * endpoint decorator (page-endpoint.decorator.ts) and one page DTO (page.dto.ts) serve every
 * mode.
 */
export interface ModeDocs {
  /** Appended to the description of each operation of the mode. */
  note: string;
  /** The description of the 200 answer. */
  ok: string;
  /** The description of the page's `data`. */
  data: string;
  /** The envelope's properties after `data`, in the document's order. */
  properties: Record<string, ApiPropertyOptions>;
  /** The example page's properties after `data`, given the example cursor. */
  example(cursor: string): Record<string, unknown>;
}
