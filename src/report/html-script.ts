/**
 * The script of report.html, inlined: verdict and level filters (toggle buttons, none pressed =
 * everything), a search box ("/" focuses it), copy buttons, expand/collapse, deep links to a
 * failure, and every `<details>` opened for printing. The page reads fine without it.
 */
export const reportJs = `
(function () {
  'use strict';
  var verdicts = new Set(), levels = new Set(), query = '';
  var rows = Array.prototype.slice.call(document.querySelectorAll('tr.row'));
  var failures = Array.prototype.slice.call(document.querySelectorAll('details.failure'));
  var sections = Array.prototype.slice.call(document.querySelectorAll('.spec-section'));
  var shown = document.getElementById('shown');
  var search = document.getElementById('q');

  function matches(el) {
    return (verdicts.size === 0 || verdicts.has(el.getAttribute('data-verdict'))) &&
      (levels.size === 0 || levels.has(el.getAttribute('data-level'))) &&
      (query === '' || (el.getAttribute('data-search') || '').indexOf(query) >= 0);
  }

  function apply() {
    var visible = 0;
    rows.forEach(function (row) { row.hidden = !matches(row); if (!row.hidden) visible++; });
    sections.forEach(function (s) { s.hidden = !s.querySelector('tr.row:not([hidden])'); });
    var visibleFailures = 0;
    failures.forEach(function (f) { f.hidden = !matches(f); if (!f.hidden) visibleFailures++; });
    var fs = document.getElementById('failures');
    if (fs) fs.hidden = visibleFailures === 0;
    var empty = document.getElementById('empty');
    if (empty) empty.hidden = visible > 0;
    document.querySelectorAll('[data-filter]').forEach(function (b) { b.setAttribute('aria-pressed', String(verdicts.has(b.getAttribute('data-filter')))); });
    document.querySelectorAll('[data-level-filter]').forEach(function (b) { b.setAttribute('aria-pressed', String(levels.has(b.getAttribute('data-level-filter')))); });
    if (shown) shown.textContent = visible === rows.length ? 'all ' + rows.length + ' requirements' : visible + ' of ' + rows.length + ' requirements';
  }

  function toggle(set, value) { if (set.has(value)) set.delete(value); else set.add(value); apply(); }

  document.addEventListener('click', function (e) {
    var t = e.target.closest ? e.target : e.target.parentElement;
    var f = t.closest('[data-filter]');
    if (f) return toggle(verdicts, f.getAttribute('data-filter'));
    var l = t.closest('[data-level-filter]');
    if (l) return toggle(levels, l.getAttribute('data-level-filter'));
    if (t.closest('#reset')) { verdicts.clear(); levels.clear(); query = ''; if (search) search.value = ''; return apply(); }
    if (t.closest('#expand')) { var open = t.closest('#expand').getAttribute('data-open') !== 'true'; failures.forEach(function (d) { d.open = open; }); t.closest('#expand').setAttribute('data-open', String(open)); t.closest('#expand').textContent = open ? 'Collapse all failures' : 'Expand all failures'; return; }
    var c = t.closest('.copy');
    if (c) {
      e.preventDefault();
      var text = c.getAttribute('data-copy') || '';
      var done = function () { c.classList.add('done'); c.textContent = 'Copied'; setTimeout(function () { c.classList.remove('done'); c.textContent = 'Copy'; }, 1400); };
      if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(text).then(done, function () { select(c); });
      else select(c);
    }
    var link = t.closest('a[href^="#fail-"]');
    if (link) { var d = document.getElementById(link.getAttribute('href').slice(1)); if (d) d.open = true; }
  });

  function select(button) {
    var pre = button.closest('.block, li').querySelector('pre');
    if (!pre) return;
    var range = document.createRange(); range.selectNodeContents(pre);
    var sel = window.getSelection(); sel.removeAllRanges(); sel.addRange(range);
  }

  if (search) search.addEventListener('input', function () { query = search.value.trim().toLowerCase(); apply(); });
  document.addEventListener('keydown', function (e) {
    if (e.key === '/' && document.activeElement !== search && search) { e.preventDefault(); search.focus(); }
    else if (e.key === 'Escape' && document.activeElement === search) { search.value = ''; query = ''; apply(); search.blur(); }
  });

  function openFromHash() {
    var id = decodeURIComponent(location.hash.slice(1));
    var el = id && document.getElementById(id);
    if (el && el.tagName === 'DETAILS') { el.open = true; el.scrollIntoView(); }
  }
  window.addEventListener('hashchange', openFromHash);
  openFromHash();

  var closedForPrint = [];
  window.addEventListener('beforeprint', function () {
    document.querySelectorAll('details:not([open])').forEach(function (d) { closedForPrint.push(d); d.open = true; });
  });
  window.addEventListener('afterprint', function () { closedForPrint.forEach(function (d) { d.open = false; }); closedForPrint = []; });
  apply();
})();
`;
