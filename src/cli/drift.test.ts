/**
 * `conformance drift`: against our own mock no difference (exit 0); one WSDL per classification rule,
 * each the contract's WSDL with one change, exiting 1 or 0 as the rule says and naming the
 * difference; the same WSDL written otherwise (prefixes, order, annotations, whitespace) finds none;
 * drift.json valid against its schema; usage errors exit 2.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEFAULT_NAMESPACES } from '../contract/catalogue.js';
import type { DriftReport } from '../core/types.js';
import { startMock, type RunningMock } from '../mock/index.js';
import { reportSchema, validateJson } from '../schema/json.js';
import { DRIFT_SCHEMA_URL } from '../report/drift.js';
import { serviceWsdl } from '../schema/wsdl.js';
import { main } from './main.js';
import { serveXml } from '../../test/support/network.js';

const dir = mkdtempSync(join(tmpdir(), 'drift-test-'));
const BOOKING = serviceWsdl('Booking', 'http://contract.invalid', DEFAULT_NAMESPACES);
const SEARCH = serviceWsdl('NonStaticXMLAPI', 'http://contract.invalid', DEFAULT_NAMESPACES);
const TNS = DEFAULT_NAMESPACES.book;

function io() {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { out: (s: string) => out.push(s), err: (s: string) => err.push(s), env: {}, isTTY: false } };
}

let n = 0;
/** Run `drift --wsdl` on a WSDL text (against the contract, or a file): the exit code and drift.json. */
async function drift(text: string, against?: string): Promise<{ code: number; report: DriftReport; out: string }> {
  const k = n++;
  const file = join(dir, `t${k}.wsdl`);
  writeFileSync(file, text);
  const args = ['drift', '--wsdl', file, '--report-dir', join(dir, `r${k}`)];
  if (against !== undefined) {
    writeFileSync(join(dir, `a${k}.wsdl`), against);
    args.push('--against', join(dir, `a${k}.wsdl`));
  }
  const o = io();
  const code = await main(args, o.io);
  const report = JSON.parse(readFileSync(join(dir, `r${k}`, 'drift.json'), 'utf8')) as DriftReport;
  return { code, report, out: o.out.join('\n') };
}

/** The contract's Booking WSDL with one replacement, which must apply. */
function changed(from: string | RegExp, to: string, text = BOOKING): string {
  const next = text.replace(from, to);
  if (next === text) throw new Error(`fixture: ${String(from)} not found`);
  return next;
}

const diffs = (r: DriftReport) => r.services.flatMap((s) => s.differences);
const rules = (r: DriftReport) => diffs(r).map((d) => `${d.severity} ${d.rule} ${d.where}`);

