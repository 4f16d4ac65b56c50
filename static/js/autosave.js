/* Worker task page: autosave of the answers typed so far, so a reload keeps them.
   Each change is kept at once in this browser (localStorage), and a reload puts it back.
   The server gets a copy (the form's data-draft-url takes the whole form, authenticated
   like the submit, by the signed token in the URL) at most EVERY_MS after a change, and
   at once when the page is hidden or left with something unsent: then another browser,
   or this one without storage, is pre-filled from it by the server. Without JavaScript
   nothing is saved early and nothing breaks: the submit is unchanged.
   A 409 means the task was submitted from another tab: the page says so and links on. */
(function () {
  "use strict";

  var EVERY_MS = 15000;   // a change reaches the server at most this long after it is made
  var KEEP_MS = 2 * 24 * 3600 * 1000;  // a kept copy nobody came back for is dropped
  var PREFIX = "he-draft:";
  var timer = null;
  var dirty = false;
  var stopped = false;

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

  function keepLocally(f) {
    var s = store();
    if (!s) return false;
    var fields = [];
    new FormData(f).forEach(function (value, name) {
      if (typeof value === "string") fields.push([name, value]);
    });
    try {
      var copy = { at: Date.now(), session: hash(sessionOf(f.dataset.draftUrl)), fields: fields };
      s.setItem(key(f), JSON.stringify(copy));
      return true;
    } catch (e) { return false; }  // full or blocked: the server copy still comes
  }

  // Drops the copies of tasks this session has moved past, and old ones of any session.
  function prune(f) {
    var s = store();
    if (!s) return;
    var here = key(f), session = hash(sessionOf(f.dataset.draftUrl)), old = [];
    for (var i = 0; i < s.length; i++) {
      var k = s.key(i);
      if (!k || k.indexOf(PREFIX) !== 0 || k === here) continue;
      var kept = null;
      try { kept = JSON.parse(s.getItem(k)); } catch (e) { kept = null; }
      var stale = !kept || typeof kept.at !== "number" || Date.now() - kept.at > KEEP_MS;
      if (stale || kept.session === session) old.push(k);
    }
    old.forEach(function (k) { s.removeItem(k); });
  }

  // Puts this browser's copy back into the form: the whole form as it was last changed.
  function restore(f) {
    var s = store();
    if (!s) return;
    var kept = null;
    try { kept = JSON.parse(s.getItem(key(f)) || "null"); } catch (e) { kept = null; }
    if (!kept || !Array.isArray(kept.fields)) return;
    var values = {};
    kept.fields.forEach(function (pair) {
      if (!Array.isArray(pair) || typeof pair[0] !== "string" || typeof pair[1] !== "string") return;
      (values[pair[0]] = values[pair[0]] || []).push(pair[1]);
    });
    var moved = [];
    Array.prototype.forEach.call(f.elements, function (el) {
      if (!el.name || el.disabled || el.name === "js" || el.name === "csrfmiddlewaretoken") return;
      var given = values[el.name] || [];
      if (el.type === "checkbox" || el.type === "radio") {
        var on = given.indexOf(el.value) !== -1;
        if (el.checked !== on) { el.checked = on; moved.push(el); }
      } else if (el.type === "hidden" && !el.hasAttribute("data-touched")) {
        return;  // the page's own fields (tokens, ids) stay as served
      } else if (given.length && el.value !== given[0]) {
        el.value = given[0];
        moved.push(el);
      }
    });
    if (!moved.length) return;
    // Not a change by hand (that would undo a slider's "same as"): the page's other
    // scripts (slider marks, the ranking preview) are told to read the form again.
    f.dispatchEvent(new CustomEvent("autosave:restored", { bubbles: true }));
    dirty = true;  // the server's copy may be older than this browser's
    if (!timer) timer = setTimeout(save, EVERY_MS);
  }

  // --- The server's copy ----------------------------------------------------------------
  function submittedElsewhere(f, message) {
    stopped = true;
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
    fetch(f.dataset.draftUrl, {
      method: "POST",
      body: new FormData(f),
      credentials: "omit",   // the token in the URL is the credential
      headers: { "X-Requested-With": "fetch" },
      keepalive: leaving === true   // outlives the page being left
    }).then(function (r) {
      if (r.status === 204) { status(f, word("saved", "Your answers are saved as you type.")); return; }
      if (r.status === 409) return r.text().then(function (t) { submittedElsewhere(f, t); });
      dirty = true;  // try again with the next change
    }).catch(function () { dirty = true; });
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
    if (keepLocally(f)) status(f, word("saved", "Your answers are saved as you type."));
    if (!timer) timer = setTimeout(save, EVERY_MS);
  }

  function leave() { if (dirty) save(true); }

  function init() {
    // The "submitted from another tab" notice is for this visit only, not a reload.
    if (/[?&]already=1/.test(location.search)) history.replaceState(null, "", location.pathname);
    var f = form();
    if (!f) return;
    var flag = f.querySelector("[data-js-flag]");
    if (flag) flag.value = "1";
    prune(f);
    restore(f);
  }

  // The submit itself records the answers: no draft may follow it (its 409 would look
  // like another tab's submit). A page re-rendered with errors autosaves again.
  document.addEventListener("submit", function (e) {
    if (e.target === form()) {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
    }
  });
  document.addEventListener("htmx:afterSettle", function () {
    if (!document.querySelector("[data-draft-conflict]")) stopped = false;
  });

  document.addEventListener("input", changed);
  document.addEventListener("change", changed);
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "hidden") leave();
  });
  window.addEventListener("pagehide", leave);
  document.addEventListener("DOMContentLoaded", init);
  document.addEventListener("htmx:afterSettle", init);
})();
