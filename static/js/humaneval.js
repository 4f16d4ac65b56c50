/* Site-wide behaviour that used to be inline (the Content-Security-Policy allows no inline
   script or on*= handlers): declared by data attributes, wired here.
     data-copy="<input id>"   on a button: copy that input's value to the clipboard
     data-select-on-focus     on an input: select its text when focused
     data-confirm="<text>"    on a form: ask before submitting
     data-slug-from="<input id>" on a slug input: follow that input as a slug while it is
                              typed, until the slug itself is edited (emptied: follows again) */
(function () {
  "use strict";

  document.addEventListener("click", function (e) {
    var b = e.target.closest && e.target.closest("[data-copy]");
    if (!b) return;
    var f = document.getElementById(b.dataset.copy);
    if (!f) return;
    f.select();
    if (navigator.clipboard) { navigator.clipboard.writeText(f.value); } else { document.execCommand("copy"); }
    b.textContent = "Copied";
    setTimeout(function () { b.textContent = "Copy"; }, 1500);
  });

  document.addEventListener("focusin", function (e) {
    if (e.target.matches && e.target.matches("[data-select-on-focus]")) e.target.select();
  });

  // A slug as Django's slugify makes one: accents dropped, lower case, runs of other
  // characters as one hyphen, no hyphen at either end.
  function slugify(text, max) {
    var slug = text.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase()
      .replace(/[^a-z0-9_\s-]/g, "").trim().replace(/[-\s]+/g, "-").replace(/^[-_]+|[-_]+$/g, "");
    return slug.slice(0, max).replace(/[-_]+$/, "");
  }

  document.addEventListener("input", function (e) {
    var field = e.target;
    if (field.matches && field.matches("[data-slug-from]")) {
      if (field.value) field.dataset.slugEdited = "1"; else delete field.dataset.slugEdited;
    }
    if (!field.id) return;
    document.querySelectorAll("[data-slug-from]").forEach(function (slug) {
      if (slug.dataset.slugFrom !== field.id || slug.dataset.slugEdited) return;
      slug.value = slugify(field.value, slug.maxLength > 0 ? slug.maxLength : 64);
    });
  });

  document.addEventListener("submit", function (e) {
    var form = e.target;
    var question = form.getAttribute && form.getAttribute("data-confirm");
    if (question && !window.confirm(question)) e.preventDefault();
  }, true);

  // Boxes that scroll sideways (.scroll, and tables that become their own box on a phone)
  // get a visible cue above them while their content is wider than they are: a line
  // naming the way to scroll, tied to the box by data-scroll-cue (the box's id). Wired on
  // load, on resize and after every htmx swap (the monitor's rows and tables).
  var scrollBoxes = 0;
  function markScrollBoxes() {
    document.querySelectorAll("main .scroll, main .table, main .plot-box").forEach(function (box) {
      if (box.parentElement && box.parentElement.closest(".scroll, .plot-box")) return;
      var style = getComputedStyle(box);
      var scrolls = (style.overflowX === "auto" || style.overflowX === "scroll") &&
        box.scrollWidth > box.clientWidth + 1;
      if (!box.id && scrolls) box.id = "scroll-box-" + (++scrollBoxes);
      var cue = box.id ? document.querySelector('[data-scroll-cue="' + box.id + '"]') : null;
      if (scrolls && !cue) {
        cue = document.createElement("p");
        cue.className = "scroll-cue";
        cue.dataset.scrollCue = box.id;
        cue.setAttribute("aria-hidden", "true");
        cue.textContent = "Scroll sideways for more \u2192";
        box.parentNode.insertBefore(cue, box);
      } else if (!scrolls && cue) {
        cue.remove();
      }
    });
  }
  var pending = null;
  function markSoon() {
    if (pending) clearTimeout(pending);
    pending = setTimeout(markScrollBoxes, 50);
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", markScrollBoxes);
  } else {
    markScrollBoxes();
  }
  window.addEventListener("load", markScrollBoxes);
  window.addEventListener("resize", markSoon);
  document.addEventListener("htmx:afterSettle", markSoon);
})();