describe('drift against a served WSDL', () => {
  let mock: RunningMock;
  let server: Awaited<ReturnType<typeof serveXml>>;
  let served = BOOKING;
  let changedUrl = '';
  beforeAll(async () => {
    mock = await startMock({ port: 0 });
    server = await serveXml((url) => (/\?wsdl$/i.test(url) ? served : undefined));
    changedUrl = server.url;
  });
  afterAll(async () => {
    await mock.close();
    await server.close();
  });

  test('our own mock: no difference, exit 0, drift.json valid against its schema', async () => {
    const o = io();
    const report = join(dir, 'mock');
    expect(await main(['drift', '--book-url', mock.url, '--search-url', mock.url, '--report-dir', report], o.io)).toBe(
      0,
    );
    expect(o.out.join('\n')).toContain('Booking: ');
    expect(o.out.join('\n')).toMatch(/drift: MATCH/);
    const json = JSON.parse(readFileSync(join(report, 'drift.json'), 'utf8')) as DriftReport;
    expect(json.verdict).toBe('match');
    expect(json.services.map((s) => [s.service, s.status, s.differences.length])).toEqual([
      ['Booking', 'compared', 0],
      ['NonStaticXMLAPI', 'compared', 0],
    ]);
    const schema = JSON.parse(readFileSync(DRIFT_SCHEMA_URL, 'utf8')) as Record<string, unknown>;
    expect(validateJson(json, schema)).toEqual([]);
    expect(validateJson({ ...json, verdict: 'fine' }, schema)).toEqual([
      '/verdict: expected one of "match", "compatible", "breaking", "not_fetched", "unreachable", got "fine"',
    ]);
    // conformance.json's `drift` is drift.json's object (its tool left out): one schema, held in step.
    const { $schema: _s, $id: _i, title: _t, ...drift } = schema;
    const { description: _d, ...inReport } = (reportSchema().properties as Record<string, Record<string, unknown>>)
      .drift!;
    expect(inReport).toEqual(drift);
    expect(readFileSync(join(report, 'drift.md'), 'utf8')).toContain('# WSDL drift: MATCH');
  });

  test('a served WSDL with an operation removed: exit 1, named, and on GitHub an ::error annotation', async () => {
    served = changed(/<wsdl:operation name="CancelBooking">\s*<soap12:operation[^]*?<\/wsdl:operation>/, '');
    const o = io();
    const summary = join(dir, 'summary.md');
    writeFileSync(summary, '');
    const code = await main(['drift', '--book-url', changedUrl, '--operations', 'CancelBooking', '--github'], {
      ...o.io,
      env: { GITHUB_STEP_SUMMARY: summary },
    });
    expect(code).toBe(1);
    expect(o.out.join('\n')).toContain(
      'BREAKING   service Booking, binding soap12, operation CancelBooking: the operation CancelBooking '
        + 'is not in the soap12 binding',
    );
    expect(o.out.some((l) => l.startsWith('::error title=WSDL drift Booking%3A operation_removed::'))).toBe(true);
    expect(readFileSync(summary, 'utf8')).toContain('operation_removed');
  });

  test('--wsdl-url fetches the WSDL elsewhere; a bad one is a usage error', async () => {
    served = BOOKING;
    const o = io();
    expect(
      await main(
        [
          'drift',
          '--book-url',
          'http://127.0.0.1:1',
          '--operations',
          'CancelBooking',
          '--wsdl-url',
          `Booking=${changedUrl}/x?WSDL`,
        ],
        o.io,
      ),
    ).toBe(0);
    await expect(
      main(['drift', '--book-url', mock.url, '--search-url', mock.url, '--wsdl-url', `${changedUrl}/x?WSDL`], io().io),
    ).resolves.toBe(2);
    const e = io();
    expect(
      await main(
        ['drift', '--book-url', mock.url, '--operations', 'CancelBooking', '--wsdl-url', `Bookin=${changedUrl}/x?WSDL`],
        e.io,
      ),
    ).toBe(2);
    expect(e.err.join('\n')).toMatch(/no service Bookin is compared.*did you mean Booking/);
  });

  test(
    'only --book-url: the Booking service alone (no call is made, so no URL is needed for the others); no '
      + 'URL for the operations named: exit 2',
    async () => {
      const o = io();
      expect(await main(['drift', '--book-url', mock.url], o.io)).toBe(0);
      expect(o.out.filter((l) => / against the contract: /.test(l)).map((l) => l.slice(0, l.indexOf(':')))).toEqual([
        'Booking',
      ]);
      const e = io();
      expect(await main(['drift', '--book-url', mock.url, '--operations', 'GetMeals'], e.io)).toBe(2);
      expect(e.err.join('\n')).toMatch(/no base URL for the operations compared \(GetMeals\)/);
    },
  );

  test('unreachable: exit 4; answering without a WSDL: exit 5', async () => {
    expect(await main(['drift', '--book-url', 'http://127.0.0.1:1', '--operations', 'CancelBooking'], io().io)).toBe(4);
    const o = io();
    expect(
      await main(
        ['drift', '--book-url', mock.url, '--book-path', '/nowhere.asmx', '--operations', 'CancelBooking'],
        o.io,
      ),
    ).toBe(5);
    expect(o.out.join('\n')).toContain('not compared (no_wsdl): HTTP 404');
  });
});

