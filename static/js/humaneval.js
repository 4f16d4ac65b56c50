/* Site-wide behaviour that used to be inline (the Content-Security-Policy allows no inline
   script or on*= handlers): declared by data attributes, wired here.
     data-copy="<input id>"   on a button: copy that input's value to the clipboard
     data-select-on-focus     on an input: select its text when focused
     data-confirm="<text>"    on a form: ask before submitting */
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

  document.addEventListener("submit", function (e) {
    var form = e.target;
    var question = form.getAttribute && form.getAttribute("data-confirm");
    if (question && !window.confirm(question)) e.preventDefault();
  }, true);
})();
