/**
 * `conformance record` and the mock's `--replay DIR`: a recording of the embedded mock, replayed,
 * gives the harness the same results; credentials never reach the recording; the replaying mock
 * still checks credentials and answers what was not recorded itself.
 */
import { createServer, type Server } from 'node:http';
import { requestAt } from '../../src/bindings/endpoint.js';
import type { AddressInfo } from 'node:net';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEFAULT_NAMESPACES, findOperation } from '../../src/contract/catalogue.js';
import { startMock, type RunningMock } from '../../src/mock/index.js';
import { mockMain } from '../../src/mock/main.js';
import { parseRecordingIndex, RECORDING_INDEX, ReplayError, type RecordingIndex } from '../../src/mock/replay.js';
import { redactBytes } from '../../src/cli/record.js';
import { cli, mockTarget, readReport, rowKey, tempDir } from '../../test/support/cli.js';

const rec = tempDir('rec');
let index: RecordingIndex;
let replaying: RunningMock;
let plain: RunningMock;

function allFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((n) =>
    statSync(join(dir, n)).isDirectory() ? allFiles(join(dir, n)) : [join(dir, n)],
  );
}

beforeAll(async () => {
  // Recorded from a mock at a URL, as a run against a URL sends it: its pool check included
  // (engine/pool-check.ts), which the replayed run below asks again.
  const source = await startMock();
  const r = await cli(['record', ...mockTarget(source.url), '--out', rec]).finally(() => source.close());
  expect(r.code, r.err).toBe(0);
  index = parseRecordingIndex(JSON.parse(readFileSync(join(rec, RECORDING_INDEX), 'utf8')), 'index');
  // The replaying mock answers each recorded call in the order recorded (sequences included); the
  // plain one keeps state, as the real service does (the run gives each state-changing call a
  // booking of its own, and its sequences read back what they wrote).
  replaying = await startMock({ replay: rec, stateless: true });
  plain = await startMock();
});
afterAll(async () => {
  await replaying?.close();
  await plain?.close();
});