describe("one WSDL per classification rule (each the contract's with one change)", () => {
  const cases: { name: string; text: () => string; code: 0 | 1; expect: RegExp }[] = [
    {
      name: 'an operation removed (SOAP 1.1 binding)',
      code: 1,
      expect: /^breaking operation_removed service Booking, binding soap11, operation CancelBooking$/,
      text: () => changed(/<wsdl:operation name="CancelBooking">\s*<soap:operation[^]*?<\/wsdl:operation>/, ''),
    },
    {
      name: 'a binding removed (HTTP POST: binding and port)',
      code: 1,
      expect: /^breaking port_removed service Booking, binding post$/,
      text: () =>
        changed(
          /<wsdl:port name="BookingHttpPost"[^]*?<\/wsdl:port>/,
          '',
          changed(/<wsdl:binding name="BookingHttpPost"[^]*?<\/wsdl:binding>/, ''),
        ),
    },
    {
      name: 'a port removed (SOAP 1.2)',
      code: 1,
      expect: /^breaking port_removed service Booking, binding soap12$/,
      text: () => changed(/<wsdl:port name="BookingSoap12"[^]*?<\/wsdl:port>/, ''),
    },
    {
      name: 'a request parameter removed',
      code: 1,
      expect: /^breaking request_parameter_removed element AmendmentRequest: AmendmentRequest\/maxPrice$/,
      text: () => changed('<xs:element name="maxPrice" type="xs:decimal" minOccurs="1"/>', ''),
    },
    {
      name: 'a required response element removed',
      code: 1,
      expect: /^breaking response_element_removed_required type CancelBookingResult: CancelBookingResult\/Code$/,
      text: () => changed('<xs:element name="Code" type="xs:int"/>', ''),
    },
    {
      name: 'a parameter renamed: removed and added',
      code: 1,
      expect: /^breaking request_parameter_added_required element AmendmentRequest: AmendmentRequest\/roomID$/,
      text: () =>
        changed(
          '<xs:element name="roomId" type="xs:int" minOccurs="1"/>',
          '<xs:element name="roomID" type="xs:int" minOccurs="1"/>',
        ),
    },
    {
      name: 'a new required request parameter',
      code: 1,
      expect: /^breaking request_parameter_added_required element CancelBooking: CancelBooking\/reason$/,
      text: () =>
        changed(
          /(<xs:element name="CancelBooking">[^]*?<xs:element name="language" type="xs:string" minOccurs="0"\/>)/,
          '$1<xs:element name="reason" type="xs:string"/>',
        ),
    },
    {
      name: 'a type changed (decimal to int: narrowed)',
      code: 1,
      expect: /^breaking type_changed element AmendmentRequest: AmendmentRequest\/maxPrice$/,
      text: () =>
        changed(
          '<xs:element name="maxPrice" type="xs:decimal" minOccurs="1"/>',
          '<xs:element name="maxPrice" type="xs:int" minOccurs="1"/>',
        ),
    },
    {
      name: 'an enumeration value added to a response type',
      code: 1,
      expect: /^breaking enum_value_added type BookingStatus: BookingStatus="Cancelled"$/,
      text: () =>
        changed(
          '<xs:enumeration value="Active"/>',
          '<xs:enumeration value="Active"/><xs:enumeration value="Cancelled"/>',
        ),
    },
    {
      name: 'an enumeration value removed from a response type: compatible',
      code: 0,
      expect: /^compatible enum_value_removed type BookingStatus: BookingStatus="NotActive"$/,
      text: () => changed('<xs:enumeration value="NotActive"/>', ''),
    },
    {
      name: 'a changed target namespace: one difference, not one per name',
      code: 1,
      expect: /^breaking target_namespace_changed $/,
      text: () => BOOKING.split(TNS).join('http://other.example/book/2/'),
    },
    {
      name: 'a changed SOAPAction',
      code: 1,
      expect: /^breaking soap_action_changed service Booking, binding soap11, operation GetSpecialRequest$/,
      text: () => changed(`soapAction="${TNS}GetSpecialRequest"`, 'soapAction="urn:GetSpecialRequest"'),
    },
    {
      name: 'a response element that became optional',
      code: 1,
      expect: /^breaking became_optional type CancelBookingResult: CancelBookingResult\/Code$/,
      text: () =>
        changed('<xs:element name="Code" type="xs:int"/>', '<xs:element name="Code" type="xs:int" minOccurs="0"/>'),
    },
    {
      name: 'a response element that became nillable',
      code: 1,
      expect: /^breaking became_nillable type CancelBookingResult: CancelBookingResult\/Code$/,
      text: () =>
        changed('<xs:element name="Code" type="xs:int"/>', '<xs:element name="Code" type="xs:int" nillable="true"/>'),
    },
    {
      name: 'a new optional request parameter: compatible',
      code: 0,
      expect: /^compatible request_parameter_added_optional element CancelBooking: CancelBooking\/reason$/,
      text: () =>
        changed(
          /(<xs:element name="CancelBooking">[^]*?<xs:element name="language" type="xs:string" minOccurs="0"\/>)/,
          '$1<xs:element name="reason" type="xs:string" minOccurs="0"/>',
        ),
    },
    {
      name: 'a new optional response element: compatible',
      code: 0,
      expect: /^compatible response_element_added type CancellationPaymentMethod: CancellationPaymentMethod\/note$/,
      text: () =>
        changed(
          '<xs:element name="cancellation" type="tns:Cancellation" minOccurs="0" maxOccurs="unbounded"/>',
          '<xs:element name="cancellation" type="tns:Cancellation" minOccurs="0" '
            + 'maxOccurs="unbounded"/><xs:element name="note" type="xs:string" minOccurs="0"/>',
        ),
    },
    {
      name: 'the contract\'s open content (xs:anyType, "not shown") declared: compatible',
      code: 0,
      expect: /^compatible open_content_declared type CancelBookingResult: CancelBookingResult\/ErrorAttributes$/,
      text: () =>
        changed(
          /(<xs:complexType name="CancelBookingResult">[^]*?<xs:element name="ErrorAttributes") type="xs:anyType"/,
          '$1 type="xs:string"',
        ),
    },
    {
      name: 'a required attribute of a response type removed',
      code: 1,
      expect:
        /^breaking response_element_removed_required type CancellationPaymentMethod: CancellationPaymentMethod\/@id$/,
      text: () =>
        changed(
          /(<xs:complexType name="CancellationPaymentMethod">[^]*?)<xs:attribute name="id" type="xs:int" use="required"\/>/,
          '$1',
        ),
    },
    {
      name: 'a single response element that may repeat now',
      code: 1,
      expect: /^breaking max_occurs_raised type CancelBookingResult: CancelBookingResult\/Code$/,
      text: () =>
        changed(
          '<xs:element name="Code" type="xs:int"/>',
          '<xs:element name="Code" type="xs:int" maxOccurs="unbounded"/>',
        ),
    },
    {
      name: 'the elements of a sequence in another order',
      code: 1,
      expect: /^breaking element_order_changed type CancellationPaymentMethod: CancellationPaymentMethod$/,
      text: () =>
        changed(/(<xs:element name="cancellationfee"[^>]*>)(\s*)(<xs:element name="cancellation" [^>]*>)/, '$3$2$1'),
    },
    {
      name: 'an HTTP GET parameter removed',
      code: 1,
      expect:
        /^breaking request_parameter_removed service Booking, binding get, operation CancelBooking, input message, part language$/,
      text: () =>
        changed(
          /(<wsdl:message name="CancelBookingHttpGetIn">[^]*?)<wsdl:part name="language" type="s:string"\/>/,
          '$1',
        ),
    },
    {
      name: 'an operation added: compatible',
      code: 0,
      expect: /^compatible operation_added service Booking, binding soap11, operation Ping$/,
      text: () =>
        changed(
          /(<wsdl:binding name="BookingSoap" [^>]*>\s*<soap:binding[^>]*>)/,
          '$1<wsdl:operation name="Ping"><soap:operation soapAction="urn:Ping" style="document"/></wsdl:operation>',
        ),
    },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      const { code, report, out } = await drift(c.text());
      expect(rules(report)).toContainEqual(expect.stringMatching(c.expect));
      expect(code).toBe(c.code);
      expect(report.verdict).toBe(c.code === 1 ? 'breaking' : 'compatible');
      if (c.code === 1) expect(out).toMatch(/^Booking: .* against the contract: [1-9]\d* breaking/);
    });
  }

  test('the changed target namespace is said once: no SOAPAction or element difference follows from it', async () => {
    const { report } = await drift(BOOKING.split(TNS).join('http://other.example/book/2/'));
    expect(rules(report)).toEqual(['breaking target_namespace_changed ']);
  });

  test('a renamed parameter shows as removed and added', async () => {
    const { report } = await drift(
      changed(
        '<xs:element name="roomId" type="xs:int" minOccurs="1"/>',
        '<xs:element name="roomID" type="xs:int" minOccurs="1"/>',
      ),
    );
    expect(rules(report).sort()).toEqual([
      'breaking request_parameter_added_required element AmendmentRequest: AmendmentRequest/roomID',
      'breaking request_parameter_removed element AmendmentRequest: AmendmentRequest/roomId',
    ]);
  });

  describe('enumerations of a request type (two WSDLs, --against)', () => {
    // The contract sends no enumeration, so the rule is shown on a WSDL that does: CancelBooking's language as one.
    const withLanguages = (values: string[]) =>
      changed(
        /(<xs:element name="CancelBooking">[^]*?)<xs:element name="language" type="xs:string" minOccurs="0"\/>/,
        `$1<xs:element name="language" type="tns:Lang" minOccurs="0"/>`,
      ).replace(
        '</xs:schema>',
        `<xs:simpleType name="Lang"><xs:restriction `
          + `base="xs:string">${values.map((v) => `<xs:enumeration value="${v}"/>`).join('')}</xs:restriction></xs:simpleType></xs:schema>`,
      );
    test('a value removed from a request type: breaking', async () => {
      const { code, report } = await drift(withLanguages(['de']), withLanguages(['de', 'en']));
      expect(rules(report)).toEqual(['breaking enum_value_removed type Lang: Lang="en"']);
      expect(code).toBe(1);
    });
    test('a value added to a request type: compatible', async () => {
      const { code, report } = await drift(withLanguages(['de', 'en', 'fr']), withLanguages(['de', 'en']));
      expect(rules(report)).toEqual(['compatible enum_value_added type Lang: Lang="fr"']);
      expect(code).toBe(0);
    });
  });

  test(
    "the contract's open content in the search service (NonStaticTransfer: xs:any) declared: compatible, "
      + 'where the answers use it (StaticTransfer extends it)',
    async () => {
      const text = changed(
        /(<xs:complexType name="NonStaticTransfer">[^]*?<xs:sequence>)\s*<xs:any processContents="lax" minOccurs="0" maxOccurs="unbounded"\/>/,
        '$1<xs:element name="rates" type="xs:string" minOccurs="0"/><xs:any processContents="lax" '
          + 'minOccurs="0" maxOccurs="unbounded"/>',
        SEARCH,
      );
      const { code, report } = await drift(text);
      expect(rules(report)).toEqual(['compatible open_content_declared type StaticTransfer: StaticTransfer/rates']);
      expect(code).toBe(0);
    },
  );

  test(
    'a named type no declared content reaches (TransferRate: NonStaticTransfer leaves rates open) changed '
      + "to element content, as the real service's WSDL has it: reported by its path, breaking",
    async () => {
      const text = changed(
        /<xs:complexType name="TransferRate" mixed="true">[^]*?<\/xs:complexType>/,
        '<xs:complexType name="TransferRate"><xs:sequence><xs:element name="price" type="xs:decimal" minOccurs="0"/>'
          + '<xs:element name="currency" type="xs:string" minOccurs="0"/></xs:sequence></xs:complexType>',
        SEARCH,
      );
      const { code, report } = await drift(text);
      expect(rules(report)).toEqual([
        'breaking open_content_closed type TransferRate: TransferRate',
        'breaking type_changed type TransferRate: TransferRate',
        'compatible response_element_removed_optional type TransferRate: TransferRate/@currency',
        'compatible open_content_declared type TransferRate: TransferRate/currency',
        'compatible open_content_declared type TransferRate: TransferRate/price',
      ]);
      const mixed = diffs(report).find((d) => d.rule === 'type_changed')!;
      expect([mixed.direction, mixed.contract, mixed.target, mixed.message]).toEqual([
        'both',
        'mixed=true',
        'mixed=false',
        'no longer mixed content',
      ]);
      expect(code).toBe(1);
    },
  );
});

