// Shows the branch through the entry named in the address (#e-<id>) and
// applies the tree's filter and search. The page reads fine without it:
// the server already showed the path to the session's leaf.
(function () {
  "use strict";
  var sections = document.querySelectorAll("#entries > section.entry");
  var parentOf = new Map();
  var childrenOf = new Map();
  var sectionOf = new Map();
  sections.forEach(function (s) {
    var id = s.dataset.id, parent = s.dataset.parent || "";
    sectionOf.set(id, s);
    parentOf.set(id, parent);
    if (!childrenOf.has(parent)) childrenOf.set(parent, []);
    childrenOf.get(parent).push(id);
  });
  var rows = document.querySelectorAll("#tree li.row");
  var rowOf = new Map();
  rows.forEach(function (r) { rowOf.set(r.dataset.id, r); });
  var onPath = new Set();
  sections.forEach(function (s) { if (!s.hidden) onPath.add(s.dataset.id); });

  // branchThrough returns the entries shown for a picked one: its
  // ancestors, itself, and below it the child on the branch shown before
  // (else the newest child), down to a leaf.
  function branchThrough(id) {
    var path = new Set();
    for (var x = id; x && sectionOf.has(x) && !path.has(x); x = parentOf.get(x)) path.add(x);
    for (var y = id; ;) {
      var kids = childrenOf.get(y) || [];
      if (kids.length === 0) break;
      var next = kids.find(function (k) { return onPath.has(k); }) || kids[kids.length - 1];
      if (path.has(next)) break;
      path.add(next);
      y = next;
    }
    return path;
  }

  function show(id, scroll) {
    if (!sectionOf.has(id)) return;
    onPath = branchThrough(id);
    sectionOf.forEach(function (s, sid) { s.hidden = !onPath.has(sid); });
    rowOf.forEach(function (r, rid) {
      r.classList.toggle("active", onPath.has(rid));
      r.classList.toggle("selected", rid === id);
    });
    if (scroll) sectionOf.get(id).scrollIntoView({ block: "start" });
  }

  function fromAddress() {
    var h = decodeURIComponent(location.hash.slice(1));
    if (h.indexOf("e-") === 0) show(h.slice(2), true);
  }
  window.addEventListener("hashchange", fromAddress);
  fromAddress();

  var filter = document.getElementById("tree-filter");
  var search = document.getElementById("tree-search");
  function applyFilter() {
    var letter = filter.value;
    var words = search.value.toLowerCase().split(/\s+/).filter(Boolean);
    rows.forEach(function (r) {
      var keep = (r.dataset.f || "").indexOf(letter) >= 0;
      if (keep && words.length) {
        var text = r.textContent.toLowerCase();
        keep = words.every(function (w) { return text.indexOf(w) >= 0; });
      }
      r.hidden = !keep;
    });
  }
  filter.addEventListener("change", applyFilter);
  search.addEventListener("input", applyFilter);
})();
