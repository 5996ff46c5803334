/**
 * Issue 26 item 5: `validate` as people use it: several files and directories in one call, one line
 * per file and a summary, --config for the namespaces, and the same namespace hint as `run`.
 */
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { cli, tempDir } from '../../test/support/cli.js';

const DIR = fileURLToPath(new URL('../../fixtures/real-service/', import.meta.url));
const FILES = readdirSync(DIR)
  .filter((f) => f.endsWith('.xml'))
  .sort();
const NS = ['--book-ns', 'http://xml.example.com/book/1/', '--search-ns', 'http://xml.example.com/search/1/'];

describe('validate several documents', () => {
  test('validate fixtures/real-service/ checks every file in one call: a line each, then the summary', async () => {
    const r = await cli(['validate', DIR, ...NS]);
    expect(r.code, r.out).toBe(0);
    const lines = r.out.split('\n');
    expect(lines.filter((l) => l.startsWith('✓ '))).toHaveLength(FILES.length);
    for (const f of FILES) expect(r.out).toContain(`✓ ${join(DIR, f)}: `);
    expect(lines.at(-1)).toBe(`VALID: ${FILES.length} files, ${FILES.length} valid, 0 invalid`);
  });

  test('--config takes the namespaces of a run config', async () => {
    const dir = tempDir('validate-config');
    const config = join(dir, 'real.json');
    writeFileSync(
      config,
      JSON.stringify({
        target: { bookNs: 'http://xml.example.com/book/1/', searchNs: 'http://xml.example.com/search/1/' },
      }),
    );
    const r = await cli(['validate', DIR, '--config', config]);
    expect(r.code, r.out).toBe(0);
    expect(r.out.split('\n').at(-1)).toBe(`VALID: ${FILES.length} files, ${FILES.length} valid, 0 invalid`);
    writeFileSync(config, JSON.stringify({ target: { bookNamespace: 'x' } }));
    const bad = await cli(['validate', DIR, '--config', config]);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/unknown key "target.bookNamespace"/);
  });

  test('files and directories mixed; an invalid one fails the call, with the namespace hint run gives', async () => {
    const dir = tempDir('validate-mixed');
    mkdirSync(join(dir, 'sub'));
    writeFileSync(
      join(dir, 'sub', 'broken.xml'),
      '<getMealsResult '
        + 'xmlns="http://xml.example.com/search/1/"><meals><meal><id>x</id></meal></meals></getMealsResult>',
    );
    writeFileSync(join(dir, 'sub', 'notes.txt'), 'not a document');
    const r = await cli(['validate', join(DIR, FILES[0]!), join(dir, 'sub'), ...NS]);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/^✗ .*broken\.xml: GetMeals result, HTTP GET .*: \d+ findings?$/m);
    expect(r.out).not.toContain('notes.txt');
    expect(r.out.split('\n').at(-1)).toMatch(/^INVALID: 2 files, 1 valid, 1 invalid \(/);
    // Without the namespaces: every file is in another namespace than the mock's, and is told which flag to pass.
    const hinted = await cli([
      'validate',
      join(DIR, 'fact7-meals-no-name.get.xml'),
      join(DIR, 'fact4-get-features-id.soap11.xml'),
    ]);
    expect(hinted.code).toBe(1);
    expect(hinted.out).toContain(
      'hint: <getMealsResult> is in namespace http://xml.example.com/search/1/, not '
        + 'http://mock.accommodation.test/search/1/: pass --search-ns http://xml.example.com/search/1/',
    );
    const one = await cli(['validate', join(DIR, 'fact7-meals-no-name.get.xml')]);
    expect(one.out).toContain('pass --search-ns http://xml.example.com/search/1/');
  });

  test(
    'bad usage exits 2: no path, a missing path, a directory without documents; a document of no known '
      + 'kind is not checked',
    async () => {
      expect((await cli(['validate'])).code).toBe(2);
      expect((await cli(['validate', DIR, '/no/such/file.xml'])).err).toMatch(
        /cannot read \/no\/such\/file\.xml: ENOENT/,
      );
      const empty = tempDir('validate-empty');
      expect((await cli(['validate', empty])).err).toMatch(/holds no \*\.xml file to validate/);
      const odd = tempDir('validate-odd');
      writeFileSync(join(odd, 'a.xml'), '<whatever/>');
      writeFileSync(
        join(odd, 'b.xml'),
        '<getMealsResult xmlns="http://mock.accommodation.test/search/1/"><meals/></getMealsResult>',
      );
      const r = await cli(['validate', odd]);
      expect(r.code).toBe(2);
      expect(r.out).toMatch(/^\? .*a\.xml: not checked: cannot tell what <whatever> is/m);
      expect(r.out).toMatch(/^✓ .*b\.xml: /m);
      expect(r.out.split('\n').at(-1)).toBe(
        'INVALID: 2 files, 1 valid, 0 invalid, 1 not checked (pass --operation or --type)',
      );
    },
  );
});