describe('namespaces', () => {
  test('a saved WSDL in the configured namespace (--book-ns) matches the contract in it', async () => {
    const ns = 'http://staging.example/book/';
    const file = join(dir, 'ns.wsdl');
    writeFileSync(file, serviceWsdl('Booking', 'http://h', { ...DEFAULT_NAMESPACES, book: ns }));
    expect(await main(['drift', '--wsdl', file, '--book-ns', ns], io().io)).toBe(0);
    const o = io();
    expect(await main(['drift', '--wsdl', file], o.io)).toBe(1);
    expect(o.out.join('\n')).toContain(`the target namespace is ${ns}, not ${TNS}`);
  });
});

describe('meaning, not text', () => {
  /**
   * The contract's WSDL written otherwise: other prefixes, types and messages reversed, annotations added, other
   * whitespace.
   */
  function reserialised(text: string): string {
    let t = text.replace(/<!--[^]*?-->/g, '');
    // Other prefixes: wsdl → w, xs and s → x, tns → t, soap → s11 (declarations and uses).
    t = t
      .replace(/(<\/?)wsdl:/g, '$1w:')
      .replace(/xmlns:wsdl=/g, 'xmlns:w=')
      .replace(/(<\/?)xs:/g, '$1x:')
      .replace(/xmlns:xs=/g, 'xmlns:x=')
      .replace(/"xs:/g, '"x:')
      .replace(/"s:/g, '"x:')
      .replace(/xmlns:s=/g, 'xmlns:x=')
      .replace(/xmlns:tns=/g, 'xmlns:t=')
      .replace(/"tns:/g, '"t:')
      .replace(/(<\/?)soap:/g, '$1s11:')
      .replace(/xmlns:soap=/g, 'xmlns:s11=');
    // Declarations of the schema reversed (top-level children of x:schema), and the messages.
    t = t.replace(/(<x:schema[^>]*>)([^]*?)(\s*<\/x:schema>)/, (_, open: string, body: string, close: string) => {
      const tops = body.match(/\n {6}<x:(?:element|complexType|simpleType)[^]*?(?=\n {6}<x:|\s*$)/g) ?? [];
      return open + [...tops].reverse().join('') + close;
    });
    const messages = t.match(/\n {2}<w:message[^]*?<\/w:message>/g) ?? [];
    t = t
      .replace(/\n {2}<w:message[^]*?<\/w:message>/g, '')
      .replace(/(\n {2}<w:portType)/, `${[...messages].reverse().join('')}$1`);
    // Annotations added, whitespace changed.
    t = t
      .replace(/<x:sequence>/g, '<x:sequence><x:annotation><x:documentation>added</x:documentation></x:annotation>')
      .replace(/<w:operation name="([^"]+)">/g, '<w:operation name="$1">\n\t\t<w:documentation>Op $1</w:documentation>')
      .replace(/\n\s+/g, '\n\t');
    return t;
  }
  test('the same WSDL re-serialised (prefixes, order, annotations, whitespace): no difference', async () => {
    for (const text of [BOOKING, SEARCH]) {
      const other = reserialised(text);
      expect(other).not.toBe(text);
      expect(other).toContain('<x:schema');
      // Reordered: the first declaration of the schema and the first message are others.
      const first = (t: string, re: RegExp) => re.exec(t)?.[1];
      expect(first(other, /<x:(?:element|complexType|simpleType) name="([^"]+)"/)).not.toBe(
        first(text, /<xs:(?:element|complexType|simpleType) name="([^"]+)"/),
      );
      expect(first(other, /<w:message name="([^"]+)"/)).not.toBe(first(text, /<wsdl:message name="([^"]+)"/));
      const { code, report } = await drift(other);
      expect(diffs(report)).toEqual([]);
      expect(code).toBe(0);
    }
  });
  test('the check can fail: the re-serialised WSDL with one change is found', async () => {
    const { code, report } = await drift(reserialised(changed('<xs:element name="Code" type="xs:int"/>', '')));
    expect(rules(report)).toEqual([
      'breaking response_element_removed_required type CancelBookingResult: CancelBookingResult/Code',
    ]);
    expect(code).toBe(1);
  });
});

