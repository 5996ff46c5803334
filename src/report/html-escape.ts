/**
 * Escaping for conformance.html: every text of a report (responses come from the target) goes through
 * esc() into HTML text or a quoted attribute value, never into the page's script or style.
 */
import { visibleText } from './model.js';

const MARKUP_CHARS = /[&<>"']/;

/** Escape text for HTML text or a double/single-quoted attribute value. */
export function esc(s: string): string {
  const v = visibleText(s);
  return MARKUP_CHARS.test(v)
    ? v
        .replace(/&/g, '&amp;')
        .replace(/</g, '&lt;')
        .replace(/>/g, '&gt;')
        .replace(/"/g, '&quot;')
        .replace(/'/g, '&#39;')
    : v;
}
