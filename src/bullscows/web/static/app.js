// bullscows: progressive enhancement. Every page works without this file; with it, forms are
// sent in the background and the page's main part is swapped (buttons wait, greyed, while a
// move is on its way, so a double click sends one move), the keypad types into the prompt,
// the theme is remembered, the how-to is open on the first visit only and finished games
// are kept for the record page, and Escape closes the menu.
(function () {
  "use strict";
  var root = document.documentElement;
  var saved = localStorage.getItem("bullscows-theme") || "auto";
  root.dataset.theme = saved;
  root.classList.add("js");
  var coarse = window.matchMedia && window.matchMedia("(pointer: coarse)").matches;
  if (coarse) { root.classList.add("coarse"); }
  var busy = false;

  // The box a move is typed in; after a swap, else the first control of the new part.
  function focusPrompt(swapped) {
    var box = document.getElementById("say");
    if (box) {
      if (coarse && document.querySelector(".keypad")) { box.setAttribute("inputmode", "none"); }
      // Where replies are buttons, the page stays at the board and the question.
      box.focus({ preventScroll: Boolean(document.querySelector(".choices")) });
      box.select(); return;
    }
    var start = document.querySelector("main button, main a");
    if (swapped && start && document.activeElement === document.body) {
      start.focus({ preventScroll: true });
    }
  }

  // The symbols of the line in the box as the game reads a code (codes.parse_digits): spaces
  // and the separators " ,-_." dropped unless they are the variant's symbols (the keypad's).
  function typedSymbols(text) {
    var own = {};
    document.querySelectorAll(".keypad .key[data-symbol]").forEach(function (key) {
      own[key.dataset.symbol] = true;
    });
    return text.split("").filter(function (ch) { return own[ch] || !/[\s,\-_.]/.test(ch); });
  }

  // The row being typed shows the symbols in the prompt as tiles; a line longer than a code
  // is marked, with its count, never shown cut to the code's length (the game reads it whole),
  // and a command the game takes ('history', the row's data-commands) shows no code at all.
  function showTyped() {
    var box = document.getElementById("say"), row = document.getElementById("typed");
    if (!box || !row) { return; }
    var said = box.value.toLowerCase().split(/\s+/).filter(Boolean).join(" ");
    var command = (row.dataset.commands || "").split("|").indexOf(said) >= 0;
    var symbols = command ? [] : typedSymbols(box.value), tiles = row.querySelectorAll(".tile");
    var over = symbols.length > tiles.length, note = document.getElementById("typed-note");
    row.parentNode.classList.toggle("over", over);
    if (note) {
      note.hidden = !over;
      note.textContent = over ? symbols.length + " symbols: a code has " + tiles.length : "";
    }
    tiles.forEach(function (tile, at) {
      var symbol = symbols[at];
      var changed = (tile.textContent || "") !== (symbol || "");
      tile.textContent = symbol || "";
      if (symbol) { tile.dataset.s = symbol; tile.classList.remove("blank"); }
      else { delete tile.dataset.s; tile.classList.add("blank"); }
      tile.classList.toggle("typed", Boolean(symbol) && changed);
    });
  }

  function setupKeypad() {
    var box = document.getElementById("say");
    document.querySelectorAll(".keypad .key").forEach(function (key) {
      key.addEventListener("click", function () {
        if (!box || busy) { return; }
        if (key.dataset.key === "back") { box.value = box.value.replace(/\s*.$/, ""); }
        else if (key.dataset.key === "enter") { box.form.requestSubmit(); return; }
        else { box.value += key.dataset.symbol; }
        showTyped();
        if (!coarse) { box.focus(); }
      });
    });
    if (box) { box.addEventListener("input", showTyped); showTyped(); }
  }

  function setup(swapped) {
    var select = document.getElementById("theme");
    if (select) {
      select.value = saved;
      select.onchange = function () {
        saved = select.value;
        root.dataset.theme = saved;
        localStorage.setItem("bullscows-theme", saved);
      };
    }
    var howto = document.getElementById("howto");
    if (howto) {  // open on this browser's first visit only
      if (localStorage.getItem("bullscows-seen-howto")) { howto.open = false; }
      localStorage.setItem("bullscows-seen-howto", "1");
    }
    var close = document.getElementById("howto-close");
    if (close) {
      close.addEventListener("click", function () { howto.open = false; });
    }
    setupKeypad();
    var copy = document.getElementById("copy-grid");
    if (copy) {
      copy.addEventListener("click", function () {
        var grid = document.getElementById("grid");
        grid.select();
        if (navigator.clipboard) { navigator.clipboard.writeText(grid.value).catch(function () {}); }
        copy.textContent = "Copied";
      });
    }
    keepOutcome();
    showRecord();
    focusPrompt(swapped);
  }

  // The browser's own record of finished games: {id: {rules, guesses, won, day, at}}.
  function record() {
    try { return JSON.parse(localStorage.getItem("bullscows-record") || "{}"); }
    catch (error) { return {}; }
  }

  function keepOutcome() {
    var outcome = document.getElementById("outcome");
    if (!outcome) { return; }
    var games = record();
    if (games[outcome.dataset.game]) { return; }
    games[outcome.dataset.game] = {
      rules: outcome.dataset.rules, guesses: Number(outcome.dataset.guesses),
      won: outcome.dataset.won === "1", day: outcome.dataset.day ? Number(outcome.dataset.day) : null,
      at: Date.now()
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

  // The record page: the server's, or the statistics of this browser's list (POST /api/record).
  function showRecord() {
    var place = document.getElementById("record");
    if (!place) { return; }
    var forget = document.getElementById("forget");
    forget.onclick = function () { localStorage.removeItem("bullscows-record"); };
    var games = Object.values(record()).sort(function (a, b) { return (a.at || 0) - (b.at || 0); });
    // The server counted the games of this browser's player; this browser's own list is drawn
    // instead only when it knows more games (some played before the server kept players).
    if (games.length <= Number(place.dataset.played || 0)) { return; }
    fetch("/api/record", {
      method: "POST", credentials: "same-origin", headers: { "content-type": "application/json" },
      body: JSON.stringify({ games: games.slice(-200).map(function (game) {
        return { rules: game.rules, guesses: game.guesses, won: game.won, day: game.day || null };
      }) })
    }).then(function (response) { return response.json(); }).then(function (stats) {
      drawRecord(place, stats.variants || []);
    }).catch(function () {
      place.textContent = "";
      place.appendChild(element("p", { "class": "error" }, "The record could not be read just now."));
    });
  }

  function drawRecord(place, variants) {
    place.textContent = "";
    if (!variants.length) { place.appendChild(element("p", { id: "no-record" }, "No finished game yet.")); return; }
    variants.forEach(function (entry) {
      var section = element("section", { "class": "variant-record", "data-rules": entry.rules });
      section.appendChild(element("h2", {}, entry.rules));
      var stats = element("div", { "class": "stats" });
      [["played", entry.played], ["win %", entry.win_percent], ["streak", entry.streak],
       ["best streak", entry.best_streak]].forEach(function (pair) {
        var cell = element("div", { "data-stat": pair[0] });
        cell.appendChild(element("b", {}, String(pair[1])));
        cell.appendChild(document.createTextNode(pair[0]));
        stats.appendChild(cell);
      });
      section.appendChild(stats);
      var counts = Object.keys(entry.distribution).map(Number).sort(function (a, b) { return a - b; })
        .map(function (guesses) { return [guesses, entry.distribution[guesses]]; });
      section.appendChild(element("p", { "class": "summary" }, entry.summary));
      section.appendChild(element("p", { "class": "muted wins" }, entry.wins));
      var most = Math.max.apply(null, counts.map(function (c) { return c[1]; }).concat([1]));
      var chart = element("svg", { width: 320, height: 24 * counts.length + 4, viewBox: "0 0 320 " + (24 * counts.length + 4),
                                   role: "img", "aria-label": "guesses needed, games won" });
      counts.forEach(function (pair, row) {
        var width = Math.max(2, 240 * pair[1] / most);
        chart.appendChild(element("text", { x: 0, y: 24 * row + 17, "class": "bar-label" }, String(pair[0])));
        chart.appendChild(element("rect", { x: 30, y: 24 * row + 4, width: width, height: 18, "class": "bar" }));
        chart.appendChild(element("text", { x: 36 + width, y: 24 * row + 17, "class": "bar-label" }, String(pair[1])));
      });
      section.appendChild(chart);
      place.appendChild(section);
    });
  }

  // What changed, read out by screen readers: an error, the result, or the newest reply.
  function announce(main) {
    var news = main.querySelector(".error, #result, .contradiction h3, .board .row.newest .reply-text");
    var status = document.getElementById("status");
    if (news && status) { status.textContent = news.textContent.replace(/\s+/g, " ").trim(); }
  }

  function waiting(on) {
    busy = on;
    var main = document.getElementById("main");
    main.classList.toggle("pending", on);
    main.setAttribute("aria-busy", on ? "true" : "false");
    main.querySelectorAll("button").forEach(function (button) { button.disabled = on; });
  }

  // The form posted the ordinary way (the background request failed): the button's value kept.
  function postPlainly(form, submitter) {
    if (submitter && submitter.name) {
      form.appendChild(element("input", { type: "hidden", name: submitter.name, value: submitter.value }));
    }
    HTMLFormElement.prototype.submit.call(form);
  }

  // Forms of the main part are posted in the background; the answer's main part replaces ours.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (form.method.toLowerCase() !== "post" || form.enctype === "multipart/form-data") { return; }
    event.preventDefault();
    if (busy) { return; }  // a move is on its way: a second click sends nothing
    var submitter = event.submitter;
    var body = new URLSearchParams(new FormData(form, submitter));
    waiting(true);
    fetch(form.action, { method: "POST", body: body, credentials: "same-origin" })
      .then(function (response) {
        return response.text().then(function (html) { return [response, html]; });
      })
      .then(function (pair) {
        var response = pair[0], html = pair[1];
        var page = new DOMParser().parseFromString(html, "text/html");
        var main = page.getElementById("main");
        busy = false;
        if (!main) { document.open(); document.write(html); document.close(); return; }
        document.getElementById("main").replaceWith(main);
        document.title = page.title;
        announce(main);
        if (response.url && response.url !== location.href && response.redirected) {
          history.pushState(null, "", response.url);
          shown = address();
        }
        setup(true);
      })
      .catch(function () { busy = false; postPlainly(form, submitter); });
  });

  // Back or forward to another page's address: read it; within this page (a link to #main,
  // say) the browser has already moved, and reloading would lose the place and the focus.
  function address() { return location.pathname + location.search; }
  var shown = address();
  window.addEventListener("popstate", function () {
    if (address() !== shown) { location.reload(); }
  });

  // Escape closes the open menu (a tap outside closes it without script: style.css's veil).
  document.addEventListener("keydown", function (event) {
    var menu = document.querySelector("details.menu[open]");
    if (event.key !== "Escape" || !menu) { return; }
    menu.open = false;
    menu.querySelector("summary").focus();
  });

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", function () { setup(false); });
  } else { setup(false); }
})();
