/* The pages' only script, served from /static so the Content-Security-Policy needs no 'unsafe-inline'.
   Each part reads what it needs from data attributes the templates write; a page without them skips it. */
(function () {
  "use strict";

  /* The join page: the QR link carries the code after "#", which browsers never send to a server, so it is
     in no log. Take it from there, wipe it from the address bar, and sign in. */
  var join = document.querySelector("form[data-code-from-hash]");
  if (join) {
    var match = /[#&]code=([^&]+)/.exec(location.hash);
    if (match) {
      history.replaceState(null, "", location.pathname);
      join.querySelector("[name=code]").value = decodeURIComponent(match[1]);
      join.submit();
    }
  }

  /* Each round clock counts down; the end time stays as the page wrote it, in the event's time zone (named once
     beside it), never the reader's phone's. */
  var clocks = document.querySelectorAll("[data-ends]");
  function tick() {
    clocks.forEach(function (el) {
      var left = Math.round((Date.parse(el.dataset.ends) - Date.now()) / 1000);
      var at = el.dataset.at;
      el.textContent = left > 0
        ? at + " (" + Math.floor(left / 60) + ":" + String(left % 60).padStart(2, "0") + " left)"
        : at + " (time is up)";
    });
  }
  if (clocks.length) { tick(); setInterval(tick, 1000); }

  /* "Back" on the error page: the previous page when there is one. */
  document.querySelectorAll("a[data-back]").forEach(function (a) {
    a.addEventListener("click", function (event) {
      if (history.length > 1) { event.preventDefault(); history.back(); }
    });
  });

  /* Ask every few seconds whether the event log moved; reload then, unless someone is typing in a form. */
  var poll = document.body.dataset;
  if (poll.pollUrl) {
    setInterval(function () {
      fetch(poll.pollUrl, {cache: "no-store"}).then(function (r) { return r.ok ? r.json() : null; }).then(function (v) {
        if (!v || String(v.seq) === poll.seq) { return; }
        /* a box focused by the page itself (the round's first score) but still as drawn is no one typing */
        var el = document.activeElement;
        var typing = el && (/^(TEXTAREA|SELECT)$/.test(el.tagName) || (el.tagName === "INPUT" && el.value !== el.defaultValue));
        if (typing) { document.getElementById("changed").hidden = false; } else { location.reload(); }
      }).catch(function () {});
    }, Number(poll.pollMs));
  }
})();
