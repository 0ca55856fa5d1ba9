"""The page's style and script, inline so that the file opens from disk and can be mailed.

Every rule is scoped under ``.rt4c`` so the same style serves the page and the card a notebook
shows inline. Colours are variables with a light and a dark set (``prefers-color-scheme``); the
card (``.rt4c.card``) takes its text colour from the notebook around it and keeps its own
colours only where it paints a background too, so it reads on a light and a dark notebook alike.

The script never builds markup from the data: it reads the rows' index, shows a page of rows
(moving elements the page's writer made and escaped, decompressing their chunk first when the
page is large; ``pack.py``) and toggles classes. Without it the page is the static list of every
row, up to ``pack.PLAIN_LIMIT`` rows, then of the first page.
"""

from __future__ import annotations

import base64
import hashlib

CSS = """
.rt4c{--fg:#1d2330;--bg:#fff;--muted:#5d6778;--soft:#475467;--line:#d0d5dd;--faint:#eaecf0;--bar:#f8f9fb;
  --ent-bg:#d1fadf;--ent-fg:#05603a;--con-bg:#fee4e2;--con-fg:#a51c12;--con-line:#d92d20;--nic-bg:#fef0c7;
  --nic-fg:#7a2e0b;--nic-line:#dc6803;--plain-bg:#eaecf0;--plain-fg:#344054;--sel-bg:#eff8ff;--focus:#2e90fa;
  --hl-bg:#fef08a;--hl-fg:#1d2330;--hl-line:#eab308;--chart:#84adff;--gain:#32d583;--loss:#f97066;
  --target:#84adff;--link:#175cd3;color-scheme:light}
@media (prefers-color-scheme:dark){.rt4c{--fg:#e4e7ec;--bg:#0c111d;--muted:#a4acba;--soft:#c0c6d1;--line:#475467;
  --faint:#344054;--bar:#161b26;--ent-bg:#053321;--ent-fg:#75e0a7;--con-bg:#55160c;--con-fg:#fda29b;
  --con-line:#f97066;--nic-bg:#4e1d09;--nic-fg:#fec84b;--nic-line:#fdb022;--plain-bg:#344054;--plain-fg:#e4e7ec;
  --sel-bg:#102a56;--focus:#53b1fd;--hl-bg:#713b12;--hl-fg:#fef08a;--hl-line:#eab308;--chart:#528bff;
  --gain:#039855;--loss:#d92d20;--target:#528bff;--link:#84caff;color-scheme:dark}}
html.rt4c{background:var(--bg)}
.rt4c{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:var(--fg);margin:0}
.rt4c.card{color:inherit;background:transparent;--fg:currentColor;--muted:color-mix(in srgb,currentColor 72%,transparent);
  --soft:color-mix(in srgb,currentColor 85%,transparent);--line:color-mix(in srgb,currentColor 30%,transparent);
  --faint:color-mix(in srgb,currentColor 16%,transparent)}
.rt4c main,.rt4c header.top,.rt4c nav.controls{max-width:1100px;margin:0 auto;padding:0 16px}
.rt4c header.top h1{font-size:20px;margin:16px 0 4px}
.rt4c .muted{color:var(--muted);font-weight:normal}
.rt4c .stats{display:flex;flex-wrap:wrap;gap:8px 24px;align-items:flex-start}
.rt4c .stats table{border-collapse:collapse}
.rt4c .stats td,.rt4c .stats th{padding:1px 8px 1px 0;text-align:left;vertical-align:top}
.rt4c table.metrics,.rt4c table.groups{border-collapse:collapse;margin:8px 0}
.rt4c table.metrics td,.rt4c table.metrics th,.rt4c table.groups td,.rt4c table.groups th{border:1px solid var(--line);
  padding:2px 6px;text-align:right}
.rt4c table.groups td:first-child,.rt4c table.groups th:first-child{text-align:left}
.rt4c table.groups caption{text-align:left;color:var(--muted);font-size:13px}
.rt4c .problems{max-height:160px;overflow:auto;margin:4px 0}
.rt4c nav.controls{display:none;position:sticky;top:0;background:var(--bar);border-bottom:1px solid var(--line);
  padding:6px 16px;gap:10px;flex-wrap:wrap;align-items:center;z-index:2}
.rt4c.js nav.controls{display:flex}
.rt4c input,.rt4c select,.rt4c button{color:inherit;background:var(--bg);border:1px solid var(--line);border-radius:4px;
  font:inherit;padding:1px 4px}
.rt4c .row{border:1px solid var(--line);border-radius:6px;margin:12px 0;padding:8px 12px;
  content-visibility:auto;contain-intrinsic-size:auto 500px;scroll-margin-top:calc(var(--bar-h,0px) + 8px)}
.rt4c.js:not(.ready) #rows>.row:nth-child(n+51){display:none}
.rt4c .row.target{box-shadow:0 0 0 3px var(--target)}
.rt4c .row h2{font-size:15px;margin:2px 0 6px}
.rt4c .row h2 a.perma{color:var(--muted);text-decoration:none;margin-right:4px}
.rt4c a{color:var(--link)}
.rt4c .badge,.rt4c .chg{display:inline-block;border-radius:4px;padding:0 5px;font-size:12px;font-weight:600;
  background:var(--plain-bg);color:var(--plain-fg)}
.rt4c .badge.ENT,.rt4c .chg.fixed,.rt4c .chg.recovered{background:var(--ent-bg);color:var(--ent-fg)}
.rt4c .badge.CON,.rt4c .chg.newly_hallucinated,.rt4c .chg.new_unfaithful,.rt4c .chg.newly_failed{background:var(--con-bg);
  color:var(--con-fg)}
.rt4c .badge.NIC,.rt4c .chg.still_hallucinated,.rt4c .chg.changed_label{background:var(--nic-bg);color:var(--nic-fg)}
.rt4c .error{color:var(--con-fg)}
.rt4c .answer p,.rt4c .q{white-space:pre-wrap;margin:4px 0}
.rt4c mark{background:none;color:inherit;border-radius:3px;padding:0 1px;cursor:pointer}
.rt4c mark.CON{background:var(--con-bg);color:var(--con-fg);border-bottom:2px solid var(--con-line)}
.rt4c mark.NIC{background:var(--nic-bg);color:var(--nic-fg);border-bottom:2px dashed var(--nic-line)}
.rt4c mark.sel{outline:2px solid var(--focus)}
.rt4c mark .phrase{text-decoration:underline;text-decoration-thickness:2px}
.rt4c ol.claims{margin:6px 0;padding-left:22px}
.rt4c li.claim{margin:3px 0;cursor:pointer;border-radius:4px;padding:1px 4px}
.rt4c li.claim.sel{background:var(--sel-bg);outline:2px solid var(--focus)}
.rt4c li.claim.pair{outline:2px dashed var(--focus)}
.rt4c li.claim.changed{border-left:3px solid var(--nic-line)}
.rt4c li.claim.changed.new_unfaithful{border-left-color:var(--con-line)}
.rt4c li.claim.changed.fixed{border-left-color:var(--gain)}
.rt4c li.claim .why{color:var(--soft);font-size:13px}
.rt4c .risk{display:inline-block;height:8px;background:var(--nic-line);border-radius:2px;vertical-align:middle}
.rt4c .ctx{border-top:1px dashed var(--line);margin-top:6px;padding-top:4px}
.rt4c .passage{margin:4px 0}
.rt4c .pn{font-size:12px;color:var(--muted);margin-right:6px}
.rt4c .sent{border-left:2px solid var(--line);padding:0 3px;margin-right:2px}
.rt4c .sent sup{color:var(--muted);font-size:10px;margin-right:2px}
.rt4c .sent.cited{border-left-color:var(--muted)}
.rt4c .sent.hl,.rt4c tr.hl{background:var(--hl-bg);color:var(--hl-fg);outline:2px solid var(--hl-line)}
.rt4c .sent.hl sup{color:inherit}
.rt4c table.fields{border-collapse:collapse;margin:4px 0}
.rt4c table.fields th,.rt4c table.fields td{border:1px solid var(--faint);padding:1px 6px;text-align:left;vertical-align:top}
.rt4c table.fields tr.cited th::after{content:" \\2022 cited";color:var(--con-fg);font-weight:normal;font-size:11px}
.rt4c details{font-size:13px;color:var(--soft)}
.rt4c svg.hist{color:var(--fg);overflow:visible}
.rt4c svg.hist rect{fill:var(--chart)}
.rt4c svg.hist rect.loss{fill:var(--loss)}
.rt4c svg.hist rect.gain{fill:var(--gain)}
.rt4c svg.hist text{fill:currentColor;font-size:10px}
.rt4c svg.hist text.axis-title{fill:var(--muted)}
.rt4c svg.hist line.axis{stroke:currentColor;stroke-width:1}
.rt4c svg.hist line.grid{stroke:var(--faint);stroke-width:1}
.rt4c .keys{font-size:12px;color:var(--muted)}
.rt4c .pair-sides{display:grid;grid-template-columns:1fr 1fr;gap:12px}
.rt4c .side{min-width:0}
.rt4c .side h3{font-size:13px;margin:4px 0}
.rt4c .side.absent{color:var(--muted);font-style:italic}
.rt4c .warn{color:var(--nic-fg);background:var(--nic-bg);border-radius:4px;padding:0 6px;display:inline-block;margin:2px 0}
@media (max-width:760px){.rt4c .pair-sides{grid-template-columns:1fr}}
"""

