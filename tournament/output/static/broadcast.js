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
    var fresh = holder.querySelector("#broadcast-panel"), shown = document.getElementById("broadcast-panel");
    /* the table of a new round (the stream of the last one ended, this one is the new one's): its heading too */
    if (fresh && fresh.dataset.round !== shown.dataset.round) { stream.close(); window.location.reload(); return; }
    if (fresh) { shown.replaceWith(fresh); }
    state.textContent = "";
  });
  stream.addEventListener("error", function () { state.textContent = "reconnecting to the table…"; });
}());