describe('record', () => {
  test('one file per operation × binding × valid case, indexed, without credentials', () => {
    const ops = new Set(index.entries.map((e) => e.operation));
    expect(ops.size).toBe(14);
    expect(new Set(index.entries.map((e) => e.binding))).toEqual(new Set(['soap11', 'soap12', 'get', 'post']));
    expect(
      index.entries.find((e) => e.operation === 'GetMeals' && e.binding === 'post' && e.case === 'other-language'),
    ).toMatchObject({
      params: { language: 'de' },
      status: 200,
      contentType: 'text/xml; charset=utf-8',
      file: 'GetMeals/other-language.post.xml',
    });
    for (const e of index.entries) {
      expect(existsSync(join(rec, e.file)), e.file).toBe(true);
      expect(Object.keys(e.params)).not.toContain('password');
      expect(Object.keys(e.params)).not.toContain('userName');
    }
    expect(new Set(index.entries.map((e) => e.file)).size).toBe(index.entries.length);
    for (const f of allFiles(rec)) expect(readFileSync(f, 'latin1'), f).not.toContain('mock-password');
    expect(index.entries.some((e) => e.case.startsWith('wrong') || e.case.startsWith('missing'))).toBe(false);
  });

  test(
    'a sequence is recorded call by call, in the order sent; a read asked twice keeps both answers, in ' + 'order',
    () => {
      const seq = index.entries.filter((e) => e.case === 'seq-write-read');
      const steps = seq.map((e) => Number(/-(\d+)\.[a-z0-9]+\.xml$/.exec(e.file)![1]));
      expect(steps).toEqual(steps.map((_, i) => i + 1));
      // Each state-changing call with its own booking: the write's parameters hold it.
      expect(seq[0]).toMatchObject({ operation: 'UpdateSpecialRequest', binding: 'soap11' });
      const reads = seq.filter(
        (e) =>
          e.operation === 'GetSpecialRequest' && e.binding === 'get' && e.params.bookingId === seq[0]!.params.bookingId,
      );
      expect(reads).toHaveLength(2);
      expect(readFileSync(join(rec, reads[0]!.file), 'utf8')).not.toEqual(
        readFileSync(join(rec, reads[1]!.file), 'utf8'),
      );
    },
  );

  test("the pool check's reads are recorded first, in the order sent", () => {
    const reads = index.entries.filter((e) => e.case === 'pool-check');
    expect(reads.length).toBeGreaterThan(0);
    expect(index.entries.slice(0, reads.length)).toEqual(reads);
    expect(new Set(reads.map((e) => e.operation))).toEqual(new Set(['AmendmentPriceRequest', 'GetSpecialRequest']));
  });

  test('the replayed recording gives the harness the same results as the mock itself', async () => {
    const direct = tempDir('direct');
    const replayed = tempDir('replayed');
    expect((await cli(['run', ...mockTarget(plain.url), '--report-dir', direct])).code).toBe(0);
    expect((await cli(['run', ...mockTarget(replaying.url), '--report-dir', replayed])).code).toBe(0);
    const a = readReport(direct).results.map(rowKey).sort();
    const b = readReport(replayed).results.map(rowKey).sort();
    expect(b).toEqual(a);
    expect(a.length).toBeGreaterThan(1000);
  });

  test('recording again replaces the previous files only', async () => {
    const dir = tempDir('rerecord');
    writeFileSync(join(dir, 'keep.txt'), 'mine');
    expect((await cli(['record', '--out', dir, '--operations', 'GetMeals', '--quiet'])).code).toBe(0);
    expect(existsSync(join(dir, 'GetMeals/default.get.xml'))).toBe(true);
    expect(
      (await cli(['record', '--out', dir, '--operations', 'GetThemes', '--bindings', 'get', '--quiet'])).code,
    ).toBe(0);
    expect(existsSync(join(dir, 'GetMeals/default.get.xml'))).toBe(false);
    expect(existsSync(join(dir, 'GetThemes/default.get.xml'))).toBe(true);
    expect(readFileSync(join(dir, 'keep.txt'), 'utf8')).toBe('mine');
  });

  test('a password the target echoes is redacted from bodies and headers, in every encoding', async () => {
    const secret = 'S3cr&t pässwörd';
    const server: Server = createServer((req, res) => {
      const body =
        `<?xml version="1.0"?><x `
        + `a="${secret.replace('&', '&amp;')}">${encodeURIComponent(secret)} ${secret.replace('&', '&amp;')}</x>`;
      res.writeHead(200, {
        'content-type': 'text/xml; charset=utf-8',
        'x-echo': secret,
        'set-cookie': `s=${encodeURIComponent(secret)}`,
      });
      res.end(body);
      req.resume();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const dir = tempDir('echo');
      const r = await cli(
        [
          'record',
          '--out',
          dir,
          '--search-url',
          url,
          '--book-url',
          url,
          '--user',
          'u',
          '--operations',
          'GetThemes',
          '--quiet',
          '--max-rps',
          '1000',
        ],
        { CONFORMANCE_PASSWORD: secret },
      );
      expect(r.code, r.err).toBe(0);
      const files = allFiles(dir);
      // The index and the default case on 4 bindings: GetThemes takes nothing but the credentials, so
      // its generated examples are the default case's request, never sent or recorded again.
      expect(files.length).toBe(1 + 4);
      for (const f of files) {
        const bytes = readFileSync(f);
        for (const form of [secret, encodeURIComponent(secret), secret.replace('&', '&amp;')])
          expect(bytes.includes(Buffer.from(form)), `${f}: ${form}`).toBe(false);
      }
      const idx = JSON.parse(readFileSync(join(dir, RECORDING_INDEX), 'utf8')) as RecordingIndex;
      expect(idx.entries[0]!.headers['x-echo']).toBe('***');
      expect(idx.entries[0]!.headers['set-cookie']).toBeUndefined();
      expect(readFileSync(join(dir, idx.entries[0]!.file), 'utf8')).toContain('<x a="***">*** ***</x>');
    } finally {
      server.close();
    }
  });

  test('redactBytes keeps every other byte as it was', () => {
    const latin = Buffer.concat([
      Buffer.from('<a>é</a>', 'latin1'),
      Buffer.from('pw', 'utf16le'),
      Buffer.from('[pw]', 'latin1'),
    ]);
    expect(redactBytes(latin, ['pw'])).toEqual(
      Buffer.concat([Buffer.from('<a>é</a>', 'latin1'), Buffer.from('***', 'utf16le'), Buffer.from('[***]', 'latin1')]),
    );
  });

  test('a target that does not answer: exit 1 naming what was not recorded; bad usage: exit 2', async () => {
    const r = await cli(
      [
        'record',
        '--out',
        tempDir('none'),
        '--search-url',
        'http://127.0.0.1:1',
        '--user',
        'u',
        '--operations',
        'GetThemes',
        '--bindings',
        'get',
        '--quiet',
        '--timeout',
        '2000',
      ],
      { CONFORMANCE_PASSWORD: 'no-answer-pw' },
    );
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/GetThemes \[get\] default: no response: connection_refused/);
    const file = join(tempDir('notdir'), 'f');
    writeFileSync(file, 'x');
    expect(await cli(['record', '--out', file])).toMatchObject({
      code: 2,
      err: expect.stringMatching(/--out .* is not a directory/),
    });
    const junk = tempDir('junk');
    writeFileSync(join(junk, RECORDING_INDEX), '{"not":"an index"}');
    expect(await cli(['record', '--out', junk])).toMatchObject({
      code: 2,
      err: expect.stringMatching(/is not a recording index, so .* is not overwritten/),
    });
    expect(await cli(['record', '--frobnicate'])).toMatchObject({ code: 2, err: expect.stringMatching(/frobnicate/) });
    expect(await cli(['record', '--out'])).toMatchObject({ code: 2, err: expect.stringMatching(/--out/) });
  });
});

