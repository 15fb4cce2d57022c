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

  /* Follow the event: its live stream (/api/events/EVENT/live) sends the event log's head at once, at each
     change and every keepalive; when it moves past the page's own, reload (T-125). Not while someone is typing
     or has half filled a form: say the event changed, and look again at the next head. A burst of changes
     (a round of results keyed in a row) is one reload: the first head waits SETTLE_MS for the rest (T-127).
     While the stream is down (closed, reconnecting, or silent past two keepalives) ask the poll URL (T-126). */
  var live = document.body.dataset;
  if (live.seq) {
    var SETTLE_MS = 500;
    var seq = Number(live.seq), stream = null, heard = 0, due = null;
    var typing = function () {
      /* a box focused by the page itself (the round's first score) but still as drawn is no one typing */
      var el = document.activeElement;
      return el && (/^(TEXTAREA|SELECT)$/.test(el.tagName) || (el.tagName === "INPUT" && el.value !== el.defaultValue));
    };
    var moved = function (head) {
      if (!(head > seq) || due) { return; }
      due = setTimeout(function () {
        due = null;
        if (typing()) { document.getElementById("changed").hidden = false; } else { location.reload(); }
      }, SETTLE_MS);
    };
    var listen = function () {
      stream = new EventSource(live.liveUrl);
      stream.addEventListener("open", function () { heard = Date.now(); });
      stream.addEventListener("head", function (e) { heard = Date.now(); moved(Number(e.data)); });
    };
    if (live.liveUrl && window.EventSource) { listen(); }
    /* Leaving (a link, a form, the address bar): a reload now would cut that navigation short. Should the page
       stay after all (a download), the closed stream is opened again at the next poll, which asks the head. */
    window.addEventListener("beforeunload", function () {
      clearTimeout(due);
      due = null;
      if (stream) { stream.close(); }
    });
    setInterval(function () {
      if (stream && stream.readyState === EventSource.OPEN && Date.now() - heard < 2.5 * Number(live.liveMs)) { return; }
      if (stream && stream.readyState !== EventSource.CONNECTING) { stream.close(); listen(); }
      fetch(live.pollUrl, {cache: "no-store"}).then(function (r) { return r.ok ? r.json() : null; }).then(function (v) {
        if (v) { moved(Number(v.seq)); }
      }).catch(function () {});
    }, Number(live.pollMs));
  }

  /* The installable web app: in a secure context, the service worker (/sw.js) is registered on every page, so
     push messages reach the phone with the page closed. "Tell me on this phone" asks the browser for a push
     subscription with the server's VAPID key, and posts it with the page's own form (CSRF token, one-time key). */
  var push = document.querySelector("form[data-vapid]");
  var swReady = null;
  if (window.isSecureContext && "serviceWorker" in navigator) {
    swReady = navigator.serviceWorker.register("/sw.js").then(function () { return navigator.serviceWorker.ready; });
    swReady.catch(function () {});
  }
  function keyBytes(text) {
    var raw = atob(text.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((text.length + 3) % 4));
    var bytes = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i++) { bytes[i] = raw.charCodeAt(i); }
    return bytes;
  }
  function b64(buffer) {
    var bytes = new Uint8Array(buffer), text = "";
    for (var i = 0; i < bytes.length; i++) { text += String.fromCharCode(bytes[i]); }
    return btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }
  if (push) {
    var said = push.querySelector("[data-push-status]");
    var button = push.querySelector("button");
    if (!swReady || !("PushManager" in window)) {
      said.textContent = "This browser cannot take push messages here; use e-mail, or keep this page open.";
      button.disabled = true;
    }
    push.addEventListener("submit", function (event) {
      event.preventDefault();
      button.disabled = true;
      said.textContent = "Asking the browser…";
      swReady.then(function (registration) {
        return Notification.requestPermission().then(function (answer) {
          if (answer !== "granted") { throw new Error("notifications were not allowed"); }
          return registration.pushManager.subscribe({userVisibleOnly: true, applicationServerKey: keyBytes(push.dataset.vapid)});
        });
      }).then(function (subscription) {
        push.querySelector("[name=endpoint]").value = subscription.endpoint;
        push.querySelector("[name=p256dh]").value = b64(subscription.getKey("p256dh"));
        push.querySelector("[name=auth]").value = b64(subscription.getKey("auth"));
        push.submit();
      }).catch(function (error) {
        said.textContent = "No push messages: " + error.message + ". Use e-mail, or keep this page open.";
        button.disabled = false;
      });
    });
  }
})();
