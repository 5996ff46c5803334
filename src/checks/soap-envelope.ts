/**
 * soap_envelope: the response is framed as its binding requires (section 4). SOAP 1.1 and SOAP 1.2:
 * an Envelope of the binding's own version holding exactly one Body, and on a valid call no Fault.
 * HTTP GET and POST: no envelope at all (the result element is the document root); the check owns
 * this rule too so that framing is judged in one place and result_element can skip enveloped
 * GET/POST documents instead of reporting the same defect as a wrong root.
 */
import type { DefectCode } from '../core/defect-codes.js';
import type { Finding } from '../core/types.js';
import type { XElement } from '../xml/tree.js';
import { finding, type Check, type CheckOutcome } from './types.js';
import { describeFault, findFault } from './soap-fault.js';
import { clarkOf, isSkip, isSoapEnvNs, needsDocument, soapLabel, step, judgedAsAnswer } from './support.js';

export const soapEnvelope: Check = {
  name: 'soap_envelope',
  description:
    "SOAP bindings: an Envelope of the binding's SOAP version with exactly one Body and, on a valid "
    + 'call, no Fault; HTTP GET/POST: no SOAP envelope.',
  places: ['valid', 'generated', 'document'],
  severity: 50,
  appliesTo: (ctx) => judgedAsAnswer(ctx),
  run(ctx): CheckOutcome {
    const doc = needsDocument(ctx);
    if (isSkip(doc)) return doc;
    const { root } = doc;
    const name = this.name;
    const envNs = ctx.binding.envelopeNs;
    const label = ctx.binding.label;

    if (!envNs) {
      if (!isSoapEnvNs(root.ns)) return [];
      return [
        finding(
          name,
          'envelope_on_http_binding',
          `/${root.local}`,
          `${soapLabel(root.ns)} ${root.local} on the ${label} binding: expected the result `
            + `element ${clarkOf(ctx.ns, ctx.op.resultElement)} as the document root`,
          clarkOf(ctx.ns, ctx.op.resultElement),
          clarkOf(root.ns, root.local),
        ),
      ];
    }

    const expected = clarkOf(envNs, 'Envelope');
    if (root.local !== 'Envelope' || root.ns !== envNs) {
      let msg: string;
      let code: DefectCode;
      if (root.local === 'Envelope' && isSoapEnvNs(root.ns)) {
        msg = `${soapLabel(root.ns)} envelope on the ${label} binding`;
        code = 'envelope_version_mismatch';
      } else if (root.local === 'Envelope') {
        msg =
          `Envelope in ${root.ns ? `namespace ${root.ns}` : 'no namespace'} instead of the ${label} `
          + `envelope namespace`;
        code = 'envelope_wrong_namespace';
      } else if (root.ns === ctx.ns && root.local === ctx.op.resultElement) {
        msg =
          `no SOAP envelope: the result element is the document root (the HTTP GET/POST form) on `
          + `the ${label} binding`;
        code = 'envelope_missing';
      } else {
        msg = `root element ${clarkOf(root.ns, root.local)} instead of the ${label} Envelope`;
        code = 'envelope_missing';
      }
      return [finding(name, code, `/${root.local}`, msg, expected, clarkOf(root.ns, root.local))];
    }

    const out: Finding[] = [];
    const at = (el: XElement) => `/Envelope/${step(root, el)}`;
    const bodies = root.children.filter((c) => c.local === 'Body' && c.ns === envNs);
    if (bodies.length === 0) {
      const stray = root.children.find((c) => c.local === 'Body');
      out.push(
        stray
          ? finding(
              name,
              'body_wrong_namespace',
              at(stray),
              `Body in ${stray.ns ? `namespace ${stray.ns}` : 'no namespace'} instead of the ${label} `
                + `envelope namespace`,
              clarkOf(envNs, 'Body'),
              clarkOf(stray.ns, stray.local),
            )
          : finding(
              name,
              'body_missing',
              '/Envelope/Body',
              'missing Body in the Envelope',
              clarkOf(envNs, 'Body'),
              '(absent)',
            ),
      );
      return out;
    }
    if (bodies.length > 1) {
      out.push(
        finding(
          name,
          'body_duplicated',
          at(bodies[1]!),
          `${bodies.length} Body elements in the Envelope, expected exactly one`,
          '1',
          String(bodies.length),
        ),
      );
    }
    let seenBody = false;
    for (const c of root.children) {
      if (c.ns === envNs && c.local === 'Body') {
        seenBody = true;
        continue;
      }
      if (c.ns === envNs && c.local === 'Header') {
        if (seenBody)
          out.push(
            finding(
              name,
              'header_after_body',
              at(c),
              'Header after the Body: the Header must come first',
              'Header before Body',
              'Header after Body',
            ),
          );
        continue;
      }
      if (c.ns === envNs || c.local === 'Body') {
        out.push(
          finding(
            name,
            'unexpected_envelope_child',
            at(c),
            `unexpected envelope child ${clarkOf(c.ns, c.local)}: an Envelope holds an optional Header and one Body`,
          ),
        );
      } else if (!ctx.binding.qualifiedAfterBody || c.ns === '' || !seenBody) {
        // SOAP 1.1 (4.1) lets qualified elements follow the Body; SOAP 1.2 (5.1) allows nothing besides Header and
        // Body.
        out.push(
          finding(
            name,
            'unexpected_envelope_child',
            at(c),
            `unexpected envelope `
              + `child ${clarkOf(c.ns, c.local)}${ctx.binding.qualifiedAfterBody && !seenBody ? ' before the Body' : ''}`,
          ),
        );
      }
    }

    if (ctx.caseKind === 'valid') {
      const fault = findFault(root);
      if (fault) {
        out.push(
          finding(
            name,
            'fault_on_valid_call',
            `/Envelope/Body/${fault.element.local}`,
            `${describeFault(fault)} in the Body of a valid call: expected ${ctx.op.name}Response`,
            clarkOf(ctx.ns, `${ctx.op.name}Response`),
            'Fault',
          ),
        );
      }
    }
    return out;
  },
};
