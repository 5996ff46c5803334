import { MockAgent } from 'undici';
import { describe, expect, test } from 'vitest';
import { DEFAULT_NAMESPACES, DEFAULT_PATHS, OPERATIONS, findOperation } from '../contract/catalogue.js';
import type { Target } from '../core/types.js';
import { Transport } from '../transport/client.js';
import { FIXED_LANGUAGES } from './generate.js';
import { discoverLanguages, isoCodesOf } from './languages.js';

const target: Target = {
  bookUrl: 'http://t.test',
  searchUrl: 'http://t.test',
  transfersUrl: 'http://t.test',
  paths: DEFAULT_PATHS,
  namespaces: DEFAULT_NAMESPACES,
  user: 'u',
  password: 'p',
  embedded: false,
};
const NS = DEFAULT_NAMESPACES.search;
const answer = (body: string, status = 200) => {
  const agent = new MockAgent();
  agent.disableNetConnect();
  agent
    .get('http://t.test')
    .intercept({ path: () => true, method: () => true })
    .reply(status, body, { headers: { 'content-type': 'text/xml; charset=utf-8' } })
    .persist();
  return new Transport({ dispatcher: agent });
};

describe('language values from the target', () => {
  test('every isoCode GetLanguages lists, in order, each once (any prefix, padding trimmed)', async () => {
    const xml =
      `<x:getLanguagesResult xmlns:x="${NS}"><x:languages><x:language><x:isoCode> pt-BR `
      + `</x:isoCode><x:name>Português</x:name></x:language>`
      + '<x:language><x:isoCode>nb</x:isoCode></x:language><x:language><x:isoCode>nb</x:isoCode></x:language></x:languages></x:getLanguagesResult>';
    expect(isoCodesOf(xml)).toEqual(['pt-BR', 'nb']);
    const l = await discoverLanguages(target, ['get'], OPERATIONS, answer(xml), false);
    expect(l).toEqual({ languages: ['pt-BR', 'nb'], from: "the target's GetLanguages (2 isoCodes)" });
  });
  test('the fixed list, and why, when the target cannot be asked or answers nothing usable', async () => {
    const cases: [Parameters<typeof discoverLanguages>, RegExp][] = [
      [[target, ['get'], OPERATIONS, answer(''), true], /a shard does not ask the target/],
      [
        [target, ['get'], [findOperation('GetMeals')!], answer(''), false],
        /GetLanguages is not among the --operations/,
      ],
      [[target, ['get'], OPERATIONS, answer('oops', 500), false], /GetLanguages answered HTTP 500/],
      [
        [
          target,
          ['get'],
          OPERATIONS,
          answer(`<getLanguagesResult xmlns="${NS}"><Error><Message>no</Message></Error></getLanguagesResult>`),
          false,
        ],
        /listed no isoCode/,
      ],
      [[target, ['get'], OPERATIONS, answer('<not xml'), false], /no readable document/],
      [
        [
          target,
          ['get'],
          OPERATIONS,
          answer(
            `<getLanguagesResult `
              + `xmlns="${NS}"><languages><language ${Array.from({ length: 300 }, (_, i) => `a${i}="x"`).join(' ')}><isoCode>en</isoCode></language></languages></getLanguagesResult>`,
          ),
          false,
        ],
        /beyond the harness's limits/,
      ],
    ];
    for (const [args, why] of cases) {
      const l = await discoverLanguages(...args);
      expect(l.languages).toEqual(FIXED_LANGUAGES);
      expect(l.from).toMatch(/^the fixed list \(/);
      expect(l.from).toMatch(why);
    }
  });
});
