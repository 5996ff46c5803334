import { describe, expect, it, test } from 'vitest';
import { echoedForms, makeRedactor, REDACTED } from './redact.js';

describe('makeRedactor', () => {
  const secret = 'p@ss w<0>rd&"x';
  const redact = makeRedactor([secret]);

  it('replaces every echoed form of the secret, and nothing else', () => {
    for (const form of echoedForms(secret)) {
      const out = redact(`before ${form} after`);
      expect(out, form).toBe(`before ${REDACTED} after`);
    }
    expect(redact('nothing secret here: p@ss')).toBe('nothing secret here: p@ss');
    expect(redact('')).toBe('');
  });

  it('redacts URL user-info passwords of any scheme and case, also ones holding "@" or ":"', () => {
    const r = makeRedactor([]);
    expect(r('GET http://user:hunter2@example.com/x')).toBe(`GET http://user:${REDACTED}@example.com/x`);
    expect(r('HTTPS://U:a@b:c@host:8443/p?q')).toBe(`HTTPS://U:${REDACTED}@host:8443/p?q`);
    expect(r('svn+ssh://me:pw@h and ftp://x:y@z/')).toBe(`svn+ssh://me:${REDACTED}@h and ftp://x:${REDACTED}@z/`);
    expect(r('http://:only-password@h/')).toBe(`http://:${REDACTED}@h/`);
  });

  it('leaves URLs without a password, and e-mail addresses, alone', () => {
    const r = makeRedactor([]);
    for (const t of [
      'http://example.com/a:b@c',
      'http://user@example.com/',
      'mailto:a@b.c',
      'a://b c:d@e',
      'urn:x:y@z',
    ])
      expect(r(t), t).toBe(t);
  });

  it('redacts a start of a form left before a cut', () => {
    expect(redact(`… p@ss w<…`)).not.toContain('p@ss w<');
  });
});

