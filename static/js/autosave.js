/* Worker task page: autosave of the answers typed so far, so a reload keeps them.
   Each change is kept at once in this browser (localStorage), and a reload puts it back.
   The server gets a copy (the form's data-draft-url takes the whole form, authenticated
   like the submit, by the signed token in the URL) at most EVERY_MS after a change, and
   at once when the page is hidden or left with something unsent: then another browser,
   or this one without storage, is pre-filled from it by the server. Where this browser
   keeps nothing (storage blocked or full), the server gets each change within a second
   or so instead. Without JavaScript nothing is saved early and nothing breaks: the
   submit is unchanged.
   Which copy wins after a reload: this browser's, unless the server's is none that this
   browser sent (or started sending) or saw: then another browser typed meanwhile, and
   the server's wins. Two browsers typing on one task at once: the last sent wins.
   A 409 means the task was submitted from another tab: the page says so and links on. */
(function () {
  "use strict";

  var EVERY_MS = 15000;   // a change reaches the server at most this long after it is made
  var DELAY_MS = 800;     // without a copy in this browser: after the last keystroke...
  var SOON_MS = 5000;     // ...and at most this long after a change
  var KEEP_MS = 2 * 24 * 3600 * 1000;  // a kept copy nobody came back for is dropped
  var PREFIX = "he-draft:";
  var timer = null;
  var dirty = false;
  var stopped = false;
  var keeps = false;      // this browser keeps a copy (storage works)
  var bases = [];         // what the server may hold from this browser: the answers seen
                          // there or sent (JSON of [name, value] pairs), the last few
  var shown = null;       // the task whose page this is (key): a re-render keeps bases
  var lastSent = 0;

  function form() { return document.querySelector("form[data-draft-url]"); }

  // Words written by this script, in the worker's language (#w-strings).
  function word(name, fallback) {
    var strings = document.getElementById("w-strings");
    return (strings && strings.dataset[name]) || fallback;
  }

  function status(f, text) {
    var s = f.querySelector("[data-autosave-status]");
    if (s) s.textContent = text;
  }

  // The form's answers as [name, value] pairs (not the page's own fields).
  function answers(f) {
    var pairs = [];
    new FormData(f).forEach(function (value, name) {
      if (typeof value === "string" && name !== "js" && name !== "csrfmiddlewaretoken") {
        pairs.push([name, value]);
      }
    });
    return pairs;
  }

  function same(a, b) { return JSON.stringify(a) === JSON.stringify(b); }

  // Remembers that the server may hold ``text`` (answers as JSON: seen there, or sent).
  function mayHold(text) {
    bases = bases.filter(function (b) { return b !== text; }).concat([text]).slice(-4);
  }

  // --- The copy kept in this browser -------------------------------------------------
  function store() {
    try { return window.localStorage; } catch (e) { return null; }  // blocked storage
  }

  // The addresses carry the worker's secret token, which must not sit in storage that
  // outlives the session: copies are named by a hash of the address (FNV-1a, twice).
  function hash(text) {
    var a = 0x811c9dc5, b = 0x01000193 ^ 0x5bd1e995;
    for (var i = 0; i < text.length; i++) {
      var c = text.charCodeAt(i);
      a = Math.imul(a ^ c, 0x01000193) >>> 0;
      b = Math.imul(b ^ c, 0x5bd1e995) >>> 0;
    }
    return a.toString(16) + "-" + b.toString(16);
  }

  function key(f) { return PREFIX + hash(f.dataset.draftUrl); }

  // The session's address: the draft URL without its "task/<id>/draft/".
  function sessionOf(url) { return url.replace(/task\/\d+\/draft\/$/, ""); }

  function read(s, k) {
    var kept = null;
    try { kept = JSON.parse(s.getItem(k) || "null"); } catch (e) { kept = null; }
    return kept && typeof kept === "object" && Array.isArray(kept.fields) ? kept : null;
  }

  // Keeps the form's answers in this browser; false (and no stale copy left) if it cannot.
  function keepLocally(f) {
    var s = store();
    if (!s) return false;
    var copy = {
      at: Date.now(),
      session: hash(sessionOf(f.dataset.draftUrl)),
      fields: answers(f),
      bases: bases
    };
    try {
      s.setItem(key(f), JSON.stringify(copy));
      return true;
    } catch (e) {
      // Full or blocked: an older copy must not come back over newer answers.
      try { s.removeItem(key(f)); } catch (e2) { /* nothing kept either way */ }
      return false;
    }
  }

  // Drops the copies of tasks this session has moved past, and old ones of any session.
  function prune(f) {
    var s = store();
    if (!s) return;
    var here = key(f), session = hash(sessionOf(f.dataset.draftUrl)), old = [];
    for (var i = 0; i < s.length; i++) {
      var k = s.key(i);
      if (!k || k.indexOf(PREFIX) !== 0 || k === here) continue;
      var kept = read(s, k);
      var stale = !kept || typeof kept.at !== "number" || Date.now() - kept.at > KEEP_MS;
      if (stale || kept.session === session) old.push(k);
    }
    old.forEach(function (k) { s.removeItem(k); });
  }

  // Puts this browser's copy back into the form, unless the server's copy (the form as
  // served) is none this browser sent or saw: then another browser typed meanwhile.
  function restore(f) {
    var served = answers(f);
    var fresh = shown !== key(f);  // a new page, not the same task shown again with errors
    shown = key(f);
    if (fresh) bases = [];
    var s = store();
    var kept = s ? read(s, key(f)) : null;
    if (kept && Array.isArray(kept.bases)) {
      kept.bases.forEach(function (b) { if (typeof b === "string") mayHold(b); });
    }
    // Shown again with errors, the page holds what was posted, which the server may not
    // have kept (a refused set-up 1 page keeps nothing): only a new page says what it has.
    if (fresh) mayHold(JSON.stringify(served));
    if (!kept || same(kept.fields, served)) return;
    if (fresh && Array.isArray(kept.bases) && kept.bases.indexOf(JSON.stringify(served)) === -1) {
      s.removeItem(key(f));  // another browser saved after this one: the server's is newer
      bases = [JSON.stringify(served)];
      return;
    }
    var values = Object.create(null);
    kept.fields.forEach(function (pair) {
      if (!Array.isArray(pair) || typeof pair[0] !== "string" || typeof pair[1] !== "string") return;
      (values[pair[0]] = values[pair[0]] || []).push(pair[1]);
    });
    var moved = 0;
    Array.prototype.forEach.call(f.elements, function (el) {
      if (!el.name || el.disabled || el.name === "js" || el.name === "csrfmiddlewaretoken") return;
      var given = values[el.name] || [];
      if (el.type === "checkbox" || el.type === "radio") {
        var on = given.indexOf(el.value) !== -1;
        if (el.checked !== on) { el.checked = on; moved++; }
      } else if (el.type === "hidden" && !el.hasAttribute("data-touched")) {
        return;  // the page's own fields (tokens, ids) stay as served
      } else if (given.length && el.value !== given[0]) {
        el.value = given[0];
        moved++;
      }
    });
    if (!moved) return;
    // Not a change by hand (that would undo a slider's "same as"): the page's other
    // scripts (slider marks, the ranking preview) are told to read the form again.
    f.dispatchEvent(new CustomEvent("autosave:restored", { bubbles: true }));
    dirty = true;  // the server's copy is older than this browser's
    schedule();
  }

  // --- The server's copy ----------------------------------------------------------------
  function submittedElsewhere(f, message) {
    stopped = true;
    status(f, message);  // by the submit button too, where the worker is looking
    if (document.querySelector("[data-draft-conflict]")) return;
    var box = document.createElement("div");
    box.className = "w-warning";
    box.setAttribute("role", "alert");
    box.setAttribute("data-draft-conflict", "");
    var p = document.createElement("p");
    p.textContent = message;
    var a = document.createElement("a");
    a.href = sessionOf(f.dataset.draftUrl) + "?already=1";
    a.textContent = word("nextTask", "Go to your next task");
    box.appendChild(p);
    box.appendChild(a);
    f.parentNode.insertBefore(box, f);
  }

  function save(leaving) {
    if (timer) clearTimeout(timer);
    timer = null;
    var f = form();
    if (!f || stopped || !dirty) return;
    dirty = false;
    lastSent = Date.now();
    mayHold(JSON.stringify(answers(f)));
    keepLocally(f);  // with what it sends: a reload may come before the server has it
    fetch(f.dataset.draftUrl, {
      method: "POST",
      body: new FormData(f),
      credentials: "omit",   // the token in the URL is the credential
      headers: { "X-Requested-With": "fetch" },
      keepalive: leaving === true   // outlives the page being left
    }).then(function (r) {
      if (r.status === 204) {
        status(f, word("saved", "Your answers are saved as you type."));
        return;
      }
      if (r.status === 409) return r.text().then(function (t) { submittedElsewhere(f, t); });
      retry();
    }).catch(retry);
  }

  // When the server gets the changes: EVERY_MS after the first unsent one where this
  // browser keeps a copy; else soon after the typing pauses, as before the copy existed.
  function schedule() {
    if (keeps) {
      if (!timer) timer = setTimeout(save, EVERY_MS);
      return;
    }
    if (timer) clearTimeout(timer);
    timer = setTimeout(save, Date.now() - lastSent > SOON_MS ? 0 : DELAY_MS);
  }

  // A send that failed (the network, a server restarting) is tried again.
  function retry() {
    dirty = true;
    schedule();
  }

  function changed(e) {
    var f = form();
    if (!f || stopped || !f.contains(e.target) || e.target.name === "js") return;
    // Set-up 1 pages have no other script: mark their sliders as moved here.
    if (f.hasAttribute("data-together") && e.target.matches("[data-slider]")) {
      var mark = e.target.closest(".w-answer").querySelector("[data-touched]");
      if (mark) mark.value = "1";
    }
    dirty = true;
    keeps = keepLocally(f);
    if (keeps) status(f, word("saved", "Your answers are saved as you type."));
    schedule();
  }

  function leave() { if (dirty) save(true); }

  function init() {
    // The "submitted from another tab" notice is for this visit only, not a reload.
    if (/[?&]already=1/.test(location.search)) history.replaceState(null, "", location.pathname);
    var f = form();
    if (!f) return;
    var flag = f.querySelector("[data-js-flag]");
    if (flag) flag.value = "1";
    keeps = store() !== null;
    prune(f);
    restore(f);
  }

  // The submit itself records the answers: no draft may follow it (its 409 would look
  // like another tab's submit). A page re-rendered with errors autosaves again, and so
  // does a page whose submit never got an answer (the network, a server restarting).
  document.addEventListener("submit", function (e) {
    if (e.target === form()) {
      // A refused submit may keep what it posted as the server's copy (one criterion a
      // page) or keep nothing (set-up 1): either may be what a reload then shows.
      mayHold(JSON.stringify(answers(e.target)));
      keepLocally(e.target);
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
    }
  });
  // On the swap, not the settle after it: the page shown again with errors takes typing
  // at once, and an answer typed before the settle (htmx waits 20 ms) was not kept.
  document.addEventListener("htmx:afterSwap", function () {
    if (!document.querySelector("[data-draft-conflict]")) stopped = false;
  });
  document.addEventListener("htmx:afterRequest", function (e) {
    var f = form();
    var answered = e.detail && e.detail.xhr ? e.detail.xhr.status : 0;
    if (f && e.detail && e.detail.elt === f && (answered === 0 || answered >= 400)) {
      notSent(f);
      if (document.querySelector("[data-draft-conflict]")) return;
      stopped = false;
      dirty = true;
      keeps = keepLocally(f);
      schedule();
    }
  });

  // A submit that got no answer, or one the page cannot show (htmx swaps only 2xx), is
  // said beside the button the worker pressed: nothing was recorded, the answers are
  // still here. A page that comes back (the next task, or this one with errors) replaces
  // the form, and the message with it.
  function notSent(f) {
    var text = word("notSent", "Your answers were not sent: the connection or the server " +
      "failed. They are kept on this page. Press the button again; if it fails again, " +
      "reload the page.");
    var box = f.querySelector("[data-submit-failed]");
    if (!box) {
      box = document.createElement("p");
      box.className = "w-warning";
      box.setAttribute("role", "alert");
      box.setAttribute("data-submit-failed", "");
      var actions = f.querySelector(".w-actions") || f;
      actions.insertBefore(box, actions.firstChild);
    }
    box.textContent = "";  // announced again when it fails again
    box.textContent = text;
  }

  document.addEventListener("input", changed);
  document.addEventListener("change", changed);
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "hidden") leave();
  });
  window.addEventListener("pagehide", leave);
  document.addEventListener("DOMContentLoaded", init);
  document.addEventListener("htmx:afterSettle", init);
})();
