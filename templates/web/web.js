// The map is a shortcut for the choice buttons: a click on a unit or a highlighted place presses the button
// that stands for it. Every choice is still made by the server, from the rules engine's legal actions.
"use strict";
document.addEventListener("DOMContentLoaded", function () {
  var form = document.getElementById("choices");
  var board = document.getElementById("board");
  if (!board) { return; }
  zoomable(board);
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

// A large map (a whole desert at once) is drawn to the page's width; the player may enlarge it and scroll. Each
// choice reloads the page, so the zoom and the scroll position are kept in the browser's storage, per game title.
function zoomable(board) {
  var map = board.querySelector("svg.map");
  if (!map) { return; }
  var frame = document.createElement("div");
  frame.className = "map-frame";
  map.parentNode.insertBefore(frame, map);
  frame.appendChild(map);
  var key = "pbem-zoom:" + document.title;
  var saved = {};
  try { saved = JSON.parse(sessionStorage.getItem(key) || "{}"); } catch (e) { saved = {}; }
  var zoom = saved.zoom || 1;
  var bar = document.createElement("div");
  bar.className = "zoom";
  var label = document.createElement("span");
  function button(text, title, step) {
    var b = document.createElement("button");
    b.type = "button"; b.textContent = text; b.title = title;
    b.addEventListener("click", function () { apply(step === 0 ? 1 : Math.min(4, Math.max(1, zoom + step)), true); });
    bar.appendChild(b);
  }
  function remember() {
    sessionStorage.setItem(key, JSON.stringify({ zoom: zoom, left: frame.scrollLeft, top: frame.scrollTop }));
  }
  function apply(level, centre) {
    var x = (frame.scrollLeft + frame.clientWidth / 2) / zoom, y = (frame.scrollTop + frame.clientHeight / 2) / zoom;
    zoom = level;
    map.style.width = (100 * zoom) + "%";
    label.textContent = Math.round(zoom * 100) + "%";
    if (centre) { frame.scrollLeft = x * zoom - frame.clientWidth / 2; frame.scrollTop = y * zoom - frame.clientHeight / 2; }
    remember();
  }
  button("−", "Smaller map", -0.5);
  button("+", "Larger map", 0.5);
  button("Fit", "The whole map", 0);
  bar.appendChild(label);
  frame.parentNode.insertBefore(bar, frame);
  apply(zoom, false);
  frame.scrollLeft = saved.left || 0;
  frame.scrollTop = saved.top || 0;
  frame.addEventListener("scroll", remember);
}
