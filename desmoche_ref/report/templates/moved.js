// A hand's page of a report made before its night's page held the hand: send the reader on
// to the hand there, at the move the link named (#move-5, or #line-12: the record's line).
(function () {
  "use strict";
  var me = document.currentScript, target = me.dataset.target;
  var first = +me.dataset.first, moves = +me.dataset.moves;
  var page = target.split("#")[0], hand = target.split("#")[1];
  var m = /^#(move|line)-(\d+)$/.exec(location.hash), anchor = hand;
  if (m) {
    var move = m[1] === "move" ? +m[2] : (first > 0 ? +m[2] - first + 1 : 0);
    if (move >= 1 && move <= moves) { anchor = hand + "-m" + move; }
  }
  location.replace(page + "#" + anchor);
}());
