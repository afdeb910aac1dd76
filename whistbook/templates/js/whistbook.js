/* whistbook: the play-along at a card table. Plain script, no framework, no network.
   Without it (or if it fails) a lesson is the whole static page. With it, a
   lesson (.lesson[data-playalong], or on the site the element that holds the
   script.playalong-data JSON: its parts in [data-part] elements, the
   .playalong bar inside) becomes a table: four seats round the trick, the
   known hand at the foot as cards to click, what is known of each unseen
   hand at its seat. It opens at the start of the hand and steps trick by
   trick (or card by card) with the keys, the buttons or a swipe, asks what
   the reader would play (click a card) and what they know, keeps the answers
   in localStorage and shows a score. */
(function () {
  "use strict";
  var STORE = "whistbook:";
  var SUIT_ORDER = "SHCD";  // the book's order of the suits in a hand: black and red in turn
  var SUIT_ROWS = "SHDC";   // the order of the suits in the data's pictures of what is known
  var SYMBOL = { S: "♠", H: "♥", D: "♦", C: "♣" };
  var SUIT_CLASS = { S: "suit-spades", H: "suit-hearts", D: "suit-diamonds", C: "suit-clubs" };
  var ORDINAL = ["first", "second", "third", "fourth"];
  var CLOCKWISE = "AYBZ";

  function load(slug) {
    try { return JSON.parse(localStorage.getItem(STORE + slug)) || { answers: {} }; } catch (e) { return { answers: {} }; }
  }
  function save(slug, rec) {
    try { localStorage.setItem(STORE + slug, JSON.stringify(rec)); } catch (e) { /* private mode: not kept */ }
  }
  function score(rec) {
    var n = 0, right = 0, passed = 0, a = rec.answers || {};
    for (var k in a) {
      if (!a.hasOwnProperty(k)) continue;
      if (a[k].passed) passed++;
      else { n++; if (a[k].right) right++; }
    }
    if (!n && !passed) return "";
    return "Your answers: " + right + " right of " + n + (passed ? ", " + passed + " passed" : "");
  }
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text != null) e.textContent = text;
    return e;
  }
  function $$(root, sel) { return Array.prototype.slice.call(root.querySelectorAll(sel)); }
  function suitOf(c) { return c.charAt(c.length - 1); }
  function rankOf(c) { var r = c.slice(0, -1); return r === "T" ? "10" : r; }
  function bookOrder(cards) {
    return cards.slice().sort(function (a, b) { return SUIT_ORDER.indexOf(suitOf(a)) - SUIT_ORDER.indexOf(suitOf(b)); });
  }

  /* What a card costs, in words: "about half a trick". */
  function lossWords(x) {
    var steps = [[0.25, "a quarter of a trick"], [0.33, "a third of a trick"], [0.5, "half a trick"],
                 [0.67, "two-thirds of a trick"], [0.75, "three-quarters of a trick"], [1, "a trick"]];
    if (x < 0.15) return "a little";
    if (x <= 1.2) {
      var best = steps[0];
      steps.forEach(function (s) { if (Math.abs(s[0] - x) < Math.abs(best[0] - x)) best = s; });
      return "about " + best[1];
    }
    var half = Math.round(x * 2) / 2, whole = Math.floor(half);
    var words = ["", "one", "two", "three", "four", "five", "six"][whole] || String(whole);
    return "about " + (half > whole ? words + " and a half tricks" : words + " tricks");
  }

  /* The grade of a card at a play question: "right" (the book's card or one
     equal to it), "sound", "lucky" or "wrong". A quiz without the judged sets
     gives `accepted`, taken as right. */
  function grade(q, c) {
    var right = q.right || q.accepted || [q.book];
    if (right.indexOf(c) >= 0) return "right";
    if ((q.sound || []).indexOf(c) >= 0) return "sound";
    if ((q.lucky || []).indexOf(c) >= 0) return "lucky";
    return "wrong";
  }

  function PlayAlong(art) {
    var data = JSON.parse(art.querySelector("script.playalong-data").textContent);
    var bar = art.querySelector(".playalong");
    var board = bar.querySelector(".pa-board");
    var panel = bar.querySelector(".pa-panel");
    var status = bar.querySelector(".pa-status");
    var byCard = bar.querySelector(".pa-by-card");
    var handsBtn = bar.querySelector('[data-go="hands"]');
    var pageBtn = bar.querySelector('[data-go="page"]');
    var help = bar.querySelector(".pa-help");
    var rec = load(data.slug);
    rec.answers = rec.answers || {};
    var sections = {}, tricks = data.tricks, moments = [], at = 0, showHands = false, paged = false;
    var me = data.viewpoint, seats = data.seats, seatEls = {}, slots = {}, handBtns = {};
    $$(art, "section.trick[data-trick]").forEach(function (s) { sections[s.getAttribute("data-trick")] = s; });
    var cardName = function (c) { return data.cards[c][1]; };
    var cardText = function (c) { return data.cards[c][0]; };
    var own = function (t) { for (var i = 0; i < t.plays.length; i++) if (t.plays[i][0] === me) return i; return -1; };
    var anchorOf = function (t) { var s = sections[t.n]; return s ? s.id : "trick-" + t.n; };

    function build() {
      moments = [{ t: -1, k: 0 }];
      tricks.forEach(function (t, i) {
        var p = data.play[t.n], list = [];
        if (byCard.checked) for (var k = 1; k < 4; k++) list.push({ t: i, k: k });
        if (p) list.push({ t: i, k: p.before, q: "play" });
        if (data.know[t.n]) list.push({ t: i, k: 4, q: "know" });
        list.push({ t: i, k: 4 });
        list.sort(function (a, b) { return a.k - b.k || (a.q ? -1 : 0) - (b.q ? -1 : 0); });
        list.forEach(function (m, j) {
          var prev = list[j - 1];
          if (prev && prev.k === m.k && !m.q && prev.q === "play") return; // the question stands for that card
          moments.push(m);
        });
      });
      moments.push({ t: tricks.length - 1, k: 4, end: true });
    }

    function hashOf(m) {
      if (m.end) return "#end";
      if (m.t < 0) return "#start";
      var id = anchorOf(tricks[m.t]);
      return "#" + id + (m.k < 4 ? "-card-" + m.k : m.q ? "-ask" : "");
    }

    function findHash(h) {
      for (var i = 0; i < moments.length; i++) if (hashOf(moments[i]) === h) return i;
      var found = -1;  // a moment this mode lacks (a card, a question): the nearest one before it
      moments.forEach(function (m, j) {
        if (m.t < 0 || m.end) return;
        var id = "#" + anchorOf(tricks[m.t]);
        if (h === id ? m.k === 4 && !m.q : h.indexOf(id + "-") === 0 &&
            (m.k <= +(h.split("-card-")[1] || 4) || found < 0)) found = j;
      });
      return found;
    }

    /* --- the board: drawn once, filled at each moment ---------------------------------------- */

    function cardFace(c, cls) {
      var f = el("span", "pa-face " + SUIT_CLASS[suitOf(c)] + (cls ? " " + cls : ""));
      f.setAttribute("role", "img");
      f.setAttribute("aria-label", cardName(c));
      f.appendChild(el("span", "pa-rank", rankOf(c)));
      f.appendChild(el("span", "pa-pip", SYMBOL[suitOf(c)]));
      return f;
    }

    function drawBoard() {
      ["top", "left", "right"].forEach(function (pos) {
        var seat = seats[pos], box = el("div", "pa-seat pa-" + pos);
        var name = el("p", "pa-seat-name");
        name.appendChild(el("b", null, seat));
        if (pos === "top") name.appendChild(el("span", "pa-role", " partner"));
        if (seat === data.dealer) name.appendChild(el("span", "pa-role", " dealer"));
        var stack = el("span", "pa-stack");
        name.appendChild(stack);
        box.appendChild(name);
        var info = el("div", "pa-info");
        box.appendChild(info);
        board.appendChild(box);
        seatEls[pos] = { box: box, stack: stack, info: info };
      });
      var trick = el("div", "pa-trick");
      trick.appendChild(el("span", "pa-trick-no"));
      ["top", "left", "right", "bottom"].forEach(function (pos) {
        slots[pos] = el("div", "pa-slot pa-slot-" + pos);
        trick.appendChild(slots[pos]);
      });
      board.appendChild(trick);
      var foot = el("div", "pa-seat pa-bottom pa-mine");
      var name = el("p", "pa-seat-name");
      name.appendChild(el("b", null, me));
      name.appendChild(el("span", "pa-role", " you" + (me === data.dealer ? ", dealer" : "")));
      foot.appendChild(name);
      var hand = el("div", "pa-hand");
      hand.setAttribute("role", "group");
      hand.setAttribute("aria-label", me + "’s cards");
      var suit = null, group = null;
      bookOrder(data.hand).forEach(function (c) {
        if (suitOf(c) !== suit) {
          suit = suitOf(c);
          group = el("span", "pa-suit");
          hand.appendChild(group);
        }
        var b = el("button", "pa-card " + SUIT_CLASS[suit]);
        b.type = "button";
        b.setAttribute("data-card", c);
        b.setAttribute("aria-label", cardName(c));
        b.appendChild(el("span", "pa-rank", rankOf(c)));
        b.appendChild(el("span", "pa-pip", SYMBOL[suit]));
        b.addEventListener("click", function () { answerPlay(c); });
        group.appendChild(b);
        handBtns[c] = b;
      });
      foot.appendChild(hand);
      board.appendChild(foot);
    }

    /* The cards each seat has played up to a moment, and the cards on the table. */
    function stateAt(m) {
      var played = {}, shown = [], last = m.end ? tricks.length - 1 : m.t;
      tricks.forEach(function (t, i) {
        var k = i < last ? 4 : i === last ? (m.end ? 4 : m.k) : 0;
        for (var j = 0; j < k; j++) played[t.plays[j][1]] = true;
      });
      if (last >= 0) shown = tricks[last].plays.slice(0, m.end ? 4 : m.k);
      // what is known: after the last trick complete (while "What do you know now?" waits
      // for its answer, before this trick: the seats would give the answer away)
      var asked = m.q === "know" && !rec.answers["k" + tricks[m.t].n];
      var done = m.end ? last : (m.k === 4 && !asked ? m.t : m.t - 1);
      return { played: played, shown: shown, known: done >= 0 ? tricks[done].known : null, trick: last };
    }

    function holding(s) {  // what is known of one suit in one hand, as the static page writes it
      var out = el("span", "pa-holding");
      if (s.v) { out.appendChild(el("span", "known-void", "—")); return out; }
      if (s.u) { out.appendChild(el("span", "known-rest", "·")); return out; }
      if (!s.c.length && !s.p.length && !s.r[1]) { out.appendChild(el("span", "known-presumed", "(—)")); return out; }
      s.c.forEach(function (c) { out.appendChild(el("b", null, rankOf(c))); out.appendChild(document.createTextNode(" ")); });
      if (s.p.length) out.appendChild(el("span", "known-presumed", "(" + s.p.map(rankOf).join(" ") + ")"));
      if (s.r[1]) {
        out.appendChild(document.createTextNode(" "));
        var more = (s.c.length || s.p.length ? "+" : "") + (s.r[0] === s.r[1] ? s.r[0] : s.r[0] + "–" + s.r[1]);
        out.appendChild(el("span", "known-rest", more));
      }
      return out;
    }

    function seatLine(suit, content) {
      var row = el("p", "pa-row");
      var sym = el("span", "pa-sym " + SUIT_CLASS[suit], SYMBOL[suit]);
      sym.setAttribute("aria-hidden", "true");
      row.appendChild(sym);
      row.appendChild(content);
      return row;
    }

    function seatSays(seat, suit, s) {  // the words a screen reader hears for one row
      var name = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" }[suit];
      if (s.v) return name + ": none left";
      if (s.u) return name + ": not known";
      if (!s.c.length && !s.p.length && !s.r[1]) return name + ": presumably none left";
      var words = s.c.map(cardName);
      if (s.p.length) words.push("presumably " + s.p.map(cardName).join(", "));
      if (s.r[1]) words.push((s.c.length || s.p.length ? "and " : "") + (s.r[0] === s.r[1] ? s.r[0] : s.r[0] + " to " + s.r[1]) + " more");
      return name + ": " + words.join(", ");
    }

    function drawSeats(st, m) {
      var faceUp = m.end || showHands;
      ["top", "left", "right"].forEach(function (pos) {
        var seat = seats[pos], box = seatEls[pos], dealt = data.deal[seat];
        var left = dealt.filter(function (c) { return !st.played[c]; });
        box.stack.textContent = m.end ? "" : String(left.length);
        box.stack.setAttribute("aria-label", left.length + " cards in hand");
        box.stack.hidden = !!m.end;
        box.info.textContent = "";
        box.box.classList.toggle("pa-face-up", faceUp);
        var words = [];
        if (faceUp) {  // the cards themselves: those still held (at the end of a full hand, as dealt)
          var asDealt = m.end && !left.length, cards = asDealt ? dealt : left;
          SUIT_ORDER.split("").forEach(function (suit) {
            var ranks = cards.filter(function (c) { return suitOf(c) === suit; }).map(rankOf);
            box.info.appendChild(seatLine(suit, el("span", "pa-holding pa-cards-up", ranks.join(" ") || "—")));
            words.push({ S: "spades", H: "hearts", D: "diamonds", C: "clubs" }[suit] + ": " + (ranks.join(" ") || "none"));
          });
          box.info.setAttribute("aria-label", seat + (asDealt ? "’s hand as dealt: " : " holds: ") + words.join("; "));
        } else if (st.known && st.known[seat]) {
          st.known[seat].forEach(function (s, k) {
            var suit = SUIT_ROWS.charAt(k);
            box.info.appendChild(seatLine(suit, holding(s)));
          });
          var rows = st.known[seat].map(function (s, k) { return seatSays(seat, SUIT_ROWS.charAt(k), s); });
          var order = SUIT_ORDER.split("").map(function (suit) { return box.info.children[SUIT_ROWS.indexOf(suit)]; });
          order.forEach(function (row) { box.info.appendChild(row); });  // the book's order of the suits
          box.info.setAttribute("aria-label", "What you know of " + seat + "’s hand: " + rows.join("; "));
        } else box.info.removeAttribute("aria-label");
        box.info.setAttribute("role", "group");
      });
    }

    function drawTrick(st, m) {
      var t = st.trick >= 0 ? tricks[st.trick] : null;
      var complete = t && st.shown.length === 4;
      board.querySelector(".pa-trick-no").textContent = t ? String(t.n) : "";
      ["top", "left", "right", "bottom"].forEach(function (pos) { slots[pos].textContent = ""; });
      st.shown.forEach(function (p, j) {
        var pos = positionOf(p[0]);
        var face = cardFace(p[1], (j === 0 ? "pa-led" : "") + (complete && p[0] === t.winner ? " pa-wins" : ""));
        face.setAttribute("data-order", String(j + 1));
        if (j === 0) {
          var mark = el("span", "pa-lead-mark", "↷");
          mark.setAttribute("aria-hidden", "true");
          slots[pos].appendChild(mark);
        }
        slots[pos].appendChild(face);
      });
      var who = t ? t.plays[0][0] : tricks.length ? tricks[0].plays[0][0] : "";
      board.setAttribute("aria-label", "The table" + (t ? ", trick " + t.n : "") + (who ? ": " + who + " leads" : ""));
    }

    function positionOf(seat) {
      for (var pos in seats) if (seats[pos] === seat) return pos;
      return "bottom";
    }

    function drawHand(st, m) {
      var q = m.q === "play" && !m.end ? data.play[tricks[m.t].n] : null;
      var ans = q ? rec.answers["p" + tricks[m.t].n] : null;
      var asking = q && (!ans || ans.passed);
      Object.keys(handBtns).forEach(function (c) {
        var b = handBtns[c], legal = asking && q.legal.indexOf(c) >= 0;
        b.hidden = !!st.played[c];
        b.disabled = !legal;
        b.classList.toggle("pa-legal", !!legal);
      });
      var first = true;  // a gap before each suit but the first still held
      $$(board, ".pa-hand .pa-suit").forEach(function (s) {
        var held = $$(s, ".pa-card").filter(function (c) { return !c.hidden; });
        $$(s, ".pa-card").forEach(function (c) { c.classList.toggle("pa-first", !first && c === held[0]); });
        if (held.length) first = false;
      });
      board.classList.toggle("pa-asking", !!asking);
    }

    /* --- the panel: the question, the answer, the remark --------------------------------------- */

    function askWords(q) {
      return q.before ? "Your turn, " + ORDINAL[q.before] + " hand: which card do you play?" : "Your lead: which card do you lead?";
    }

    function playFeedback(t, q, ans) {
      var p = el("p", "pa-feedback");
      var said = [];
      if (ans.passed) said.push("Passed without an answer. The book plays " + cardText(q.book) + ".");
      else {
        var g = ans.grade || (ans.right ? "right" : "wrong"), c = ans.choice;
        var mark = { right: "Right.", sound: "Sound.", lucky: "Lucky.", wrong: "Not the book’s card." }[g];
        p.classList.add("pa-" + g);
        said.push(mark + " You played " + cardText(c) + "; the book plays " + cardText(q.book) + ".");
        if (g === "right" && c !== q.book) said.push("Yours is as good: equal in sequence to the book’s card, or the card the principle gives.");
        if (g === "sound") said.push("Yours is within a little of the best play on what you could see.");
        if (g === "lucky") said.push("It works here only because of how the cards lay; on what you could see it is worse.");
        if (g === "wrong" && q.loss && q.loss[c] != null) said.push("It costs " + lossWords(q.loss[c]) + " on average.");
      }
      if (q.rule && q.rule.title) said.push("The principle: " + q.rule.title + (q.rule.page ? " (" + pageRef(q.rule.page) + ")" : "") + ".");
      else if (t.remark) said.push("The remark says why the book prefers its card.");
      p.textContent = said.join(" ");
      return p;
    }

    function verdictLine(t) {
      var v = t.verdict, tier = { good: "a good card", inaccuracy: "an inaccuracy", mistake: "a mistake", blunder: "a blunder" }[v.tier];
      var s = "Judged on what " + me + " could see, " + me + "’s " + cardText(t.plays[own(t)][1]) + " was " + (tier || v.tier);
      var gives = [];
      if (v.tier !== "good" && v.loss >= 0.05) gives.push(lossWords(v.loss) + " on average");
      if (v.tier !== "good" && v.result_loss >= 0.05) gives.push(Math.round(v.result_loss * 100) + "% of the chance of the game’s result");
      if (gives.length) s += ": it gives up " + gives.join(" and ");
      if (v.tier !== "good" && v.best && v.best.length) s += "; " + v.best.map(cardText).join(" or ") + " would have been better";
      return el("p", "pa-verdict pa-verdict-" + v.tier, s + ".");
    }

    function pageRef(page) {
      /* 56 -> p. 56; 64-71 -> pp. 64-71; Laws 71-73 as it is */
      if (!/^[0-9]/.test(page)) return page;
      return (/[-,]/.test(page.split(";")[0]) ? "pp. " : "p. ") + page;
    }

    function choice(label, aria, onPick) {
      var b = el("button", "pa-choice", label);
      b.type = "button";
      if (aria) b.setAttribute("aria-label", aria);
      b.addEventListener("click", onPick);
      return b;
    }

    function knowPart(t, asking) {
      var q = data.know[t.n], key = "k" + t.n, ans = rec.answers[key];
      var part = el("div", "pa-know");
      var head = el("p", "pa-q", "What do you know now?");
      head.id = anchorOf(t) + "-k";
      part.setAttribute("role", "group");
      part.setAttribute("aria-labelledby", head.id);
      part.appendChild(head);
      part.appendChild(el("p", "pa-ask", q.q));
      if ((!ans || ans.passed) && asking) {
        var row = el("div", "pa-choices");
        q.choices.forEach(function (c, i) {
          row.appendChild(choice(c, null, function () {
            rec.answers[key] = { choice: i, right: i === q.answer };
            save(data.slug, rec); showScore(); go(at + 1, true); focusFeedback();
          }));
        });
        part.appendChild(row);
      } else if (ans) {
        part.appendChild(el("p", "pa-feedback", (ans.passed ? "Passed without an answer. The answer: " :
          ans.right ? "Right: " : "Not quite. The answer: ") + q.choices[q.answer] +
          (q.certainty === "certain" ? " (certain)." : " (by the conventions, not certain).")));
      } else return null;
      return part;
    }

    function notesOf(t) {  // the trick's remark and news, from the static page
      var sec = sections[t.n], notes = sec && sec.querySelector(".trick-notes");
      if (!notes) return null;
      var copy = notes.cloneNode(true);
      copy.removeAttribute("hidden");
      $$(copy, "[id]").forEach(function (e) { e.removeAttribute("id"); });
      copy.className = "pa-notes";
      return copy;
    }

    function fillPanel(m) {
      panel.textContent = "";
      if (m.t < 0) {
        panel.appendChild(el("p", "pa-lead-in", "Nothing is played yet. " + (tricks.length ? tricks[0].plays[0][0] : "") +
          " leads to the first trick. Step on with Next, or use the keys or a swipe."));
        return;
      }
      var t = tricks[m.t], q = data.play[t.n], ans = q && rec.answers["p" + t.n];
      if (m.end) {
        var result = art.querySelector(".result");
        if (result) { var r = result.cloneNode(true); r.className = "pa-result"; panel.appendChild(r); }
        var sc = score(rec);
        panel.appendChild(el("p", "pa-score pa-score-end", sc || "No questions answered."));
        panel.appendChild(el("p", "pa-lead-in", "The rest of the hand, the corrections and the four hands are below."));
        return;
      }
      if (m.q === "play") {
        var box = el("div", "pa-quiz");
        var head = el("p", "pa-q", askWords(q));
        head.id = anchorOf(t) + "-q";
        box.setAttribute("role", "group");
        box.setAttribute("aria-labelledby", head.id);
        box.appendChild(head);
        if (!ans || ans.passed) box.appendChild(el("p", "pa-ask", "Click or tap a raised card in your hand."));
        if (ans) box.appendChild(playFeedback(t, q, ans));
        panel.appendChild(box);
        return;
      }
      if (m.k < 4) return;
      var asking = m.q === "know";
      if (q && ans) {
        var fb = el("div", "pa-quiz");
        fb.appendChild(playFeedback(t, q, ans));
        panel.appendChild(fb);
      }
      if (t.verdict) panel.appendChild(verdictLine(t));
      var kq = data.know[t.n] ? knowPart(t, asking) : null;
      if (kq) panel.appendChild(kq);
      var notes = !(asking && !rec.answers["k" + t.n]) && notesOf(t);
      if (notes) panel.appendChild(notes);
    }

    function announce(m) {
      if (m.end) return "End of the hand: the cards still held are face up, and the rest of the lesson is shown below. " + score(rec);
      if (m.t < 0) return "Start of the hand: nothing played yet.";
      var t = tricks[m.t], k = Math.min(m.k, 4), words = [];
      for (var i = 0; i < k; i++) words.push(t.plays[i][0] + (i ? " " : " leads ") + cardName(t.plays[i][1]));
      var s = "Trick " + t.n + " of 13: " + (words.length ? words.join(", ") : "nothing played yet");
      if (k === 4) s += ". " + t.winner + " wins. Tricks: AB " + t.tally[0] + ", YZ " + t.tally[1] + ".";
      else s += ".";
      if (m.q === "play") s += " " + askWords(data.play[t.n]);
      if (m.q === "know") s += " What do you know now?";
      return s;
    }

    function drawHeader(st, m) {
      var t = st.trick >= 0 ? tricks[st.trick] : null, where = bar.querySelector(".pa-where");
      var ab = 0, yz = 0;
      if (t) {
        var before = st.trick > 0 ? tricks[st.trick - 1].tally : [0, 0];
        var done = m.end || m.k === 4;
        ab = done ? t.tally[0] : before[0];
        yz = done ? t.tally[1] : before[1];
      }
      where.querySelector(".pa-count").textContent = m.end ? "End of the hand" : t ? "Trick " + t.n + " of 13" : "Before the first trick";
      where.querySelector(".pa-tally").textContent = "AB " + ab + " · YZ " + yz;
    }

    /* --- the page around the table --------------------------------------------------------- */

    function staticParts(m) {
      var end = !!m.end;
      tricks.forEach(function (t) { if (sections[t.n]) sections[t.n].hidden = true; });
      $$(art, ".trick-run").forEach(function (run) { run.hidden = true; });
      $$(art, ".part[data-part]").forEach(function (p) {
        var key = p.getAttribute("data-part");
        if (key === "intro" || key === "play") return;
        p.hidden = !(end || (key === "hands" && showHands));
        var h = p.previousElementSibling;  // a heading set just before its part (the site's Markdown)
        if (h && /^H[2-6]$/.test(h.tagName) && !p.querySelector(".part-heading")) h.hidden = p.hidden;
      });
    }

    function render(m) {
      var st = stateAt(m);
      staticParts(m);
      drawHeader(st, m);
      drawSeats(st, m);
      drawTrick(st, m);
      drawHand(st, m);
      fillPanel(m);
      handsBtn.setAttribute("aria-pressed", String(showHands || !!m.end));
      bar.querySelector('[data-go="prev"]').disabled = at === 0;
      bar.querySelector('[data-go="start"]').disabled = at === 0;
      bar.querySelector('[data-go="next"]').disabled = !!m.end;
      bar.querySelector('[data-go="end"]').disabled = !!m.end;
      status.textContent = announce(m);
    }

    /* A question left behind by Next is noted as passed. */
    function passOver(m) {
      if (!m.q || m.end) return;
      var key = (m.q === "play" ? "p" : "k") + tricks[m.t].n;
      if (!rec.answers[key]) {
        rec.answers[key] = { passed: true, right: false };
        save(data.slug, rec);
        showScore();
      }
    }

    function go(i, push, scroll) {
      var to = Math.max(0, Math.min(moments.length - 1, i));
      if (to === at + 1 && push) passOver(moments[at]);
      at = to;
      var m = moments[at];
      render(m);
      var h = hashOf(m);
      if (push && location.hash !== h) history.pushState({ whistbook: at }, "", h);
      if (m.end && push) {  // End goes to the end: the rest of the lesson, below the table
        var rest = art.querySelector('.part[data-part="ending"]') || art.querySelector('.part[data-part="hands"]');
        if (rest && rest.scrollIntoView) rest.scrollIntoView({ block: "start" });
      } else if ((push || scroll) && board.getBoundingClientRect().top < 0 && board.scrollIntoView) {
        board.scrollIntoView({ block: "start" });  // stepping on from the remark: back to the table
      }
    }

    function answerPlay(c) {
      var m = moments[at];
      if (m.q !== "play" || m.end) return;
      var t = tricks[m.t], q = data.play[t.n], key = "p" + t.n;
      if (rec.answers[key] && !rec.answers[key].passed) return;
      var g = grade(q, c);
      rec.answers[key] = { choice: c, grade: g, right: g === "right" || g === "sound" };
      save(data.slug, rec);
      showScore();
      go(at + 1, true);
      focusFeedback();
    }

    function focusFeedback() {  // the chosen button is gone: keep the reader's place at the answer
      var all = $$(panel, ".pa-feedback"), fb = all[0];
      if (fb) { fb.tabIndex = -1; fb.focus({ preventScroll: true }); }
    }

    function showScore() {
      $$(art, ".pa-score").forEach(function (p) {
        if (p.classList.contains("pa-score-end")) return;
        p.textContent = score(rec); p.hidden = !p.textContent;
      });
    }

    function fromHash() {
      if (paged) return;
      var i = findHash(location.hash);
      if (i < 0 && location.hash.length > 1) {
        var target = document.getElementById(decodeURIComponent(location.hash.slice(1)));
        i = target && art.contains(target) && !bar.contains(target) ? moments.length - 1 : 0;
        if (target && art.contains(target) && /^(intro|play|lesson)$/.test(target.id)) i = 0;
      }
      go(i < 0 ? 0 : i, false, true);
    }

    /* "Read as a page": the whole static lesson, the table put away. */
    function setPaged(on) {
      paged = on;
      if (ddSwitch) (on ? ddHome : bar).insertBefore(ddSwitch, on ? ddNext : null);
      bar.classList.toggle("pa-paged", on);
      art.classList.toggle("pa-on", !on);
      pageBtn.textContent = on ? "Play along at the table" : "Read as a page";
      if (on) restore(art, true);
      else render(moments[at]);
    }

    this.step = function (key) {
      if (paged && key !== "page") return;
      if (key === "next") go(at + 1, true);
      else if (key === "prev") go(at - 1, true);
      else if (key === "start") go(0, true);
      else if (key === "end") go(moments.length - 1, true);
      else if (key === "hands") { showHands = !showHands; render(moments[at]); }
      else if (key === "page") setPaged(!paged);
    };

    /* a swipe across the table: to the left for Next, to the right for Previous */
    function swipes(step) {
      var x0 = null, y0 = 0;
      board.addEventListener("pointerdown", function (e) { x0 = e.clientX; y0 = e.clientY; });
      board.addEventListener("pointercancel", function () { x0 = null; });
      board.addEventListener("pointerup", function (e) {
        if (x0 === null) return;
        var dx = e.clientX - x0, dy = e.clientY - y0;
        x0 = null;
        if (Math.abs(dx) >= 40 && Math.abs(dx) > 2 * Math.abs(dy)) step(dx < 0 ? "next" : "prev");
      });
    }

    var where = el("p", "pa-where");
    where.appendChild(el("span", "pa-count"));
    where.appendChild(el("span", "pa-tally"));
    board.parentNode.insertBefore(where, board);
    drawBoard();
    bar.addEventListener("click", function (e) {
      var b = e.target.closest ? e.target.closest("[data-go]") : null;
      if (b) this.step(b.getAttribute("data-go"));
    }.bind(this));
    swipes(this.step);
    byCard.addEventListener("change", function () {
      var m = moments[at];
      build();
      var i = 0;
      moments.forEach(function (n, j) { if (n.t < m.t || (n.t === m.t && n.k <= m.k)) i = j; });
      go(m.end ? moments.length - 1 : i, false);
    });
    // the double-dummy switch goes under the table, out of the reader's way
    var ddSwitch = art.querySelector(".dd-switch"), ddHome = ddSwitch && ddSwitch.parentNode, ddNext = ddSwitch && ddSwitch.nextSibling;
    if (ddSwitch) bar.appendChild(ddSwitch);
    var dd = art.querySelector(".dd-toggle");
    if (dd) dd.addEventListener("change", function () {
      $$(art, "svg[data-dd-label]").forEach(function (svg) {
        if (!svg.hasAttribute("data-plain-label")) svg.setAttribute("data-plain-label", svg.getAttribute("aria-label"));
        svg.setAttribute("aria-label", svg.getAttribute(dd.checked ? "data-dd-label" : "data-plain-label"));
      });
    });
    // the explanation is open at the first reading, folded after it
    try {
      help.open = !localStorage.getItem(STORE + "read-help");
      localStorage.setItem(STORE + "read-help", "1");
    } catch (e) { help.open = false; }
    var playPart = bar.closest("[data-part]");
    var heading = playPart && (playPart.querySelector(".part-heading") || playPart.previousElementSibling);
    if (heading && /^H[2-6]$/.test(heading.tagName)) heading.classList.add("vh");
    window.addEventListener("popstate", fromHash);
    window.addEventListener("hashchange", fromHash);
    build();
    bar.hidden = false;
    art.classList.add("pa-on");
    showScore();
    fromHash();
  }

  function restore(art, keepBar) {  // the static page, whole (if anything went wrong, or on request)
    art.classList.remove("pa-on");
    $$(art, "[hidden]").forEach(function (e) {
      if (!e.classList.contains("playalong") && !e.classList.contains("pa-score") && !(keepBar && e.closest(".playalong"))) e.hidden = false;
    });
    $$(art.parentNode || art, "h2[hidden], h3[hidden]").forEach(function (e) { e.hidden = false; });
    $$(art, ".dg-play").forEach(function (g) { g.style.display = ""; });
    if (!keepBar) {
      var bar = art.querySelector(".playalong");
      if (bar) bar.hidden = true;
      $$(art.parentNode || art, ".part-heading.vh, h2.vh").forEach(function (h) { h.classList.remove("vh"); });
    }
  }

  function start() {
    var lessons = [];
    $$(document, "script.playalong-data").forEach(function (data) {
      // a lesson page's article, or on the site the page's content, where the parts are blocks
      var art = data.closest(".lesson[data-playalong]") || data.parentElement;
      try { lessons.push(new PlayAlong(art)); } catch (e) { restore(art); if (window.console) console.error(e); }
    });
    $$(document, "[data-lesson-score]").forEach(function (li) {  // the index: a score beside each lesson tried
      var text = score(load(li.getAttribute("data-lesson-score")));
      if (text) li.appendChild(el("span", "pa-index-score", " " + text));
    });
    if (!lessons.length) return;
    document.addEventListener("keydown", function (e) {
      if (e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
      var tag = (e.target.tagName || "").toLowerCase();
      var typing = tag === "input" && !/^(checkbox|button)$/.test(e.target.type);
      if (typing || tag === "textarea" || tag === "select" || e.target.isContentEditable) return;
      var key = { ArrowRight: "next", ArrowLeft: "prev", Home: "start", End: "end" }[e.key];
      if (!key) return;
      e.preventDefault();
      lessons[0].step(key);
    });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
