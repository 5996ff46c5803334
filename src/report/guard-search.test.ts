/**
 * The guard's whole-file search ahead, in a worker thread: the same answers as SecretGuard.find in
 * this thread, texts and UTF-8 bytes alike, and the same answers in this thread when the worker
 * cannot run. The worker is the TypeScript module, through tsx (the compiled one runs in a real run).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { searchAhead, startGuardWorkerEarly } from './guard-search.js';
import { SecretGuard } from './secrets.js';

const SECRETS = ['Zq8 joined Secret', 'mock-password'];
/** The worker from its TypeScript source (a shim registers tsx in the worker thread first). */
const TS_WORKER = { file: fileURLToPath(new URL('../../test/support/guard-worker-ts.mjs', import.meta.url)) };
const TEXTS = [
  'nothing to find here &amp; %20',
  `a report quoting &lt;p&gt;mock-pass&amp;#119;ord&lt;/p&gt; and ${Buffer.from('mock-password').toString('base64')}`,
  'Zq8 joined\nSecret, folded: Zq8 joined Secret',
  '',
];

describe('searchAhead', () => {
  test('a worker answers what SecretGuard.find answers in this thread, for texts and for UTF-8 bytes', async () => {
    const guard = new SecretGuard(SECRETS, () => undefined);
    const ahead = searchAhead(guard, SECRETS, TS_WORKER);
    try {
      expect(ahead.inWorker).toBe(true);
      const found = await Promise.all([
        ...TEXTS.map((t) => ahead.find(t)),
        ...TEXTS.map((t) => ahead.find(Buffer.from(t))),
      ]);
      const here = TEXTS.map((t) => guard.find(t));
      expect(found).toEqual([...here, ...here]);
      expect(here[1]!.which).toEqual([2]);
      // Answered by the worker, not by this thread after a failure.
      expect(ahead.inWorker).toBe(true);
    } finally {
      ahead.close();
    }
  });

  test('without a worker module, or when the worker fails, every text is searched in this thread', async () => {
    const guard = new SecretGuard(SECRETS, () => undefined);
    const none = searchAhead(guard, SECRETS, undefined);
    expect(none.inWorker).toBe(false);
    expect(await none.find(TEXTS[1]!)).toEqual(guard.find(TEXTS[1]!));
    // A module that throws as it loads: the worker fails, and the search it was given answers here.
    const broken = searchAhead(guard, SECRETS, { file: fileURLToPath(import.meta.url) });
    try {
      expect(await broken.find(TEXTS[1]!)).toEqual(guard.find(TEXTS[1]!));
      expect(broken.inWorker).toBe(false);
    } finally {
      broken.close();
    }
  });

  test('help() searches here, with the same answers, every search the worker has not started', async () => {
    const guard = new SecretGuard(SECRETS, () => undefined);
    // A worker that takes every message and never answers: only help() can answer the searches.
    const dir = mkdtempSync(join(tmpdir(), 'guard-search-'));
    const file = join(dir, 'silent-worker.mjs');
    writeFileSync(file, "import { parentPort } from 'node:worker_threads';\nparentPort.on('message', () => {});\n");
    const ahead = searchAhead(guard, SECRETS, { file });
    try {
      const found = TEXTS.map((t) => ahead.find(t));
      ahead.help();
      const answered = await Promise.race([
        Promise.all(found),
        new Promise<'unanswered'>((r) => setTimeout(() => r('unanswered'), 5000)),
      ]);
      expect(answered).toEqual(TEXTS.map((t) => guard.find(t)));
      expect(ahead.inWorker).toBe(true);
    } finally {
      ahead.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test(
    'a worker started early (before the secrets are known) is taken by the next search ahead, and answers '
      + 'the same',
    async () => {
      const guard = new SecretGuard(SECRETS, () => undefined);
      const id = startGuardWorkerEarly(TS_WORKER);
      expect(id).toBeTypeOf('number');
      // Started once: asked again, the same worker.
      expect(startGuardWorkerEarly(TS_WORKER)).toBe(id);
      const ahead = searchAhead(guard, SECRETS, TS_WORKER);
      try {
        expect(ahead.threadId).toBe(id);
        const found = await Promise.all([...TEXTS.map((t) => ahead.find(t)), ahead.find(Buffer.from(TEXTS[1]!))]);
        expect(found).toEqual([...TEXTS.map((t) => guard.find(t)), guard.find(TEXTS[1]!)]);
        expect(ahead.inWorker).toBe(true);
      } finally {
        ahead.close();
      }
      // Taken once: the next search ahead starts a worker of its own.
      const next = searchAhead(guard, SECRETS, TS_WORKER);
      try {
        expect(next.threadId).toBeTypeOf('number');
        expect(next.threadId).not.toBe(id);
      } finally {
        next.close();
      }
    },
  );

  test('an early worker of another module, or one not needed (no secrets), is stopped, not used', async () => {
    const guard = new SecretGuard(SECRETS, () => undefined);
    const dir = mkdtempSync(join(tmpdir(), 'guard-search-'));
    const other = join(dir, 'other-worker.mjs');
    writeFileSync(other, "import { parentPort } from 'node:worker_threads';\nparentPort.on('message', () => {});\n");
    try {
      const stale = startGuardWorkerEarly({ file: other });
      const ahead = searchAhead(guard, SECRETS, TS_WORKER);
      try {
        expect(ahead.threadId).not.toBe(stale);
        expect(await ahead.find(TEXTS[1]!)).toEqual(guard.find(TEXTS[1]!));
      } finally {
        ahead.close();
      }
      const unused = startGuardWorkerEarly(TS_WORKER);
      const none = searchAhead(new SecretGuard([], () => undefined), [], TS_WORKER);
      expect(none.inWorker).toBe(false);
      expect(none.threadId).toBeUndefined();
      // Stopped: the next early start is a new worker.
      expect(startGuardWorkerEarly({ file: other })).not.toBe(unused);
      searchAhead(guard, SECRETS, { file: other }).close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
