"""The page's style and script, inline so that the file opens from disk and can be mailed.

Every rule is scoped under ``.rt4c`` so the same style serves the page and the card a notebook
shows inline. The script only toggles classes and the ``hidden`` attribute and reads
``textContent``: it never builds markup from the data, so escaping happens once, in Python.
Without it the page is the full static list.
"""

from __future__ import annotations

import base64
import hashlib

CSS = """
.rt4c{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:#1d2330;margin:0}
.rt4c main,.rt4c header.top,.rt4c nav.controls{max-width:1100px;margin:0 auto;padding:0 16px}
.rt4c header.top h1{font-size:20px;margin:16px 0 4px}
.rt4c .muted{color:#667085;font-weight:normal}
.rt4c .stats{display:flex;flex-wrap:wrap;gap:8px 24px;align-items:flex-start}
.rt4c .stats table{border-collapse:collapse}
.rt4c .stats td,.rt4c .stats th{padding:1px 8px 1px 0;text-align:left;vertical-align:top}
.rt4c table.metrics{border-collapse:collapse;margin:8px 0}
.rt4c table.metrics td,.rt4c table.metrics th{border:1px solid #d0d5dd;padding:2px 6px;text-align:right}
.rt4c .problems{max-height:160px;overflow:auto;margin:4px 0}
.rt4c nav.controls{display:none;position:sticky;top:0;background:#f8f9fb;border-bottom:1px solid #d0d5dd;
  padding:6px 16px;gap:10px;flex-wrap:wrap;align-items:center;z-index:2}
.rt4c.js nav.controls{display:flex}
.rt4c .row{border:1px solid #d0d5dd;border-radius:6px;margin:12px 0;padding:8px 12px;
  content-visibility:auto;contain-intrinsic-size:auto 500px}
.rt4c.js:not(.ready) #rows>.row:nth-child(n+51){display:none}
.rt4c .row.target{box-shadow:0 0 0 3px #84adff}
.rt4c .row h2{font-size:15px;margin:2px 0 6px}
.rt4c .row h2 a.perma{color:#98a2b3;text-decoration:none;margin-right:4px}
.rt4c .badge{display:inline-block;border-radius:4px;padding:0 5px;font-size:12px;font-weight:600;
  background:#eaecf0;color:#344054}
.rt4c .badge.ENT{background:#d1fadf;color:#05603a}
.rt4c .badge.CON{background:#fee4e2;color:#b42318}
.rt4c .badge.NIC{background:#fef0c7;color:#93370d}
.rt4c .error{color:#b42318}
.rt4c .answer p,.rt4c .q{white-space:pre-wrap;margin:4px 0}
.rt4c mark{background:none;border-radius:3px;padding:0 1px;cursor:pointer}
.rt4c mark.CON{background:#fee4e2;border-bottom:2px solid #d92d20}
.rt4c mark.NIC{background:#fef0c7;border-bottom:2px dashed #dc6803}
.rt4c mark.sel{outline:2px solid #2e90fa}
.rt4c mark .phrase{text-decoration:underline;text-decoration-thickness:2px}
.rt4c ol.claims{margin:6px 0;padding-left:22px}
.rt4c li.claim{margin:3px 0;cursor:pointer;border-radius:4px;padding:1px 4px}
.rt4c li.claim.sel{background:#eff8ff;outline:2px solid #2e90fa}
.rt4c li.claim .why{color:#475467;font-size:13px}
.rt4c .risk{display:inline-block;height:8px;background:#dc6803;border-radius:2px;vertical-align:middle}
.rt4c .ctx{border-top:1px dashed #d0d5dd;margin-top:6px;padding-top:4px}
.rt4c .passage{margin:4px 0}
.rt4c .pn{font-size:12px;color:#667085;margin-right:6px}
.rt4c .sent{border-left:2px solid #d0d5dd;padding:0 3px;margin-right:2px}
.rt4c .sent sup{color:#98a2b3;font-size:10px;margin-right:2px}
.rt4c .sent.cited{border-left-color:#667085}
.rt4c .sent.hl,.rt4c tr.hl{background:#fef08a;outline:2px solid #eab308}
.rt4c table.fields{border-collapse:collapse;margin:4px 0}
.rt4c table.fields th,.rt4c table.fields td{border:1px solid #eaecf0;padding:1px 6px;text-align:left;vertical-align:top}
.rt4c table.fields tr.cited th::after{content:" \\2022 cited";color:#b42318;font-weight:normal;font-size:11px}
.rt4c details{font-size:13px;color:#475467}
.rt4c svg.hist rect{fill:#84adff}
.rt4c .keys{font-size:12px;color:#667085}
"""

#: run first, in <head>: marks the page as scripted so the first paint shows one page of rows
HEAD_JS = "document.documentElement.classList.add('js')"

