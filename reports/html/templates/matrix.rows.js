// A large matrix's rows (reports/html.ts, above drawRowsAbove cells): the page carries one row
// skeleton per case (its heading and an empty cell) and the cells as JSON (html-grid.ts). A row
// is drawn when it comes within a screen of the matrix's scroll box (hooks.root), once that box is
// within a screen of the page's view, and emptied again, its height kept, when it leaves, so the
// page never lays out more than a few screens of cells. Cells are built
// from per-look prototypes; text only ever goes through textContent and attributes.
// matrix.client.js calls MatrixRows once, after its own functions are defined.
var MatrixRows = (function () {
  'use strict';
  return function (data, table, rows, hooks) {
    var el = hooks.el;
    function makePrototype(look) {
      var td = el('td');
      if (look.m) td.setAttribute('data-mark', look.m);
      td.setAttribute('data-s', look.s);
      if (look.f) td.setAttribute('data-k', 'false-success');
      if (look.ms) td.appendChild(el('i', look.ms));
      if (look.f) td.appendChild(el('b', '\u26a0')).setAttribute('aria-label', 'false success');
      td.appendChild(document.createTextNode(look.w));
      if (look.o) {
        td.appendChild(el('span', ' \u00b7 ', 'sep'));
        td.appendChild(el('small', look.o));
      }
      return td;
    }
    var prototypes = data.looks.map(makePrototype);

    function drawRow(tr) {
      if (!tr.classList.contains('pending')) return;
      var pairs = data.rows[Number(tr.getAttribute('data-r'))] || [];
      var cells = document.createDocumentFragment();
      for (var c = 0; c * 2 < pairs.length; c++) {
        var look = data.looks[pairs[2 * c]], index = pairs[2 * c + 1];
        var td = prototypes[pairs[2 * c]].cloneNode(true);
        td.className = 's-' + look.s + ' t' + Math.floor(c / data.versions) + (look.c ? ' c-' + look.c : '');
        td.setAttribute('data-i', String(index));
        if (index >= 0) td.tabIndex = 0;
        hooks.styleCell(td);
        cells.appendChild(td);
      }
      tr.removeChild(tr.lastElementChild);
      tr.appendChild(cells);
      tr.classList.remove('pending');
    }

    function emptyRow(tr, height) {
      if (tr.classList.contains('pending') || hooks.isHeld(tr)) return;
      while (tr.lastElementChild && tr.lastElementChild.tagName === 'TD') tr.removeChild(tr.lastElementChild);
      var placeholder = el('td', null, 'pending');
      placeholder.colSpan = data.columns;
      // The drawn height, so the page does not move when a row above the viewport is emptied.
      if (height > 0) placeholder.style.height = height + 'px';
      tr.appendChild(placeholder);
      tr.classList.add('pending');
    }

    if (window.IntersectionObserver) {
      // Rows are drawn only while the matrix's box is within a screen of the page's view: before a
      // reader scrolls down to it (past the header, the unsafe cells and the target list), the rows
      // its own view would show wait, so a large page opens without laying out a single cell.
      var active = false;
      var waiting = new Set();
      var observer = new IntersectionObserver(function (entries) {
        entries.forEach(function (entry) {
          if (!entry.isIntersecting) {
            waiting.delete(entry.target);
            emptyRow(entry.target, entry.boundingClientRect.height);
          } else if (active) drawRow(entry.target);
          else waiting.add(entry.target);
        });
      }, { root: hooks.root, rootMargin: '100% 0px' });
      var page = new IntersectionObserver(function (entries) {
        active = entries[entries.length - 1].isIntersecting;
        if (!active) return;
        waiting.forEach(drawRow);
        waiting.clear();
      }, { rootMargin: '100% 0px' });
      // The rows near the box's view now, not a frame later, when the box itself is near the page's
      // view: one layout, read before any is drawn.
      var view = hooks.root.getBoundingClientRect();
      if (view.top < 2 * window.innerHeight && view.bottom > -window.innerHeight) {
        active = true;
        rows.filter(function (tr) {
          var box = tr.getBoundingClientRect();
          return box.height > 0 && box.bottom > view.top - view.height && box.top < view.bottom + view.height;
        }).forEach(drawRow);
      }
      rows.forEach(function (tr) { observer.observe(tr); });
      page.observe(hooks.root);
    } else {
      rows.forEach(drawRow);
    }

    return {
      /** Whether row r has a cell of this status (in this target's columns, if one is chosen). */
      hasStatus: function (r, status, target) {
        var pairs = data.rows[r] || [];
        for (var c = 0; c * 2 < pairs.length; c++) {
          if (target !== '' && String(Math.floor(c / data.versions)) !== target) continue;
          if (data.looks[pairs[2 * c]].s === status) return true;
        }
        return false;
      },
    };
  };
})();
