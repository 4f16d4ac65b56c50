/* Worker task page: autosave of the answers typed so far, so a reload keeps them.
   The form's data-draft-url takes the whole form (authenticated like the submit, by the
   signed token in the URL) a moment after each change and every few seconds while there
   is something new. The server pre-fills the page from the last draft. Without
   JavaScript nothing is saved early and nothing breaks: the submit is unchanged.
   A 409 means the task was submitted from another tab: the page says so and links on. */
(function () {
  "use strict";

  var DELAY_MS = 800;     // after the last keystroke
  var EVERY_MS = 5000;    // at most this long between a change and its save
  var timer = null;
  var dirty = false;
  var stopped = false;
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
    a.href = f.dataset.draftUrl.replace(/task\/\d+\/draft\/$/, "") + "?already=1";
    a.textContent = word("nextTask", "Go to your next task");
    box.appendChild(p);
    box.appendChild(a);
    f.parentNode.insertBefore(box, f);
  }

  function save() {
    timer = null;
    var f = form();
    if (!f || stopped || !dirty) return;
    dirty = false;
    lastSent = Date.now();
    fetch(f.dataset.draftUrl, {
      method: "POST",
      body: new FormData(f),
      credentials: "omit",   // the token in the URL is the credential
      headers: { "X-Requested-With": "fetch" }
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
    if (timer) clearTimeout(timer);
    var wait = Date.now() - lastSent > EVERY_MS ? 0 : DELAY_MS;
    timer = setTimeout(save, wait);
  }

  function init() {
    // The "submitted from another tab" notice is for this visit only, not a reload.
    if (/[?&]already=1/.test(location.search)) history.replaceState(null, "", location.pathname);
    var f = form();
    if (!f) return;
    var flag = f.querySelector("[data-js-flag]");
    if (flag) flag.value = "1";
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
  setInterval(function () { if (dirty && !timer) save(); }, EVERY_MS);
  document.addEventListener("DOMContentLoaded", init);
  document.addEventListener("htmx:afterSettle", init);
})();