#: run first, in <head>: marks the page as scripted so the first paint shows one page of rows
HEAD_JS = "document.documentElement.classList.add('js')"

JS = r"""
(function () {
  var d = document, root = d.documentElement;
  function $(id) { return d.getElementById(id); }
  var main = $('rows'), nav = d.querySelector('nav.controls');
  var PAGE = 50, CHUNK = +main.getAttribute('data-chunk'), PLAIN = +main.getAttribute('data-plain');
  var STEP = main.getAttribute('data-step') || 'li.claim.flagged';
  var els = [].slice.call(main.children), rows = [], byAnchor = {}, texts = [], chunks = {};
  var shown = [], page = 0, cursor = {pos: -1, k: -1}, generation = 0;
  var f = {h: $('f-h'), label: $('f-label'), state: $('f-state'), meta: $('f-meta'), change: $('f-change'),
           sort: $('f-sort'), q: $('f-q')};

  function decode(el) {
    if (el.getAttribute('data-enc') !== 'gzip') return Promise.resolve(JSON.parse(el.textContent));
    var bin = atob(el.textContent), bytes = new Uint8Array(bin.length);
    for (var i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
    return new Response(stream).text().then(JSON.parse);
  }
  function chunk(k) {
    if (!chunks[k]) chunks[k] = decode($('rt4c-chunk-' + k));
    return chunks[k];
  }
  function chunkOf(i) { return Math.floor((i - PLAIN) / CHUNK); }
  function element(markup) {
    var t = d.createElement('template');
    t.innerHTML = markup;  // made and escaped by the page's writer, never from a string built here
    return t.content.firstElementChild;
  }
  function ensure(list) {
    var need = {};
    list.forEach(function (i) { if (!els[i]) need[chunkOf(i)] = true; });
    return Promise.all(Object.keys(need).map(function (k) {
      k = +k;
      return chunk(k).then(function (markups) {
        markups.forEach(function (m, j) { var i = PLAIN + k * CHUNK + j; if (!els[i]) els[i] = element(m); });
      });
    }));
  }
  var ENTITIES = {'&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#x27;': "'"};
  function textOf(markup) {
    return markup.replace(/<[^>]*>/g, ' ').replace(/&(amp|lt|gt|quot|#x27);/g, function (m) { return ENTITIES[m]; });
  }
  function allTexts() {
    if (texts.length === rows.length) return Promise.resolve();
    for (var i = 0; i < PLAIN && i < rows.length; i++) texts[i] = els[i].textContent.toLowerCase();
    var jobs = [];
    for (var k = 0; PLAIN + k * CHUNK < rows.length; k++) {
      jobs.push((function (k) {
        return chunk(k).then(function (markups) {
          markups.forEach(function (m, j) { texts[PLAIN + k * CHUNK + j] = textOf(m).toLowerCase(); });
          delete chunks[k];  // the texts are kept; the markup is decoded again when a row is shown
        });
      })(k));
    }
    return Promise.all(jobs);
  }

  function num(v, missing) { return v === null || v === undefined ? missing : v; }
  var SORTS = {
    score: function (a, b) { return num(rows[a].sc, 9) - num(rows[b].sc, 9) || a - b; },
    'score-desc': function (a, b) { return num(rows[b].sc, -9) - num(rows[a].sc, -9) || a - b; },
    conf: function (a, b) { return num(rows[a].cf, 9) - num(rows[b].cf, 9) || a - b; },
    change: function (a, b) { return num(rows[a].c, 99) - num(rows[b].c, 99) || num(rows[a].d, 0) - num(rows[b].d, 0) || a - b; },
    delta: function (a, b) { return num(rows[a].d, 9) - num(rows[b].d, 9) || a - b; }
  };
  function match(r, i, q) {
    if (f.h && f.h.checked && !r.h) return false;
    if (f.label && f.label.value && r.l.indexOf(' ' + f.label.value + ' ') < 0) return false;
    if (f.state && f.state.value && r.s !== f.state.value) return false;
    if (f.meta && f.meta.value && r.m.indexOf('\n' + f.meta.value + '\n') < 0) return false;
    if (f.change && f.change.value && r.k !== f.change.value) return false;
    if (q && texts[i].indexOf(q) < 0) return false;
    return true;
  }
  function draw() {
    var gen = ++generation;
    var pages = Math.max(1, Math.ceil(shown.length / PAGE));
    if (page >= pages) page = pages - 1;
    var slice = shown.slice(page * PAGE, (page + 1) * PAGE);
    return ensure(slice).then(function () {
      if (gen !== generation) return;
      main.replaceChildren.apply(main, slice.map(function (i) { return els[i]; }));
      $('count').textContent = shown.length + ' of ' + rows.length + ' rows \u00b7 page ' + (page + 1) + ' of ' + pages;
      $('prev').disabled = page === 0;
      $('next').disabled = page >= pages - 1;
      barHeight();  // the count may have wrapped the bar onto another line
    });
  }
  function apply() {
    var q = f.q ? f.q.value.trim().toLowerCase() : '';
    return (q ? allTexts() : Promise.resolve()).then(function () {
      var list = [];
      for (var i = 0; i < rows.length; i++) if (match(rows[i], i, q)) list.push(i);
      var by = f.sort && SORTS[f.sort.value];
      if (by) list.sort(by);
      shown = list; page = 0; cursor = {pos: -1, k: -1};
      return draw();
    });
  }
  function reset() {
    if (f.h) f.h.checked = false;
    ['label', 'state', 'meta', 'change', 'q'].forEach(function (k) { if (f[k]) f[k].value = ''; });
    return apply();
  }

  function clear() {
    [].slice.call(d.querySelectorAll('.rt4c .hl, .rt4c .sel, .rt4c .pair')).forEach(function (e) {
      e.classList.remove('hl'); e.classList.remove('sel'); e.classList.remove('pair');
    });
  }
  function select(li, scroll) {
    clear();
    li.classList.add('sel');
    var row = li.closest('.row'), side = li.closest('.side') || row;
    var mark = side.querySelector('mark[data-claims~="' + li.getAttribute('data-claim') + '"]');
    if (mark) mark.classList.add('sel');
    var partner = li.getAttribute('data-pair') &&
      row.querySelector('li.claim[data-pair="' + li.getAttribute('data-pair') + '"]:not(.sel)');
    if (partner) partner.classList.add('pair');
    var first = null;
    (li.getAttribute('data-ev') || '').split(' ').forEach(function (id) {
      var e = id && $(id);
      if (e) { e.classList.add('hl'); first = first || e; }
    });
    if (scroll !== false) (first || li).scrollIntoView({block: 'center'});
  }
  main.addEventListener('click', function (ev) {
    var t = ev.target;
    var li = t.closest && t.closest('li.claim');
    if (li) { select(li); return; }
    var mark = t.closest && t.closest('mark');
    if (mark) {
      var id = (mark.getAttribute('data-claims') || '').split(' ')[0];
      var side = mark.closest('.side') || mark.closest('.row');
      var c = side.querySelector('li.claim[data-claim="' + id + '"]');
      if (c) select(c);
    }
  });
  main.addEventListener('keydown', function (ev) {
    var li = ev.target.closest && ev.target.closest('li.claim');
    if (li && (ev.key === 'Enter' || ev.key === ' ')) { ev.preventDefault(); select(li); }
  });
  function go(pos, k) {
    cursor = {pos: pos, k: k};
    var p = Math.floor(pos / PAGE);
    return (p !== page ? (page = p, draw()) : Promise.resolve()).then(function () {
      var li = els[shown[pos]].querySelectorAll(STEP)[k];
      if (!li) return;
      select(li, false);
      li.focus();
      li.scrollIntoView({block: 'center'});
    });
  }
  function step(by) {
    var total = shown.length;
    if (!total) return;
    var pos = cursor.pos, k = cursor.k;
    if (pos < 0) { pos = by > 0 ? 0 : total - 1; k = by > 0 ? -1 : rows[shown[pos]].n; }
    for (var tries = 0; tries <= total; tries++) {
      var n = rows[shown[pos]].n || 0;
      if (k + by >= 0 && k + by < n) return go(pos, k + by);
      pos = (pos + by + total) % total;
      k = by > 0 ? -1 : (rows[shown[pos]].n || 0);
    }
  }
  function goHash() {
    var id = '';
    try { id = decodeURIComponent(location.hash.slice(1)); } catch (e) { return; }
    var i = byAnchor[id];
    if (i === undefined) return;
    (shown.indexOf(i) < 0 ? reset() : Promise.resolve()).then(function () {
      page = Math.floor(shown.indexOf(i) / PAGE);
      return draw();
    }).then(function () {
      els.forEach(function (r) { if (r) r.classList.remove('target'); });
      els[i].classList.add('target');
      els[i].scrollIntoView();
    });
  }
  function barHeight() { root.style.setProperty('--bar-h', (nav ? nav.offsetHeight : 0) + 'px'); }

  decode($('rt4c-index')).then(function (index) {
    var keys = index.keys;
    rows = index.rows.map(function (v, i) {
      var r = {};
      keys.forEach(function (key, j) { r[key] = v[j]; });
      byAnchor[r.a] = i;
      return r;
    });
    ['h', 'label', 'state', 'meta', 'change', 'sort'].forEach(function (k) {
      if (f[k]) f[k].addEventListener('change', apply);
    });
    var timer = null;
    if (f.q) f.q.addEventListener('input', function () { clearTimeout(timer); timer = setTimeout(apply, 150); });
    $('prev').addEventListener('click', function () { page--; draw(); window.scrollTo(0, 0); });
    $('next').addEventListener('click', function () { page++; draw(); window.scrollTo(0, 0); });
    d.addEventListener('keydown', function (ev) {
      var tag = ev.target.tagName;
      if (tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA' || ev.ctrlKey || ev.metaKey || ev.altKey) return;
      if (ev.key === 'j' || ev.key === 'n') { ev.preventDefault(); step(1); }
      else if (ev.key === 'k' || ev.key === 'p') { ev.preventDefault(); step(-1); }
      else if (ev.key === '/') { ev.preventDefault(); if (f.q) f.q.focus(); }
    });
    window.addEventListener('hashchange', goHash);
    window.addEventListener('resize', barHeight);
    barHeight();
    return apply();
  }).then(function () {
    root.classList.add('ready');
    if (window.performance && performance.mark) performance.mark('rt4chart-ready');
    goHash();
  });
})();
"""


def csp_hash(script: str) -> str:
    """The Content-Security-Policy source that allows exactly this inline script and no other."""
    return "'sha256-" + base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode("ascii") + "'"


#: no request of any kind, no script but the page's own two: a second wall behind the escaping
CSP = (
    f"default-src 'none'; style-src 'unsafe-inline'; img-src data:; "
    f"script-src {csp_hash(HEAD_JS)} {csp_hash(JS)}; base-uri 'none'; form-action 'none'"
)
