/**
 * Text put into Markdown (the job summary, the drift and coverage sections, `conformance compare`):
 * escaped so a value from the target can never open markup, and kept on one line. Its own file so the
 * sections the summary embeds read it without importing the summary (which imports them).
 */
import { truncate, visibleText } from './model.js';

const VALUE_MAX = 300;

/** Inline text: HTML-escaped, Markdown punctuation neutralised, kept on one line. */
export function mdText(s: string, max = VALUE_MAX): string {
  const t = truncate(visibleText(s).replace(/\s*[\r\n]+\s*/g, ' '), max);
  const body = t.text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/([\\`*_[\]|~])/g, '\\$1')
    // A value starting a line must not open a heading, list, quote or table rule.
    .replace(/^[#+=-]/, '\\$&')
    // An ordered-list marker is digits, then "." or ")", then a space: its punctuation is what is
    // escaped (a backslash before a digit is a literal backslash: "127.0.0.1" stays as it is).
    .replace(/^(\d{1,9})([.)])(?=[ \t]|$)/, '$1\\$2');
  return t.truncated ? `${body}… (${t.length - t.text.length} more characters)` : body;
}

/** Inline code that survives backticks in the content (CommonMark: a longer fence). */
export function mdCode(s: string, max = VALUE_MAX): string {
  const t = truncate(visibleText(s).replace(/\s*[\r\n]+\s*/g, ' '), max);
  const v = t.truncated ? `${t.text}…` : t.text;
  const longest = Math.max(0, ...[...v.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  const pad = v.startsWith('`') || v.endsWith('`') || v === '' ? ' ' : '';
  return `${fence}${pad}${v}${pad}${fence}`;
}
