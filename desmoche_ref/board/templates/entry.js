// The entry page kept up to date: whenever the book changes (/entry/events), the page's part
// is fetched again — another phone's move appears, the buttons offered follow the hand —
// unless the page already shows the hand as it is. What is being typed in the line field is
// kept. A tap that builds the line fetches the part with the longer line instead of loading
// the whole page again. The text field's suggestions follow what is typed. Without
// JavaScript every control still works (forms); the page is only not refreshed by itself.
(function () {
  "use strict";
  var main = document.getElementById("entry");
  var table = main && main.dataset.table;
  if (!table || !window.fetch) { return; }

  function part() { return document.getElementById("entry-part"); }

  function refresh(line, always) {
    var now = part();
    if (typeof line !== "string") { line = now ? now.dataset.line : ""; }
    var url = "/entry/part?t=" + encodeURIComponent(table) + "&line=" + encodeURIComponent(line) +
              (always ? "" : "&seen=" + encodeURIComponent(now ? now.dataset.seen : ""));
    fetch(url, {credentials: "same-origin", cache: "no-store"}).then(function (r) {
      if (r.status === 204) { return null; }
      if (!r.ok) { location.reload(); return null; }
      return r.text();
    }).then(function (html) {
      if (html === null || html === undefined) { return; }
      var typed = document.getElementById("typed");
      var value = typed ? typed.value : "";
      var focused = document.activeElement && document.activeElement.id === "typed";
      main.innerHTML = html;
      var again = document.getElementById("typed");
      if (again) { again.value = value; if (focused) { again.focus(); } }
      if (always) {  // a tap: on to what comes next (the next choice, else the send button)
        var next = main.querySelector(".choice:not(.chosen) button") || main.querySelector("button.go");
        if (next) { next.focus(); }
      }
      watchTyping();
    }).catch(function () {});
  }

  var waiting = null;
  function suggest() {
    var typed = document.getElementById("typed");
    var list = document.getElementById("suggestions");
    if (!typed || !list) { return; }
    clearTimeout(waiting);
    waiting = setTimeout(function () {
      fetch("/entry/suggest?t=" + encodeURIComponent(table) + "&text=" + encodeURIComponent(typed.value),
            {credentials: "same-origin", cache: "no-store"}).then(function (r) {
        return r.ok ? r.json() : [];
      }).then(function (lines) {
        list.textContent = "";
        lines.forEach(function (line) {
          var option = document.createElement("option");
          option.value = line;
          list.appendChild(option);
        });
      }).catch(function () {});
    }, 120);
  }

  function watchTyping() {
    var typed = document.getElementById("typed");
    if (typed && !typed.dataset.watched) {
      typed.dataset.watched = "1";
      typed.addEventListener("input", suggest);
    }
  }

  // a tap that builds the line: the part with the line it makes, the address kept in step
  main.addEventListener("click", function (e) {
    var button = e.target.closest ? e.target.closest("form.taps button[name=line]") : null;
    if (!button) { return; }
    e.preventDefault();
    history.replaceState(null, "", "/entry/table?t=" + encodeURIComponent(table) +
                         (button.value ? "&line=" + encodeURIComponent(button.value) : ""));
    refresh(button.value, true);
  });

  watchTyping();
  if (window.EventSource) {
    var source = new EventSource("/entry/events");
    source.addEventListener("changed", refresh);
  }
})();
