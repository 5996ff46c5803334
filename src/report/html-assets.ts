/**
 * The static style and script of conformance.html. No report data is ever interpolated into either:
 * the page's Content-Security-Policy allows them by hash (src/report/html.ts).
 */
import { EXCHANGE_CSS } from './html-exchange.js';

const CSS = `
:root{--fg:#1f2328;--muted:#59636e;--line:#d1d9e0;--bg:#fff;--soft:#f6f8fa;
--fail:#b42318;--fail-bg:#fdecea;--pass:#1a7f37;--pass-bg:#e6f4ea;--known:#9a6700;--known-bg:#fff4d6;
--skip:#59636e;--skip-bg:#eef1f4;--mono:ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono",monospace}
*{box-sizing:border-box}
[hidden]{display:none !important}
html{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color:var(--fg);background:var(--bg)}
body{margin:0}
code,pre{font-family:var(--mono);font-size:12.5px}
a{color:inherit}
.page{max-width:1180px;margin:0 auto;padding:20px 24px 48px}
header.top{display:grid;grid-template-columns:auto 1fr;gap:6px 20px;align-items:center;padding-bottom:16px;border-bottom:1px solid var(--line)}
.verdict{grid-row:span 2;font-weight:700;font-size:26px;letter-spacing:.04em;padding:14px 22px;border-radius:10px;color:#fff}
.verdict.pass{background:var(--pass)}.verdict.fail,.verdict.untested,.verdict.incomplete,.verdict.outage{background:var(--fail)}
.cell.untested{outline:2px dashed var(--fail);outline-offset:-3px}.cell .untested-mark{display:block;font-size:11px;font-weight:700;color:var(--fail);text-transform:uppercase}
h1{font-size:20px;margin:0;font-weight:600}
h2{font-size:16px;margin:28px 0 10px}
.counts{display:flex;flex-wrap:wrap;gap:8px;margin:0;padding:0;list-style:none}
.counts li{padding:2px 10px;border-radius:999px;background:var(--soft);border:1px solid var(--line)}
.counts b{font-variant-numeric:tabular-nums}
.counts .failed{background:var(--fail-bg);border-color:#f5c2bd;color:var(--fail)}
.counts .passed{background:var(--pass-bg);border-color:#b7e0c2;color:var(--pass)}
.counts .known{background:var(--known-bg);border-color:#f0d58a;color:var(--known)}
.counts .skipped{background:var(--skip-bg);color:var(--skip)}
.meta{display:grid;grid-template-columns:max-content 1fr max-content 1fr;gap:4px 14px;margin:14px 0 0;font-size:13px}
.meta dt{color:var(--muted)}.meta dd{margin:0;overflow-wrap:anywhere}
.meta dd code{font-size:12.5px}
table{border-collapse:collapse}
.matrix{width:100%;table-layout:fixed;border:1px solid var(--line)}
.matrix th,.matrix td{border:1px solid var(--line);padding:0;text-align:center;vertical-align:middle}
.matrix thead th{background:var(--soft);padding:8px 6px;font-weight:600}
.matrix thead th:first-child,.matrix tbody th[scope=row]{text-align:left;width:26%}
.matrix tbody th[scope=row]{padding:6px 10px;font-weight:500;font-family:var(--mono);font-size:13px}
.matrix th.grp{background:#eaeef2;text-align:left;padding:5px 10px;font-size:12px;text-transform:uppercase;letter-spacing:.06em;color:var(--muted)}
.cell a,.cell .none{display:flex;gap:8px;justify-content:center;align-items:center;min-height:34px;padding:4px 6px;text-decoration:none}
.cell a:hover,.cell a:focus-visible{outline:2px solid #0969da;outline-offset:-2px}
.cell.failed{background:var(--fail-bg)}.cell.passed{background:var(--pass-bg)}.cell.known{background:var(--known-bg)}
.cell.skipped{background:var(--skip-bg)}.cell.empty{color:#9aa4ae}
.cell.selected{box-shadow:inset 0 0 0 3px #0969da}
.n{font-variant-numeric:tabular-nums;font-weight:600;white-space:nowrap}
.n.failed{color:var(--fail)}.n.passed{color:var(--pass)}.n.known{color:var(--known)}.n.skipped{color:var(--skip)}
.legend{color:var(--muted);font-size:12.5px;margin:8px 0 0}
.legend span{margin-right:14px}
.toolbar{display:flex;gap:8px;align-items:center;margin:0 0 10px}
button{font:inherit;font-size:12.5px;padding:3px 10px;border:1px solid var(--line);border-radius:6px;background:var(--soft);cursor:pointer}
button:hover{background:#eaeef2}
details.cell-detail{border:1px solid var(--line);border-left-width:4px;border-radius:6px;margin:0 0 8px;background:#fff}
details.cell-detail.failed{border-left-color:var(--fail)}details.cell-detail.passed{border-left-color:var(--pass)}
details.cell-detail.known{border-left-color:var(--known)}details.cell-detail.skipped{border-left-color:#afb8c1}
details.cell-detail>summary{cursor:pointer;padding:8px 12px;display:flex;gap:10px;align-items:baseline;flex-wrap:wrap}
details.cell-detail>summary::marker{color:var(--muted)}
details.cell-detail[open]>summary{border-bottom:1px solid var(--line);background:var(--soft)}
details.cell-detail:has(>.body:target),details.cell-detail.selected{box-shadow:0 0 0 3px rgba(9,105,218,.35)}
.ttl{font-weight:600;font-family:var(--mono)}
.sum{color:var(--muted);font-size:13px}
.only-failures details.cell-detail:not(.failed),.only-failures .others-title{display:none}
details.generated>summary{cursor:pointer;list-style-position:inside}details.generated>summary h3.sub{display:inline}
h3.sub{font-size:13px;font-weight:600;color:var(--muted);margin:16px 0 8px;text-transform:uppercase;letter-spacing:.05em}
.body{padding:4px 14px 12px}
.case h3{font-size:13.5px;margin:12px 0 8px;font-weight:600}
.row{border:1px solid var(--line);border-radius:6px;padding:10px 12px;margin:0 0 10px}
.row.failed{border-color:#f1b7b0;background:#fffafa}.row.known{border-color:#ecd189;background:#fffdf5}
.row-head{display:flex;gap:8px;align-items:baseline;flex-wrap:wrap}
.badge{display:inline-block;font-size:11px;font-weight:700;text-transform:uppercase;letter-spacing:.04em;padding:1px 7px;border-radius:4px;color:#fff;white-space:nowrap}
.badge.failed{background:var(--fail)}.badge.passed{background:var(--pass)}.badge.known{background:var(--known)}.badge.skipped{background:#8c959f}
.path{color:var(--muted);overflow-wrap:anywhere}
.msg{margin:6px 0;white-space:pre-wrap;overflow-wrap:anywhere}
table.findings{width:100%;margin:6px 0 8px;font-size:12.5px;table-layout:fixed}
table.findings th,table.findings td{border:1px solid var(--line);padding:4px 6px;text-align:left;vertical-align:top;overflow-wrap:anywhere}
table.findings th{background:var(--soft);font-weight:600}
table.findings col.c-check{width:16%}table.findings col.c-path{width:24%}table.findings col.c-msg{width:28%}
table.findings td code{white-space:pre-wrap}
.repro{margin:8px 0 0}
.repro-head{display:flex;justify-content:space-between;align-items:center;font-size:12px;color:var(--muted);margin-bottom:3px}
pre{margin:0;padding:8px 10px;background:#0d1117;color:#e6edf3;border-radius:6px;white-space:pre-wrap;overflow-wrap:anywhere;max-height:22em;overflow:auto}
pre.cmd{background:#1f2328}
details.exchange{margin:0 0 10px}
details.exchange>summary{cursor:pointer;color:var(--muted);font-size:12.5px;margin-bottom:6px}
.ex-grid{display:grid;grid-template-columns:1fr 1fr;gap:10px}
.ex-grid h4{margin:0 0 3px;font-size:12px;color:var(--muted);font-weight:600}
.note{color:var(--known);font-size:12px;margin:3px 0 0}
tr.flagged td{background:var(--known-bg,#fff8c5)}table.in-band{border-collapse:collapse;font-size:13px;margin:6px 0 14px}table.in-band td,table.in-band th{border:1px solid var(--line);padding:3px 8px;text-align:left;overflow-wrap:anywhere}
ul.others{list-style:none;padding:0;margin:4px 0 6px;display:flex;flex-wrap:wrap;gap:6px}
ul.others li{font-size:12.5px;padding:1px 8px;border-radius:4px;background:var(--soft);border:1px solid var(--line)}
ul.others li.passed{background:var(--pass-bg);border-color:#b7e0c2}
ul.others li.skipped{background:var(--skip-bg)}
ul.others li .why{color:var(--muted)}
footer{margin-top:32px;color:var(--muted);font-size:12px}
@media (max-width:760px){.ex-grid{grid-template-columns:1fr}.meta{grid-template-columns:max-content 1fr}}
@media print{details.cell-detail{break-inside:avoid}.toolbar,button{display:none}}
`;