describe('every spelling a target or a log can produce', () => {
  const PW = `Zx9 "q'<&>\\ %+é/=Kv`;
  const r = makeRedactor([PW]);
  const hex = (s: string) => [...s].map((c) => c.codePointAt(0)!.toString(16));
  const clean = (out: string) => !/Zx9|q'|Kv|K&#|Z&#|%5A|\\u005a/i.test(out);

  test(
    'entities: named in any case, numeric decimal and hex (any case, leading zeros), mixed with literal '
      + 'characters',
    () => {
      const spellings = [
        PW.replace(/&/g, '&AMP;').replace(/</g, '&Lt;').replace(/"/g, '&QUOT;').replace(/'/g, '&apos;'),
        [...PW].map((c) => `&#${c.codePointAt(0)};`).join(''),
        [...PW].map((c, i) => (i % 2 ? `&#X${hex(c)[0]!.toUpperCase()};` : `&#x000${hex(c)[0]};`)).join(''),
        PW.replace(/'/g, '&#x27;')
          .replace(/"/g, '&quot;')
          .replace(/&(?!#|quot)/g, '&amp;')
          .replace(/</g, '&#60;'),
      ];
      for (const s of spellings) expect(r(`<e>${s}</e>`), s).toBe('<e>***</e>');
    },
  );

  test('percent-encoding in any case and for any subset of bytes; form encoding; %uXXXX', () => {
    const bytes = [...Buffer.from(PW, 'utf8')];
    const spellings = [
      encodeURIComponent(PW).toLowerCase().replace(/zx9/, 'Zx9').replace(/kv$/, 'Kv'),
      bytes.map((b) => `%${b.toString(16).padStart(2, '0')}`).join(''),
      bytes
        .map((b, i) =>
          i % 3 === 0
            ? `%${b.toString(16).toUpperCase().padStart(2, '0')}`
            : b < 0x80 && !/[%+ ]/.test(String.fromCharCode(b))
              ? String.fromCharCode(b)
              : `%${b.toString(16)}`,
        )
        .join(''),
      new URLSearchParams({ p: PW }).toString().slice(2),
      escape(PW),
    ];
    for (const s of spellings) expect(r(`q=${s}&x=1`), s).toBe('q=***&x=1');
  });

  test('JSON escapes: \\uXXXX in any case, short escapes, mixed', () => {
    for (const s of [
      [...PW].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join(''),
      [...PW].map((c) => `\\U${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`).join(''),
      JSON.stringify(PW).slice(1, -1),
      JSON.stringify(JSON.stringify(PW).slice(1, -1)).slice(1, -1),
    ]) {
      expect(r(`{"a":"${s}"}`), s).toBe('{"a":"***"}');
    }
  });

  test('two layers of any of them (a fault quoting the escaped request, a JSON log of an XML body)', () => {
    const xml = PW.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
    for (const s of [
      xml.replace(/&/g, '&amp;'),
      encodeURIComponent(xml),
      JSON.stringify(encodeURIComponent(PW)).slice(1, -1),
      xml.replace(/&/g, '&#38;'),
      [...xml].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join(''),
    ]) {
      expect(r(`[${s}]`), s).toBe('[***]');
    }
  });

  test('UTF-16 in both byte orders: NUL characters between the characters, as they are or escaped', () => {
    for (const order of ['le', 'be'] as const) {
      const le = Buffer.from(PW, 'utf16le');
      const bytes = order === 'le' ? le : Buffer.from(le).swap16();
      for (const read of [bytes.toString('utf8'), bytes.toString('latin1')]) {
        for (const s of [read, read.replace(/\u0000/g, '\\u0000')]) {
          const out = r(`<a>${s}</a>`);
          expect(clean(out), `${order}: ${JSON.stringify(out)}`).toBe(true);
          expect(out).toMatch(/^<a>\*\*\*.{0,2}<\/a>$/);
        }
      }
    }
  });

  test('single-byte readings: a Latin-1 body read as UTF-8, the UTF-8 bytes read as Latin-1 or Windows-1252', () => {
    for (const s of [
      Buffer.from(PW, 'latin1').toString('utf8'),
      Buffer.from(PW, 'utf8').toString('latin1'),
      new TextDecoder('windows-1252').decode(Buffer.from(PW, 'utf8')),
    ]) {
      expect(r(`<a>${s}</a>`), s).toBe('<a>***</a>');
    }
    const euro = makeRedactor(['s€cret-ä']);
    const cp1252 = Buffer.from([0x73, 0x80, 0x63, 0x72, 0x65, 0x74, 0x2d, 0xe4]); // the password in Windows-1252
    expect(euro(`(${cp1252.toString('utf8')})`)).toBe('(***)');
  });

  test('base64, alone and inside a longer base64 text', () => {
    expect(r(Buffer.from(PW).toString('base64'))).toBe('***');
    const inside = Buffer.from(`user:${PW}:more`).toString('base64');
    expect(r(inside)).toContain('***');
  });

  test('a cut through an escape sequence still takes the start of the secret along', () => {
    expect(r(`"${'P'.repeat(20)}Zx9 &quot;q&#3…"`)).toBe(`"${'P'.repeat(20)}***…"`);
    expect(r('a cut … of ordinary text… stays')).toBe('a cut … of ordinary text… stays');
  });

  test(
    'any mix of escapes, literal characters and other escaped text around it: the secret alone is '
      + "replaced (the decoder's first look and its map agree)",
    () => {
      // A fixed-seed generator: each character of the secret spelled one of many ways, between text
      // that is escaped too (entities, percent runs, JSON escapes, NULs) and must come out as it went in.
      let seed = 24;
      const rnd = (n: number) => {
        // mulberry32
        seed = (seed + 0x6d2b79f5) | 0;
        let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
        t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
        return ((t ^ (t >>> 14)) >>> 0) % n;
      };
      const spell = (c: string): string => {
        const cp = c.codePointAt(0)!;
        const bytes = [...Buffer.from(c, 'utf8')].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
        // A literal backslash, '%' or '&' would start an escape with what follows: those are always escaped.
        const ways = [
          /[\\%&]/.test(c) ? `&#${cp};` : c,
          `&#${cp};`,
          `&#x${cp.toString(16)};`,
          `&#X${cp.toString(16).toUpperCase()};`,
          bytes,
          bytes.toUpperCase(),
          cp < 0x10000 ? `\\u${cp.toString(16).padStart(4, '0')}` : c,
          c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '"' ? '&quot;' : `&#${cp};`,
        ];
        return ways[rnd(ways.length)]!;
      };
      const junk = [
        '&amp;lt;',
        '&lt;a&gt;',
        '%41%42',
        '%e2%82%ac',
        '\\n',
        '\\u0041',
        '&nbsp;',
        '&#9999999999;',
        'plain ',
        '\u0000',
        '+',
        '%zz',
        '&#x20;',
      ];
      for (let i = 0; i < 300; i++) {
        const before = Array.from({ length: rnd(4) }, () => junk[rnd(junk.length)]).join('');
        const after = Array.from({ length: rnd(4) }, () => junk[rnd(junk.length)]).join('');
        const spelled = [...PW].map(spell).join('');
        const out = r(`${before}[${spelled}]${after}`);
        expect(out, spelled).toBe(`${before}[***]${after}`);
      }
    },
  );

  test('nothing else is touched, and the work is linear (a large text with many escapes)', () => {
    const text = `&amp;&lt;%41%42\\u0041\\n ${'<a b="c &amp; d">e%20f</a>'.repeat(60_000)}`;
    const t0 = performance.now();
    expect(r(text)).toBe(text);
    expect(performance.now() - t0).toBeLessThan(10_000); // a bound against a hang, not a speed goal (about 0.3 s)
  });
});

describe('a secret split by markup: matched on the text content, every piece masked (issue 25)', () => {
  const PW = 'Zq8-secret-Wm4';
  const r = makeRedactor([PW]);
  const escapeXml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const FORMS: Record<string, string> = {
    'adjacent CDATA sections': '<p><![CDATA[Zq8]]><![CDATA[-secret-Wm4]]></p>',
    'three CDATA sections': '<p><![CDATA[Z]]><![CDATA[q8-sec]]><![CDATA[ret-Wm4]]></p>',
    'text, then CDATA': '<p>Zq8<![CDATA[-secret-Wm4]]></p>',
    'a comment in the middle': '<p>Zq8<!-- split -->-secret-Wm4</p>',
    'a decimal character reference in the middle': '<p>Zq8&#45;secret-Wm4</p>',
    'a hex character reference in the middle': '<p>Zq8&#x2D;secret&#x2d;Wm4</p>',
    'CDATA, then a character reference': '<p><![CDATA[Zq8]]>&#45;<![CDATA[secret-Wm4]]></p>',
    'a comment and CDATA': '<p>Zq<!---->8<![CDATA[-secret]]><!-- x -->-Wm4</p>',
    'a "]]>" split inside an outer CDATA section':
      '<![CDATA[<p><![CDATA[Zq8]]]]><![CDATA[><![CDATA[-secret-Wm4]]]]><![CDATA[></p>]]>',
  };

  test.each(Object.entries(FORMS))(
    '%s: raw, XML/HTML-escaped (junit.xml, conformance.html), JSON-quoted (conformance.json), cut',
    (_name, form) => {
      // Two layers of escaping at most, as everywhere in the redactor: a character reference is one.
      const spellings = [
        form,
        escapeXml(form),
        JSON.stringify(form),
        JSON.stringify(escapeXml(form)),
        ...(form.includes('&#') ? [] : [escapeXml(escapeXml(form))]),
      ];
      for (const s of spellings) {
        const out = r(`before ${s} after`);
        expect(out, s).toContain(REDACTED);
        // No piece of the password is left: no run of 3 of its characters outside the markup.
        for (const piece of ['Zq8', 'secret', 'Wm4', 'ret-W']) expect(out, `${s} → ${out}`).not.toContain(piece);
        expect(out.startsWith('before ') && out.endsWith(' after'), out).toBe(true);
      }
    },
  );

  test('the start of a split secret right before a cut ("…") is masked too', () => {
    const out = r(`${'P'.repeat(20)}<![CDATA[Zq8]]><![CDATA[-sec…`);
    expect(out).toBe(`${'P'.repeat(20)}<![CDATA[***…`);
  });

  test('only the secret and the markup between its pieces are replaced; other markup and text stay', () => {
    expect(r('<a><![CDATA[Zq8]]><![CDATA[-secret-Wm4]]></a><!-- keep --><b><![CDATA[other]]></b>')).toBe(
      '<a><![CDATA[***]]></a><!-- keep --><b><![CDATA[other]]></b>',
    );
    expect(r('<a>Zq8<!-- split -->-secret-Wm4</a>')).toBe('<a>***</a>');
    expect(r('<a>Zq8&#45;secret-Wm4</a>')).toBe('<a>***</a>');
    const plain = '<x><![CDATA[Zq8]]> and <!-- -secret-Wm4 --> are apart: no secret in the content</x>';
    expect(r(plain)).toBe(plain);
  });

  test('a comment never closed, and many markup delimiters, stay linear', () => {
    const text = `<!-- ${'<![CDATA[a]]>'.repeat(10_000)}${'<!--x'.repeat(5_000)}`;
    const t0 = performance.now();
    expect(r(text)).toBe(text);
    expect(performance.now() - t0).toBeLessThan(10_000); // a bound against a hang, not a speed goal
  });
});
