/**
 * The values of the `language` parameter for generated cases: the isoCodes the target's GetLanguages
 * lists, every one of them (not a sample); the fixed list when the target cannot be asked (a shard,
 * whose plan must equal every other shard's; --operations without GetLanguages; no answer), and the
 * reason is said; or the list given with --languages (pinnedLanguages), and the target is not asked.
 *
 * What the target answers here changes the values generated cases send, never their ids
 * (src/engine/generate.ts hashes the parameters but `language`): a re-run command carries the run's
 * languages as --languages (src/report/rerun.ts), so `--case ID` finds its case and sends the same
 * values even where the re-run could not ask the target first.
 */
import { findOperation, type BindingId } from '../contract/catalogue.js';
import type { Target } from '../core/types.js';
import { requestFor } from '../bindings/endpoint.js';
import type { Transport } from '../transport/client.js';
import { markupLimits, overLimit, scanMarkup } from '../xml/limits.js';
import { parseXml, type XElement } from '../xml/tree.js';
import { FIXED_LANGUAGES } from './generate.js';

export interface Languages {
  readonly languages: readonly string[];
  /** Where they came from, in words (written to the reports). */
  readonly from: string;
}

const fixed = (why: string): Languages => ({ languages: FIXED_LANGUAGES, from: `the fixed list (${why})` });

/** The isoCode texts of a GetLanguages answer, in document order, each once. */
export function isoCodesOf(xml: string): string[] {
  const out: string[] = [];
  const walk = (el: XElement) => {
    if (el.local === 'isoCode' && el.children.length === 0) {
      const v = el.text.trim();
      if (v && !out.includes(v)) out.push(v);
    }
    el.children.forEach(walk);
  };
  walk(parseXml(xml).root);
  return out;
}

/** The languages given with --languages (CONFORMANCE_LANGUAGES, config `languages`): GetLanguages is not asked. */
export function pinnedLanguages(values: readonly string[], source: string): Languages {
  return {
    languages: values,
    from: `${source} (pinned: ${values.join(', ')}; the target's GetLanguages is not asked)`,
  };
}

/** Ask the target's GetLanguages (one request, on the first selected binding), or say why not. */
export async function discoverLanguages(
  target: Target,
  bindings: readonly BindingId[],
  operations: readonly { readonly name: string }[],
  transport: Transport,
  sharded: boolean,
): Promise<Languages> {
  if (sharded) return fixed('a shard does not ask the target: every shard must plan the same cases');
  const op = findOperation('GetLanguages')!;
  if (!operations.some((o) => o.name === op.name)) return fixed('GetLanguages is not among the --operations');
  const b = bindings[0];
  if (!b) return fixed('no binding selected');
  const ex = await transport.send(requestFor(target, op, b, { userName: target.user, password: target.password }), 2);
  if (!ex.response) return fixed(`GetLanguages got no response: ${ex.error?.code ?? 'no exchange'}`);
  if (ex.response.status !== 200) return fixed(`GetLanguages answered HTTP ${ex.response.status}`);
  try {
    const text = ex.response.body.toString('utf8');
    // The same limits as every other reading of a target's document, before the parser sees it.
    const over = overLimit(scanMarkup(text), markupLimits(transport.options.maxBodyBytes));
    if (over) return fixed(`GetLanguages answered a document beyond the harness's limits: ${over.slice(0, 200)}`);
    const codes = isoCodesOf(text);
    return codes.length
      ? { languages: codes, from: `the target's GetLanguages (${codes.length} isoCodes)` }
      : fixed('GetLanguages listed no isoCode');
  } catch (e) {
    return fixed(`GetLanguages answered no readable document: ${(e as Error).message.slice(0, 200)}`);
  }
}
