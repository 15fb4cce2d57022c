// Step through the records: slider, arrow keys, Home/End, PageUp/PageDown, a click on a record.
// Every state is drawn by the server into #states (gzip'd JSON, base64); it is unpacked once here.
(function () {
  "use strict";
  var slider = document.getElementById("slider");
  if (!slider) return;
  var items = Array.prototype.slice.call(document.querySelectorAll("#records li[data-seq]"));
  var table = document.getElementById("state");
  var where = document.getElementById("where");
  var refused = document.getElementById("refused");
  var last = items[items.length - 1].dataset.seq;
  var current = +document.body.dataset.start;  // the record the server marked current
  var shown = items[current].dataset.state;  // and the state it drew
  var states = null;

  function draw() {
    var k = items[current].dataset.state;
    if (states === null || k === "" || k === shown) return;
    table.innerHTML = states[+k];
    shown = k;
  }

  function go(i, scroll) {
    i = Math.max(0, Math.min(items.length - 1, i));
    var li = items[i];
    items[current].classList.remove("current");
    li.classList.add("current");
    current = i;
    if (refused) refused.hidden = !li.classList.contains("failed");
    slider.value = i;
    where.textContent = (li.dataset.seq === "0" ? "setup" : "record " + li.dataset.seq) + " of " + last;
    if (scroll !== false) reveal(li);
    draw();
  }

  // Scroll the record list alone (scrollIntoView would scroll the whole page too).
  function reveal(li) {
    var list = li.parentNode;
    var top = li.getBoundingClientRect().top - list.getBoundingClientRect().top + list.scrollTop;
    if (top < list.scrollTop || top + li.offsetHeight > list.scrollTop + list.clientHeight) {
      list.scrollTop = top - list.clientHeight / 2;
    }
  }

  function bySeq(hash) {
    var m = /^#r(\d+)$/.exec(hash || "");
    if (!m) return -1;
    for (var i = 0; i < items.length; i++) if (items[i].dataset.seq === m[1]) return i;
    return -1;
  }

  function unpack() {
    var packed = document.getElementById("states");
    if (!packed || !window.DecompressionStream) {
      document.getElementById("unpacking").hidden = false;
      return;
    }
    var text = atob(packed.textContent.trim()), bytes = new Uint8Array(text.length);
    for (var i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
    var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    new Response(stream).json().then(function (list) {
      states = list;
      document.body.dataset.ready = "1";
      draw();
    });
  }

  slider.addEventListener("input", function () { go(+slider.value); });
  items.forEach(function (li, i) { li.addEventListener("click", function () { go(i, false); }); });
  document.querySelectorAll("[data-go]").forEach(function (b) {
    b.addEventListener("click", function () {
      go({first: 0, prev: current - 1, next: current + 1, last: items.length - 1}[b.dataset.go]);
    });
  });
  document.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    var moves = {ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1, PageDown: 10, PageUp: -10};
    if (e.key in moves) go(current + moves[e.key]);
    else if (e.key === "Home") go(0);
    else if (e.key === "End") go(items.length - 1);
    else return;
    e.preventDefault();  // the slider must not move a second time by itself
  });
  window.addEventListener("hashchange", function () {
    var i = bySeq(location.hash);
    if (i >= 0 && i !== current) go(i);
  });
  var fromHash = bySeq(location.hash);
  go(fromHash >= 0 ? fromHash : +document.body.dataset.start);
  unpack();
})();
