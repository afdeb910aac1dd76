/* The workbench of whistbook serve: deal a hand by clicking cards to seats, play
   it by clicking each player's card, and write it as a hand file. The page holds
   the hand; every rule is the server's (it answers whether a card may be played,
   with the law's reason, and writes the file). Plain JavaScript, nothing fetched
   but this server's own answers. */
(function () {
  "use strict";
  var SEATS = ["A", "Y", "B", "Z"];
  var SUITS = [["S", "\u2660"], ["H", "\u2665"], ["D", "\u2666"], ["C", "\u2663"]];
  var RANKS = "AKQJT98765432";
  var NAMES = {A: "A (you, by default)", Y: "Y, on A's left", B: "B, A's partner", Z: "Z, the dealer"};
  var state = {deal: {A: [], Y: [], B: [], Z: []}, seat: "A", turnUp: null, picking: false, tricks: [], busy: false};

  function $(id) { return document.getElementById(id); }
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function symbol(card) {
    var s = SUITS.filter(function (x) { return x[0] === card[1]; })[0][1];
    return (card[0] === "T" ? "10" : card[0]) + s;
  }
  function cardButton(card, label) {
    var b = el("button", "wb-card suit-" + card[1], symbol(card));
    b.type = "button";
    b.dataset.card = card;
    b.setAttribute("aria-label", label || symbol(card));
    return b;
  }
  function order(cards) {
    return cards.slice().sort(function (a, b) {
      var sa = "SHDC".indexOf(a[1]), sb = "SHDC".indexOf(b[1]);
      return sa !== sb ? sa - sb : RANKS.indexOf(a[0]) - RANKS.indexOf(b[0]);
    });
  }
  function holder(card) {
    for (var i = 0; i < 4; i++) if (state.deal[SEATS[i]].indexOf(card) >= 0) return SEATS[i];
    return null;
  }
  function full(seat) { return state.deal[seat].length === 13; }
  function dealt() { return SEATS.every(full); }

  // --- 1. the deal ------------------------------------------------------------------------

  function drawDeal() {
    var seats = $("seats");
    seats.textContent = "";
    SEATS.forEach(function (s) {
      var b = el("button", "wb-seat" + (s === state.seat ? " wb-chosen" : ""),
                 s + " " + state.deal[s].length + "/13");
      b.type = "button";
      b.setAttribute("role", "radio");
      b.setAttribute("aria-checked", s === state.seat ? "true" : "false");
      b.setAttribute("aria-label", NAMES[s] + ": " + state.deal[s].length + " of 13 cards");
      b.dataset.seat = s;
      b.addEventListener("click", function () { state.seat = s; state.picking = false; drawDeal(); });
      seats.appendChild(b);
    });
    var pack = $("pack");
    pack.textContent = "";
    SUITS.forEach(function (suit) {
      var row = el("div", "wb-suit");
      for (var i = 0; i < 13; i++) {
        var card = RANKS[i] + suit[0];
        var who = holder(card);
        var b = cardButton(card, symbol(card) + (who ? ", dealt to " + who : ""));
        if (who) { b.classList.add("wb-dealt"); b.appendChild(el("span", "wb-to", who)); }
        if (card === state.turnUp) b.classList.add("wb-turned");
        b.addEventListener("click", clickPack);
        row.appendChild(b);
      }
      pack.appendChild(row);
    });
    var hands = $("hands");
    hands.textContent = "";
    SEATS.forEach(function (s) {
      var line = el("p", "", s + ": ");
      SUITS.forEach(function (suit) {
        var ranks = order(state.deal[s]).filter(function (c) { return c[1] === suit[0]; })
          .map(function (c) { return c[0] === "T" ? "10" : c[0]; });
        line.appendChild(el("span", "suit-" + suit[0], suit[1] + " " + (ranks.join(" ") || "\u2013") + "  "));
      });
      hands.appendChild(line);
    });
    var empty = SEATS.filter(function (s) { return !full(s); });
    $("rest").disabled = empty.length !== 1;
    $("rest").textContent = empty.length === 1 ? "The rest to " + empty[0] : "The rest to the fourth hand";
    $("pick-turn-up").disabled = !full("Z");
    $("pick-turn-up").setAttribute("aria-pressed", state.picking ? "true" : "false");
    $("turn-up").textContent = state.turnUp ? "Z turns up " + symbol(state.turnUp) + ": trumps are " +
      {S: "spades", H: "hearts", D: "diamonds", C: "clubs"}[state.turnUp[1]] + "." :
      state.picking ? "Click one of Z's cards." : "No card turned up yet.";
    $("start").disabled = !(dealt() && state.turnUp);
  }

  function clickPack(ev) {
    var card = ev.currentTarget.dataset.card, who = holder(card);
    if (state.picking) {
      if (who === "Z") { state.turnUp = card; state.picking = false; }
      drawDeal();
      return;
    }
    if (who) {
      state.deal[who].splice(state.deal[who].indexOf(card), 1);
      if (card === state.turnUp) state.turnUp = null;
      state.seat = who;
    } else if (!full(state.seat)) {
      state.deal[state.seat].push(card);
      if (full(state.seat)) {
        var next = SEATS.filter(function (s) { return !full(s); })[0];
        if (next) state.seat = next;
      }
    }
    drawDeal();
  }

  function giveRest() {
    var empty = SEATS.filter(function (s) { return !full(s); });
    if (empty.length !== 1) return;
    SUITS.forEach(function (suit) {
      for (var i = 0; i < 13; i++) { var c = RANKS[i] + suit[0]; if (!holder(c)) state.deal[empty[0]].push(c); }
    });
    drawDeal();
  }

  function dealAtRandom() {
    var pack = [];
    SUITS.forEach(function (suit) { for (var i = 0; i < 13; i++) pack.push(RANKS[i] + suit[0]); });
    for (var i = pack.length - 1; i > 0; i--) {
      var j = Math.floor(Math.random() * (i + 1)), t = pack[i]; pack[i] = pack[j]; pack[j] = t;
    }
    SEATS.forEach(function (s, k) { state.deal[s] = pack.slice(13 * k, 13 * k + 13); });
    state.turnUp = state.deal.Z[12];
    drawDeal();
  }

  // --- 2. the play ------------------------------------------------------------------------

  function played() {
    var out = {};
    state.tricks.forEach(function (t) { t.cards.forEach(function (c) { out[c] = true; }); });
    return out;
  }
  function current() {
    var last = state.tricks[state.tricks.length - 1];
    return last && last.cards.length < 4 ? last : null;
  }

  function drawPlay() {
    var gone = played(), table = $("table"), cur = current();
    table.textContent = "";
    var places = {B: "wb-north", Y: "wb-west", Z: "wb-east", A: "wb-south"};
    SEATS.forEach(function (s) {
      var box = el("div", "wb-hand " + places[s] + (s === state.next ? " wb-to-play" : ""));
      box.setAttribute("aria-label", s + "'s hand");
      box.appendChild(el("div", "wb-hand-name", s + (s === state.next ? " to play" : "")));
      order(state.deal[s]).forEach(function (c) {
        if (gone[c]) return;
        var b = cardButton(c, s + "'s " + symbol(c));
        b.addEventListener("click", clickPlay);
        box.appendChild(b);
      });
      table.appendChild(box);
    });
    var centre = el("div", "wb-centre");
    (cur ? cur.cards : []).forEach(function (c, k) {
      var line = el("span", "wb-played suit-" + c[1]);
      line.appendChild(el("b", "", cur.seats[k]));
      line.appendChild(document.createTextNode(symbol(c)));
      centre.appendChild(line);
    });
    table.appendChild(centre);
    var list = $("tricks");
    list.textContent = "";
    state.tricks.forEach(function (t) {
      if (t.cards.length < 4) return;
      var li = el("li", "", t.cards.map(function (c, k) { return t.seats[k] + " " + symbol(c); }).join(", ") +
        "; " + t.winner + " wins (AB " + t.tally[0] + ", YZ " + t.tally[1] + ")");
      list.appendChild(li);
    });
    var done = state.tricks.filter(function (t) { return t.cards.length === 4; }).length;
    $("turn").textContent = done === 13 ? "All thirteen tricks are played." :
      state.next + (cur ? " to play to trick " : " to lead to trick ") + (done + 1) + ".";
    $("undo").disabled = !state.tricks.length;
    $("write-step").hidden = false;
    $("write").disabled = !!cur;
  }

  function post(path, body) {
    return fetch("/__whistbook/workbench/" + path, {
      method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)
    }).then(function (r) { return r.json(); });
  }

  function hand() {
    return {deal: state.deal, turn_up: state.turnUp,
            tricks: state.tricks.map(function (t) { return t.cards; })};
  }

  function clickPlay(ev) {
    if (state.busy) return;
    var card = ev.currentTarget.dataset.card, body = hand();
    body.card = card;
    state.busy = true;
    post("check", body).then(function (a) {
      state.busy = false;
      if (!a.ok) { $("message").textContent = a.reason || a.error; return; }
      $("message").textContent = "";
      var cur = current();
      if (!cur) { cur = {cards: [], seats: []}; state.tricks.push(cur); }
      cur.cards.push(card);
      cur.seats.push(a.seat);
      if (a.winner) { cur.winner = a.winner; cur.tally = a.tally; }
      state.next = a.next;
      drawPlay();
    }, function () { state.busy = false; $("message").textContent = "The server did not answer: is whistbook serve running?"; });
  }

  function undo() {
    var last = state.tricks[state.tricks.length - 1];
    if (!last) return;
    last.cards.pop();
    state.next = last.seats.pop();
    delete last.winner;
    if (!last.cards.length) state.tricks.pop();
    $("message").textContent = "";
    drawPlay();
  }

  function start() {
    state.tricks = [];
    state.next = "A";
    $("deal-step").hidden = true;
    $("play-step").hidden = false;
    drawPlay();
  }

  function backToDeal() {
    state.tricks = [];
    $("play-step").hidden = true;
    $("write-step").hidden = true;
    $("deal-step").hidden = false;
    drawDeal();
  }

  // --- 3. the file --------------------------------------------------------------------------

  function write() {
    var body = hand();
    body.name = $("name").value.trim();
    body.title = $("title").value.trim();
    body.known_hand = $("known").value;
    var out = $("written");
    out.textContent = "Writing\u2026";
    post("write", body).then(function (a) {
      out.textContent = "";
      if (a.error) { out.appendChild(el("p", "wb-message", a.error)); return; }
      out.appendChild(el("p", "", "Wrote " + a.path + ". The preview builds it as a lesson: "));
      var link = el("a", "", "open the lesson");
      link.href = "/html/" + a.slug + ".html";
      out.lastChild.appendChild(link);
      out.lastChild.appendChild(document.createTextNode(" (it appears once the build is done)."));
      a.problems.forEach(function (p) { out.appendChild(el("p", "wb-message", p)); });
    }, function () { out.textContent = "The server did not answer: is whistbook serve running?"; });
  }

  document.addEventListener("DOMContentLoaded", function () {
    $("rest").addEventListener("click", giveRest);
    $("random").addEventListener("click", dealAtRandom);
    $("clear").addEventListener("click", function () {
      state.deal = {A: [], Y: [], B: [], Z: []}; state.turnUp = null; state.seat = "A"; drawDeal();
    });
    $("pick-turn-up").addEventListener("click", function () { state.picking = !state.picking; drawDeal(); });
    $("start").addEventListener("click", start);
    $("undo").addEventListener("click", undo);
    $("redeal").addEventListener("click", backToDeal);
    $("write").addEventListener("click", write);
    drawDeal();
  });
})();