export const PAGE_CSS = CSS + EXCHANGE_CSS;

// Static: no report data is ever interpolated into the script.
export const SCRIPT = `
(function () {
  'use strict';
  var d = document;
  d.documentElement.classList.add('js');
  Array.prototype.forEach.call(d.querySelectorAll('[data-js-only]'), function (el) { el.hidden = false; });
  // A cell links to the body inside its <details> (so fragment navigation reveals it without JS).
  function detailsOf(id) {
    var el = id && d.getElementById(id);
    return el ? el.closest('details.cell-detail') : null;
  }
  function select(id) {
    Array.prototype.forEach.call(d.querySelectorAll('.selected'), function (el) { el.classList.remove('selected'); });
    Array.prototype.forEach.call(d.querySelectorAll('.cell a[aria-expanded]'), function (a) {
      var target = detailsOf(a.getAttribute('href').slice(1));
      a.setAttribute('aria-expanded', target && target.open ? 'true' : 'false');
    });
    if (!id) return;
    var det = detailsOf(id);
    var link = d.querySelector('.cell a[href="#' + id + '"]');
    if (det) det.classList.add('selected');
    if (link) link.parentNode.classList.add('selected');
  }
  function copy(btn) {
    var code = btn.closest('.repro').querySelector('code');
    var text = code.textContent;
    function done(ok) {
      btn.textContent = ok ? 'Copied' : 'Select and copy';
      setTimeout(function () { btn.textContent = 'Copy'; }, 1600);
    }
    function fallback() {
      var range = d.createRange();
      range.selectNodeContents(code);
      var sel = window.getSelection();
      sel.removeAllRanges();
      sel.addRange(range);
      var ok = false;
      try { ok = d.execCommand('copy'); } catch (e) { ok = false; }
      done(ok);
    }
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(text).then(function () { done(true); }, fallback);
    } else { fallback(); }
  }
  d.addEventListener('click', function (e) {
    var t = e.target;
    if (!(t instanceof Element)) return;
    var link = t.closest('.cell a');
    if (link) {
      e.preventDefault();
      var id = link.getAttribute('href').slice(1);
      var det = detailsOf(id);
      if (!det) return;
      if (det.open && det.classList.contains('selected')) { det.open = false; select(null); return; }
      det.open = true;
      select(id);
      det.scrollIntoView({ block: 'start' });
      return;
    }
    var btn = t.closest('button');
    if (!btn) return;
    var action = btn.getAttribute('data-action');
    if (action === 'copy') copy(btn);
    if (action === 'expand-failures') {
      Array.prototype.forEach.call(d.querySelectorAll('details.cell-detail.failed'), function (x) { x.open = true; });
      select(null);
    }
    if (action === 'collapse') {
      Array.prototype.forEach.call(d.querySelectorAll('details.cell-detail'), function (x) { x.open = false; });
      select(null);
    }
    if (action === 'only-failures') {
      var on = d.body.classList.toggle('only-failures');
      btn.setAttribute('aria-pressed', on ? 'true' : 'false');
    }
  });
  function fromHash() {
    var id = location.hash.slice(1);
    var det = detailsOf(id);
    if (det) { det.open = true; select(id); }
  }
  window.addEventListener('hashchange', fromHash);
  fromHash();
})();
`;
