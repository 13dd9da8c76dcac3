(function () {
  "use strict";
  var sel = document.getElementById("metric");
  var help = document.getElementById("metric-help");
  var rows = Array.prototype.slice.call(document.querySelectorAll("tr.ln"));
  var data = rows.map(function (r) { return r.dataset.v ? JSON.parse(r.dataset.v) : {}; });
  function fmt(v) {
    var a = Math.abs(v);
    if (a >= 1e9) return (v / 1e9).toFixed(1) + "G";
    if (a >= 1e6) return (v / 1e6).toFixed(1) + "M";
    if (a >= 1e4) return (v / 1e3).toFixed(1) + "k";
    if (Number.isInteger(v)) return String(v);
    return v.toFixed(2);
  }
  function paint() {
    if (!sel) return;
    var m = sel.value, max = 0;
    data.forEach(function (d) { if (d[m] > max) max = d[m]; });
    rows.forEach(function (r, i) {
      var v = data[i][m], cell = r.querySelector("td.val");
      if (v === undefined) { r.style.background = ""; cell.textContent = ""; r.dataset.heat = ""; return; }
      var h = max > 0 ? Math.sqrt(v / max) : 0;
      r.style.background = v > 0 ? "rgba(213, 94, 0, " + (0.06 + 0.6 * h).toFixed(3) + ")" : "";
      r.dataset.heat = h.toFixed(3);
      cell.textContent = fmt(v);
    });
    var opt = sel.options[sel.selectedIndex];
    if (help && opt) help.textContent = opt.title + (max > 0 ? " (max " + fmt(max) + ")" : " (none)");
  }
  function go(id) {
    var el = document.getElementById(id);
    if (!el) return;
    el.scrollIntoView({ block: "center" });
    el.classList.add("flash");
    setTimeout(function () { el.classList.remove("flash"); }, 1500);
    if (history.replaceState) history.replaceState(null, "", "#" + id);
  }
  if (sel) sel.addEventListener("change", paint);
  document.addEventListener("click", function (e) {
    var no = e.target.closest("tr.has-ptx td.no");
    if (no) {
      var p = document.getElementById("ptx-" + no.parentNode.id);
      if (p) p.hidden = !p.hidden;
      return;
    }
    var t = e.target.closest("[data-target]");
    if (t) go(t.getAttribute("data-target"));
  });
  paint();
})();
