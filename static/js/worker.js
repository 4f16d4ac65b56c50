/* Worker task page: live ranking preview, untouched-slider detection, "same as" ties.
   Small vanilla JS; the page works without it (the server checks everything again). */
(function () {
  "use strict";

  function form() { return document.getElementById("task-form"); }

  // Words written by this script, in the worker's language (#w-strings, rendered by the
  // server from its catalogs); "%s" stands for the output letter(s).
  function word(name, fallback, value) {
    var strings = document.getElementById("w-strings");
    var text = (strings && strings.dataset[name]) || fallback;
    return value === undefined ? text : text.replace("%s", value);
  }

  function outputs(f) { return Array.prototype.slice.call(f.querySelectorAll(".w-output[data-slot]")); }

  function scoreOf(f, li) {
    var scale = f.dataset.scale;
    if (scale === "likert") {
      var checked = li.querySelector("input[type=radio]:checked");
      return checked ? parseFloat(checked.value) : null;
    }
    var input = li.querySelector("[data-score]");
    if (!input) return null;
    if (scale === "slider") {
      if (!placed(li)) return null;
      return parseFloat(input.value);
    }
    // Only what the server accepts is ranked (a whole number above 0 of at most
    // max-digits digits); anything else (too long, signed, text) counts as not scored.
    var raw = asciiDigits(input.value.trim());
    var digits = parseInt(f.dataset.maxDigits, 10) || 6;
    if (!/^[0-9]+$/.test(raw) || raw.length > digits) return null;
    var value = parseInt(raw, 10);
    return value > 0 ? value : null;
  }

  // Digits of other scripts as some phone keyboards type them (Arabic-Indic, Persian,
  // Devanagari, full-width) as ASCII digits, as the server reads them.
  var DIGIT_ZEROS = [0x0660, 0x06F0, 0x0966, 0x09E6, 0x0E50, 0xFF10];
  function asciiDigits(text) {
    return text.replace(/[\u0660-\u0669\u06F0-\u06F9\u0966-\u096F\u09E6-\u09EF\u0E50-\u0E59\uFF10-\uFF19]/g, function (ch) {
      var code = ch.charCodeAt(0);
      for (var i = 0; i < DIGIT_ZEROS.length; i++) {
        if (code >= DIGIT_ZEROS[i] && code <= DIGIT_ZEROS[i] + 9) return String(code - DIGIT_ZEROS[i]);
      }
      return ch;
    });
  }

  // A slider counts as placed once moved (marker set by this script) or when the worker
  // ticked "keep in the middle" (offered after the server refused it as not moved).
  function placed(li) {
    var touched = li.querySelector("[data-touched]");
    var keep = li.querySelector("[data-keep]");
    return !!((touched && touched.value) || (keep && keep.checked));
  }

  function clearClientError(li) {
    var p = li.querySelector("[data-client-error]");
    if (!p) return;
    var slider = li.querySelector("[data-slider]");
    slider.removeAttribute("aria-invalid");
    slider.setAttribute("aria-describedby",
      (slider.getAttribute("aria-describedby") || "").replace(p.id, "").trim());
    p.remove();
    if (!li.querySelector(".w-error")) li.classList.remove("has-error");
    // and its line in the summary; the summary goes with its last line
    var summary = li.closest("form").querySelector(".w-error-summary[data-client-error]");
    var link = summary && summary.querySelector('a[href="#' + slider.id + '"]');
    if (!link) return;
    link.parentNode.remove();
    if (!summary.querySelector("li")) summary.remove();
  }

  function renderRanking(f) {
    var box = f.querySelector("[data-ranking]");
    var list = f.querySelector("[data-ranking-list]");
    if (!box || !list) return;
    var rated = [], unrated = [];
    outputs(f).forEach(function (li) {
      var s = scoreOf(f, li);
      (s === null ? unrated : rated).push({ letter: li.dataset.letter, score: s });
    });
    rated.sort(function (a, b) { return b.score - a.score; });
    var groups = [];
    rated.forEach(function (r) {
      var last = groups[groups.length - 1];
      if (last && last.score === r.score) last.letters.push(r.letter);
      else groups.push({ score: r.score, letters: [r.letter] });
    });
    list.textContent = "";
    var rank = 1;
    groups.forEach(function (g) {
      var li = document.createElement("li");
      li.value = rank;
      li.textContent = g.letters.map(function (l) { return word("output", "Output %s", l); }).join(" = ");
      if (g.letters.length > 1) {
        li.className = "tie";
        li.textContent += " " + word("tie", "(tie)");
      }
      list.appendChild(li);
      rank += g.letters.length;
    });
    if (unrated.length) {
      var u = document.createElement("li");
      u.className = "unrated";
      u.textContent = word("notScored", "Not scored yet: %s", unrated.map(function (r) { return word("output", "Output %s", r.letter); }).join(", "));
      list.appendChild(u);
    }
    box.hidden = false;
  }

  function markTouched(li) {
    var t = li.querySelector("[data-touched]");
    if (t) t.value = "1";
    var wrap = li.querySelector(".w-slider");
    if (wrap) wrap.classList.remove("untouched");
    clearClientError(li);
  }

  // Outputs "the same as" the moved one take its value, and theirs in turn; each once (a
  // worker may make two point at each other: the server refuses that at the submit).
  function syncTies(f, sourceSlot, done) {
    done = done || {};
    done[sourceSlot] = true;
    outputs(f).forEach(function (li) {
      var tie = li.querySelector("[data-tie]");
      if (tie && tie.value === String(sourceSlot) && !done[li.dataset.slot]) {
        var src = f.querySelector('.w-output[data-slot="' + sourceSlot + '"] [data-slider]');
        li.querySelector("[data-slider]").value = src.value;
        markTouched(li);
        syncTies(f, li.dataset.slot, done);
      }
    });
  }

  // The sliders' "not moved yet" look and the ranking preview, from the form's values.
  function refresh(f) {
    if (f.dataset.scale === "slider") {
      outputs(f).forEach(function (li) {
        var t = li.querySelector("[data-touched]");
        li.querySelector(".w-slider").classList.toggle("untouched", !!(t && !t.value));
      });
    }
    renderRanking(f);
  }

  function init() {
    var f = form();
    if (!f) return;
    var flag = f.querySelector("[data-js-flag]");
    if (flag) flag.value = "1";
    refresh(f);
    // After a refused submit the focus goes to the first field in error (the server marks
    // it autofocus; htmx swaps do not always honour that, so it is done here as well).
    var first = f.querySelector("[autofocus]") || f.querySelector("[aria-invalid=true]");
    if (first) first.focus();
    // The too-fast warning sits by the submit button: show all of it, its button included.
    var fast = f.querySelector("#too-fast");
    if (fast) fast.scrollIntoView({ block: "end" });
  }

  // autosave.js put this browser's copy of the answers back (after a reload).
  document.addEventListener("autosave:restored", function (e) {
    if (e.target === form()) refresh(e.target);
  });

  document.addEventListener("input", function (e) {
    var f = form();
    if (!f || !f.contains(e.target)) return;
    var li = e.target.closest(".w-output");
    if (li && e.target.matches("[data-slider]")) {
      markTouched(li);
      var tie = li.querySelector("[data-tie]");
      if (tie && tie.value) tie.value = "";  // moved by hand: no longer "same as"
      syncTies(f, li.dataset.slot);
    }
    renderRanking(f);
  });

  document.addEventListener("change", function (e) {
    var f = form();
    if (!f || !f.contains(e.target)) return;
    var li = e.target.closest(".w-output");
    if (li && e.target.matches("[data-tie]") && e.target.value) {
      var src = f.querySelector('.w-output[data-slot="' + e.target.value + '"] [data-slider]');
      if (src) li.querySelector("[data-slider]").value = src.value;
      markTouched(li);
      syncTies(f, li.dataset.slot);
    } else if (li && e.target.matches("[data-slider]")) {
      markTouched(li);
    } else if (li && e.target.matches("[data-keep]") && e.target.checked) {
      clearClientError(li);
    }
    renderRanking(f);
  });

  // Keyboard and pointer use count as touching a slider even when the value stays.
  ["pointerdown", "keydown"].forEach(function (type) {
    document.addEventListener(type, function (e) {
      if (e.target.matches && e.target.matches("[data-slider]")) {
        if (type === "keydown" && !/Arrow|Home|End|Page/.test(e.key)) return;
        var li = e.target.closest(".w-output");
        var t = li && li.querySelector("[data-touched]");
        var was = t ? t.value : "1";
        markTouched(li);
        // A slider touched where it stands is an answer too: autosave keeps it.
        if (t && !was) t.dispatchEvent(new Event("change", { bubbles: true }));
      }
    });
  });

  // Before anything is sent (capture phase: runs before htmx's own submit handler).
  document.addEventListener("submit", function (e) {
    var f = e.target;
    if (f.id !== "task-form" || f.dataset.scale !== "slider") return;
    var untouched = outputs(f).filter(function (li) { return !placed(li); });
    f.querySelectorAll("[data-client-error]").forEach(function (n) { n.remove(); });
    if (!untouched.length) return;
    e.preventDefault();
    e.stopImmediatePropagation();
    // The summary at the top, as the server writes it for the other scales' errors.
    var summary = document.createElement("div");
    summary.className = "w-error-summary";
    summary.setAttribute("role", "alert");
    summary.setAttribute("data-client-error", "");
    var heading = document.createElement("h2");
    heading.textContent = word("checkAnswers", "Please check your answers");
    var list = document.createElement("ul");
    summary.appendChild(heading);
    summary.appendChild(list);
    untouched.forEach(function (li) {
      var message = word("notMoved", "Output %s: you have not moved this slider yet.", li.dataset.letter);
      var p = document.createElement("p");
      p.className = "w-error";
      p.setAttribute("data-client-error", "");
      p.id = "client-error-" + li.dataset.slot;
      p.textContent = message;
      var slider = li.querySelector("[data-slider]");
      li.classList.add("has-error");
      li.insertBefore(p, li.querySelector(".w-label"));
      slider.setAttribute("aria-describedby", (slider.getAttribute("aria-describedby") || "") + " " + p.id);
      slider.setAttribute("aria-invalid", "true");
      var item = document.createElement("li");
      var link = document.createElement("a");
      link.href = "#" + slider.id;
      link.textContent = message;
      item.appendChild(link);
      list.appendChild(item);
    });
    f.insertBefore(summary, f.querySelector("[data-error-summary]") || f.querySelector(".w-hint") || f.firstChild);
    untouched[0].querySelector("[data-slider]").focus();
  }, true);

  document.addEventListener("DOMContentLoaded", init);
  document.addEventListener("htmx:afterSettle", init);
})();
