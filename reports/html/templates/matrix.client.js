// The HTML matrix's behaviour: filters and the per-cell details panel. Data arrives as JSON
// and reaches the page only through textContent and attribute setters, never innerHTML.
(function () {
  'use strict';
  // The details JSON is parsed when first needed (a tooltip, a click): on a large page it is most
  // of the file, and parsing it at load delayed the page for what most visits never open.
  var data = null;
  function readData() {
    if (!data) data = JSON.parse(document.getElementById('cell-data').textContent);
    return data;
  }
  var table = document.getElementById('matrix');
  var panel = document.getElementById('details');
  var body = document.getElementById('details-body');
  var rows = Array.prototype.slice.call(table.querySelectorAll('tbody tr[data-q]'));
  var groups = Array.prototype.slice.call(table.querySelectorAll('tbody'));
  var fLayer = document.getElementById('f-layer');
  var fStatus = document.getElementById('f-status');
  var fTarget = document.getElementById('f-target');
  var fText = document.getElementById('f-text');
  var count = document.getElementById('f-count');
  var rowData = document.getElementById('row-data');
  var lazy = null;

  function el(tag, text, cls) {
    var node = document.createElement(tag);
    if (text !== undefined && text !== null) node.textContent = String(text);
    if (cls) node.className = cls;
    return node;
  }
  function add(parent, child) { parent.appendChild(child); return child; }

  // The target and status filters as applied to one header or matrix cell (also to each cell a
  // large page draws later): hidden when of another target, dimmed when of another status.
  var shownTarget = '', shownStatus = '';
  function styleCell(cell) {
    var m = /(?:^| )t(\d+)(?: |$)/.exec(cell.className);
    var hidden = !!m && shownTarget !== '' && m[1] !== shownTarget;
    if (m) cell.classList.toggle('hide', hidden);
    if (cell.tagName !== 'TD' && cell.tagName !== 'td') return false;
    var match = !hidden && cell.getAttribute('data-s') === shownStatus;
    cell.classList.toggle('dim', shownStatus !== '' && !match);
    return match;
  }

  function applyFilters() {
    var layer = fLayer.value;
    var text = fText.value.trim().toLowerCase();
    var shown = 0;
    shownStatus = fStatus.value;
    shownTarget = fTarget.value;
    var targetCells = table.querySelectorAll('th[class*="t"], td');
    for (var k = 0; k < targetCells.length; k++) styleCell(targetCells[k]);
    rows.forEach(function (row) {
      var visible = (!layer || row.getAttribute('data-layer') === layer) && (!text || row.getAttribute('data-q').indexOf(text) >= 0);
      if (visible && shownStatus) {
        var any = false;
        var tds = row.querySelectorAll('td');
        for (var i = 0; i < tds.length; i++) if (tds[i].getAttribute('data-s') === shownStatus && !tds[i].classList.contains('hide')) any = true;
        // A large page's rows may not be drawn: their data answers instead of their cells.
        visible = lazy ? lazy.hasStatus(Number(row.getAttribute('data-r')), shownStatus, shownTarget) : any;
      }
      row.classList.toggle('hide', !visible);
      if (visible) shown++;
    });
    groups.forEach(function (g) {
      g.classList.toggle('hide', !g.querySelector('tr[data-q]:not(.hide)'));
    });
    count.textContent = shown + ' of ' + rows.length + ' cases';
  }

  function pre(text) { return el('pre', text === '' ? '(empty)' : text); }
  function headerList(headers) {
    return pre(headers.map(function (h) { return h[0] + ': ' + h[1]; }).join('\n'));
  }

  // A cell's row holds indexes: into caseIds/targets/versions, into parts for its command (with
  // its case, target and version as markers) and its tooltip sentence, and an evidence reference
  // to the list of its other parts (see html-details.ts, CELL_ROW and CELL_PARTS). A reference
  // -1-e is evidence entry e: every distinct reason, verdict list, check list, transcript, … is
  // stored once, in gzip blocks that are unpacked when a cell's details first need one.
  function restoreRepro(marked, c, t, v) {
    return marked.split('\u0001v').join(v).split('\u0001t').join(t).split('\u0001c').join(c);
  }
  function expand(index) {
    var data = readData();
    var r = data.cells[index];
    if (!r) return null;
    var c = data.caseIds[r[0]], t = data.targets[r[1]], v = data.versions[r[2]];
    return { c: c, t: t, v: v, s: r[3], ms: r[4], repro: restoreRepro(data.parts[r[5]], c, t, v), mismatch: data.parts[r[6]], details: r[7] };
  }
  var blocks = {};
  // One block's entries: base64 → bytes → gunzip (the browser's own DecompressionStream) → JSON.
  function unpackBlock(b) {
    if (!blocks[b]) {
      var text = atob(readData().evidence.blocks[b]);
      var bytes = new Uint8Array(text.length);
      for (var i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
      var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
      blocks[b] = new Response(stream).text().then(JSON.parse);
    }
    return blocks[b];
  }
  function loadRef(ref) {
    if (ref >= 0) return Promise.resolve(readData().parts[ref]);
    // Entry e is at e % 65536 in block floor(e / 65536) (html-details.ts BLOCK_REF_SPAN).
    var entry = -1 - ref;
    return unpackBlock(Math.floor(entry / 65536)).then(function (entries) { return entries[entry % 65536]; });
  }
  var PARTS = ['reason', 'expected', 'actual', 'checks', 'schema', 'url', 'transcript', 'run', 'observed'];
  // The cell's parts by name (html-details.ts CELL_PARTS), once their blocks are unpacked.
  function loadDetails(ref) {
    return loadRef(ref).then(function (list) { return Promise.all(list.map(loadRef)); }).then(function (values) {
      var out = {};
      PARTS.forEach(function (name, i) { out[name] = values[i]; });
      return out;
    });
  }

  var WORDS = { pass: 'PASS', fail: 'FAIL', non_strict: 'NON-STRICT', skip: 'SKIP', error: 'ERROR', xfail: 'XFAIL', xpass: 'XPASS' };
  // Tooltips are made on first hover or focus rather than carried by every cell.
  function addTooltip(td) {
    if (td.getAttribute('title')) return;
    var data = readData();
    var r = data.cells[Number(td.getAttribute('data-i'))];
    var mark = td.getAttribute('data-mark');
    var mismatch = r ? data.parts[r[6]] : '';
    td.setAttribute('title', r ? data.targets[r[1]] + ' · ' + data.versions[r[2]] + ': ' + (WORDS[r[3]] || r[3]) + (mark ? ' (' + mark + ')' : '') + (mismatch ? ' — ' + mismatch : '') : 'not run for this version');
  }

  var showing = 0;
  function showDetails(index) {
    var cell = expand(index);
    if (!cell) return;
    var shown = ++showing;
    body.removeAttribute('data-ready');
    var info = readData().cases[cell.c] || { title: cell.c, description: '', expectation: '', spec: [] };
    body.textContent = '';
    add(body, el('h2', info.title));
    var meta = add(body, el('p'));
    add(meta, el('code', cell.c));
    add(meta, document.createTextNode(' · ' + cell.t + ' · ' + cell.v + ' · ' + cell.ms + ' ms '));
    add(meta, el('span', cell.s.replace('_', '-').toUpperCase(), 'cellword s-' + cell.s));
    if (cell.mismatch) add(body, el('p', cell.mismatch.charAt(0).toUpperCase() + cell.mismatch.slice(1) + '.', 'mismatch'));
    if (info.description) add(body, el('p', info.description));
    if (info.expectation) add(body, el('p', 'Expectation: ' + info.expectation));
    if (info.policy) add(body, el('p', 'Policy: ' + info.policy));
    if (info.spec && info.spec.length) {
      var specs = add(body, el('ul'));
      info.spec.forEach(function (s) {
        var li = add(specs, el('li'));
        if (s.url) {
          var a = add(li, el('a', s.ref));
          a.setAttribute('href', s.url);
          a.setAttribute('rel', 'noopener noreferrer');
          a.setAttribute('target', '_blank');
          if (s.title) a.setAttribute('title', s.title);
        } else {
          li.textContent = s.ref;
        }
        if (s.title) add(li, el('span', ' — ' + s.title, 'muted'));
        if (s.version) add(li, document.createTextNode(' (' + s.version + ')'));
      });
    }

    // Everything below comes from the evidence blocks: filled in once unpacked.
    var evidence = add(body, el('div', null, 'evidence'));
    add(evidence, el('p', 'Unpacking the checks and the wire transcript…', 'muted'));
    panel.hidden = false;
    panel.focus();
    // DecompressionStream: Chrome 80, Firefox 113, Safari 16.4 and later; without it the panel says where the evidence is.
    (window.DecompressionStream ? loadDetails(cell.details) : Promise.reject(new Error('this browser has no DecompressionStream'))).then(function (found) {
      if (shown !== showing) return;
      evidence.textContent = '';
      showEvidence(cell, found, evidence);
      body.setAttribute('data-ready', '');
    }, function (error) {
      if (shown !== showing) return;
      evidence.textContent = '';
      add(evidence, el('p', 'The checks, schema results, wire transcript and target output of this cell could not be unpacked here (' + error.message + '). They are in results.full.json.gz beside this page (zcat it), and in results.tap.', 'bad'));
      showReproduce(cell, evidence);
      body.setAttribute('data-ready', '');
    });
  }

  function showEvidence(cell, found, body) {
    Object.keys(found).forEach(function (name) { cell[name] = found[name]; });
    function section(title) { add(body, el('h3', title)); }
    if (cell.reason && cell.reason !== cell.mismatch) add(body, el('p', 'Reason: ' + cell.reason));

    section('Expected vs actual');
    var outcomes = add(body, el('table'));
    var head = add(outcomes, el('tr'));
    // A built-in client adapter's cell also shows what the library itself did with each call.
    var observed = cell.observed;
    ['Exchange', 'Expected', 'Actual'].concat(observed ? ['What the library did (before mapping)'] : []).forEach(function (h) { add(head, el('th', h)); });
    for (var i = 0; i < Math.max(cell.expected.length, cell.actual.length); i++) {
      var tr = add(outcomes, el('tr'));
      add(tr, el('td', '#' + (i + 1)));
      add(tr, el('td', cell.expected[i] === undefined ? '—' : cell.expected[i], 'v'));
      add(tr, el('td', cell.actual[i] === undefined ? '—' : cell.actual[i], 'v'));
      if (observed) add(tr, el('td', observed.calls[i] === undefined ? '—' : observed.calls[i], 'v'));
    }
    if (observed) add(body, el('p', 'tools/call requests the library sent: ' + observed.sent));

    section('Checks (' + cell.checks.length + ')');
    if (cell.checks.length) {
      var checks = add(body, el('table'));
      var ch = add(checks, el('tr'));
      ['Result', 'Level', 'Check', 'Message', 'Expected', 'Actual'].forEach(function (h) { add(ch, el('th', h)); });
      cell.checks.forEach(function (c) {
        var r = add(checks, el('tr'));
        add(r, el('td', c.passed ? 'passed' : 'FAILED', c.passed ? 'ok' : 'bad'));
        add(r, el('td', c.level));
        add(r, el('td', c.id + (c.exchange !== undefined ? ' (#' + (c.exchange + 1) + ')' : '')));
        add(r, el('td', c.message, 'v'));
        add(r, el('td', c.expected, 'v'));
        add(r, el('td', c.actual, 'v'));
      });
    }

    section('Schema results');
    if (cell.schema.length) {
      var schema = add(body, el('table'));
      var sh = add(schema, el('tr'));
      ['Version', 'Definition', 'Sender', 'Exchange', 'Valid', 'Errors'].forEach(function (h) { add(sh, el('th', h)); });
      cell.schema.forEach(function (s) {
        var r = add(schema, el('tr'));
        add(r, el('td', s.version));
        add(r, el('td', s.definition, 'v'));
        add(r, el('td', s.sender));
        add(r, el('td', '#' + (s.exchange + 1)));
        add(r, el('td', s.valid ? 'valid' : 'INVALID', s.valid ? 'ok' : 'bad'));
        add(r, el('td', s.errors.join('\n'), 'v'));
      });
    } else {
      add(body, el('p', 'No schema checks.'));
    }

    section('Wire transcript' + (cell.url ? ' — ' + cell.url : ''));
    if (cell.transcript.length) {
      var list = add(body, el('ol', null, 'transcript'));
      cell.transcript.forEach(function (x) {
        var li = add(list, el('li'));
        add(li, el('strong', '→ +' + x.at + ' ms ' + x.request.method + ' ' + x.request.path + (x.request.rpc ? ' (' + x.request.rpc + ')' : '') + (x.request.step !== undefined ? ' [script step ' + x.request.step + ']' : '')));
        add(li, headerList(x.request.headers));
        add(li, pre(x.request.body));
        if (!x.response) { add(li, el('p', '← no response')); return; }
        var res = x.response;
        add(li, el('strong', '← ' + (res.status === null ? 'no status' : res.status) + ' · ending: ' + res.ending + (res.endedAt !== undefined ? ' at +' + res.endedAt + ' ms' : '')));
        add(li, headerList(res.headers));
        if (res.events) {
          var events = add(li, el('ol'));
          res.events.forEach(function (e) {
            var ev = add(events, el('li'));
            add(ev, el('span', 'SSE event at +' + e.at + ' ms', 'muted'));
            add(ev, pre(e.text));
          });
        } else {
          add(li, pre(res.body));
        }
      });
    } else {
      add(body, el('p', 'No recording (the target did not use the mock server, or the cell was not run).'));
    }

    if (cell.run) {
      section('Target process');
      add(body, el('p', 'exit code ' + cell.run.exitCode + (cell.run.signal ? ', signal ' + cell.run.signal : '') + (cell.run.timedOut ? ', TIMED OUT' : '') + ', ' + cell.run.ms + ' ms'));
      if (cell.run.stderr) { add(body, el('h4', 'stderr (excerpt)')); add(body, pre(cell.run.stderr)); }
      if (cell.run.stdout) { add(body, el('h4', 'stdout (excerpt)')); add(body, pre(cell.run.stdout)); }
    }

    showReproduce(cell, body);
  }

  function showReproduce(cell, body) {
    add(body, el('h3', 'Reproduce'));
    var repro = add(body, el('pre', cell.repro));
    var copy = add(body, el('button', 'Copy command'));
    copy.type = 'button';
    copy.addEventListener('click', function () {
      function fallback() {
        var range = document.createRange();
        range.selectNodeContents(repro);
        var sel = window.getSelection();
        sel.removeAllRanges();
        sel.addRange(range);
        try { document.execCommand('copy'); copy.textContent = 'Copied'; } catch (e) { copy.textContent = 'Selected: press Ctrl+C'; }
      }
      if (navigator.clipboard && navigator.clipboard.writeText) {
        navigator.clipboard.writeText(cell.repro).then(function () { copy.textContent = 'Copied'; }, fallback);
      } else {
        fallback();
      }
    });
  }

  var selected = null;
  function open(td) {
    var index = Number(td.getAttribute('data-i'));
    if (!(index >= 0)) return;
    if (selected) selected.classList.remove('selected');
    selected = td;
    td.classList.add('selected');
    showDetails(index);
  }
  table.addEventListener('click', function (event) {
    var td = event.target.closest && event.target.closest('td[data-i]');
    if (td) open(td);
  });
  ['mouseover', 'focusin'].forEach(function (type) {
    table.addEventListener(type, function (event) {
      var td = event.target.closest && event.target.closest('td[data-i]');
      if (td) addTooltip(td);
    });
  });
  table.addEventListener('keydown', function (event) {
    if (event.key !== 'Enter' && event.key !== ' ') return;
    var td = event.target.closest && event.target.closest('td[data-i]');
    if (td) { event.preventDefault(); open(td); }
  });
  function close() {
    panel.hidden = true;
    if (selected) { selected.classList.remove('selected'); selected.focus(); }
  }
  document.getElementById('details-close').addEventListener('click', close);
  document.addEventListener('keydown', function (event) { if (event.key === 'Escape' && !panel.hidden) close(); });
  // The matrix's box is as tall as the screen below the filter bar, and its version row sticks
  // below its target row. Both heights depend on wrapping, so they are measured, and again on resize.
  var filters = document.getElementById('filters');
  var scroller = document.getElementById('matrix-scroll');
  var headTargets = table.querySelector('thead tr.head-targets');
  function measureStickyHeader() {
    var root = document.documentElement.style;
    root.setProperty('--filters-height', filters.getBoundingClientRect().height + 'px');
    if (headTargets) root.setProperty('--head-targets', headTargets.getBoundingClientRect().height + 'px');
  }
  // Re-measured whenever either one changes size (the filter count, wrapping, fonts, resizing).
  if (window.ResizeObserver) {
    var observer = new ResizeObserver(measureStickyHeader);
    observer.observe(filters);
    if (headTargets) observer.observe(headTargets);
  } else {
    window.addEventListener('resize', measureStickyHeader);
  }
  if (rowData) lazy = MatrixRows(JSON.parse(rowData.textContent), table, rows, { el: el, styleCell: styleCell, root: scroller, isHeld: function (tr) { return tr.contains(document.activeElement) || (selected !== null && tr.contains(selected)); } });
  [fLayer, fStatus, fTarget].forEach(function (f) { f.addEventListener('change', applyFilters); });
  fText.addEventListener('input', applyFilters);
  document.getElementById('filters').addEventListener('submit', function (event) { event.preventDefault(); });
  applyFilters();
  measureStickyHeader();
})();
