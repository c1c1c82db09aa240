import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { codeHash } from './build-fingerprint';

describe(codeHash.name, () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(path.join(tmpdir(), 'code-hash-'));
    mkdirSync(path.join(root, 'sales'));
    writeFileSync(path.join(root, 'sales', 'sale.record.js'), 'exports.f = (r) => ({ id: r.id });');
    writeFileSync(path.join(root, 'main.js'), 'require("./sales/sale.record")');
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('should change when the code that maps a record changes, and only with the code', () => {
    const before = codeHash(root);
    expect(codeHash(root)).toBe(before);
    writeFileSync(path.join(root, 'sales', 'sale.record.spec.js'), 'test("x", () => 1)');
    writeFileSync(path.join(root, 'README.md'), 'notes');
    expect(codeHash(root)).toBe(before);
    writeFileSync(
      path.join(root, 'sales', 'sale.record.js'),
      'exports.f = (r) => ({ id: r.id, total: r.total });',
    );
    expect(codeHash(root)).not.toBe(before);
  });
});
