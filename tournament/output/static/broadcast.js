/* A table's broadcast (/e/EVENT/tables/T/broadcast): the server pushes the panel drawn for every screen after each
   change (its broadcast stream); this puts it in place. A file, since the Content-Security-Policy runs no inline
   script. The EventSource reconnects by itself; the panel it then gets is the table as it stands. */
(function () {
  "use strict";

  var url = document.body.dataset.broadcast, state = document.getElementById("broadcast-state");
  if (!url || !window.EventSource) { return; }
  var stream = new EventSource(url);
  stream.addEventListener("panel", function (event) {
    var holder = document.createElement("div");
    holder.innerHTML = event.data;
    var fresh = holder.querySelector("#broadcast-panel");
    if (fresh) { document.getElementById("broadcast-panel").replaceWith(fresh); }
    state.textContent = "";
  });
  stream.addEventListener("error", function () { state.textContent = "reconnecting to the table…"; });
}());
