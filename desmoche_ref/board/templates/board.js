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
      if (tv) { cycle(false); }
    });
    source.onopen = function () { live.hidden = false; live.classList.remove("down"); };
    source.onerror = function () {
      live.classList.add("down");
      if (source.readyState === EventSource.CLOSED) { setTimeout(connect, 2000); }
    };
  }

  // TV: when the tables do not all fit on the screen, show them a row at a time (as many as
  // sit side by side), in turn
  var page = 0;
  function cycle(advance) {
    var tables = board.querySelectorAll("section.table");
    var body = document.body;
    body.classList.remove("cycling");
    if (tables.length < 2 || document.documentElement.scrollHeight <= window.innerHeight) { return; }
    var grid = board.querySelector(".tables");
    var per = grid ? getComputedStyle(grid).gridTemplateColumns.split(" ").length : 1;
    if (per >= tables.length) { per = 1; }
    var pages = Math.ceil(tables.length / per);
    page = advance ? (page + 1) % pages : page % pages;
    body.classList.add("cycling");
    for (var i = 0; i < tables.length; i++) { tables[i].classList.toggle("current", Math.floor(i / per) === page); }
  }

  document.documentElement.classList.add("js");
  if (tv) { cycle(false); setInterval(function () { cycle(true); }, 1000 * (+document.body.dataset.cycle || 12)); }
  if (window.EventSource) { connect(); }
})();