describe('usage', () => {
  test('no target and no --wsdl, --against without --wsdl, an unreadable file, not a WSDL: exit 2 naming it', async () => {
    for (const [args, says] of [
      [['drift'], /drift needs a target/],
      [['drift', '--against', 'x.wsdl'], /--against FILE needs --wsdl FILE/],
      [['drift', '--wsdl', join(dir, 'missing.wsdl')], /--wsdl .*missing\.wsdl: cannot be read: ENOENT/],
      [['drift', '--wsdl', join(dir, 'plain.txt')], /--wsdl .*plain\.txt: not a WSDL/],
      [['drift', '--wsdl', 'x', '--book-url', 'http://127.0.0.1:1'], /takes no target URL/],
    ] as const) {
      writeFileSync(join(dir, 'plain.txt'), '<html/>');
      const o = io();
      expect(await main([...args], o.io)).toBe(2);
      expect(o.err.join('\n')).toMatch(says);
    }
  });
  test('help names the flags', async () => {
    const o = io();
    expect(await main(['drift', '--help'], o.io)).toBe(0);
    expect(o.out.join('\n')).toMatch(/--wsdl-url <\[SERVICE=\]URL>/);
  });
});

describe('docs/drift.md', () => {
  test('lists every rule with its classification per direction, and no other', async () => {
    const { DRIFT_RULES } = await import('../schema/drift-rules.js');
    const doc = readFileSync(new URL('../../docs/drift.md', import.meta.url), 'utf8');
    const rows = [
      ...doc.matchAll(/^\| `([a-z_]+)` \| \**(breaking|compatible)\** \| \**(breaking|compatible)\** \|/gm),
    ].map((m) => [m[1], { request: m[2], response: m[3] }]);
    expect(Object.fromEntries(rows)).toEqual(
      Object.fromEntries(
        Object.entries(DRIFT_RULES).map(([k, r]) => [k, { request: r.request, response: r.response }]),
      ),
    );
  });
});
