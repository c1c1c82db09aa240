import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { NEWEST_DIGEST_VERSION } from '../../../src/catalogue/digest-versions';

/**
 * The recipes of docs/architecture.md ("Recipes") as edits a newcomer makes by hand, applied to a
 * copy of the repository by test/docs/recipes.e2e-spec.ts, which then regenerates everything else
 * and checks the API, the document, the client, the mirror, Parquet and the digests carry them.
 * What a recipe edits here is what the documented counts count: nothing else may need a hand.
 */
export interface RecipeStep {
  /** The file, from the repository's root. */
  file: string;
  /** A new file's text; otherwise `edit` changes an existing file. */
  create?: string;
  edit?: (text: string) => string;
}

export interface Recipe {
  name: string;
  steps: RecipeStep[];
}

/** The digest version a new field joins: the one after today's newest. */
export const NEXT_DIGEST_VERSION = NEWEST_DIGEST_VERSION + 1;

/** `text` with `insert` put after `anchor`, which must be there exactly once. */
function after(anchor: string, insert: string): (text: string) => string {
  return (text) => {
    const at = text.indexOf(anchor);
    if (at < 0 || text.indexOf(anchor, at + 1) >= 0) {
      throw new Error(`the recipe's anchor is not in the file exactly once: ${anchor}`);
    }
    return text.slice(0, at + anchor.length) + insert + text.slice(at + anchor.length);
  };
}

/** `text` with `pattern`'s one match replaced. */
function replace(pattern: RegExp, by: (match: string) => string): (text: string) => string {
  return (text) => {
    const matches = text.match(new RegExp(pattern.source, `${pattern.flags}g`)) ?? [];
    if (matches.length !== 1) throw new Error(`the recipe's ${pattern} matches ${matches.length}`);
    return text.replace(pattern, by);
  };
}

const SCHEMA = 'src/database/schema/backoffice.mysql.sql';

/** A nullable text field on payments, end to end: `terminalId`. */
export const FIELD_RECIPE: Recipe = {
  name: 'a nullable text field on payments (terminalId)',
  steps: [
    {
      file: SCHEMA,
      edit: after('  reference     VARCHAR(64)   NULL,\n', '  terminal_id   VARCHAR(32)   NULL,\n'),
    },
    {
      file: 'src/payments/payments.source.ts',
      edit: after(
        "    reference: nullable('VARCHAR(64)'),\n",
        "    terminal_id: nullable('VARCHAR(32)'),\n",
      ),
    },
    {
      file: 'src/payments/payment.dto.ts',
      edit: (text) =>
        after(
          '  reference!: string | null;\n',
          "\n  @ApiProperty(format.nullableText('The terminal that took a card payment.', 'T-07'))\n" +
            '  terminalId!: string | null;\n',
        )(after("  reference: 'AUTH-483920',\n", "  terminalId: 'T-07',\n")(text)),
    },
    {
      file: 'src/payments/payments.resource.ts',
      edit: (text) =>
        after(
          '    reference: nullableString(row.reference),\n',
          '    terminalId: nullableString(row.terminal_id),\n',
        )(
          replace(/digest: \{ since: \{ ([^}]*) \} \}/, (m) =>
            m.replace(/ \} \}$/, `, terminalId: ${NEXT_DIGEST_VERSION} } }`),
          )(text),
        ),
    },
    {
      file: 'src/catalogue/digest-versions.ts',
      edit: (text) =>
        replace(/DIGEST_VERSIONS = \[[^\]]*\]/, (m) =>
          m.replace(/\]$/, `, ${NEXT_DIGEST_VERSION}]`),
        )(
          replace(/NEWEST_DIGEST_VERSION: DigestVersion = \d+/, (m) =>
            m.replace(/\d+$/, String(NEXT_DIGEST_VERSION)),
          )(text),
        ),
    },
  ],
};

