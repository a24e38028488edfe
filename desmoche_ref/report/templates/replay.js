// The replays of a night's hands, drawn from their text (report/handtext.py writes it): each
// step is a line of the record and, below it, what that move changed, as parts joined by
// " · " — a seat ("Beto 3♠ 4♥ [2♠ 2♦ 2♣]", no colon; its status in brackets when not in),
// or a labelled line ("on offer: …", "discard pile: …", "stock: …", "turn: …"). Each part
// holds until a later step writes it again; a labelled part whose words begin "… " adds to
// what it said (the pile's new top card); the turn is said only where it is written. Here
// each hand shows one step at a time with the whole table drawn under it, stepped with its
// buttons or the arrow keys; the address follows (#h7-m23), so every step can be linked.
// Without this script the page reads as it is written.
(function () {
  "use strict";
  var box = document.querySelector(".replays");
  if (!box) { return; }
  var TURN = box.dataset.turn, IN = box.dataset["in"], WORDS = JSON.parse(box.dataset.words);
  var SEP = " \u00b7 ", MORE = "\u2026 ";
  var CARD = /(?<![\p{L}\p{N}_])(10|[2-9JQKA])([\u2660\u2665\u2666\u2663])/gu;
  var replays = Array.prototype.slice.call(box.querySelectorAll("ol.replay"));
  var states = new Map(), active = null;

  // ------------------------------------------------------------ the text read
  function ownText(li) {  // the step's words: its text, less a note on who entered it
    var out = "";
    li.childNodes.forEach(function (n) { if (n.nodeType === 3) { out += n.nodeValue; } });
    return out;
  }

  function seat(part) {  // "Beto (passed) 3♠ +2? [2♠ 2♦ 2♣]"
    var m = /^(\S+) (?:\(([^)]*)\) )?(.*)$/.exec(part);
    if (!m) { return null; }
    var rest = m[3], cut = rest.indexOf("["), held = (cut < 0 ? rest : rest.slice(0, cut)).trim();
    var unknown = /\+(\d+)\?/.exec(held);
    return {name: m[1], status: m[2] || IN, held: (held.match(CARD) || []),
            unknown: unknown ? +unknown[1] : 0,
            melds: (rest.match(/\[[^\]]*\]/g) || []).map(function (meld) { return meld.match(CARD) || []; })};
  }

  function next(before, li) {  // the table after the step `li`, from the table before it
    var text = ownText(li), cut = text.indexOf("\n");
    var state = {seats: new Map(before.seats), labels: new Map(before.labels), turn: null,
                 line: parseInt(text, 10)};
    (cut < 0 ? [] : text.slice(cut + 1).split(SEP)).forEach(function (part) {
      var colon = part.indexOf(": ");
      if (colon < 0) {
        var s = seat(part);
        if (s) { state.seats.set(s.name, s); }
        return;
      }
      var label = part.slice(0, colon), words = part.slice(colon + 2);
      if (label === TURN) { state.turn = words; return; }
      if (words.indexOf(MORE) === 0 && state.labels.has(label)) {
        words = state.labels.get(label) + " " + words.slice(MORE.length);
      }
      state.labels.set(label, words);
    });
    return state;
  }

  function tables(ol) {  // the table after each step of a replay, worked out once
    var out = states.get(ol);
    if (!out) {
      out = [];
      var before = {seats: new Map(), labels: new Map()};
      ol.querySelectorAll("li").forEach(function (li) { before = next(before, li); out.push(before); });
      states.set(ol, out);
    }
    return out;
  }

  // ------------------------------------------------------------ the table drawn
  function cards(parent, list) {
    list.forEach(function (c, i) {
      if (i) { parent.appendChild(document.createTextNode(" ")); }
      var b = document.createElement("b");
      if (/[\u2665\u2666]/.test(c)) { b.className = "r"; }
      b.textContent = c;
      parent.appendChild(b);
    });
  }

  function coloured(element, text) {  // words with cards in them, the cards red or black
    var at = 0, m;
    CARD.lastIndex = 0;
    while ((m = CARD.exec(text))) {
      element.appendChild(document.createTextNode(text.slice(at, m.index)));
      cards(element, [m[0]]);
      at = m.index + m[0].length;
    }
    element.appendChild(document.createTextNode(text.slice(at)));
    return element;
  }

  function named(element, name) {  // a name that may break after a `_`, `-` or `.`, never inside a word
    name.split(/(?<=[_.-])/).forEach(function (piece, i) {
      if (i) { element.appendChild(document.createElement("wbr")); }
      element.appendChild(document.createTextNode(piece));
    });
    return element;
  }

  function cell(row, tag, text) {
    var c = document.createElement(tag);
    if (text !== undefined) { c.textContent = text; }
    row.appendChild(c);
    return c;
  }

  function draw(board, state) {
    board.textContent = "";
    var table = document.createElement("table"), head = document.createElement("tr");
    table.className = "seats";
    ["player", "status", "hand", "table"].forEach(function (w) { cell(head, "th", WORDS[w]).scope = "col"; });
    table.appendChild(document.createElement("thead")).appendChild(head);
    var body = table.appendChild(document.createElement("tbody"));
    state.seats.forEach(function (s) {
      var row = body.appendChild(document.createElement("tr"));
      row.dataset.player = s.name;
      named(cell(row, "th"), s.name).scope = "row";
      cell(row, "td", s.status);
      var held = cell(row, "td");
      held.className = "held";
      cards(held, s.held);
      if (s.unknown) { cell(held, "span", " +" + s.unknown + "?").className = "unknown"; }
      var melds = cell(row, "td");
      melds.className = "melds";
      s.melds.forEach(function (m) { cards(cell(melds, "span"), m); melds.lastChild.className = "meld"; });
    });
    board.appendChild(table);
    state.labels.forEach(function (words, label) {
      coloured(cell(board, "p"), label + ": " + words).dataset.label = label;
    });
    if (state.turn !== null) { coloured(cell(board, "p"), TURN + ": " + state.turn).className = "turn"; }
  }

  // ------------------------------------------------------------ stepping
  function replayOf(hand) {
    return replays.filter(function (ol) { return ol.parentNode.id === "h" + hand; })[0] || null;
  }

  function show(ol, i, address, scroll) {
    var steps = ol.querySelectorAll("li"), all = tables(ol);
    i = Math.max(0, Math.min(steps.length - 1, i));
    var was = ol.querySelector("li.current");
    if (was) { was.classList.remove("current"); }
    steps[i].classList.add("current");
    ol.dataset.at = i;
    ol.controls.querySelector(".where").textContent = WORDS.move + " " + (i + 1) + " / " + steps.length;
    draw(ol.board, all[i]);
    active = ol;
    if (address && location.hash !== "#" + steps[i].id) { history.replaceState(null, "", "#" + steps[i].id); }
    if (scroll) { ol.parentNode.scrollIntoView(); }
  }

  function controls(ol) {
    var div = document.createElement("div");
    div.className = "controls";
    [["first", "\u00ab "], ["previous", "\u25c0 "], null, ["next", " \u25b6"], ["last", " \u00bb"]].forEach(function (b) {
      if (!b) { cell(div, "output").className = "where"; return; }
      var button = cell(div, "button", b[0] === "next" || b[0] === "last" ? WORDS[b[0]] + b[1] : b[1] + WORDS[b[0]]);
      button.type = "button";
      button.dataset.go = b[0];
    });
    div.addEventListener("click", function (e) {
      var go = e.target.closest("button") && e.target.closest("button").dataset.go, at = +ol.dataset.at;
      var last = ol.querySelectorAll("li").length - 1;
      if (go) { show(ol, {first: 0, previous: at - 1, next: at + 1, last: last}[go], true); }
    });
    return div;
  }

  document.documentElement.classList.add("js");
  replays.forEach(function (ol) {
    ol.controls = ol.parentNode.insertBefore(controls(ol), ol);
    ol.board = ol.parentNode.insertBefore(document.createElement("div"), ol.nextSibling);
    ol.board.className = "board";
    ol.parentNode.addEventListener("click", function () { active = ol; });
    var first = ol.querySelector("li");
    if (first) { first.classList.add("current"); ol.dataset.at = 0; }
  });
  // each hand shows its first step, drawn when it comes into view (a page holds a hundred)
  var seen = new IntersectionObserver(function (entries) {
    entries.forEach(function (e) {
      if (e.isIntersecting && !e.target.drawn) {
        e.target.drawn = true;
        var keep = active;
        show(e.target, +e.target.dataset.at, false, false);
        active = keep;
      }
    });
  });
  replays.forEach(function (ol) { seen.observe(ol); });

  function go(hash, scroll) {
    var m = /^#h(\d+)(?:-m(\d+))?$/.exec(hash), ol = m && replayOf(m[1]);
    if (!ol) { return false; }
    ol.drawn = true;
    show(ol, m[2] ? +m[2] - 1 : 0, false, scroll);
    return true;
  }

  document.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey) { return; }
    var tag = (e.target.tagName || "").toLowerCase();
    if (tag === "input" || tag === "textarea") { return; }
    var ol = active || replays[0], at = +ol.dataset.at, last = ol.querySelectorAll("li").length - 1;
    var to = {ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: last}[e.key];
    if (to === undefined) { return; }
    ol.drawn = true;
    show(ol, to, true, false);
    e.preventDefault();
  });
  window.addEventListener("hashchange", function () { go(location.hash, true); });
  go(location.hash, true);
}());
