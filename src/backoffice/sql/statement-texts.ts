/** How many shapes of statement one owner keeps: far more than a page's reads ever vary by. */
const SHAPES_PER_OWNER = 256;

const texts = new WeakMap<object, Map<number, string>>();

/**
 * The text of a statement of `owner` (a source, an attachment) in the shape `shape` (what its
 * text depends on: the number of shops or ids, which bounds are set), built by `build` the first
 * time and the same string object every time after. Values are parameters, never in the text, so
 * a shape has one text. A page's statements are 1 to 2 kB: built afresh for every query, each was
 * built, flattened and hashed again wherever it is a key (the tracing's mask of a statement,
 * operations/tracing/masked-statement.ts); the same string object keeps the hash V8 computed
 * once. An owner's shapes are forgotten when it has more than SHAPES_PER_OWNER (lists of ids of
 * every length, say).
 */
export function statementText(owner: object, shape: number, build: () => string): string {
  let shapes = texts.get(owner);
  if (shapes === undefined) {
    shapes = new Map();
    texts.set(owner, shapes);
  }
  let text = shapes.get(shape);
  if (text === undefined) {
    if (shapes.size >= SHAPES_PER_OWNER) shapes.clear();
    text = build();
    shapes.set(shape, text);
  }
  return text;
}
