// The pbem replay page. All game logic ran in Python; this only shows prepared frames and text.
// Text goes in through textContent only, never as HTML.
(function () {
  "use strict";
  var SVG = "http://www.w3.org/2000/svg";
  var data = JSON.parse(document.getElementById("pbem-data").textContent);
  var steps = data.steps;
  var frames = data.frames;
  var $ = function (id) { return document.getElementById(id); };
  var units = $("units");
  var slider = $("slider");
  var select = $("viewer");
  var viewer = data.viewer;
  var index = 0;
  var timer = null;
  var PROTOCOL = {
    genesis: "creates the game",
    join: "joins the game",
    reveal: "reveals a dice seed",
    hidden: "commits to or opens hidden values",
    checkpoint: "co-signs a checkpoint",
    disclose: "discloses the game secret for the audit",
    "key-rotate": "rotates the signing key",
    "key-replace": "replaces a lost key",
    resign: "resigns",
    action: "acts (nothing this viewer can see)"
  };

  data.viewers.forEach(function (v) {
    var option = document.createElement("option");
    option.value = v.id;
    option.textContent = v.label;
    option.selected = v.id === viewer;
    select.appendChild(option);
  });
  slider.max = String(steps.length - 1);

  function visible(line) {
    return line[4] === null || viewer === "@all" || line[4].indexOf(viewer) >= 0;
  }

  function item(text, who, lineNo, kind, rule) {
    var li = document.createElement("li");
    li.className = "ev ev-" + kind;
    var ln = document.createElement("span");
    ln.className = "ln";
    ln.textContent = String(lineNo);
    li.appendChild(ln);
    if (who) {
      var w = document.createElement("span");
      w.className = "who";
      w.textContent = who;
      li.appendChild(w);
      li.appendChild(document.createTextNode(kind === "note" ? " writes: \u201C" + text + "\u201D" : ": " + text));
    } else {
      li.appendChild(document.createTextNode(text));
    }
    if (rule) {
      var r = document.createElement("span");
      r.className = "rule";
      r.textContent = " \u00A7" + rule;
      li.appendChild(r);
    }
    return li;
  }

  function tell(list, step) {
    var told = 0;
    step.lines.forEach(function (line) {
      if (visible(line)) {
        list.appendChild(item(line[2], line[1], step.line, line[0], line[3]));
        told += 1;
      }
    });
    return told;
  }

  function drawMap(frame) {
    if (!units) { return; }
    while (units.firstChild) { units.removeChild(units.firstChild); }
    var size = data.counter * 1.1 + 2;
    frame.units.forEach(function (u) {
      var g = document.createElementNS(SVG, "g");
      g.setAttribute("class", "unit");
      g.setAttribute("data-unit", u[0]);
      g.setAttribute("data-hidden", String(u[5]));
      var title = document.createElementNS(SVG, "title");
      title.textContent = u[4];
      g.appendChild(title);
      var use = document.createElementNS(SVG, "use");
      use.setAttribute("href", "#face-" + u[1]);
      use.setAttribute("x", String(u[2] - u[6]));
      use.setAttribute("y", String(u[3] - u[6]));
      use.setAttribute("width", String(size * u[6]));
      use.setAttribute("height", String(size * u[6]));
      g.appendChild(use);
      units.appendChild(g);
    });
    var markers = $("markers");
    while (markers.firstChild) { markers.removeChild(markers.firstChild); }
    var c = data.counter;
    frame.markers.forEach(function (m) {
      var rect = document.createElementNS(SVG, "rect");
      [["x", m[2]], ["y", m[3]], ["width", m[4]], ["height", c * 0.36], ["rx", 2], ["fill", m[1]]].forEach(
        function (a) { rect.setAttribute(a[0], String(a[1])); });
      var text = document.createElementNS(SVG, "text");
      [["x", m[2] + m[4] / 2], ["y", m[3] + c * 0.27], ["text-anchor", "middle"], ["font-size", c * 0.26],
        ["fill", "#ffffff"], ["font-weight", "bold"]].forEach(function (a) { text.setAttribute(a[0], String(a[1])); });
      text.textContent = m[0];
      markers.appendChild(rect);
      markers.appendChild(text);
    });
    document.querySelectorAll("circle.control").forEach(function (c) {
      var colour = frame.control[c.getAttribute("data-id")];
      c.setAttribute("fill", colour || "none");
      c.setAttribute("stroke", colour ? "#ffffff" : "none");
    });
  }

  function svgEl(name, attrs) {
    var node = document.createElementNS(SVG, name);
    Object.keys(attrs).forEach(function (k) { node.setAttribute(k, String(attrs[k])); });
    return node;
  }

  // The current line's action: its regions outlined, its units ringed, an arrow for every move.
  function highlight(step) {
    document.querySelectorAll(".region.hot").forEach(function (r) { r.classList.remove("hot"); });
    document.querySelectorAll(".region").forEach(function (r) {
      if (step.highlight.indexOf(r.getAttribute("data-id")) >= 0) { r.classList.add("hot"); }
    });
    document.querySelectorAll("#units .unit").forEach(function (g) {
      if (step.moved.indexOf(g.getAttribute("data-unit")) >= 0) { g.classList.add("moved"); }
    });
    var layer = $("arrows");
    if (!layer) { return; }
    while (layer.firstChild) { layer.removeChild(layer.firstChild); }
    step.arrows.forEach(function (a) {
      var g = svgEl("g", { "class": "arrow" });
      g.appendChild(svgEl("line", { x1: a[0], y1: a[1], x2: a[2], y2: a[3], stroke: "#ffffff",
        "stroke-width": a[11] + 3, "stroke-linecap": "round" }));
      g.appendChild(svgEl("line", { x1: a[0], y1: a[1], x2: a[2], y2: a[3], stroke: a[10],
        "stroke-width": a[11], "stroke-linecap": "round" }));
      g.appendChild(svgEl("polygon", { points: a[4] + "," + a[5] + " " + a[6] + "," + a[7] + " " + a[8] + "," + a[9],
        fill: a[10], stroke: "#ffffff" }));
      layer.appendChild(g);
    });
  }

  function scores(frame) {
    var table = $("scores");
    table.textContent = "";
    frame.scores.forEach(function (row) {
      var tr = document.createElement("tr");
      var th = document.createElement("th");
      th.textContent = row[0];
      var td = document.createElement("td");
      td.textContent = row[1];
      tr.appendChild(th);
      tr.appendChild(td);
      table.appendChild(tr);
    });
    $("score-panel").hidden = frame.scores.length === 0;
  }

  function show(i) {
    index = Math.max(0, Math.min(steps.length - 1, i));
    var step = steps[index];
    var frame = frames[step.frame[viewer]];
    drawMap(frame);
    highlight(step);
    scores(frame);
    slider.value = String(index);
    $("counter").textContent = "Step " + (index + 1) + " of " + steps.length;
    $("line").textContent = String(step.line);
    $("where").textContent = step.stage;
    $("situation").textContent = frame.summary;
    var story = $("story");
    story.textContent = "";
    if (!tell(story, step)) {
      var li = item(PROTOCOL[step.type] || step.type, step.who, step.line, "protocol", null);
      li.classList.add("protocol");
      story.appendChild(li);
    }
    var error = $("error");
    error.hidden = !step.error;
    error.textContent = step.error || "";
    var past = $("past");
    past.textContent = "";
    for (var j = index - 1, shown = 0; j >= 0 && shown < 40; j -= 1) {
      shown += tell(past, steps[j]);
    }
  }

  function stop() {
    if (timer !== null) { clearInterval(timer); timer = null; }
    $("play").textContent = "Play";
  }

  function play() {
    if (timer !== null) { stop(); return; }
    if (index >= steps.length - 1) { show(0); }
    $("play").textContent = "Pause";
    timer = setInterval(function () {
      if (index >= steps.length - 1) { stop(); return; }
      show(index + 1);
    }, 600);
  }

  $("first").addEventListener("click", function () { stop(); show(0); });
  $("prev").addEventListener("click", function () { stop(); show(index - 1); });
  $("next").addEventListener("click", function () { stop(); show(index + 1); });
  $("last").addEventListener("click", function () { stop(); show(steps.length - 1); });
  $("play").addEventListener("click", play);
  slider.addEventListener("input", function () { stop(); show(Number(slider.value)); });
  select.addEventListener("change", function () { viewer = select.value; show(index); });
  document.addEventListener("keydown", function (event) {
    if (event.target === slider || event.target === select) { return; }
    var moves = { ArrowLeft: index - 1, ArrowRight: index + 1, Home: 0, End: steps.length - 1 };
    if (event.key in moves) {
      stop();
      show(moves[event.key]);
      event.preventDefault();
    } else if (event.key === " ") {
      play();
      event.preventDefault();
    }
  });
  show(0);
}());
