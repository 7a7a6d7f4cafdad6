#include "analyzer/report/html_assets.h"

namespace ilint {

const char* const kReportCss = R"ILINTCSS(
tr.group td { background:#f3f4f6; border-top:2px solid var(--line); }
:root { --err:#c62828; --warn:#ef6c00; --note:#1565c0; --ok:#2e7d32; --bg:#fafafa; --fg:#1b1b1b;
        --muted:#666; --line:#e0e0e0; --card:#fff; --hl:#fff3c4; --hl2:#e3f2fd; --mark:#f3e5f5; }
* { box-sizing: border-box; }
body { margin:0; font:14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color:var(--fg); background:var(--bg); }
header { background:#263238; color:#fff; padding:12px 20px; }
header h1 { margin:0; font-size:20px; font-weight:600; }
header .sub { color:#b0bec5; font-size:12px; margin-top:2px; word-break:break-all; }
main { padding:12px 20px 40px; max-width:1500px; }
section { background:var(--card); border:1px solid var(--line); border-radius:6px; padding:12px 16px; margin:12px 0; }
section > h2 { margin:0 0 8px; font-size:16px; }
.cards { display:flex; flex-wrap:wrap; gap:10px; }
.card { border:1px solid var(--line); border-radius:6px; padding:8px 14px; min-width:110px; background:#fff; }
.card .n { font-size:22px; font-weight:600; }
.card .l { color:var(--muted); font-size:12px; }
.card.error .n { color:var(--err); } .card.warning .n { color:var(--warn); } .card.note .n { color:var(--note); }
table { border-collapse:collapse; width:100%; }
th, td { text-align:left; padding:4px 8px; border-bottom:1px solid var(--line); vertical-align:top; overflow-wrap:anywhere; }
th { background:#f5f5f5; font-weight:600; font-size:12px; }
tr.finding { cursor:pointer; }
tr.finding:hover { background:#f1f8e9; }
tr.finding.selected { background:#dcedc8; }
tr.first-launch { background:#fff3e0; font-weight:600; }
.sev { display:inline-block; padding:0 6px; border-radius:3px; color:#fff; font-size:12px; font-weight:600; }
.sev.error { background:var(--err); } .sev.warning { background:var(--warn); } .sev.note { background:var(--note); }
.mono, code, pre { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; font-size:12.5px; }
.muted { color:var(--muted); }
.empty { color:var(--muted); font-style:italic; padding:6px 0; }
.filters { display:flex; gap:14px; flex-wrap:wrap; margin:6px 0 10px; align-items:center; }
.filters label { font-size:12px; color:var(--muted); }
.filters select { margin-left:4px; }
.src { border:1px solid var(--line); border-radius:4px; max-height:460px; overflow:auto; background:#fcfcfc; }
.src .row { display:flex; white-space:pre; }
.src .ln { flex:0 0 56px; text-align:right; padding-right:8px; color:#999; user-select:none; border-right:1px solid var(--line); }
.src .code { padding-left:8px; flex:1 1 auto; }
.src .note { color:#6a1b9a; padding:0 8px; font-style:italic; white-space:nowrap; }
.src .row.primary { background:var(--hl); font-weight:600; }
.src .row.evidence { background:var(--hl2); }
.src .row.mark { background:var(--mark); }
.detail h3 { font-size:14px; margin:14px 0 6px; }
.detail .msg { font-size:15px; margin:4px 0 8px; }
.detail ul.notes { margin:0 0 8px; padding-left:20px; }
.kv { display:grid; grid-template-columns:max-content 1fr; gap:2px 12px; }
.kv .k { color:var(--muted); }
pre.json { background:#f7f7f7; border:1px solid var(--line); padding:8px; max-height:300px; overflow:auto; }
svg text { font: 11px system-ui, sans-serif; }
.tl-wrap { overflow-x:auto; }
.pill { display:inline-block; border:1px solid var(--line); border-radius:10px; padding:0 8px; margin:1px 2px; font-size:12px; }
.pill.pinned { border-color:var(--ok); color:var(--ok); }
.pill.unpinned { border-color:var(--err); color:var(--err); }
a.link { color:#1565c0; cursor:pointer; text-decoration:underline; }
details > summary { cursor:pointer; }
.matrix td.c { text-align:center; cursor:pointer; }
.sev { white-space:nowrap; }
.t-breaks td:nth-child(-n+3), .t-rules td:nth-child(-n+4), .t-findings td:nth-child(1), .t-findings td:nth-child(2),
.t-findings td:nth-child(4), .t-findings td:nth-child(5) { white-space:nowrap; }
.t-breaks td:nth-child(2) code { white-space:pre; }
.t-kernels td:nth-child(n+2):nth-child(-n+7), .t-kernels th { white-space:nowrap; }
.matrix td.c:hover { background:#f1f8e9; }
)ILINTCSS";

const char* const kReportJs = R"ILINTJS(
'use strict';
(function () {
  var D = JSON.parse(document.getElementById('report-data').textContent);
  // Each compile is a data block of its own, after report-data and in the order of
  // D.compile_index (a line per compile: id, kind, device and counts); a block is parsed the first
  // time the page needs that compile. One text of the whole passed the longest string the browser
  // makes on a large capture (analyzer/report/html.cpp).
  var compileIndex = D.compile_index || [];
  var compileBlocks = document.querySelectorAll('script.report-compile');
  var compileCache = [];
  function compileAt(i) {
    if (!compileCache[i]) compileCache[i] = JSON.parse(compileBlocks[i].textContent);
    return compileCache[i];
  }
  var SEVS = ['error', 'warning', 'note'];

  // Every element is built here; strings from the data only ever become text nodes or
  // attribute values set through setAttribute.
  function el(tag, attrs) {
    var e = document.createElement(tag);
    if (attrs) for (var k in attrs) {
      if (!Object.prototype.hasOwnProperty.call(attrs, k) || attrs[k] == null) continue;
      if (k === 'text') e.textContent = String(attrs[k]);
      else if (k === 'onclick' || k === 'onchange') e[k] = attrs[k];
      else e.setAttribute(k, String(attrs[k]));
    }
    for (var i = 2; i < arguments.length; i++) add(e, arguments[i]);
    return e;
  }
  function add(parent, c) {
    if (c == null || c === false) return;
    if (Array.isArray(c)) { c.forEach(function (x) { add(parent, x); }); return; }
    if (typeof c === 'string' || typeof c === 'number') parent.appendChild(document.createTextNode(String(c)));
    else parent.appendChild(c);
  }
  var SVGNS = 'http://www.w3.org/2000/svg';
  function sv(tag, attrs) {
    var e = document.createElementNS(SVGNS, tag);
    if (attrs) for (var k in attrs) {
      if (!Object.prototype.hasOwnProperty.call(attrs, k) || attrs[k] == null) continue;
      if (k === 'text') e.textContent = String(attrs[k]);
      else e.setAttribute(k, String(attrs[k]));
    }
    for (var i = 2; i < arguments.length; i++) if (arguments[i]) e.appendChild(arguments[i]);
    return e;
  }
  function tip(text) { return sv('title', { text: text }); }
  function locText(l) { return l && l.file ? l.file + (l.line ? ':' + l.line : '') : ''; }
  function baseName(p) { var i = String(p || '').lastIndexOf('/'); return i < 0 ? String(p || '') : String(p).slice(i + 1); }
  function sevBadge(s) { return el('span', { 'class': 'sev ' + s, text: s }); }
  function empty(text) { return el('div', { 'class': 'empty', text: text }); }
  function section(title, id) { var s = el('section', { id: id }, el('h2', { text: title })); return s; }
  function table(headers, rows, cls) {
    var t = el('table', cls ? { 'class': cls } : null);
    t.appendChild(el('thead', null, el('tr', null, headers.map(function (h) { return el('th', { text: h }); }))));
    var tb = el('tbody');
    rows.forEach(function (r) { tb.appendChild(r); });
    t.appendChild(tb);
    return t;
  }
  // A small subset of markdown in untrusted text: `code` and **bold**, each part set as textContent
  // (never parsed as HTML); the rest stays text.
  function md(text) {
    var span = el('span', { 'class': 'md' });
    String(text == null ? '' : text).split(/(`[^`\n]+`|\*\*[^*\n]+\*\*)/).forEach(function (part) {
      if (!part) return;
      if (part.length > 2 && part.charAt(0) === '`' && part.charAt(part.length - 1) === '`') span.appendChild(el('code', { text: part.slice(1, -1) }));
      else if (part.length > 4 && part.slice(0, 2) === '**' && part.slice(-2) === '**') span.appendChild(el('b', { text: part.slice(2, -2) }));
      else span.appendChild(document.createTextNode(part));
    });
    return span;
  }
  function tr(cells, attrs) {
    return el('tr', attrs, cells.map(function (c) { return (c && c.nodeType) ? (c.tagName === 'TD' ? c : el('td', null, c)) : el('td', { text: c == null ? '' : c }); }));
  }

  var compilesById = Object.create(null);  // id -> position; no prototype: an id may be any text
  compileIndex.forEach(function (c, i) { compilesById[c.id] = i; });
  function kernelOf(ref) {
    if (!ref) return null;
    var at = compilesById[ref.compile];
    if (at === undefined) return null;
    var c = compileAt(at);
    for (var i = 0; i < c.kernels.length; i++) if (c.kernels[i].name === ref.kernel) return { compile: c, kernel: c.kernels[i] };
    return null;
  }

  var app = document.getElementById('app');

  // ------------------------------------------------------------------ header and overview
  var header = el('header', null, el('h1', { text: D.title || 'inductor-lint report' }),
    el('div', { 'class': 'sub', text: 'inputs: ' + ((D.inputs || []).join(', ') || '(none)') +
      (D.torch_version ? '  \u00b7  torch ' + D.torch_version : '') + '  \u00b7  ' + D.tool.name + ' ' + D.tool.version }));
  app.appendChild(header);
  var main = el('main');
  app.appendChild(main);

  var frames = (D.dynamo && D.dynamo.frames) || [];
  var breaks = (D.dynamo && D.dynamo.graph_breaks) || [];
  var nFrameCompiles = 0, nRecompiles = 0;
  frames.forEach(function (f) { (f.compiles || []).forEach(function (c) { nFrameCompiles++; if (c.attempt > 0) nRecompiles++; }); });
  var nKernels = 0;
  compileIndex.forEach(function (c) { nKernels += c.kernels; });
  var sevCount = { error: 0, warning: 0, note: 0 };
  (D.findings || []).forEach(function (f) { sevCount[f.severity] = (sevCount[f.severity] || 0) + 1; });

  var overview = section('At a glance', 'overview');
  function card(n, label, cls) { return el('div', { 'class': 'card ' + (cls || '') }, el('div', { 'class': 'n', text: n }), el('div', { 'class': 'l', text: label })); }
  overview.appendChild(el('div', { 'class': 'cards' },
    card(sevCount.error, 'errors', 'error'), card(sevCount.warning, 'warnings', 'warning'), card(sevCount.note, 'notes', 'note'),
    card(compileIndex.length, 'Inductor compiles'), card(nKernels, 'kernels'), card(frames.length, 'Dynamo frames'),
    card(breaks.length, 'graph breaks'), card(nRecompiles, 'recompiles'),
    card((D.suppressed || []).length, 'suppressed'), card((D.diagnostics || []).length, 'input diagnostics')));
  main.appendChild(overview);

  // ------------------------------------------------------------------ timeline
  var tl = section('Frames, graph breaks and recompiles', 'timeline');
  main.appendChild(tl);
  (function drawTimeline() {
    if (!frames.length) {
      tl.appendChild(empty(breaks.length ? 'Graph breaks were found but no frame compiles; see the list below.'
        : 'No Dynamo information in the inputs (no TORCH_LOGS text, torchdynamo/debug.log or TORCH_TRACE log was read).'));
    }
    // Columns in the order the compiles happened: by their line in the log they were read from
    // when they all come from one log, else by (frame, attempt).
    var cols = [];
    frames.forEach(function (f, fi) { (f.compiles || []).forEach(function (c) { cols.push({ f: f, fi: fi, c: c }); }); });
    var files = {};
    cols.forEach(function (x) { files[(x.c.log_loc && x.c.log_loc.file) || ''] = 1; });
    var oneLog = Object.keys(files).length === 1 && !files[''];
    cols.sort(function (a, b) {
      if (oneLog) return a.c.log_loc.line - b.c.log_loc.line;
      return (a.f.frame_id - b.f.frame_id) || (a.c.attempt - b.c.attempt);
    });
    // One lane per Frame entry: logs of several runs can repeat frame ids.
    var order = frames.map(function (f, i) { return i; }).sort(function (a, b) { return (frames[a].frame_id - frames[b].frame_id) || (a - b); });
    var lanes = order.map(function (i) { return frames[i]; });
    if (!lanes.length) return;
    var laneIdx = {};
    order.forEach(function (fi, lane) { laneIdx[fi] = lane; });
    var LABEL = 280, COLW = 92, LANEH = 46, TOP = 26, BOXW = 70, BOXH = 26;
    var extra = lanes.some(function (f) { return f.fell_back_to_eager; }) ? 1 : 0;
    var W = LABEL + (cols.length + extra) * COLW + 20, H = TOP + lanes.length * LANEH + 30;
    var s = sv('svg', { width: W, height: H, viewBox: '0 0 ' + W + ' ' + H, role: 'img', 'data-testid': 'timeline' });
    s.appendChild(tip('Dynamo frames (rows) and their compiles in order (columns)'));
    var defs = sv('defs', null, sv('marker', { id: 'arrow', viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto-start-reverse' },
      sv('path', { d: 'M 0 0 L 10 5 L 0 10 z', fill: '#c62828' })));
    s.appendChild(defs);
    s.appendChild(sv('text', { x: LABEL, y: 14, fill: '#666', text: 'compile order \u2192' }));
    lanes.forEach(function (f, i) {
      var y = TOP + i * LANEH;
      s.appendChild(sv('rect', { x: 0, y: y, width: W, height: LANEH, fill: i % 2 ? '#fafafa' : '#ffffff' }));
      var name = 'frame ' + f.frame_id + '  ' + (f.function || '?');
      if (name.length > 44) name = name.slice(0, 43) + '\u2026';
      var t = sv('text', { x: 6, y: y + LANEH / 2 + 4, fill: f.is_resume ? '#6a1b9a' : '#1b1b1b', text: name });
      t.appendChild(tip((f.function || '') + (f.code_loc ? '  ' + locText(f.code_loc) : '') + (f.is_resume ? '  (resume of ' + f.resumed_function + ')' : '')));
      s.appendChild(t);
    });
    var boxAt = {};
    cols.forEach(function (x, ci) {
      var lx = LABEL + ci * COLW, ly = TOP + laneIdx[x.fi] * LANEH + (LANEH - BOXH) / 2;
      // A compile id names the first such compile (a break refers to the run it was logged in).
      if (!boxAt[x.c.compile_id]) boxAt[x.c.compile_id] = { x: lx, y: ly, fi: x.fi };
      var re = x.c.attempt > 0;
      var g = sv('g', { 'class': re ? 'tl-recompile' : 'tl-compile' });
      g.appendChild(sv('rect', { x: lx, y: ly, width: BOXW, height: BOXH, rx: 4, fill: re ? '#ffe0b2' : '#bbdefb', stroke: re ? '#ef6c00' : '#1565c0' }));
      g.appendChild(sv('text', { x: lx + BOXW / 2, y: ly + 17, 'text-anchor': 'middle', text: x.c.compile_id + (re ? ' \u21bb' : '') }));
      var info = 'compile ' + x.c.compile_id + ' of ' + (x.f.function || '?') + '\n' + (x.c.guards || []).length + ' guards' +
        ((x.c.inductor_compiles || []).length ? '\nInductor: ' + x.c.inductor_compiles.join(', ') : '') +
        ((x.c.recompile_reasons || []).length ? '\nrecompiled because: ' + x.c.recompile_reasons.join('; ') : '');
      g.appendChild(tip(info));
      s.appendChild(g);
    });
    // Graph breaks: a red marker after the compile they end, and an arrow to the resume frame.
    breaks.forEach(function (b) {
      var at = boxAt[b.compile_id];
      if (!at) return;
      var mx = at.x + BOXW + 8, my = at.y + BOXH / 2;
      var g = sv('g', { 'class': 'tl-break' });
      g.appendChild(sv('path', { d: 'M ' + mx + ' ' + (my - 7) + ' l 7 7 l -7 7 l -7 -7 z', fill: '#c62828' }));
      g.appendChild(tip('graph break at ' + locText(b.user_loc) + (b.user_code ? '\n' + b.user_code : '') + (b.reason ? '\n' + b.reason : '')));
      s.appendChild(g);
      var fr = frames[at.fi];
      var target = null;
      lanes.forEach(function (f) {
        if (!target && f.is_resume && fr && f.resumed_function === fr.function && f.compiles && f.compiles.length) target = boxAt[f.compiles[0].compile_id];
      });
      if (target) s.appendChild(sv('path', { d: 'M ' + mx + ' ' + (my + 7) + ' C ' + mx + ' ' + (target.y - 10) + ', ' + (target.x - 20) + ' ' + (target.y + BOXH / 2) + ', ' + (target.x - 2) + ' ' + (target.y + BOXH / 2),
        fill: 'none', stroke: '#c62828', 'stroke-dasharray': '4 3', 'marker-end': 'url(#arrow)' }));
    });
    lanes.forEach(function (f, i) {
      if (!f.fell_back_to_eager) return;
      var lx = LABEL + cols.length * COLW, ly = TOP + i * LANEH + (LANEH - BOXH) / 2;
      var g = sv('g', { 'class': 'tl-eager' });
      g.appendChild(sv('rect', { x: lx, y: ly, width: BOXW, height: BOXH, rx: 4, fill: '#eeeeee', stroke: '#757575', 'stroke-dasharray': '3 2' }));
      g.appendChild(sv('text', { x: lx + BOXW / 2, y: ly + 17, 'text-anchor': 'middle', text: 'eager' }));
      g.appendChild(tip('recompile limit (' + D.dynamo.recompile_limit + ') reached: the frame runs eagerly from here'));
      s.appendChild(g);
    });
    var ly = TOP + lanes.length * LANEH + 18;
    [['#bbdefb', '#1565c0', 'compile'], ['#ffe0b2', '#ef6c00', 'recompile'], ['#c62828', '#c62828', 'graph break'], ['#eeeeee', '#757575', 'eager fallback']].forEach(function (L, i) {
      s.appendChild(sv('rect', { x: LABEL + i * 120, y: ly - 10, width: 12, height: 12, fill: L[0], stroke: L[1] }));
      s.appendChild(sv('text', { x: LABEL + i * 120 + 16, y: ly, text: L[2] }));
    });
    tl.appendChild(el('div', { 'class': 'tl-wrap' }, s));
  })();
  if (breaks.length) {
    tl.appendChild(el('h3', { text: 'Graph breaks' }));
    tl.appendChild(table(['compile', 'user code', 'where', 'reason'], breaks.map(function (b) {
      var reason = String(b.reason || ''), cut = reason.indexOf('. ');
      var cell = cut > 0 && reason.length > 160 ? el('details', null, el('summary', { text: reason.slice(0, cut + 1) }), reason.slice(cut + 2)) : reason;
      return tr([b.compile_id, el('code', { text: b.user_code || '' }), baseName(locText(b.user_loc)), cell]);
    }), 't-breaks'));
  }
  var scalars = (D.dynamo && D.dynamo.scalars) || [];
  if (scalars.length) {
    tl.appendChild(el('h3', { text: 'Scalars that cross graph breaks' }));
    tl.appendChild(table(['scalar', 'produced by', 'origin', 'frames', 'how each compile sees it'], scalars.map(function (x) {
      return tr([x.local_name, x.produced_by, el('span', null, locText(x.origin), x.origin_code ? el('div', null, el('code', { text: x.origin_code })) : null),
        x.from_frame + ' \u2192 ' + x.into_frame,
        el('span', null, (x.uses || []).map(function (u) {
          return el('span', { 'class': 'pill ' + (u.pinned_by_guard ? 'pinned' : 'unpinned'), text: u.compile_id + ': ' + u.treatment + (u.value ? ' = ' + u.value : '') + (u.pinned_by_guard ? ' (guarded)' : ' (not guarded)') });
        }))]);
    })));
  }

  // ------------------------------------------------------------------ findings
  // Findings come right after the overview, before the timeline: they are what a reader came for.
  var fs = section('Findings', 'findings');
  main.insertBefore(fs, tl);
  var findings = D.findings || [];
  var filter = { rule: '', severity: '', compile: '' };
  var ruleIds = {};
  findings.forEach(function (f) { ruleIds[f.rule] = 1; });
  (D.rules || []).forEach(function (r) { ruleIds[r.id] = ruleIds[r.id] || 0; });
  var ruleList = Object.keys(ruleIds).sort();

  // By rule and severity.
  var usedRules = ruleList.filter(function (r) { return findings.some(function (f) { return f.rule === r; }); });
  if (usedRules.length) {
    var m = table(['rule'].concat(SEVS).concat(['total']), usedRules.map(function (r) {
      var cells = [el('td', null, el('a', { 'class': 'link', text: r, onclick: function () { setFilter('rule', r); } }))];
      var tot = 0;
      SEVS.forEach(function (s) {
        var n = findings.filter(function (f) { return f.rule === r && f.severity === s; }).length;
        tot += n;
        cells.push(el('td', { 'class': 'c', text: n || '', onclick: function () { setFilter('rule', r); setFilter('severity', s); } }));
      });
      cells.push(el('td', { 'class': 'c', text: tot }));
      return el('tr', null, cells);
    }));
    m.className = 'matrix';
    fs.appendChild(m);
  }

  var selects = {};
  function mkSelect(key, label, values) {
    var s = el('select', { 'data-filter': key, onchange: function () { filter[key] = s.value; renderFindings(); } },
      el('option', { value: '', text: 'all' }), values.map(function (v) { return el('option', { value: v, text: v }); }));
    selects[key] = s;
    return el('label', { text: label + ' ' }, s);
  }
  function setFilter(k, v) { filter[k] = v; selects[k].value = v; renderFindings(); }
  fs.appendChild(el('div', { 'class': 'filters' }, mkSelect('rule', 'rule', ruleList), mkSelect('severity', 'severity', SEVS),
    mkSelect('compile', 'compile', compileIndex.map(function (c) { return c.id; }))));
  var listBox = el('div', { id: 'finding-list' });
  fs.appendChild(listBox);
  var detail = el('div', { 'class': 'detail', id: 'finding-detail', 'data-testid': 'finding-detail' });
  fs.appendChild(detail);

  var selectedRow = null;
  var GROUP_ROWS = 12, expandedGroups = Object.create(null);
  var findingIndex = new Map();  // finding -> its position in the data (rows are grouped, not in order)
  findings.forEach(function (f, i) { findingIndex.set(f, i); });
  function renderFindings() {
    listBox.textContent = '';
    var shown = findings.filter(function (f) {
      return (!filter.rule || f.rule === filter.rule) && (!filter.severity || f.severity === filter.severity) &&
        (!filter.compile || f.compile_id === filter.compile);
    });
    if (!findings.length) { listBox.appendChild(empty('No findings.')); return; }
    if (!shown.length) { listBox.appendChild(empty('No finding matches the filters.')); return; }
    // Grouped by the user's line each finding maps back to (its forward and backward findings
    // together), the groups in the order of their first finding.
    var groups = [], byKey = Object.create(null);
    shown.forEach(function (f) {
      var key = f.user_line ? locText(f.user_line) : f.related && f.related.length ? locText(f.related[0].loc) : '';
      var said = (f.related || []).filter(function (r) { return locText(r.loc) === key; })[0];
      if (!(key in byKey)) { byKey[key] = groups.length; groups.push({ key: key, code: said ? said.message : '', items: [] }); }
      groups[byKey[key]].items.push(f);
    });
    var rows = [];
    groups.forEach(function (g) {
      var label = g.key ? baseName(g.key.split(':')[0]) + (g.key.indexOf(':') >= 0 ? ':' + g.key.split(':').pop() : '') : 'no user line';
      rows.push(el('tr', { 'class': 'group', 'data-testid': 'finding-group' }, el('td', { colspan: 6 },
        el('strong', { 'class': 'mono', text: label }), el('span', { 'class': 'muted', text: '  ' + (g.code || '') + '  \u00b7 ' + g.items.length + ' finding' + (g.items.length === 1 ? '' : 's') }))));
      // A line compiled many times (a model with thousands of compiles) would list one finding per
      // compile: the first few, then one row that opens the rest of its group.
      var open = expandedGroups[g.key] || g.items.length <= GROUP_ROWS;
      (open ? g.items : g.items.slice(0, GROUP_ROWS)).forEach(function (f) { rows.push(findingRow(f)); });
      if (!open)
        rows.push(el('tr', { 'class': 'more', 'data-testid': 'finding-group-more' }, el('td', { colspan: 6 },
          el('a', { 'class': 'link', text: 'show ' + (g.items.length - GROUP_ROWS) + ' more findings at ' + label,
                    onclick: function () { expandedGroups[g.key] = true; renderFindings(); } }))));
    });
    listBox.appendChild(table(['severity', 'rule', 'message', 'user source', 'compile', 'kernel'], rows, 't-findings'));
  }
  function findingRow(f) {
      var user = f.related && f.related.length ? locText(f.related[0].loc) : '';
      var row = tr([sevBadge(f.severity), f.rule, md(f.message), baseName(user.split(':')[0]) + (user.indexOf(':') >= 0 ? ':' + user.split(':').pop() : ''), f.compile_id, el('code', { text: f.kernel || '' })],
        { 'class': 'finding', 'data-testid': 'finding-row', 'data-index': findingIndex.get(f), 'data-rule': f.rule, 'data-severity': f.severity, 'data-has-kernel': f.kernel_ref ? 'true' : 'false' });
      row.onclick = function () {
        if (selectedRow) selectedRow.classList.remove('selected');
        row.classList.add('selected');
        selectedRow = row;
        showFinding(f);
      };
      return row;
  }

  // Source view of a kernel: each line numbered as in its file, with the given lines marked.
  function renderSource(k, marks, testid) {
    var box = el('div', { 'class': 'src mono', 'data-testid': testid || 'kernel-source' });
    var lines = String(k.source || '').split('\n');
    if (lines.length && lines[lines.length - 1] === '') lines.pop();
    var first = k.source_first_line > 0 ? k.source_first_line : 1;
    var primaryRow = null;
    lines.forEach(function (text, i) {
      var n = first + i, mk = marks[n];
      var row = el('div', { 'class': 'row' + (mk ? ' ' + mk.cls : ''), 'data-line': n },
        el('span', { 'class': 'ln', text: n }), el('span', { 'class': 'code', text: text }),
        mk && mk.notes.length ? el('span', { 'class': 'note', text: mk.notes.join('; ') }) : null);
      if (mk && mk.cls === 'primary' && !primaryRow) primaryRow = row;
      box.appendChild(row);
    });
    if (!lines.length) box.appendChild(empty('(the kernel source was not read)'));
    box._primary = primaryRow;
    return box;
  }
  function addMark(marks, line, cls, note) {
    if (!(line > 0)) return;
    var rank = { primary: 3, evidence: 2, mark: 1 };
    var m = marks[line] || (marks[line] = { cls: cls, notes: [] });
    if (rank[cls] > rank[m.cls]) m.cls = cls;
    if (note && m.notes.indexOf(note) < 0) m.notes.push(note);
  }
  function kernelMarks(k) {
    var marks = {};
    (k.marks || []).forEach(function (x) { addMark(marks, x.line, 'mark', x.what); });
    return marks;
  }

  function fxTable(nodes) {
    if (!nodes.length) return empty('No FX nodes are recorded for this kernel.');
    return table(['node', 'op / target', 'dtype', 'shape', 'user code'], nodes.map(function (n) {
      var m = n.meta || {};
      return tr([el('code', { text: n.name }), n.target || n.op, m.dtype || '', (m.shape || []).join(', '),
        n.user_code ? el('span', null, el('code', { text: n.user_code }), n.user_loc ? el('span', { 'class': 'muted', text: '  ' + baseName(n.user_loc.file) + ':' + n.user_loc.line }) : null) : '']);
    }));
  }
  function nodesOf(kc) {
    var k = kc.kernel, c = kc.compile;
    if (k.fragment && k.fragment.length) return k.fragment;
    var want = {};
    (k.fx_nodes || []).concat(k.source_nodes || []).forEach(function (n) { want[n] = 1; });
    return (c.fx || []).filter(function (n) { return want[n.name]; });
  }

  // The rows a confirmation answer is read by. Graph mode: per output (the largest over the seeds),
  // the error of eager and of compiled against float64, side by side; an integer output compared
  // exactly is a line of text. Script mode: per call of the compiled function, how far compiled and
  // aot_eager left eager. Anything else the answer holds is in its JSON, not the chart.
  function confirmationRows(conf) {
    var rows = [], notes = [];
    if (conf.mode === 'graph' && Array.isArray(conf.seeds)) {
      var outs = {};
      conf.seeds.forEach(function (seed) {
        (seed.outputs || []).forEach(function (o) {
          var key = (o.role || 'output') + ' ' + o.index;
          if (o.exact) {
            if (!o.agree) notes.push(key + ' (' + o.dtype + (o.compiled_dtype ? ', compiled ' + o.compiled_dtype : '') + '): ' +
              (o.mismatched || 0) + ' of ' + (o.numel || 0) + ' elements differ, seed ' + seed.seed);
            return;
          }
          var e = o.eager_vs_fp64 && o.eager_vs_fp64.rmse, c = o.compiled_vs_fp64 && o.compiled_vs_fp64.rmse;
          if (typeof e !== 'number' || typeof c !== 'number') return;
          var r = outs[key] || (outs[key] = { label: key + ' ' + (o.dtype || '') + (o.shape ? ' [' + o.shape.join(', ') + ']' : ''), eager: 0, compiled: 0 });
          r.eager = Math.max(r.eager, e);
          r.compiled = Math.max(r.compiled, c);
        });
      });
      Object.keys(outs).forEach(function (k) {
        rows.push({ label: outs[k].label + ': eager vs fp64', value: outs[k].eager, color: '#ef6c00' });
        rows.push({ label: 'compiled vs fp64', value: outs[k].compiled, color: '#1565c0' });
      });
    } else if (conf.mode === 'script' && Array.isArray(conf.calls)) {
      conf.calls.forEach(function (call) {
        var name = 'call ' + call.call + (call.fn ? ' ' + call.fn : '');
        if (call.inductor && typeof call.inductor.max_abs === 'number')
          rows.push({ label: name + ': compiled vs eager', value: call.inductor.max_abs, color: '#1565c0' });
        if (call.aot_eager && typeof call.aot_eager.max_abs === 'number')
          rows.push({ label: 'aot_eager vs eager', value: call.aot_eager.max_abs, color: '#546e7a' });
      });
    }
    return { rows: rows, notes: notes };
  }
  function errorChart(conf) {
    var got = confirmationRows(conf), vals = got.rows;
    if (!vals.length && !got.notes.length) return null;
    var box = el('div', { 'data-testid': 'confirmation' });
    got.notes.forEach(function (n) { box.appendChild(el('div', { 'class': 'mono', 'data-testid': 'confirmation-exact', text: n })); });
    if (!vals.length) return box;
    var pos = vals.filter(function (v) { return v.value > 0; }).map(function (v) { return v.value; });
    var maxV = Math.max.apply(null, pos.concat([0]));
    var minV = pos.length ? Math.min.apply(null, pos) : 0;
    var useLog = pos.length > 1 && maxV / minV > 100;
    var LBL = 300, BW = 420, RH = 22, W = LBL + BW + 110, H = vals.length * RH + 24;
    var s = sv('svg', { width: W, height: H, role: 'img', 'data-testid': 'confirmation-chart' });
    s.appendChild(tip('confirmation: eager and compiled against float64 (graph) or against eager per call (script)' + (useLog ? ' (log scale)' : '')));
    var lo = useLog ? Math.floor(Math.log10(minV)) - 1 : 0;
    function scale(v) {
      if (v <= 0 || maxV <= 0) return 0;
      if (useLog) return Math.max(0, BW * (Math.log10(v) - lo) / (Math.log10(maxV) - lo));
      return BW * v / maxV;
    }
    vals.forEach(function (v, i) {
      var y = 4 + i * RH, w = Math.max(scale(v.value), v.value > 0 ? 2 : 0);
      s.appendChild(sv('text', { x: LBL - 6, y: y + 14, 'text-anchor': 'end', text: v.label }));
      s.appendChild(sv('rect', { x: LBL, y: y + 3, width: w, height: RH - 8, fill: v.color, 'data-testid': 'confirmation-bar' }));
      s.appendChild(sv('text', { x: LBL + w + 6, y: y + 14, fill: '#333', text: v.value.toExponential(2) }));
    });
    s.appendChild(sv('text', { x: LBL, y: H - 4, fill: '#666', text: useLog ? 'log scale' : 'linear scale' }));
    box.appendChild(s);
    return box;
  }

  function showFinding(f) {
    detail.textContent = '';
    detail.appendChild(el('h3', null, sevBadge(f.severity), ' ', el('span', { text: f.rule })));
    detail.appendChild(el('div', { 'class': 'msg' }, md(f.message)));
    if ((f.notes || []).length) {
      var notes = el('ul', { 'class': 'notes', 'data-testid': 'finding-notes' });
      f.notes.forEach(function (n) { notes.appendChild(el('li', null, md(n))); });
      detail.appendChild(notes);
    }
    var kv = el('div', { 'class': 'kv' });
    function row(k, v) { if (v) { kv.appendChild(el('div', { 'class': 'k', text: k })); kv.appendChild(el('div', { 'class': 'mono', text: v })); } }
    row('generated code', locText(f.location));
    row('compile', f.compile_id);
    row('kernel', f.kernel);
    row('fingerprint', f.fingerprint);
    if (f.suppressed_reason) row('suppressed', f.suppressed_reason + ' (' + locText(f.suppressed_by) + ')');
    detail.appendChild(kv);
    if (f.fix) { detail.appendChild(el('h3', { text: 'Fix' })); detail.appendChild(el('div', null, md(f.fix))); }

    detail.appendChild(el('h3', { text: 'User source' }));
    if (f.related && f.related.length) {
      f.related.forEach(function (r) {
        var key = r.loc ? r.loc.file + ':' + r.loc.line : '';
        var ul = D.user_lines && D.user_lines[key];
        detail.appendChild(el('div', { 'data-testid': 'user-source' }, el('span', { 'class': 'mono', text: locText(r.loc) }), r.message ? el('span', { 'class': 'muted', text: '  ' + r.message }) : null,
          ul && ul.text !== undefined ? el('pre', { 'class': 'json', text: r.loc.line + ' | ' + ul.text }) : null,
          ul && ul.not_quoted ? el('div', { 'class': 'muted', text: 'file not quoted: ' + ul.not_quoted }) : null));
      });
    } else detail.appendChild(empty('No user source location is known for this finding.'));

    detail.appendChild(el('h3', { text: 'Generated kernel' }));
    var kc = kernelOf(f.kernel_ref);
    var srcBox = null;
    if (kc) {
      var marks = kernelMarks(kc.kernel);
      var sameFile = function (file) { return !file || file === (f.location && f.location.file) || file === kc.compile.output_code; };
      (f.evidence_lines || []).forEach(function (e) { if (sameFile(e.file)) addMark(marks, e.line, 'evidence', e.what); });
      if (f.location && sameFile(f.location.file)) addMark(marks, f.location.line, 'primary', 'finding');
      detail.appendChild(el('div', { 'class': 'muted', text: kc.kernel.name + '  (' + kc.kernel.backend + ' ' + kc.kernel.kind + ', ' + kc.kernel.source_lines + ' lines, in ' + kc.compile.id + ')' }));
      srcBox = renderSource(kc.kernel, marks, 'kernel-source');
      detail.appendChild(srcBox);
      detail.appendChild(el('h3', { text: 'FX nodes it computes' }));
      detail.appendChild(fxTable(nodesOf(kc)));
    } else {
      detail.appendChild(empty(f.kernel ? 'The kernel ' + f.kernel + ' was not found in the model.' : 'This finding is not about one generated kernel.'));
    }

    detail.appendChild(el('h3', { text: 'Guards' }));
    if ((f.scalars || []).length) {
      f.scalars.forEach(function (x) {
        detail.appendChild(el('div', null, el('code', { text: x.local_name }), ' from ', el('code', { text: x.produced_by || '?' }), ' at ' + locText(x.origin) + '  ',
          (x.uses || []).map(function (u) {
            return el('span', { 'class': 'pill ' + (u.pinned_by_guard ? 'pinned' : 'unpinned'), text: u.compile_id + ': ' + u.treatment + (u.value ? ' = ' + u.value : '') + (u.pinned_by_guard ? ' pinned by ' + (u.guards || []).join(' and ') : ' not pinned by a guard') });
          })));
      });
    }
    if ((f.guards || []).length) {
      var gt = table(['frame compile', 'kind', 'guard', 'user code'], f.guards.map(function (g) {
        return tr([g.frame_compile, g.kind, el('code', { text: g.expr || g.source }), g.comment ? el('code', { text: g.comment }) : '']);
      }));
      detail.appendChild(el('details', null, el('summary', { text: f.guards.length + ' guards of Dynamo compile ' + (f.frame_compiles || []).join(', ') }), gt));
    } else if (!(f.scalars || []).length) {
      detail.appendChild(empty('No guard information is linked to this finding' + (frames.length ? '.' : ' (no Dynamo logs were read).')));
    }

    var fl = (D.localizations || []).filter(function (l) { return l.compile === f.compile_id; })[0];
    if (fl) {
      detail.appendChild(el('h3', { text: 'Localization' }));
      detail.appendChild(el('div', null, el('a', { 'class': 'link', href: '#localize-' + fl.compile, 'data-testid': 'localize-link', text: fl.compile + ': ' + fl.verdict }), fl.detail ? el('span', { 'class': 'muted', text: '  ' + fl.detail }) : null));
    }
    if (f.confirmation != null) {
      detail.appendChild(el('h3', { text: 'Confirmation' }));
      if (f.confirmation.verdict) detail.appendChild(el('div', { 'data-testid': 'confirmation-verdict', text: 'verdict: ' + f.confirmation.verdict + (f.confirmation.summary ? ' - ' + f.confirmation.summary : '') }));
      var ch = errorChart(f.confirmation);
      if (ch) detail.appendChild(ch);
    }
    detail.appendChild(el('h3', { text: 'Evidence' }));
    detail.appendChild(el('pre', { 'class': 'json', text: JSON.stringify(f.evidence, null, 2) }));
    if (srcBox && srcBox._primary) srcBox.scrollTop = Math.max(0, srcBox._primary.offsetTop - srcBox.clientHeight / 2);
  }
  renderFindings();

  // ------------------------------------------------------------------ localization
  // One block per compile `localize` ran on: the RMSE against float64 of eager and of compiled for the
  // worst buffer each launch writes, along the launch order (log scale), the first divergent launch
  // (else the first that departs from eager) marked, and the table of launches.
  var locs = D.localizations || [];
  var locOf = Object.create(null);
  function worstWrite(row) {
    var best = null;
    (row.writes || []).forEach(function (w) {
      if (w.compiled_vs_fp64 && (!best || w.compiled_vs_fp64.rmse > best.compiled_vs_fp64.rmse)) best = w;
    });
    return best;
  }
  function localizeChart(loc, first) {
    var rows = (loc.launches || []).map(function (r) { return { r: r, w: worstWrite(r) }; }).filter(function (x) { return x.w; });
    if (!rows.length) return null;
    var vals = [];
    rows.forEach(function (x) { vals.push(x.w.eager_vs_fp64.rmse, x.w.compiled_vs_fp64.rmse); });
    var pos = vals.filter(function (v) { return v > 0; });
    var lo = pos.length ? Math.floor(Math.log10(Math.min.apply(null, pos))) : -12, hi = pos.length ? Math.ceil(Math.log10(Math.max.apply(null, pos))) : 0;
    if (hi <= lo) hi = lo + 1;
    var L = 56, R = 16, T = 12, B = 20, PW = Math.max(240, Math.min(900, rows.length * 28)), PH = 180, W = L + PW + R, H = T + PH + B;
    var s = sv('svg', { width: W, height: H, role: 'img', 'data-testid': 'localize-chart' });
    s.appendChild(tip('RMSE against float64 per launch: eager (orange) and compiled (blue), log scale'));
    function x(i) { return L + (rows.length === 1 ? PW / 2 : PW * i / (rows.length - 1)); }
    function y(v) { var l = v > 0 ? Math.log10(v) : lo; return T + PH - PH * (Math.max(lo, l) - lo) / (hi - lo); }
    for (var e = lo; e <= hi; e++) {
      s.appendChild(sv('line', { x1: L, x2: L + PW, y1: y(Math.pow(10, e)), y2: y(Math.pow(10, e)), stroke: '#eee' }));
      s.appendChild(sv('text', { x: L - 6, y: y(Math.pow(10, e)) + 4, 'text-anchor': 'end', fill: '#666', text: '1e' + e }));
    }
    rows.forEach(function (p, i) {
      if (p.r.order === first) {
        s.appendChild(sv('line', { x1: x(i), x2: x(i), y1: T, y2: T + PH, stroke: loc.first_divergent_recomputed != null ? '#c62828' : '#ef6c00', 'stroke-dasharray': '4 3', 'data-testid': 'localize-first' }));
      }
      s.appendChild(sv('text', { x: x(i), y: T + PH + 14, 'text-anchor': 'middle', fill: '#666', text: String(p.r.order) }));
    });
    [['eager_vs_fp64', '#ef6c00'], ['compiled_vs_fp64', '#1565c0']].forEach(function (k) {
      var pts = rows.map(function (p, i) { return x(i) + ',' + y(p.w[k[0]].rmse); }).join(' ');
      s.appendChild(sv('polyline', { points: pts, fill: 'none', stroke: k[1], 'stroke-width': 2 }));
      rows.forEach(function (p, i) {
        var c = sv('circle', { cx: x(i), cy: y(p.w[k[0]].rmse), r: 3, fill: k[1] });
        c.appendChild(tip('launch ' + p.r.order + ' ' + p.r.kernel + ': ' + k[0].replace('_vs_fp64', '') + ' RMSE vs float64 ' + p.w[k[0]].rmse.toExponential(2)));
        s.appendChild(c);
      });
    });
    return s;
  }
  if (locs.length) {
    var ls = section('Localization', 'localization');
    locs.forEach(function (loc) {
      locOf[loc.compile] = loc;
      var first = loc.first_divergent_recomputed != null ? loc.first_divergent_recomputed : loc.first_departure_recomputed;
      var box = el('div', { id: 'localize-' + loc.compile, 'data-testid': 'localization', style: 'margin:8px 0 18px' });
      box.appendChild(el('h3', { text: loc.compile + ': ' + loc.verdict }));
      if (loc.detail) box.appendChild(el('div', { 'class': 'muted', text: loc.detail }));
      var ch = localizeChart(loc, first);
      if (ch) {
        box.appendChild(ch);
        box.appendChild(el('div', { 'class': 'muted' }, 'RMSE against float64 along the launch order (log scale): ',
          el('span', { style: 'color:#ef6c00', text: 'eager' }), ', ', el('span', { style: 'color:#1565c0', text: 'compiled' }),
          '; dashed: the first ' + (loc.first_divergent_recomputed != null ? 'divergent' : 'departing') + ' launch.'));
      }
      var launchTable = table(['launch', 'kernel', 'verdict', 'compiled vs fp64', 'eager vs fp64', 'FX nodes', 'user lines', 'findings'], (loc.launches || []).map(function (r) {
        var w = worstWrite(r), unobs = (r.writes || []).filter(function (x) { return x.verdict === 'unobserved'; });
        var nodes = r.fx_nodes || [];
        var verdict = el('span', unobs.length ? { title: unobs.map(function (x) { return (x.buffer || '?') + ': ' + (x.reason || ''); }).join('\n') } : null,
          r.verdict_recomputed + (r.verdict_mismatch ? ' (tool said ' + r.verdict + ')' : '') + (unobs.length ? ' \u00b7 ' + unobs.length + ' unobserved' : ''));
        return tr([String(r.order), el('code', { text: r.kernel }), verdict,
          w ? w.compiled_vs_fp64.rmse.toExponential(2) : '', w ? w.eager_vs_fp64.rmse.toExponential(2) : '',
          nodes.slice(0, 4).join(', ') + (nodes.length > 4 ? ' +' + (nodes.length - 4) : ''),
          (r.user_lines || []).slice(0, 2).map(function (u) { return baseName(u.file) + ':' + u.line + ' ' + u.code; }).join('; '),
          (r.findings || []).map(function (f) { return f.rule; }).join(', ')], r.order === first ? { 'class': 'first-launch' } : null);
      }), 't-localize');
      // A long compile's launches stay folded: the chart and the marked launch say where to look.
      var n = (loc.launches || []).length;
      if (n) box.appendChild(n <= 12 ? launchTable : el('details', null, el('summary', { text: n + ' launches' }), launchTable));
      ls.appendChild(box);
    });
    main.appendChild(ls);
  }

  var sup = D.suppressed || [];
  if (sup.length) {
    var ss = section('Suppressed findings', 'suppressed');
    ss.appendChild(table(['severity', 'rule', 'message', 'reason', 'suppressed by'], sup.map(function (f) {
      return tr([sevBadge(f.severity), f.rule, f.message, f.suppressed_reason, locText(f.suppressed_by)]);
    })));
    main.appendChild(ss);
  }

  // ------------------------------------------------------------------ compiles and kernels
  var cs = section('Compiles and kernels', 'compiles');
  main.appendChild(cs);
  cs.appendChild(el('p', { 'class': 'muted', 'data-testid': 'compile-ids' },
    'Compile ids: ', el('code', { text: 'model__0_forward_1.0' }),
    ' is the folder TORCH_COMPILE_DEBUG wrote for one Inductor compile (AOT model 0, its forward graph, graph 1.0); ',
    el('code', { text: '2/1' }), ' or ', el('code', { text: '2/1_1' }),
    ' is Dynamo\'s id of a frame compile (frame 2 in the order Dynamo met them, a graph break starting another; its compile 1, 0 being the first and each recompile the next; _1 a restarted analysis); ',
    el('code', { text: 'trace_0_0_inference' }),
    ' is a compile read from a TORCH_TRACE log alone (session, compile, graph). Each compile links to its raw files.'));
  var kview = el('div', { id: 'kernel-view' });
  if (!compileIndex.length) cs.appendChild(empty('No Inductor compile was read from the inputs.'));
  var findingsPerCompile = Object.create(null);
  findings.forEach(function (f) { findingsPerCompile[f.compile_id] = (findingsPerCompile[f.compile_id] || 0) + 1; });
  // Up to this many compiles, every kernel table is built at once; past it each compile is a
  // closed <details> whose table is built (and whose data is parsed) when it is opened.
  var EAGER_COMPILES = 200;
  compileIndex.forEach(function (ci, i) {
    var nf = findingsPerCompile[ci.id] || 0;
    var links = Object.keys(ci.files || {}).map(function (name) {
      return el('a', { 'class': 'link mono', 'data-testid': 'raw-file', text: name,
                       href: 'file://' + encodeURI(ci.files[name]).replace(/#/g, '%23').replace(/\?/g, '%3F') });
    });
    var head = el('div', null, el('strong', { text: ci.id }), el('span', { 'class': 'muted', text: '  ' + [ci.graph_kind, ci.device, ci.kernels + ' kernels', ci.buffers + ' buffers', ci.launches + ' launches', ci.fx + ' FX nodes', nf + ' findings'].filter(Boolean).join(' \u00b7 ') + '  ' }),
      links.map(function (a, j) { return j ? [' \u00b7 ', a] : a; }));
    function kernelTable() {
      var c = compileAt(i);
      return c.kernels.length ? table(['kernel', 'backend', 'kind', 'lines', 'bytes', 'params', 'loads/stores', 'sizes', 'reductions'], c.kernels.map(function (k) {
        var numels = Object.keys(k.numels || {}).map(function (n) { return n + '=' + k.numels[n]; }).join(' ');
        var reds = (k.reductions || []).map(function (r) { return (r.scan ? 'scan ' : '') + r.combine + ' ' + r.dtype + (r.length >= 0 ? ' \u00d7' + r.length : r.length_expr ? ' \u00d7' + r.length_expr : ''); }).join(', ');
        var link = el('a', { 'class': 'link mono', 'data-testid': 'kernel-link', text: k.name, onclick: function () {
          kview.textContent = '';
          kview.appendChild(el('h3', { text: k.name + '  (' + c.id + ')' }));
          kview.appendChild(renderSource(k, kernelMarks(k), 'kernel-view-source'));
          kview.appendChild(el('h3', { text: 'FX nodes it computes' }));
          kview.appendChild(fxTable(nodesOf({ compile: c, kernel: k })));
          kview.scrollIntoView();
        } });
        return tr([link, k.backend, k.kind, k.source_lines, k.source_bytes, k.params.length, k.loads + '/' + k.stores, numels, reds]);
      }), 't-kernels') : empty('no generated kernels');
    }
    if (compileIndex.length <= EAGER_COMPILES) {
      cs.appendChild(el('div', { style: 'margin:8px 0 14px' }, head, kernelTable()));
      return;
    }
    var box = el('details', { 'data-testid': 'compile-details', style: 'margin:4px 0' }, el('summary', null, head));
    box.addEventListener('toggle', function () {
      if (box.open && !box._built) { box._built = true; box.appendChild(kernelTable()); }
    });
    cs.appendChild(box);
  });
  cs.appendChild(kview);

  // ------------------------------------------------------------------ coverage
  var cv = section('What was read', 'coverage');
  var cov = D.coverage || { compiles: [] };
  if ((cov.compiles || []).length) {
    cv.appendChild(el('p', { text: cov.complete_compiles + ' of ' + cov.compiles.length +
      ' compile(s) read completely; Dynamo logs read: ' + cov.dynamo_logs + '. A rule listed as undecided could not look at part of that compile, so no finding there proves nothing.' }));
    cv.appendChild(table(['compile', 'kernels fully read', 'kernels partly or not read', 'FX graph', 'Dynamo log', 'undecided rules'],
      cov.compiles.map(function (c) {
        return tr([c.compile, c.kernels_fully_read + ' / ' + c.kernels,
          (c.incomplete_kernels || []).map(function (k) {
            return k.kernel + (k.body_read ? ' (partly: ' : ' (not read: ') + (k.unmodeled_forms || []).concat(k.parse_errors || []).join(', ') + ')';
          }).join('; '),
          c.fx_graph ? 'read' : 'missing', c.logs_joined ? 'joined' : 'not joined', (c.undecided_rules || []).join(', ')]);
      }), 't-coverage'));
  } else cv.appendChild(empty('No compile was read.'));
  main.appendChild(cv);

  // ------------------------------------------------------------------ input diagnostics, rules
  var dg = section('Input diagnostics', 'diagnostics');
  var diags = D.diagnostics || [];
  if (diags.length) dg.appendChild(table(['level', 'code', 'message', 'where'], diags.map(function (d) { return tr([d.level, d.code, d.message, locText(d.loc)]); })));
  else dg.appendChild(empty('The inputs were read without problems.'));
  main.appendChild(dg);

  var rs = section('Rules', 'rules');
  if ((D.rules || []).length) rs.appendChild(table(['rule', 'severity', 'precision', 'tags', 'description'], D.rules.map(function (r) {
    return tr([el('code', { text: r.id }), r.severity, r.precision, (r.tags || []).join(', '), r.description]);
  }), 't-rules'));
  else rs.appendChild(empty('No rule is registered.'));
  main.appendChild(rs);
  document.body.setAttribute('data-rendered', 'true');
})();
)ILINTJS";

}  // namespace ilint
