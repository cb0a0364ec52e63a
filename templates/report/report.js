// The report's behaviour, inlined by roce_cfg/report/html.py: draws the topology from the JSON
// data (switches, links as index quadruples) at the box's width, so labels keep their natural
// size (12 px) and a wide tier wraps onto several lines instead of shrinking; zoom and pan move
// the SVG's viewBox. Hooks for the browser tests are on #status (data-ready, data-view...).
(function () {
  "use strict";
  var status = document.getElementById("status"), errors = 0;
  window.addEventListener("error", function () { errors += 1; status.dataset.errors = errors; });
  var data = JSON.parse(document.getElementById("data").textContent);
  var sw = data.switches, L = data.links, NL = L.length / 4;
  var view = document.getElementById("view"), info = document.getElementById("info");
  var panel = document.getElementById("panel"), closer = document.getElementById("close");
  var back = document.getElementById("back"), where = document.getElementById("where");
  var FONT = "12px sans-serif", BH = 28, GH = 46, GX = 10, LINE = 40, TIER = 96, M = 16;
  var current = null, box = null, vb = null, drawn = null;
  var byName = {};
  sw.name.forEach(function (n, i) { byName[n] = i; });

  // Text for HTML and for quoted attributes alike (names come from configs: any character).
  function esc(s) {
    return String(s).replace(/[&<>"']/g, function (c) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c];
    });
  }
  function textWidth(labels) {
    var ctx = document.createElement("canvas").getContext("2d"), w = 0;
    ctx.font = FONT;
    labels.forEach(function (s) { w = Math.max(w, ctx.measureText(s).width); });
    return Math.ceil(w);
  }
  // Rows top to bottom, each wrapped onto lines that fit `width` at natural size.
  function place(rows, width, bw, bh) {
    var cols = Math.max(1, Math.floor((width - 2 * M + GX) / (bw + GX)));
    var pos = {}, y = M + 4, gap = Math.max(LINE, bh + 12);
    rows.forEach(function (row, r) {
      if (!row.length) { return; }
      if (r && y > M + 4) { y += TIER - gap; }
      var per = Math.ceil(row.length / Math.ceil(row.length / cols));  // balanced lines
      for (var i = 0; i < row.length; i += per) {
        var line = row.slice(i, i + per);
        var x0 = Math.max(M, (width - (line.length * (bw + GX) - GX)) / 2);
        line.forEach(function (id, k) { pos[id] = [x0 + k * (bw + GX), y]; });
        y += gap;
      }
    });
    return { pos: pos, width: Math.max(width, 2 * M + cols * (bw + GX)), height: y - gap + bh + M };
  }

  // Leave the panel's side free when that costs no extra line: a small fabric stays in view
  // beside the details of what is selected.
  function placeBeside(rows, bw, bh) {
    var full = place(rows, box, bw, bh), side = Math.min(panelWidth(), 0.45 * box) + 16;
    var narrow = place(rows, box - side, bw, bh);
    if (narrow.height > full.height) { return full; }
    narrow.width = box;
    return narrow;
  }

  // The panel's width at this screen size (report.css sizes it by the viewport), measured
  // while it is hidden too.
  function panelWidth() {
    if (!panel.hidden) { return panel.offsetWidth; }
    panel.hidden = false;
    var w = panel.offsetWidth;
    panel.hidden = true;
    return w;
  }

  function findingsOf(test) { return data.findings.filter(test); }
  function list(items, title) {
    if (!items.length) { return "<h3>" + esc(title) + "</h3><p>No findings.</p>"; }
    return "<h3>" + esc(title) + "</h3><ul>" + items.map(function (f) {
      return "<li class='f-" + f.severity + "'><b>" + esc(f.rule) + "</b> " + esc(f.severity) +
        (f.port ? " <code>" + esc(f.port) + "</code>" : "") + (f.line ? " line " + f.line : "") +
        ": " + esc(f.message) + (f.suppressed ? " (suppressed: " + esc(f.suppressed) + ")" : "") +
        "</li>";
    }).join("") + "</ul>";
  }
  // The panel floats over the drawing only while something is selected.
  function say(html) { info.innerHTML = html; panel.hidden = false; }
  function idle() { info.innerHTML = "<p>Nothing selected.</p>"; panel.hidden = true; clearSel(); }
  function clearSel() { view.querySelectorAll(".sel").forEach(function (e) { e.classList.remove("sel"); }); }

  function drawSwitches(ids) {
    var shown = {}, hops = {}, cyc = {}, flagged = {}, bw, lay, out = [];
    ids.forEach(function (i) { shown[i] = true; });
    data.hops.forEach(function (h) { (hops[h[0]] = hops[h[0]] || []).push(h[1]); });
    data.cycle.forEach(function (i) { cyc[i] = true; });
    data.findings.forEach(function (f) { if (!f.suppressed && f.port) { flagged[f.device + "\u0000" + f.port] = 1; } });
    bw = textWidth(ids.map(function (i) { return sw.name[i]; })) + 36;  // 10 px pad, 26 badge
    var rows = [[], [], []];
    ids.forEach(function (i) { rows[sw.tier[i]].push(i); });
    lay = placeBeside(rows, bw, BH);
    var labels = [], count = 0;
    for (var k = 0; k < NL; k++) {
      var a = L[4 * k], b = L[4 * k + 2];
      if (!shown[a] || !shown[b]) { continue; }
      count += 1;
      var ap = data.ports[L[4 * k + 1]], bp = data.ports[L[4 * k + 3]], pa = lay.pos[a], pb = lay.pos[b];
      var x1 = pa[0] + bw / 2, y1 = pa[1] + (pa[1] < pb[1] ? BH : 0);
      var x2 = pb[0] + bw / 2, y2 = pb[1] + (pb[1] < pa[1] ? BH : 0);
      var fl = flagged[sw.name[a] + "\u0000" + ap] || flagged[sw.name[b] + "\u0000" + bp];
      out.push("<line class='link" + (hops[k] ? " hop" : "") + (fl ? " flagged" : "") +
        "' data-i='" + k + "' data-a='" + esc(sw.name[a]) + "' data-ap='" + esc(ap) + "' data-b='" +
        esc(sw.name[b]) + "' data-bp='" + esc(bp) + "' x1='" + x1.toFixed(1) + "' y1='" + y1.toFixed(1) +
        "' x2='" + x2.toFixed(1) + "' y2='" + y2.toFixed(1) + "'><title>" + esc(sw.name[a] + " " + ap +
        " - " + sw.name[b] + " " + bp) + "</title></line>");
      (hops[k] || []).forEach(function (n, j) {
        var t = 0.35 + 0.3 * j, cx = x1 + (x2 - x1) * t, cy = y1 + (y2 - y1) * t;
        labels.push("<g class='num'><circle cx='" + cx.toFixed(1) + "' cy='" + cy.toFixed(1) +
          "' r='9'/><text x='" + cx.toFixed(1) + "' y='" + (cy + 4).toFixed(1) +
          "' text-anchor='middle'>" + n + "</text></g>");
      });
    }
    ids.forEach(function (i) {
      var p = lay.pos[i], n = sw.finds[i];
      out.push("<g class='sw" + (cyc[i] ? " cyc" : "") + (n ? " flagged" : "") + "' data-device='" +
        esc(sw.name[i]) + "'><rect x='" + p[0].toFixed(1) + "' y='" + p[1].toFixed(1) + "' width='" + bw +
        "' height='" + BH + "' rx='4'" + (sw.colour[i] ? " style='fill:" + sw.colour[i] + "'" : "") +
        "/><text x='" + (p[0] + 10 + (bw - 36) / 2).toFixed(1) + "' y='" + (p[1] + 18.5).toFixed(1) +
        "' text-anchor='middle'>" + esc(sw.name[i]) + "</text>" + (n ? "<circle class='badge' cx='" +
        (p[0] + bw - 13).toFixed(1) + "' cy='" + (p[1] + BH / 2).toFixed(1) + "' r='8'/><text class='bt' x='" +
        (p[0] + bw - 13).toFixed(1) + "' y='" + (p[1] + BH / 2 + 4).toFixed(1) + "' text-anchor='middle'>" +
        (n > 99 ? "99+" : n) + "</text>" : "") + "</g>");
    });
    return { svg: out.concat(labels).join(""), width: lay.width, height: lay.height, pos: lay.pos,
      bw: bw, links: count };
  }

  function drawGroups() {
    var rows = [[], []], out = [];
    data.groups.forEach(function (g, k) { rows[g.tier].push(k); });
    var bw = Math.max(110, 24 + Math.max(textWidth(data.groups.map(function (g) { return g.name; })),
      textWidth(data.groups.map(function (g) { return g.members.length + " switches"; }))));
    var lay = placeBeside(rows, bw, GH);
    data.groups.forEach(function (g, k) {
      var p = lay.pos[k], cx = (p[0] + bw / 2).toFixed(1);
      out.push("<g class='group' data-group='" + esc(g.name) + "'><rect x='" + p[0].toFixed(1) +
        "' y='" + p[1].toFixed(1) + "' width='" + bw + "' height='" + GH + "' rx='6'/><text x='" + cx +
        "' y='" + (p[1] + 19).toFixed(1) + "' text-anchor='middle'>" + esc(g.name) +
        "</text><text class='sub' x='" + cx + "' y='" + (p[1] + 36).toFixed(1) +
        "' text-anchor='middle'>" + g.members.length + " switches</text></g>");
    });
    return { svg: out.join(""), width: lay.width, height: lay.height, pos: {}, bw: bw, links: 0 };
  }

  function setBox(d) {
    var cap = Math.max(360, Math.round(window.innerHeight * 0.8));
    var least = Math.max(240, Math.round(window.innerHeight * 0.4));  // room for the panel
    var h = Math.max(least, Math.min(d.height, cap));
    vb = [0, 0, box, h];
    var svg = view.querySelector("svg");
    svg.setAttribute("viewBox", vb.join(" "));
    svg.setAttribute("height", h);
    svg.dataset.width = Math.round(d.width);
    svg.dataset.height = Math.round(d.height);
  }
  function show(name) {
    current = name;
    box = Math.max(320, view.clientWidth || 960);
    if (name === "overview") {
      drawn = drawGroups();
    } else if (name === "all") {
      drawn = drawSwitches(sw.name.map(function (_, i) { return i; }));
    } else {
      var g = data.groups.filter(function (x) { return x.name === name; })[0];
      drawn = drawSwitches(g.shown);
    }
    // many links: fainter, so the switches stay readable over a full mesh
    view.innerHTML = "<svg class='topo" + (drawn.links > 300 ? " dense" : "") +
      "' xmlns='http://www.w3.org/2000/svg'>" + drawn.svg + "</svg>";
    setBox(drawn);
    back.hidden = name === data.start;
    where.textContent = name === "all" ? "" : name;
    status.dataset.view = name;
    status.dataset.switches = view.querySelectorAll("g.sw").length;
    status.dataset.links = drawn.links;
    status.dataset.groups = view.querySelectorAll("g.group").length;
  }

  function zoom(f, cx, cy) {
    var svg = view.querySelector("svg"), r = svg.getBoundingClientRect();
    var px = cx === undefined ? 0.5 : (cx - r.left) / r.width, py = cy === undefined ? 0.5 : (cy - r.top) / r.height;
    var w = Math.min(Math.max(vb[2] / f, box / 8), Math.max(drawn.width, drawn.height * box / vb[3]) * 4);
    var h = w * vb[3] / vb[2];
    vb = [vb[0] + (vb[2] - w) * px, vb[1] + (vb[3] - h) * py, w, h];
    svg.setAttribute("viewBox", vb.map(function (v) { return v.toFixed(1); }).join(" "));
  }
  function fit() {
    var svg = view.querySelector("svg"), h0 = Number(svg.getAttribute("height"));
    var s = Math.max(drawn.width / box, drawn.height / h0, 1e-9);
    vb = [(drawn.width - box * s) / 2, (drawn.height - h0 * s) / 2, box * s, h0 * s];
    svg.setAttribute("viewBox", vb.join(" "));
  }
  function natural() { setBox(drawn); }
  function centre(i) {
    var p = drawn.pos[i];
    if (!p) { return; }
    vb[0] = p[0] + drawn.bw / 2 - vb[2] / 2; vb[1] = Math.max(0, p[1] - vb[3] / 3);
    view.querySelector("svg").setAttribute("viewBox", vb.join(" "));
  }

  function selectDevice(name) {
    clearSel();
    var g = view.querySelector('g.sw[data-device="' + CSS.escape(name) + '"]');
    if (g) { g.classList.add("sel"); }
    var q = CSS.escape(name);  // its links stand out of a dense mesh
    view.querySelectorAll('line[data-a="' + q + '"], line[data-b="' + q + '"]').forEach(function (l) {
      l.classList.add("sel");
    });
    say(list(findingsOf(function (f) { return f.device === name; }), name));
    if (g) { reveal(g); }
  }
  // A selected switch under the panel is panned out from under it.
  function reveal(g) {
    var r = g.getBoundingClientRect(), p = panel.getBoundingClientRect();
    if (r.right < p.left || r.left > p.right || r.bottom < p.top || r.top > p.bottom) { return; }
    var svg = view.querySelector("svg"), k = vb[2] / svg.getBoundingClientRect().width;
    vb[0] += (r.right - p.left + 16) * k;
    svg.setAttribute("viewBox", vb.join(" "));
  }
  function endsTable(k) {
    var pa = data.ends[2 * k], pb = data.ends[2 * k + 1];
    var a = pa < 0 ? {} : data.profiles[pa], b = pb < 0 ? {} : data.profiles[pb];
    var keys = Object.keys(a).length ? Object.keys(a) : Object.keys(b);
    if (!keys.length) { return "<p>No port settings read for this link.</p>"; }
    var head = [sw.name[L[4 * k]] + " " + data.ports[L[4 * k + 1]], sw.name[L[4 * k + 2]] + " " + data.ports[L[4 * k + 3]]];
    var rows = [["address", data.addresses[2 * k], data.addresses[2 * k + 1], false]].concat(keys.map(function (key) {
      var x = a[key] === undefined ? "?" : a[key], y = b[key] === undefined ? "?" : b[key];
      return [key, x, y, x !== y];
    }));
    return "<table id='ends'><tr><th></th><th>" + esc(head[0]) + "</th><th>" + esc(head[1]) + "</th></tr>" +
      rows.map(function (r) {
        return "<tr" + (r[3] ? " class='differ'" : "") + "><th>" + esc(r[0]) + "</th><td>" + esc(r[1]) +
          "</td><td>" + esc(r[2]) + "</td></tr>";
      }).join("") + "</table>";
  }
  function selectLink(line) {
    clearSel(); line.classList.add("sel");
    var d = line.dataset, ends = [[d.a, d.ap], [d.b, d.bp]];
    var hits = findingsOf(function (f) {
      return ends.some(function (e) {
        return (f.device === e[0] && f.port === e[1]) || (f.related_device === e[0] && f.related_port === e[1]);
      });
    });
    say(endsTable(Number(d.i)) + list(hits, d.a + " " + d.ap + " - " + d.b + " " + d.bp));
  }
  function goTo(name) {
    var i = byName[name];
    if (i === undefined) { return false; }
    if (data.groups.length) {
      var g = data.groups.filter(function (x) { return x.members.indexOf(i) >= 0; })[0];
      if (g && current !== g.name) { show(g.name); }
    }
    selectDevice(name);
    // centred only when out of sight: a fabric in view stays put (centring pushed its far
    // side under the panel)
    var sel = view.querySelector("g.sw.sel");
    if (sel && !inView(sel)) { centre(i); reveal(sel); }
    return true;
  }
  function inView(g) {
    var r = g.getBoundingClientRect(), v = view.getBoundingClientRect();
    return r.left >= v.left && r.right <= v.right && r.top >= v.top && r.bottom <= v.bottom;
  }

  // Pan by dragging anywhere in the box; a drag is not a click.
  var drag = null, moved = false;
  view.addEventListener("pointerdown", function (ev) {
    if (ev.button !== 0) { return; }
    drag = [ev.clientX, ev.clientY, vb[0], vb[1]]; moved = false;
  });
  window.addEventListener("pointermove", function (ev) {
    if (!drag) { return; }
    var dx = ev.clientX - drag[0], dy = ev.clientY - drag[1];
    if (!moved && Math.abs(dx) + Math.abs(dy) < 4) { return; }
    moved = true; view.classList.add("dragging");
    var k = vb[2] / view.querySelector("svg").getBoundingClientRect().width;
    vb[0] = drag[2] - dx * k; vb[1] = drag[3] - dy * k;
    view.querySelector("svg").setAttribute("viewBox", vb.join(" "));
  });
  window.addEventListener("pointerup", function () { drag = null; view.classList.remove("dragging"); });
  view.addEventListener("wheel", function (ev) {
    ev.preventDefault(); zoom(ev.deltaY < 0 ? 1.25 : 0.8, ev.clientX, ev.clientY);
  }, { passive: false });
  view.addEventListener("click", function (ev) {
    if (moved) { moved = false; return; }
    var g = ev.target.closest("g.sw"), grp = ev.target.closest("g.group"), ln = ev.target.closest("line.link");
    if (grp) { show(grp.dataset.group); } else if (g) { selectDevice(g.dataset.device); } else if (ln) { selectLink(ln); }
  });
  back.addEventListener("click", function () { show(data.start); });
  closer.addEventListener("click", idle);
  document.getElementById("zin").addEventListener("click", function () { zoom(1.25); });
  document.getElementById("zout").addEventListener("click", function () { zoom(0.8); });
  document.getElementById("fit").addEventListener("click", fit);
  document.getElementById("actual").addEventListener("click", natural);
  var find = document.getElementById("find");
  document.getElementById("names").innerHTML = sw.name.map(function (n) { return "<option value='" + esc(n) + "'>"; }).join("");
  find.addEventListener("change", function () { find.setCustomValidity(goTo(find.value) ? "" : "no such switch"); });
  var resized = null;
  window.addEventListener("resize", function () {
    clearTimeout(resized);
    resized = setTimeout(function () { if (Math.max(320, view.clientWidth) !== box) { show(current); } }, 150);
  });

  // The findings table: every finding once, sorted by the column clicked, filtered by severity,
  // rule and switch; a switch's name selects it in the drawing. Only the first ROWS matches are
  // drawn (a config of 100,000 ports has 400,000 findings): the filters reach the rest.
  var ROWS = 2000, RANK = { error: 0, warning: 1, info: 2 };
  var ftable = document.getElementById("ftable"), fbody = ftable.tBodies[0];
  var fsev = document.getElementById("f-sev"), frule = document.getElementById("f-rule");
  var fdev = document.getElementById("f-dev"), fcount = document.getElementById("f-count");
  var fmore = document.getElementById("f-more"), FS = data.findings;
  var collator = new Intl.Collator("en", { numeric: true });
  var order = FS.map(function (_, i) { return i; }), sortKey = null, sortDir = 1;
  var NUMERIC = {
    severity: function (f) { return RANK[f.severity]; },
    line: function (f) { return f.line === undefined ? Infinity : f.line; }  // none: last
  };
  function compare(key) {
    var num = NUMERIC[key];
    return function (i, j) {
      var a = FS[i], b = FS[j], c;
      if (num) {
        c = num(a) < num(b) ? -1 : num(a) > num(b) ? 1 : 0;
      } else {
        c = collator.compare(String(a[key] || ""), String(b[key] || ""));  // leaf-9 < leaf-10
      }
      return sortDir * c || i - j;  // ties keep lint's order
    };
  }
  function fillSelect(select, values) {
    var counts = {};
    FS.forEach(function (f) { counts[values(f)] = (counts[values(f)] || 0) + 1; });
    var keys = Object.keys(counts).sort(select === fsev ? function (a, b) { return RANK[a] - RANK[b]; } : collator.compare);
    select.insertAdjacentHTML("beforeend", keys.map(function (k) {
      return "<option value='" + esc(k) + "'>" + esc(k) + " (" + counts[k].toLocaleString("en") + ")</option>";
    }).join(""));
  }
  function findingRow(i) {
    var f = FS[i], far = f.related_device ? " (far end " + f.related_device + " " + (f.related_port || "") + ")" : "";
    var dev = byName[f.device] === undefined ? esc(f.device) : "<a class='dev' href='#device=" +
      esc(encodeURIComponent(f.device)) + "'>" + esc(f.device) + "</a>";
    return "<tr data-i='" + i + "'" + (f.suppressed ? " class='sup'" : "") + "><td class='f-" +
      esc(f.severity) + "'>" + esc(f.severity) + "</td><td>" + esc(f.rule) + "</td><td>" + dev +
      "</td><td>" + esc(f.port || "") + "</td><td" + (f.file ? " title='" + esc(f.file) + "'" : "") + ">" +
      esc(f.line === undefined ? "" : f.line) + "</td><td>" + esc(f.message + far) +
      (f.suppressed ? " (suppressed: " + esc(f.suppressed) + ")" : "") + "</td></tr>";
  }
  function counted(n) { return n.toLocaleString("en") + (n === 1 ? " finding" : " findings"); }
  function drawFindings() {
    var sev = fsev.value, rule = frule.value, dev = fdev.value.trim().toLowerCase();
    var rows = order.filter(function (i) {
      var f = FS[i];
      return (!sev || f.severity === sev) && (!rule || f.rule === rule) &&
        (!dev || f.device.toLowerCase().indexOf(dev) >= 0);
    });
    fbody.innerHTML = rows.slice(0, ROWS).map(findingRow).join("");
    fcount.textContent = rows.length === FS.length ? counted(FS.length) :
      rows.length.toLocaleString("en") + " of " + counted(FS.length);
    fmore.hidden = rows.length <= ROWS;
    fmore.textContent = "The first " + ROWS.toLocaleString("en") + " of " + counted(rows.length) +
      " are shown: filter by rule, switch or severity to see the rest.";
  }
  ftable.tHead.addEventListener("click", function (ev) {
    var th = ev.target.closest("th");
    if (!th) { return; }
    sortDir = sortKey === th.dataset.key ? -sortDir : 1;
    sortKey = th.dataset.key;
    order.sort(compare(sortKey));
    ftable.tHead.querySelectorAll("th").forEach(function (h) {
      h.setAttribute("aria-sort", h === th ? (sortDir > 0 ? "ascending" : "descending") : "none");
    });
    drawFindings();
  });
  fbody.addEventListener("click", function (ev) {
    var a = ev.target.closest("a.dev");
    if (!a) { return; }
    ev.preventDefault();
    fbody.querySelectorAll("tr.sel").forEach(function (r) { r.classList.remove("sel"); });
    a.closest("tr").classList.add("sel");
    goTo(FS[Number(a.closest("tr").dataset.i)].device);
    document.getElementById("topology").scrollIntoView({ block: "start" });
  });
  fillSelect(fsev, function (f) { return f.severity; });
  fillSelect(frule, function (f) { return f.rule; });
  [fsev, frule].forEach(function (s) { s.addEventListener("change", drawFindings); });
  fdev.addEventListener("input", drawFindings);
  drawFindings();

  document.getElementById("cycles").innerHTML = data.cycles.length ? data.cycles.map(function (c) {
    return "<section><h3>" + esc(c.title) + "</h3><p><code>" + esc(c.chain) + "</code></p><ol>" +
      c.causes.map(function (x) { return "<li>" + esc(x) + "</li>"; }).join("") + "</ol></section>";
  }).join("") : "<p>No deadlock cycle in the scenarios checked.</p>";
  show(data.start);
  idle();
  if (location.hash.indexOf("#device=") === 0) { goTo(decodeURIComponent(location.hash.slice(8))); }
  status.dataset.ready = "1";
})();