/** A resource with a list, a feed and a digest: `gift-card-loads`. */
export const RESOURCE_RECIPE: Recipe = {
  name: 'a resource with a list, a feed and a digest (gift-card-loads)',
  steps: [
    {
      file: 'src/gift-card-loads/gift-card-loads.source.ts',
      create: `import { defineSource, SHOP_TIME_ZONE, sql, type SourceRow } from '../catalogue/source';

/** pos_gift_card_loads: GET /gift-card-loads in (loaded_at, id) order, its feed by arrival. */
export const GIFT_CARD_LOADS = defineSource({
  table: 'pos_gift_card_loads',
  columns: {
    id: sql('BIGINT UNSIGNED'),
    shop_code: sql('VARCHAR(16)'),
    register_code: sql('VARCHAR(16)'),
    loaded_at: sql('DATETIME(3)'),
    card_number: sql('VARCHAR(32)'),
    amount: sql('DECIMAL(15,2)'),
    currency: sql('CHAR(3)'),
  },
  derived: { time_zone: SHOP_TIME_ZONE },
  time: 'loaded_at',
});

export type GiftCardLoadRow = SourceRow<typeof GIFT_CARD_LOADS>;
`,
    },
    {
      file: 'src/gift-card-loads/gift-card-load.dto.ts',
      create: `import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import * as format from '../common/openapi/value-formats';

@ApiSchema({ name: 'GiftCardLoad', description: 'Money loaded onto a gift card at a register.' })
export class GiftCardLoadDto {
  @ApiProperty(format.ID)
  id!: string;

  @ApiProperty(format.SHOP_CODE)
  shopCode!: string;

  @ApiProperty(format.REGISTER_CODE)
  registerCode!: string;

  @ApiProperty({ ...format.LOCAL_DATE_TIME_OUT, description: 'When it was loaded, shop-local.' })
  loadedAt!: string;

  @ApiProperty(format.utcInstantOf('loadedAt', '2026-03-01T09:00:00.000Z'))
  loadedAtUtc!: string | null;

  @ApiProperty({ type: String, description: 'The gift card, as printed.', example: 'GC-0042' })
  cardNumber!: string;

  @ApiProperty(format.decimalColumnOf(15, 2, 'Amount loaded.'))
  amount!: string;

  @ApiProperty(format.CURRENCY)
  currency!: string;
}

export const GIFT_CARD_LOAD_EXAMPLE: GiftCardLoadDto = {
  id: '4096',
  shopCode: 'SHOP001',
  registerCode: 'R1',
  loadedAt: '2026-03-01T10:00:00.000',
  loadedAtUtc: '2026-03-01T09:00:00.000Z',
  cardNumber: 'GC-0042',
  amount: '25.00',
  currency: 'EUR',
};
`,
    },
    {
      file: 'src/gift-card-loads/gift-card-loads.resource.ts',
      create: `import { decimal, localDateTime } from '../common/sql-values';
import { instantOf } from '../common/zoned-time';
import { defineResource } from '../catalogue/resource';
import { GIFT_CARD_LOAD_EXAMPLE, GiftCardLoadDto } from './gift-card-load.dto';
import { GIFT_CARD_LOADS, type GiftCardLoadRow } from './gift-card-loads.source';

export const GIFT_CARD_LOADS_RESOURCE = defineResource({
  route: 'gift-card-loads',
  tag: { name: 'Gift card loads', description: 'Money loaded onto gift cards, by cursor.' },
  source: GIFT_CARD_LOADS,
  record: GiftCardLoadDto,
  example: GIFT_CARD_LOAD_EXAMPLE,
  toRecord: (row: GiftCardLoadRow): GiftCardLoadDto => ({
    id: row.id,
    shopCode: row.shop_code,
    registerCode: row.register_code,
    loadedAt: localDateTime(row.loaded_at),
    loadedAtUtc: instantOf(row.loaded_at, row.time_zone),
    cardNumber: row.card_number,
    amount: decimal(row.amount, 2),
    currency: row.currency,
  }),
  datedBy: 'loadedAt',
  list: { summary: 'List gift card loads', description: 'Gift card loads, by \`loadedAt\`.' },
  feed: { summary: 'Gift card loads by arrival', description: 'Gift card loads by arrival.' },
  digest: {},
});
`,
    },
    {
      file: 'src/app.catalogue.ts',
      edit: (text) =>
        after(
          "import { SALES_RESOURCE } from './sales/sales.resource';\n",
          "import { GIFT_CARD_LOADS_RESOURCE } from './gift-card-loads/gift-card-loads.resource';\n",
        )(after('  CASH_DRAWER_SESSIONS_RESOURCE,\n', '  GIFT_CARD_LOADS_RESOURCE,\n')(text)),
    },
    {
      file: SCHEMA,
      edit: (text) =>
        `${text.trimEnd()}

CREATE TABLE pos_gift_card_loads (
  id            BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
  shop_code     VARCHAR(16)   NOT NULL,
  register_code VARCHAR(16)   NOT NULL,
  loaded_at     DATETIME(3)   NOT NULL,                -- shop-local wall-clock time
  card_number   VARCHAR(32)   NOT NULL,
  amount        DECIMAL(15,2) NOT NULL,
  currency      CHAR(3)       NOT NULL,
  PRIMARY KEY (id),
  KEY ix_pos_gift_card_loads_shop_loaded (shop_code, loaded_at, id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
`,
    },
  ],
};

/** Applies a recipe's steps to the checkout at `root`. */
export function applyRecipe(root: string, recipe: Recipe): void {
  for (const step of recipe.steps) {
    const file = path.join(root, step.file);
    if (step.create !== undefined) {
      if (existsSync(file)) throw new Error(`${step.file} exists already`);
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, step.create);
    } else if (step.edit) {
      writeFileSync(file, step.edit(readFileSync(file, 'utf8')));
    }
  }
}

/** What a recipe costs by hand: files created, files edited, and the folders they are in. */
export function costOf(recipe: Recipe): { created: number; edited: number; folders: number } {
  const created = new Set(recipe.steps.filter((s) => s.create !== undefined).map((s) => s.file));
  const edited = new Set(recipe.steps.filter((s) => s.create === undefined).map((s) => s.file));
  const folders = new Set(recipe.steps.map((s) => path.dirname(s.file)));
  return { created: created.size, edited: edited.size, folders: folders.size };
}
