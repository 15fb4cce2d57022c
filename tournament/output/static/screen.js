/* The big screen (/e/EVENT/screen): cut its list into the pages that fit the window and turn them,
   and count the round's clock down in big figures. A file, since the Content-Security-Policy runs no inline script. */
(function () {
  "use strict";

  var list = document.querySelector(".screen-list[data-page-seconds]");
  var counter = document.getElementById("screen-page");
  if (list) {
    var items = Array.prototype.slice.call(list.children);
    var seconds = Number(list.dataset.pageSeconds) || 10;
    var perPage = items.length || 1, pages = 1;
    var key = "screen-page:" + location.pathname;
    /* The page reloads itself whenever a result comes in (headjudge.js follows the event): carry on from the page
       shown before, or the later pages would never be seen during a round. */
    var saved = JSON.parse(sessionStorage.getItem(key) || "null");
    var page = saved ? saved.page + Math.floor((Date.now() - saved.at) / (seconds * 1000)) : 0;

    var show = function () {
      page = pages ? page % pages : 0;
      items.forEach(function (li, i) { li.hidden = Math.floor(i / perPage) !== page; });
      counter.textContent = pages > 1 ? "page " + (page + 1) + " of " + pages : "";
      sessionStorage.setItem(key, JSON.stringify({page: page, at: Date.now()}));
    };
    var layout = function () {
      if (!items.length) { return; }
      /* One line alone in the list: the grid's columns are then only those the width fits (auto-fill). */
      items.forEach(function (li, i) { li.hidden = i > 0; });
      list.style.setProperty("--rows", "1");
      var columns = getComputedStyle(list).gridTemplateColumns.split(" ").length;
      var row = items[0].getBoundingClientRect().height;
      var rows = Math.max(1, Math.floor(list.clientHeight / row));
      list.style.setProperty("--rows", String(rows));
      perPage = rows * columns;
      pages = Math.ceil(items.length / perPage);
      show();
    };
    layout();
    window.addEventListener("resize", layout);
    setInterval(function () { page += 1; show(); }, seconds * 1000);
  }

  var clock = document.querySelector("[data-screen-ends]");
  if (clock) {
    var tick = function () {
      var left = Math.round((Date.parse(clock.dataset.screenEnds) - Date.now()) / 1000);
      clock.textContent = left > 0 ? Math.floor(left / 60) + ":" + String(left % 60).padStart(2, "0") : "Time is up";
      clock.classList.toggle("up", left <= 0);
    };
    tick();
    setInterval(tick, 1000);
  }
})();
