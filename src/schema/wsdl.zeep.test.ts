/**
 * Independent client proof: python3-zeep builds clients from the WSDLs the mock serves and calls
 * every operation of both services on all four ports (scripts/zeep-client.py). Never skipped: a
 * missing zeep is a failure that says how to install it.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_NAMESPACES, SERVICES, DEFAULT_PATHS, operationsOf, type Namespaces } from '../contract/catalogue.js';
import { serviceWsdl, WSDL_PORTS } from './wsdl.js';
import { startMock, type RunningMock } from '../mock/index.js';

const run = promisify(execFile);
const PYTHON = '/usr/bin/python3';
const SCRIPT = fileURLToPath(new URL('../../scripts/zeep-client.py', import.meta.url));

interface CallLine {
  service: string;
  port: string;
  operation: string;
  ok: boolean;
  summary?: string;
  error?: string;
}

async function requireZeep(): Promise<void> {
  try {
    await run(PYTHON, ['-c', 'import zeep']);
  } catch (e) {
    throw new Error(
      `${PYTHON} cannot import zeep: install it with \`apt-get install python3-zeep\` `
        + `(${(e as Error).message.split('\n')[0]})`,
    );
  }
}

/** Run the zeep client against a base URL; the mock keeps serving meanwhile (async child process). */
async function zeepCalls(url: string, user: string, password: string): Promise<CallLine[]> {
  const { stdout } = await run(PYTHON, [SCRIPT, url, user, password], {
    timeout: 120_000,
    maxBuffer: 16 * 1024 * 1024,
  });
  return stdout
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as CallLine);
}

function expectEveryCallSucceeded(lines: CallLine[]): void {
  const expected = SERVICES.flatMap((service) =>
    WSDL_PORTS.flatMap((p) => operationsOf(service).map((op) => `${service} ${p.port} ${op.name}`)),
  );
  expect(expected).toHaveLength(56);
  expect(lines.map((l) => `${l.service} ${l.port} ${l.operation}`).sort()).toEqual([...expected].sort());
  const failed = lines.filter((l) => !l.ok).map((l) => `${l.service} ${l.port} ${l.operation}: ${l.error}`);
  expect(failed, failed.join('\n')).toEqual([]);
  for (const l of lines)
    expect(l.summary && l.summary !== 'null' && l.summary !== '{}', `${l.operation} on ${l.port}`).toBeTruthy();
}

describe('zeep builds clients from the served WSDLs and calls all 14 operations on all 4 ports', () => {
  let mock: RunningMock;
  beforeAll(async () => {
    // Stateless: the client calls each operation with one booking on all four ports; a stateful
    // mock answers the second cancellation "already cancelled" (src/mock/state.test.ts proves that).
    mock = await startMock({ port: 0, stateless: true });
  });
  afterAll(async () => {
    await mock?.close();
  });

  it('python3-zeep is installed', requireZeep);

  it('the mock serves the generated WSDL with its own address', async () => {
    for (const service of SERVICES) {
      const res = await fetch(`${mock.url}${DEFAULT_PATHS[service === 'Booking' ? 'booking' : 'reference'].soap}?WSDL`);
      expect(res.status).toBe(200);
      expect(await res.text()).toBe(serviceWsdl(service, mock.url, DEFAULT_NAMESPACES));
    }
  });

  it('all 56 calls succeed with a parsed, non-empty result', async () => {
    await requireZeep();
    expectEveryCallSucceeded(await zeepCalls(mock.url, 'mock-user', 'mock-password'));
  }, 180_000);

  it('a wrong password fails every call (the client really talks to the service)', async () => {
    await requireZeep();
    const lines = await zeepCalls(mock.url, 'mock-user', 'not-the-password');
    expect(lines).toHaveLength(56);
    expect(lines.filter((l) => l.ok).map((l) => `${l.port} ${l.operation}`)).toEqual([]);
  }, 180_000);
});

describe('zeep against a mock with other namespaces and credentials', () => {
  const namespaces: Namespaces = { book: 'urn:acme:booking/1/', search: 'http://search.acme.example/xml/1/' };
  let mock: RunningMock;
  beforeAll(async () => {
    mock = await startMock({ port: 0, namespaces, user: 'agent-7', password: 's3cret&"<x>', stateless: true });
  });
  afterAll(async () => {
    await mock?.close();
  });

  it('all 56 calls succeed', async () => {
    await requireZeep();
    for (const service of SERVICES) {
      const text = await (
        await fetch(`${mock.url}${DEFAULT_PATHS[service === 'Booking' ? 'booking' : 'reference'].soap}?WSDL`)
      ).text();
      expect(text).toContain(`targetNamespace="${service === 'Booking' ? namespaces.book : namespaces.search}"`);
    }
    expectEveryCallSucceeded(await zeepCalls(mock.url, 'agent-7', 's3cret&"<x>'));
  }, 180_000);
});
