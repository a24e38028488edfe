// The live board: each change of the book arrives as a server-sent event holding the board's
// new body, put in place without a reload. The browser's EventSource reconnects by itself
// when the connection drops; if it gives up (the server answered with an error), a new one is
// opened a little later. Without JavaScript the page reloads itself (a <noscript> refresh).
//
// The room's screen (body.tv) never scrolls: its panels (tables, then each table's night,
// then the season, then the ratings) are laid out a screen at a time — as many side by side
// and one under the other as fit — and the screens shown in turn, every data-cycle seconds.
// A panel taller than the screen is squeezed: what the phones show in full (the night's
// hands, the findings, the claims) gives way.
(function () {
  "use strict";
  var board = document.getElementById("board");
  var live = document.getElementById("board-live");
  var counter = document.getElementById("board-page");
  var tv = document.body.classList.contains("tv");
  var KINDS = ["table", "night", "season", "ratings"];
  var screens = [], shown = 0, source = null;

  function connect() {
    source = new EventSource("/events");
    source.addEventListener("board", function (e) {
      board.innerHTML = e.data;
      live.hidden = false;
      live.classList.remove("down");
      if (tv) { layout(); }
    });
    source.onopen = function () { live.hidden = false; live.classList.remove("down"); };
    source.onerror = function () {
      live.hidden = false;
      live.classList.add("down");
      if (source.readyState === EventSource.CLOSED) { setTimeout(connect, 2000); }
    };
  }

  // TV: the panels in the order the room reads them, measured at the width of a column, then
  // packed into screens: rows of as many panels as there are columns, while the rows fit
  function layout() {
    var grid = board.querySelector(".panels");
    screens = [];
    if (!grid) { count(); return; }
    var panels = Array.prototype.slice.call(grid.querySelectorAll(".panel"));
    panels.sort(function (a, b) {
      return KINDS.indexOf(a.dataset.kind) - KINDS.indexOf(b.dataset.kind) || panels.indexOf(a) - panels.indexOf(b);
    });
    panels.forEach(function (p, i) { p.classList.remove("off", "squeezed"); p.style.order = i; });
    var style = getComputedStyle(grid);
    var columns = Math.max(1, style.gridTemplateColumns.split(" ").length);
    var gap = parseFloat(style.rowGap) || 0;
    var room = board.clientHeight - (grid.getBoundingClientRect().top - board.getBoundingClientRect().top)
      - parseFloat(getComputedStyle(board).paddingBottom || 0);
    panels.forEach(function (p) { if (p.offsetHeight > room) { p.classList.add("squeezed"); } });
    var screen = [], used = 0;
    for (var i = 0; i < panels.length; i += columns) {
      var row = panels.slice(i, i + columns);
      var height = Math.max.apply(null, row.map(function (p) { return p.offsetHeight; }));
      if (screen.length && used + gap + height > room) { screens.push(screen); screen = []; used = 0; }
      used += (screen.length ? gap : 0) + height;
      screen = screen.concat(row);
    }
    if (screen.length) { screens.push(screen); }
    show(shown);
  }

  function show(k) {
    shown = screens.length ? k % screens.length : 0;
    screens.forEach(function (screen, j) {
      screen.forEach(function (p) { p.classList.toggle("off", j !== shown); });
    });
    count();
  }

  function count() {
    if (counter) { counter.textContent = screens.length > 1 ? (shown + 1) + " / " + screens.length : ""; }
  }

  document.documentElement.classList.add("js");
  if (tv) {
    layout();
    window.addEventListener("resize", layout);
    setInterval(function () { show(shown + 1); }, 1000 * (+document.body.dataset.cycle || 15));
  }
  if (window.EventSource) { connect(); }
})();
