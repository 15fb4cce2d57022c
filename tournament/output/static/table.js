/* A live table's page (web/tablepages.py): follow the table's live stream, record with a tap, confirm the end.
   The page's changing part (#panel) is drawn by the server for the reader's seat; after each change the
   stream announces, it is fetched again. Records go to the JSON API's handlers on the page's session, with
   the page's CSRF token in a header (T-86); a refusal is shown at once and the page stays where it was. */
(function () {
  "use strict";
  var root = document.getElementById("recorder");
  if (!root) { return; }
  var base = root.dataset.base;
  var status = document.getElementById("live-state");
  var refusal = document.getElementById("refusal");
  var names = JSON.parse(root.dataset.names || "{}");  /* player id -> name, for the alternatives a refusal lists */

  function panel() { return document.getElementById("panel"); }
  function at(p) { return {game: Number(p.dataset.game), seq: Number(p.dataset.seq)}; }
  function head() { return at(panel()); }

  function post(path, body) {
    return fetch(base + path, {
      method: "POST", credentials: "same-origin", cache: "no-store",
      /* Accept: a refusal comes back as JSON with its one line, not as the error page (T-130) */
      headers: {"Content-Type": "application/json", "Accept": "application/json", "X-CSRFToken": root.dataset.csrf},
      body: JSON.stringify(body)
    }).then(function (r) {
      return r.json().then(function (data) { return {status: r.status, data: data}; },
        function () { return {status: r.status, data: {error: "the server answered " + r.status}}; });
    });
  }

  /* The panel as the server draws it now; an answer older than the one shown is dropped. */
  var loading = null, again = false;
  function load() {
    if (loading) { again = true; return loading; }  /* asked while a fetch is out: fetch once more after it */
    loading = fetch(base + "/panel", {credentials: "same-origin", cache: "no-store"}).then(function (r) {
      return r.ok ? r.text() : null;
    }).then(function (html) {
      loading = null;
      if (again) { again = false; load(); }
      if (html === null) { return; }
      var holder = document.createElement("div");
      holder.innerHTML = html;
      show(holder.querySelector("#panel"));
    }, function () { loading = null; });
    return loading;
  }

  /* Put a fresh panel in place of the one shown. Not while a finger (or the mouse) is down on the panel: a button
     replaced between its press and its release never hears the tap, so the fresh panel waits for the release, and
     the tap goes to what the player saw (a record made on an old head is refused with the reason, T-85). A panel
     drawn as the one shown was stays: the other player's confirmation changes nothing on this seat's page. */
  var drawn = panel().outerHTML, pressed = null, waiting = null;
  function show(fresh) {
    var now = at(waiting || panel()), then = at(fresh);
    if (then.game < now.game || (then.game === now.game && then.seq < now.seq)) { return; }
    if (pressed) { waiting = fresh; return; }
    if (fresh.outerHTML === drawn) { return; }
    drawn = fresh.outerHTML;
    keepTyping(panel(), fresh);
    panel().replaceWith(fresh);
    seen();
  }
  /* A record half typed in the form stays, open and in focus, when the table moves on under it. */
  function keepTyping(shown, fresh) {
    var typed = shown.querySelector("#typed"), into = fresh.querySelector("#typed");
    if (!typed || !into || typed.value === typed.defaultValue) { return; }
    into.value = typed.value;
    into.closest("details").open = true;
    if (document.activeElement === typed) { setTimeout(function () { into.focus(); }, 0); }
  }
  function release() {
    if (!pressed) { return; }
    clearTimeout(pressed);
    pressed = null;
    /* after the click this release makes has been handled */
    setTimeout(function () { var fresh = waiting; waiting = null; if (fresh) { show(fresh); } }, 0);
  }
  document.addEventListener("pointerdown", function (event) {
    if (!event.target.closest("#panel")) { return; }
    clearTimeout(pressed);
    pressed = setTimeout(release, 2000);  /* a press that never ends (the pointer left the window) holds nothing long */
  });
  document.addEventListener("pointerup", release);
  document.addEventListener("pointercancel", release);

  function seen() {
    /* a reported match's table takes nothing more, an acknowledgement neither (T-133) */
    if (root.dataset.seat !== "player" || panel().dataset.reported === "yes") { return; }
    var h = head();
    post("/seen", {game: h.game, seq: h.seq}).catch(function () {});
  }

  function refuse(data) {
    refusal.querySelector(".rule-id").textContent = data.rule || "refused";
    refusal.querySelector(".why").textContent = data.error || "";
    var list = refusal.querySelector("ul");
    list.textContent = "";
    (data.legal || []).slice(0, 30).forEach(function (record) {
      var item = document.createElement("li");
      item.textContent = Object.keys(record).filter(function (k) { return k !== "by"; }).map(function (k) {
        var value = record[k];
        return k === "type" ? value : k + " " + (typeof value === "string" ? (names[value] || value) : JSON.stringify(value));
      }).join(" · ");
      list.appendChild(item);
    });
    refusal.querySelector(".instead").hidden = !(data.legal && data.legal.length);
    refusal.hidden = false;
    refusal.scrollIntoView({block: "nearest"});
  }

  function record(data) {
    return post("/records", {after: head().seq, record: data}).then(function (answer) {
      if (answer.status === 201) { refusal.hidden = true; return load(); }
      refuse(answer.data);
      if (answer.status === 409) { return load(); }  /* someone recorded first: the table as it is now */
    });
  }

  /* Whether a record names `card` anywhere: a field, a list, an object's key (a blocker) or value. */
  function mentions(value, card) {
    if (value === card) { return true; }
    if (Array.isArray(value)) { return value.some(function (v) { return mentions(v, card); }); }
    if (value && typeof value === "object") {
      return Object.keys(value).some(function (k) { return k === card || mentions(value[k], card); });
    }
    return false;
  }

  /* A card tapped in the drawing: the records that name it, as the same buttons (the screens keep the rest). */
  function cardRecords(card) {
    var box = document.getElementById("card-records");
    if (!box) { return; }
    var list = box.querySelector(".taps");
    list.textContent = "";
    panel().querySelectorAll(".screen:not(#card-records) button[data-record]").forEach(function (b) {
      var data = JSON.parse(b.dataset.record);
      if (b.classList.contains("likely") || !mentions(data, card)) { return; }
      var copy = b.cloneNode(true);
      copy.classList.remove("card");
      var screen = b.closest(".screen");  /* where the button was, but for the first screen's own heading */
      var row = b.closest(".cards");  /* a row of cards drawn unnamed says its kind above it */
      var where = row ? row.previousElementSibling.textContent : screen.id === "screen-0" ? "" : screen.querySelector("h2").textContent;
      copy.textContent = (where ? where + " › " : "") + b.textContent;
      list.appendChild(copy);
    });
    var label = JSON.parse(box.dataset.labels || "{}")[card] || card;  /* a page shows a card as its buttons do, never its id */
    box.querySelector("h2").textContent = list.children.length ? label + ": what you may record with it"
      : "Nothing names " + label + " now";
    panel().querySelectorAll(".screen").forEach(function (s) { s.hidden = s !== box; });
    var first = list.querySelector("button");
    if (first) { first.focus(); }
  }

  /* A search box filters its screen's buttons by their words (a card's label or its name). */
  document.addEventListener("input", function (event) {
    if (!event.target.classList.contains("find")) { return; }
    var words = event.target.value.trim().toLowerCase();
    /* the rows of cards drawn unnamed are not filtered: they are short, and their headings would stand empty */
    event.target.closest(".screen").querySelectorAll(".taps:not(.cards) button").forEach(function (b) {
      b.hidden = words !== "" && b.dataset.find.indexOf(words) < 0;
    });
  });

  document.addEventListener("click", function (event) {
    var card = event.target.closest("#panel .felt [data-card]");
    if (card && document.getElementById("card-records")) { cardRecords(card.dataset.card); return; }
    var button = event.target.closest("#panel button");
    if (!button) { return; }
    if (button.dataset.opens !== undefined) {
      panel().querySelectorAll(".screen").forEach(function (s) { s.hidden = s.id !== "screen-" + button.dataset.opens; });
      var shown = document.getElementById("screen-" + button.dataset.opens);
      var first = shown && shown.querySelector("button");
      if (first) { first.focus(); }
    } else if (button.dataset.record !== undefined) {
      button.disabled = true;
      record(JSON.parse(button.dataset.record)).finally(function () { button.disabled = false; });
    } else if (button.classList.contains("confirm")) {
      button.disabled = true;
      post("/confirm", {game: Number(button.dataset.game), seq: Number(button.dataset.seq)}).then(function (answer) {
        if (answer.status >= 300) { refuse(answer.data); }
        return load();
      }).finally(function () { button.disabled = false; });  /* refused, the panel may stay as drawn: tap again */
    }
  });

  document.addEventListener("submit", function (event) {
    if (event.target.id === "withdraw-form") {  /* the judge withdraws a record, the reason kept in the log */
      event.preventDefault();
      var form = event.target;
      record({type: "withdraw", by: "judge", record: Number(form.elements.record.value), reason: form.elements.reason.value});
      return;
    }
    if (event.target.id !== "typed-form") { return; }
    event.preventDefault();
    var text = event.target.querySelector("textarea").value;
    var data;
    try { data = JSON.parse(text); } catch (e) { data = null; }
    if (!data || typeof data !== "object" || Array.isArray(data)) {
      refuse({rule: "record", error: "record: write one JSON object, such as {\"type\": \"pass\", \"by\": \"…\"}"});
      return;
    }
    record(data);
  });

  /* The table's live stream: the browser resumes by itself after a lost connection (Last-Event-ID). */
  if (window.EventSource) {
    var stream = new EventSource(base + "/live");
    stream.addEventListener("table", function (event) {
      var view = JSON.parse(event.data);
      status.textContent = "Live: record " + view.seq + " of game " + view.game + ".";
      load();
    });
    stream.addEventListener("error", function () { status.textContent = "Reconnecting to the table…"; });
  }
  seen();
})();
