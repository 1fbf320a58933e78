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
    if (howto) {  // shown on the first visit only
      if (localStorage.getItem("bullscows-seen-howto")) { howto.classList.add("seen"); }
      localStorage.setItem("bullscows-seen-howto", "1");
    }
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
    var copy = document.getElementById("copy-grid");
    if (copy) {
      copy.addEventListener("click", function () {
        var grid = document.getElementById("grid");
        grid.select();
        if (navigator.clipboard) { navigator.clipboard.writeText(grid.value); }
        copy.textContent = "Copied";
      });
    }
    keepOutcome();
    showRecord();
    focusPrompt();
  }

  // The browser's own record of finished games: {id: {rules, guesses, won}}.
  function record() {
    try { return JSON.parse(localStorage.getItem("bullscows-record") || "{}"); }
    catch (error) { return {}; }
  }

  function keepOutcome() {
    var outcome = document.getElementById("outcome");
    if (!outcome) { return; }
    var games = record();
    games[outcome.dataset.game] = {
      rules: outcome.dataset.rules, guesses: Number(outcome.dataset.guesses),
      won: outcome.dataset.won === "1"
    };
    localStorage.setItem("bullscows-record", JSON.stringify(games));
  }

  function element(name, attributes, text) {
    var svg = ["svg", "rect", "text"].indexOf(name) >= 0;
    var node = svg ? document.createElementNS("http://www.w3.org/2000/svg", name)
                   : document.createElement(name);
    Object.keys(attributes || {}).forEach(function (key) { node.setAttribute(key, attributes[key]); });
    if (text !== undefined) { node.textContent = text; }
    return node;
  }

  function showRecord() {
    var place = document.getElementById("record");
    if (!place) { return; }
    place.textContent = "";
    var forget = document.getElementById("forget");
    forget.onclick = function () { localStorage.removeItem("bullscows-record"); showRecord(); };
    var byRules = {};
    Object.values(record()).forEach(function (game) {
      var entry = byRules[game.rules] = byRules[game.rules] || { played: 0, won: 0, spread: {} };
      entry.played += 1;
      if (game.won) { entry.won += 1; entry.spread[game.guesses] = (entry.spread[game.guesses] || 0) + 1; }
    });
    var names = Object.keys(byRules).sort();
    if (!names.length) { place.appendChild(element("p", { id: "no-record" }, "No finished game yet.")); return; }
    names.forEach(function (name) {
      var entry = byRules[name];
      var section = element("section", { "class": "variant-record", "data-rules": name });
      section.appendChild(element("h2", {}, name));
      section.appendChild(element("p", {}, entry.played + " played, " + entry.won + " won"));
      var counts = Object.keys(entry.spread).map(Number).sort(function (a, b) { return a - b; });
      var most = Math.max.apply(null, counts.map(function (c) { return entry.spread[c]; }).concat([1]));
      var chart = element("svg", { width: 320, height: 24 * counts.length + 4, role: "img",
                                   "aria-label": "guesses needed, games won" });
      counts.forEach(function (count, row) {
        var width = Math.max(2, 240 * entry.spread[count] / most);
        chart.appendChild(element("text", { x: 0, y: 24 * row + 17, "class": "bar-label" }, String(count)));
        chart.appendChild(element("rect", { x: 30, y: 24 * row + 4, width: width, height: 18, "class": "bar" }));
        chart.appendChild(element("text", { x: 36 + width, y: 24 * row + 17, "class": "bar-label" },
                                  String(entry.spread[count])));
      });
      section.appendChild(chart);
      place.appendChild(section);
    });
  }

  // What changed, read out by screen readers: an error, the result, or the newest reply.
  function announce(main) {
    var news = main.querySelector(".error, #result, .contradiction h3, table.board tbody tr:last-child");
    var status = document.getElementById("status");
    if (news && status) { status.textContent = news.textContent.replace(/\s+/g, " ").trim(); }
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
        announce(main);
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
