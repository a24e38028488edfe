// The replay of a hand: one move's table shown at a time, stepped with the buttons or the
// arrow keys; the address follows (#move-23), so every step can be linked. Without this
// script every step is on the page, one after the other: the first with the whole table,
// each next one with what its move changed (a player's row, the card on offer, the pile)
// and the stock and whose turn. Here each step is first filled in from the one before.
(function () {
  "use strict";
  var steps = Array.prototype.slice.call(document.querySelectorAll(".step"));
  if (!steps.length) { return; }
  var PARTS = ["offer", "pile", "stock", "turn"];

  function fill(step, before) {
    var table = before.querySelector("table.seats").cloneNode(true);
    var own = step.querySelector("table.seats");
    if (own) {
      Array.prototype.forEach.call(own.querySelectorAll("tr[data-player]"), function (row) {
        Array.prototype.forEach.call(table.querySelectorAll("tr[data-player]"), function (old) {
          if (old.dataset.player === row.dataset.player) { old.parentNode.replaceChild(row, old); }
        });
      });
    }
    var parts = [table];
    PARTS.forEach(function (name) {
      var mine = step.querySelector("p." + name);
      parts.push(mine || before.querySelector("p." + name).cloneNode(true));
    });
    var head = step.querySelector("h3");
    while (head.nextSibling) { step.removeChild(head.nextSibling); }
    parts.forEach(function (part) { step.appendChild(part); });
  }

  // the cards, written as text (10♠, 7♥), drawn as the other pages draw them: red or black
  var CARD = /(?<![\p{L}\p{N}_])(10|[2-9JQKA])([\u2660\u2665\u2666\u2663])/gu;

  function colour(element) {
    var walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT), texts = [];
    while (walker.nextNode()) { texts.push(walker.currentNode); }
    texts.forEach(function (node) {
      var text = node.nodeValue, at = 0, parts = null, m;
      CARD.lastIndex = 0;
      while ((m = CARD.exec(text))) {
        parts = parts || document.createDocumentFragment();
        parts.appendChild(document.createTextNode(text.slice(at, m.index)));
        var card = document.createElement("b");
        if (m[2] === "\u2665" || m[2] === "\u2666") { card.className = "r"; }
        card.textContent = m[0];
        parts.appendChild(card);
        at = m.index + m[0].length;
      }
      if (parts) {
        parts.appendChild(document.createTextNode(text.slice(at)));
        node.parentNode.replaceChild(parts, node);
      }
    });
  }

  steps.forEach(function (step) {
    Array.prototype.forEach.call(step.children, function (part) {
      if (part.tagName !== "H3") { colour(part); }
    });
  });
  for (var k = 1; k < steps.length; k++) { fill(steps[k], steps[k - 1]); }
  document.documentElement.classList.add("js");
  var controls = document.querySelector(".controls");
  var where = controls.querySelector(".where");
  controls.hidden = false;
  var current = -1;

  function indexOf(hash) {
    for (var i = 0; i < steps.length; i++) {
      if ("#" + steps[i].id === hash) { return i; }
    }
    return -1;
  }

  function show(i, moveAddress) {
    i = Math.max(0, Math.min(steps.length - 1, i));
    if (current >= 0) { steps[current].classList.remove("current"); }
    current = i;
    steps[i].classList.add("current");
    where.textContent = steps[i].dataset.move + " / " + steps.length;
    if (moveAddress && location.hash !== "#" + steps[i].id) {
      history.replaceState(null, "", "#" + steps[i].id);
    }
  }

  controls.addEventListener("click", function (e) {
    var go = e.target.closest("button") && e.target.closest("button").dataset.go;
    if (go === "first") { show(0, true); }
    if (go === "prev") { show(current - 1, true); }
    if (go === "next") { show(current + 1, true); }
    if (go === "last") { show(steps.length - 1, true); }
  });
  document.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey) { return; }
    var tag = (e.target.tagName || "").toLowerCase();
    if (tag === "input" || tag === "textarea") { return; }
    if (e.key === "ArrowRight") { show(current + 1, true); e.preventDefault(); }
    if (e.key === "ArrowLeft") { show(current - 1, true); e.preventDefault(); }
    if (e.key === "Home") { show(0, true); e.preventDefault(); }
    if (e.key === "End") { show(steps.length - 1, true); e.preventDefault(); }
  });
  window.addEventListener("hashchange", function () {
    var i = indexOf(location.hash);
    if (i >= 0) { show(i, false); }
  });
  var start = indexOf(location.hash);
  show(start >= 0 ? start : 0, false);
}());
