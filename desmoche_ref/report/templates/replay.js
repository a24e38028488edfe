// The replay of a hand: one move's table shown at a time, stepped with the buttons or the
// arrow keys; the address follows (#move-23), so every step can be linked. Without this
// script every step is on the page, one after the other.
(function () {
  "use strict";
  var steps = Array.prototype.slice.call(document.querySelectorAll(".step"));
  if (!steps.length) { return; }
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
