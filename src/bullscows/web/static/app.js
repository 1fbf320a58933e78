// bullscows: progressive enhancement. Every page works without this file; with it, forms are
// sent in the background and the page's main part is swapped, the theme is remembered and the
// how-to is shown on the first visit only.
(function () {
  "use strict";
  var root = document.documentElement;
  var saved = localStorage.getItem("bullscows-theme") || "auto";
  root.dataset.theme = saved;

  function focusPrompt() {
    var box = document.getElementById("say");
    if (box) { box.focus(); box.select(); return; }
    var start = document.querySelector("main button, main a");
    if (start && document.activeElement === document.body) { start.focus(); }
  }

  function setup() {
    var select = document.getElementById("theme");
    if (select) {
      select.value = saved;
      select.addEventListener("change", function () {
        root.dataset.theme = select.value;
        localStorage.setItem("bullscows-theme", select.value);
      });
    }
    var howto = document.getElementById("howto");
    if (howto && localStorage.getItem("bullscows-seen-howto")) { howto.classList.add("seen"); }
    var close = document.getElementById("howto-close");
    if (close) {
      close.addEventListener("click", function () {
        localStorage.setItem("bullscows-seen-howto", "1");
        howto.classList.add("seen");
      });
    }
    document.querySelectorAll(".key[data-symbol]").forEach(function (key) {
      key.addEventListener("click", function () {
        var box = document.getElementById("say");
        if (box) { box.value += key.dataset.symbol; box.focus(); }
      });
    });
    focusPrompt();
  }

  // Forms of the main part are posted in the background; the answer's main part replaces ours.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (form.method.toLowerCase() !== "post" || form.enctype === "multipart/form-data") { return; }
    event.preventDefault();
    var body = new URLSearchParams(new FormData(form, event.submitter));
    fetch(form.action, { method: "POST", body: body, credentials: "same-origin" })
      .then(function (response) {
        return response.text().then(function (html) { return [response, html]; });
      })
      .then(function (pair) {
        var response = pair[0], html = pair[1];
        var page = new DOMParser().parseFromString(html, "text/html");
        var main = page.getElementById("main");
        if (!main) { document.open(); document.write(html); document.close(); return; }
        document.getElementById("main").replaceWith(main);
        document.title = page.title;
        if (response.url && response.url !== location.href && response.redirected) {
          history.pushState(null, "", response.url);
        }
        setup();
      })
      .catch(function () { form.submit(); });
  });

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", setup);
  } else { setup(); }
})();
