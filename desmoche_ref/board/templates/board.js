// The live board: each change of the book arrives as a server-sent event holding the board's
// new body, put in place without a reload. The browser's EventSource reconnects by itself
// when the connection drops; if it gives up (the server answered with an error), a new one is
// opened a little later. Without JavaScript the page reloads itself (a <noscript> refresh).
(function () {
  "use strict";
  var board = document.getElementById("board");
  var live = document.getElementById("board-live");
  var tv = document.body.classList.contains("tv");
  var source = null;

  function connect() {
    source = new EventSource("/events");
    source.addEventListener("board", function (e) {
      board.innerHTML = e.data;
      live.hidden = false;
      live.classList.remove("down");
      if (tv) { cycle(true); }
    });
    source.onopen = function () { live.hidden = false; live.classList.remove("down"); };
    source.onerror = function () {
      live.classList.add("down");
      if (source.readyState === EventSource.CLOSED) { setTimeout(connect, 2000); }
    };
  }

  // TV: when the tables do not all fit on the screen, show one at a time, in turn
  var shown = 0;
  function cycle(keep) {
    var tables = board.querySelectorAll("section.table");
    document.body.classList.remove("cycling");
    if (tables.length < 2 || document.documentElement.scrollHeight <= window.innerHeight) { return; }
    document.body.classList.add("cycling");
    shown = keep ? shown % tables.length : (shown + 1) % tables.length;
    for (var i = 0; i < tables.length; i++) { tables[i].classList.toggle("current", i === shown); }
  }

  document.documentElement.classList.add("js");
  if (tv) { cycle(true); setInterval(function () { cycle(false); }, 1000 * (+document.body.dataset.cycle || 12)); }
  if (window.EventSource) { connect(); }
})();