JS = r"""
(function () {
  var d = document, root = d.documentElement;
  var rows = [].slice.call(d.querySelectorAll('#rows > .row'));
  var PAGE = 50, page = 0, shown = rows, texts = [], flagIndex = -1;
  function $(id) { return d.getElementById(id); }
  var f = {h: $('f-h'), label: $('f-label'), state: $('f-state'), meta: $('f-meta'), q: $('f-q')};
  function match(r, i) {
    if (f.h.checked && r.getAttribute('data-h') !== '1') return false;
    if (f.label.value && r.getAttribute('data-labels').indexOf(' ' + f.label.value + ' ') < 0) return false;
    if (f.state.value && r.getAttribute('data-state') !== f.state.value) return false;
    if (f.meta.value && r.getAttribute('data-meta').indexOf('\n' + f.meta.value + '\n') < 0) return false;
    var q = f.q.value.trim().toLowerCase();
    if (q) {
      if (texts[i] === undefined) texts[i] = r.textContent.toLowerCase();
      if (texts[i].indexOf(q) < 0) return false;
    }
    return true;
  }
  function draw() {
    var pages = Math.max(1, Math.ceil(shown.length / PAGE));
    if (page >= pages) page = pages - 1;
    var on = new Set(shown.slice(page * PAGE, (page + 1) * PAGE));
    for (var i = 0; i < rows.length; i++) rows[i].hidden = !on.has(rows[i]);
    $('count').textContent = shown.length + ' of ' + rows.length + ' rows \u00b7 page ' + (page + 1) + ' of ' + pages;
    $('prev').disabled = page === 0;
    $('next').disabled = page >= pages - 1;
  }
  function apply() {
    shown = rows.filter(match); page = 0; flagIndex = -1; draw();
  }
  var timer = null;
  ['f-h', 'f-label', 'f-state', 'f-meta'].forEach(function (id) { $(id).addEventListener('change', apply); });
  f.q.addEventListener('input', function () { clearTimeout(timer); timer = setTimeout(apply, 150); });
  $('prev').addEventListener('click', function () { page--; draw(); window.scrollTo(0, 0); });
  $('next').addEventListener('click', function () { page++; draw(); window.scrollTo(0, 0); });

  function clear() {
    [].slice.call(d.querySelectorAll('.rt4c .hl, .rt4c .sel')).forEach(function (e) {
      e.classList.remove('hl'); e.classList.remove('sel');
    });
  }
  function select(li, scroll) {
    clear();
    li.classList.add('sel');
    var row = li.closest('.row');
    var mark = row.querySelector('mark[data-claims~="' + li.getAttribute('data-claim') + '"]');
    if (mark) mark.classList.add('sel');
    var first = null;
    (li.getAttribute('data-ev') || '').split(' ').forEach(function (id) {
      var e = id && $(id);
      if (e) { e.classList.add('hl'); first = first || e; }
    });
    if (scroll !== false) (first || li).scrollIntoView({block: 'center'});
  }
  $('rows').addEventListener('click', function (ev) {
    var t = ev.target;
    var li = t.closest && t.closest('li.claim');
    if (li) { select(li); return; }
    var mark = t.closest && t.closest('mark');
    if (mark) {
      var id = (mark.getAttribute('data-claims') || '').split(' ')[0];
      var c = mark.closest('.row').querySelector('li.claim[data-claim="' + id + '"]');
      if (c) select(c);
    }
  });
  $('rows').addEventListener('keydown', function (ev) {
    var li = ev.target.closest && ev.target.closest('li.claim');
    if (li && (ev.key === 'Enter' || ev.key === ' ')) { ev.preventDefault(); select(li); }
  });
  function flagged() {
    var out = [];
    shown.forEach(function (r) { out.push.apply(out, r.querySelectorAll('li.claim.flagged')); });
    return out;
  }
  function step(by) {
    var all = flagged();
    if (!all.length) return;
    flagIndex = (flagIndex + by + all.length) % all.length;
    var li = all[flagIndex], row = li.closest('.row');
    var p = Math.floor(shown.indexOf(row) / PAGE);
    if (p !== page) { page = p; draw(); }
    select(li, false);
    li.focus();
    li.scrollIntoView({block: 'center'});
  }
  d.addEventListener('keydown', function (ev) {
    var tag = ev.target.tagName;
    if (tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA' || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (ev.key === 'j' || ev.key === 'n') { ev.preventDefault(); step(1); }
    else if (ev.key === 'k' || ev.key === 'p') { ev.preventDefault(); step(-1); }
    else if (ev.key === '/') { ev.preventDefault(); f.q.focus(); }
  });
  function goHash() {
    var id = '';
    try { id = decodeURIComponent(location.hash.slice(1)); } catch (e) { return; }
    var el = id && $(id);
    if (!el || rows.indexOf(el) < 0) return;
    if (shown.indexOf(el) < 0) {
      f.h.checked = false; f.label.value = ''; f.state.value = ''; f.meta.value = ''; f.q.value = '';
      shown = rows;
    }
    page = Math.floor(shown.indexOf(el) / PAGE); draw();
    rows.forEach(function (r) { r.classList.remove('target'); });
    el.classList.add('target');
    el.scrollIntoView();
  }
  window.addEventListener('hashchange', goHash);
  draw();
  root.classList.add('ready');
  if (window.performance && performance.mark) performance.mark('rt4chart-ready');
  goHash();
})();
"""


def csp_hash(script: str) -> str:
    """The Content-Security-Policy source that allows exactly this inline script and no other."""
    return "'sha256-" + base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode("ascii") + "'"


#: no request of any kind, no script but the page's own two: a second wall behind the escaping
CSP = (f"default-src 'none'; style-src 'unsafe-inline'; img-src data:; "
       f"script-src {csp_hash(HEAD_JS)} {csp_hash(JS)}; base-uri 'none'; form-action 'none'")