describe('mock --replay', () => {
  const getMeals = (password: string, language = 'en') => {
    const op = findOperation('GetMeals')!;
    const req = requestAt(replaying.url, op, 'get', { userName: 'mock-user', password, language }, DEFAULT_NAMESPACES);
    return fetch(req.url);
  };

  test('serves the recorded bytes for a recorded request', async () => {
    const path = join(rec, 'GetMeals/default.get.xml');
    const original = readFileSync(path);
    const doctored = tempDir('doctored');
    expect((await cli(['record', '--out', doctored, '--operations', 'GetMeals', '--quiet'])).code).toBe(0);
    writeFileSync(
      join(doctored, 'GetMeals/default.get.xml'),
      original.toString('utf8').replace('Breakfast', 'Frühstück'),
    );
    const m = await startMock({ replay: doctored });
    try {
      const op = findOperation('GetMeals')!;
      const req = requestAt(
        m.url,
        op,
        'get',
        { userName: 'mock-user', password: 'mock-password', language: 'en' },
        DEFAULT_NAMESPACES,
      );
      const res = await fetch(req.url);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/xml; charset=utf-8');
      expect(await res.text()).toContain('Frühstück');
    } finally {
      await m.close();
    }
  });

  test('checks credentials as usual and answers unrecorded requests itself', async () => {
    const wrong = await getMeals('not-the-password');
    expect(wrong.status).not.toBe(200);
    expect(await wrong.text()).toMatch(/Authentication failed/);
    const unrecorded = await getMeals('mock-password', 'fr');
    expect(unrecorded.status).toBe(200);
    expect(await unrecorded.text()).toContain('getMealsResult');
  });

  test('a missing or broken recording is refused with a message, exit 2 from the command', async () => {
    await expect(startMock({ replay: tempDir('empty') })).rejects.toThrow(ReplayError);
    const broken = tempDir('broken');
    writeFileSync(
      join(broken, RECORDING_INDEX),
      JSON.stringify({ ...index, entries: [{ ...index.entries[0], file: '../etc/passwd' }] }),
    );
    await expect(startMock({ replay: broken })).rejects.toThrow(/not a recording index/);
    const err: string[] = [];
    expect(
      await mockMain(['--replay', tempDir('empty'), '--port', '0'], { out: () => {}, err: (s) => err.push(s) }),
    ).toBe(2);
    expect(err.join('\n')).toMatch(/--replay: cannot read .*index\.json: ENOENT/);
  });
});
