// The map is a shortcut for the choice buttons: a click on a unit or a highlighted place presses the button
// that stands for it. Every choice is still made by the server, from the rules engine's legal actions.
"use strict";
document.addEventListener("DOMContentLoaded", function () {
  var form = document.getElementById("choices");
  var board = document.getElementById("board");
  if (!board) { return; }
  // What happened since the player's last turn, outlined on the map.
  (board.dataset.newsPlaces || "").split(" ").forEach(function (id) {
    board.querySelectorAll('.region[data-id="' + CSS.escape(id) + '"]').forEach(function (r) { r.classList.add("news"); });
  });
  (board.dataset.newsUnits || "").split(" ").forEach(function (id) {
    board.querySelectorAll('g.unit[data-unit="' + CSS.escape(id) + '"]').forEach(function (u) { u.classList.add("news"); });
  });
  // Zones of control on request, remembered while the tab lives (every choice reloads the page).
  var zones = document.getElementById("show-zones");
  if (zones) {
    var show = function (on) { board.classList.toggle("show-zones", on); };
    zones.checked = sessionStorage.getItem("pbem-show-zones") === "1";
    show(zones.checked);
    zones.addEventListener("change", function () {
      sessionStorage.setItem("pbem-show-zones", zones.checked ? "1" : "0");
      show(zones.checked);
    });
  }
  if (!form) { return; }
  var byUnit = {}, byPlace = {};
  form.querySelectorAll("button[data-unit]").forEach(function (b) { byUnit[b.dataset.unit] = b; });
  form.querySelectorAll("button[data-location]").forEach(function (b) { byPlace[b.dataset.location] = b; });
  board.querySelectorAll("g.unit").forEach(function (g) {
    if (byUnit[g.dataset.unit]) { g.classList.add("selectable"); }
  });
  board.querySelectorAll(".region").forEach(function (r) {
    if (byPlace[r.dataset.id]) { r.classList.add("target"); }
  });
  board.addEventListener("click", function (event) {
    var unit = event.target.closest("g.unit");
    if (unit && byUnit[unit.dataset.unit]) { byUnit[unit.dataset.unit].click(); return; }
    // A counter may cover the place under it: look through it for a highlighted region.
    var under = document.elementsFromPoint(event.clientX, event.clientY);
    for (var i = 0; i < under.length; i++) {
      var id = under[i].classList && under[i].classList.contains("region") ? under[i].dataset.id : null;
      if (id && byPlace[id]) { byPlace[id].click(); return; }
    }
  });
});
