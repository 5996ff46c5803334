/**
 * The first line of a run stopped by a network that refuses it (./diagnose.ts stopDiagnosis): where
 * the proxy's credentials came from, so the person fixes them there (issue 41, item 4's variable).
 */
import { describe, expect, test } from 'vitest';
import { stopDiagnosis } from './stop-diagnosis.js';

const TARGET = { bookUrl: 'https://t.example', searchUrl: 'https://t.example', transfersUrl: 'https://t.example' };
const refused = (proxy: { url: string; variable?: string; passwordVariable?: string }) =>
  stopDiagnosis(
    {
      kind: 'refused',
      code: 'proxy_refused',
      origin: 'https://t.example',
      detail: 'HTTP 407',
      status: 407,
      inRow: 1,
      attempts: 1,
      proxy,
    },
    TARGET,
  ).message;

describe('a proxy refusing the credentials given names where they came from', () => {
  test('the whole URL in a variable, or --proxy', () => {
    expect(refused({ url: 'http://alice:pw@p.example:3128', variable: 'HTTPS_PROXY' })).toMatch(
      /check the user name and password in the environment variable HTTPS_PROXY, where/,
    );
    expect(refused({ url: 'http://alice:pw@p.example:3128' })).toMatch(
      /in --proxy \(or the config file's target\.proxy\), where/,
    );
  });

  test('the user in the URL and the password in a variable of its own: both named, the password never', () => {
    const m = refused({ url: 'http://alice:s3cret@p.example:3128', passwordVariable: 'ACME_PROXY_PW' });
    expect(m).toMatch(
      /in --proxy \(or the config file's target\.proxy\) \(the user\) and the variable ACME_PROXY_PW \(the password\), where/,
    );
    expect(m).not.toContain('s3cret');
  });
});
