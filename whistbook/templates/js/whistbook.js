/* whistbook: the play-along. Plain script, no framework, no network.
   Without it (or if it fails) a lesson is the whole static page. With it, a
   lesson (.lesson[data-playalong], or on the site the element that holds the
   script.playalong-data JSON: its parts in [data-part] elements, the
   .playalong bar inside) opens at the start of the hand and
   steps trick by trick (or card by card), asks what the reader would play and
   what they know, keeps the answers in localStorage and shows a score. */
(function () {
  "use strict";
  var STORE = "whistbook:";

  function load(slug) {
    try { return JSON.parse(localStorage.getItem(STORE + slug)) || { answers: {} }; } catch (e) { return { answers: {} }; }
  }
  function save(slug, rec) {
    try { localStorage.setItem(STORE + slug, JSON.stringify(rec)); } catch (e) { /* private mode: not kept */ }
  }
  function score(rec) {
    var n = 0, right = 0, a = rec.answers || {};
    for (var k in a) { if (a.hasOwnProperty(k)) { n++; if (a[k].right) right++; } }
    return n ? "Your answers: " + right + " right of " + n : "";
  }
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text != null) e.textContent = text;
    return e;
  }
  function $$(root, sel) { return Array.prototype.slice.call(root.querySelectorAll(sel)); }

  function PlayAlong(art) {
    var data = JSON.parse(art.querySelector("script.playalong-data").textContent);
    var bar = art.querySelector(".playalong");
    var status = bar.querySelector(".pa-status");
    var byCard = bar.querySelector(".pa-by-card");
    var handsBtn = bar.querySelector('[data-go="hands"]');
    var rec = load(data.slug);
    rec.answers = rec.answers || {};
    var sections = {}, tricks = data.tricks, moments = [], at = 0, showHands = false;
    $$(art, "section.trick[data-trick]").forEach(function (s) { sections[s.getAttribute("data-trick")] = s; });
    var cardName = function (c) { return data.cards[c][1]; };
    var cardText = function (c) { return data.cards[c][0]; };
    var own = function (t) { for (var i = 0; i < t.plays.length; i++) if (t.plays[i][0] === data.viewpoint) return i; return -1; };

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
      moments.push({ t: tricks.length, k: 4, end: true });
    }

    function hashOf(m) {
      if (m.end) return "#end";
      if (m.t < 0) return "#start";
      var id = sections[tricks[m.t].n].id;
      return "#" + id + (m.k < 4 ? "-card-" + m.k : m.q ? "-ask" : "");
    }

    function findHash(h) {
      for (var i = 0; i < moments.length; i++) if (hashOf(moments[i]) === h) return i;
      var found = -1;  // a moment this mode lacks (a card, a question): the nearest one before it
      moments.forEach(function (m, j) {
        if (m.t < 0 || m.end) return;
        var id = "#" + sections[tricks[m.t].n].id;
        if (h === id ? m.k === 4 && !m.q : h.indexOf(id + "-") === 0 &&
            (m.k <= +(h.split("-card-")[1] || 4) || found < 0)) found = j;
      });
      return found;
    }

    function announce(m) {
      if (m.end) return "End of the hand: every trick and the four hands are shown.";
      if (m.t < 0) return "Start of the hand: nothing played yet.";
      var t = tricks[m.t], k = Math.min(m.k, 4), words = [];
      for (var i = 0; i < k; i++) words.push(t.plays[i][0] + (i ? " " : " leads ") + cardName(t.plays[i][1]));
      var s = "Trick " + t.n + ": " + (words.length ? words.join(", ") : "nothing played yet");
      if (k === 4) s += ". " + t.winner + " wins. Tricks: AB " + t.tally[0] + ", YZ " + t.tally[1] + ".";
      else s += ". ";
      if (m.q === "play") s += " Your turn: what would you play?";
      if (m.q === "know") s += " What do you know now?";
      return s;
    }

    function quizBox(sec) {
      var box = sec.querySelector(".pa-quiz");
      if (!box) {
        box = el("div", "pa-quiz");
        box.setAttribute("role", "group");
        var fig = sec.querySelector(".trick-diagram");
        fig.parentNode.insertBefore(box, fig.nextSibling);
      }
      return box;
    }

    function choice(label, aria, onPick) {
      var b = el("button", "pa-choice", label);
      b.type = "button";
      if (aria) b.setAttribute("aria-label", aria);
      b.addEventListener("click", onPick);
      return b;
    }

    function playQuiz(box, t, asking) {
      var q = data.play[t.n], key = "p" + t.n, ans = rec.answers[key];
      if (!ans && !asking) return;
      var head = el("p", "pa-q", q.before ? "What would you play?" : "What would you lead?");
      head.id = sections[t.n].id + "-q";
      box.setAttribute("aria-labelledby", head.id);
      box.appendChild(head);
      if (!ans) {
        var row = el("div", "pa-choices");
        q.legal.forEach(function (c) {
          row.appendChild(choice(cardText(c), cardName(c), function () {
            rec.answers[key] = { choice: c, right: q.accepted.indexOf(c) >= 0 };
            save(data.slug, rec); showScore(); go(at + 1, true); focusFeedback(t);
          }));
        });
        box.appendChild(row);
        return;
      }
      var said = [ans.right ? "Right." : "Not the book’s choice."];
      said.push("You played " + cardText(ans.choice) + "; the book plays " + cardText(q.book) + ".");
      var others = q.accepted.filter(function (c) { return c !== q.book; }).map(cardText);
      if (others.length) said.push("Accepted as well, being worth as many tricks double-dummy: " + others.join(", ") + ".");
      said.push(t.remark ? "The remark below says why the book prefers its card." : "The book’s card follows the usual rule here.");
      box.appendChild(el("p", "pa-feedback", said.join(" ")));
    }

    function knowQuiz(box, t, asking) {
      var q = data.know[t.n], key = "k" + t.n, ans = rec.answers[key];
      var head = el("p", "pa-q", "What do you know now?");
      var ask = el("p", "pa-ask", q.q);
      head.id = sections[t.n].id + "-k";
      var part = el("div", "pa-know");
      part.setAttribute("role", "group");
      part.setAttribute("aria-labelledby", head.id);
      part.appendChild(head);
      part.appendChild(ask);
      if (!ans && asking) {
        var row = el("div", "pa-choices");
        q.choices.forEach(function (c, i) {
          row.appendChild(choice(c, null, function () {
            rec.answers[key] = { choice: i, right: i === q.answer };
            save(data.slug, rec); showScore(); go(at + 1, true); focusFeedback(t);
          }));
        });
        part.appendChild(row);
      } else if (ans) {
        part.appendChild(el("p", "pa-feedback", (ans.right ? "Right: " : "Not quite. The answer: ") +
          q.choices[q.answer] + (q.certainty === "certain" ? " (certain)." : " (by the conventions, not certain).")));
      } else return;
      box.appendChild(part);
    }

    function render(m) {
      var end = !!m.end;
      tricks.forEach(function (t, i) {
        var sec = sections[t.n];
        if (!sec) return;
        var shown = end || i < m.t || (i === m.t);
        var k = end || i < m.t ? 4 : m.k;
        sec.hidden = !shown;
        sec.classList.toggle("pa-current", !end && i === m.t);
        sec.classList.toggle("pa-partial", shown && k < 4);
        $$(sec, ".dg-play").forEach(function (g) {
          var order = +g.getAttribute("class").replace(/.*dg-p(\d).*/, "$1");
          g.style.display = order <= k ? "" : "none";
        });
        var asking = !end && i === m.t && m.q;
        var box = sec.querySelector(".pa-quiz");
        if (data.play[t.n] || data.know[t.n]) {
          box = quizBox(sec);
          box.textContent = "";
          if (data.play[t.n]) playQuiz(box, t, asking && m.q === "play");
          if (data.know[t.n] && k === 4) knowQuiz(box, t, asking && m.q === "know");
          box.hidden = !box.textContent;
        }
        var notes = sec.querySelector(".trick-notes");
        if (notes) notes.hidden = k < 4 || (asking && m.q === "know");
      });
      $$(art, ".trick-run").forEach(function (run) {
        run.hidden = $$(run, "section.trick").every(function (s) { return s.hidden; });
      });
      $$(art, ".part[data-part]").forEach(function (p) {
        var key = p.getAttribute("data-part");
        if (key === "intro" || key === "play") return;
        p.hidden = !(end || (key === "hands" && showHands));
        var h = p.previousElementSibling;  // a heading set just before its part (the site's Markdown)
        if (h && /^H[2-6]$/.test(h.tagName) && !p.querySelector(".part-heading")) h.hidden = p.hidden;
      });
      var gone = {};
      tricks.forEach(function (t, i) {
        var o = own(t);
        if (end || i < m.t || (i === m.t && o < m.k)) gone[t.plays[o][1]] = true;
      });
      $$(bar, ".pa-card").forEach(function (c) { c.hidden = !!gone[c.getAttribute("data-card")]; });
      $$(bar, ".pa-suit").forEach(function (s) {
        s.classList.toggle("pa-void", $$(s, ".pa-card").every(function (c) { return c.hidden; }));
      });
      handsBtn.setAttribute("aria-pressed", String(showHands || end));
      bar.querySelector('[data-go="prev"]').disabled = at === 0;
      bar.querySelector('[data-go="start"]').disabled = at === 0;
      bar.querySelector('[data-go="next"]').disabled = end;
      bar.querySelector('[data-go="end"]').disabled = end;
      status.textContent = announce(m);
    }

    function go(i, push, scroll) {
      at = Math.max(0, Math.min(moments.length - 1, i));
      var m = moments[at];
      render(m);
      var h = hashOf(m);
      if (push && location.hash !== h) history.pushState({ whistbook: at }, "", h);
      if ((push || scroll) && m.t >= 0 && !m.end) {
        var sec = sections[tricks[m.t].n];
        if (sec.scrollIntoView) sec.scrollIntoView({ block: "nearest" });
      }
    }

    function focusFeedback(t) {  // the chosen button is gone: keep the reader's place at the answer
      var all = $$(sections[t.n], ".pa-feedback"), fb = all[all.length - 1];
      if (fb) { fb.tabIndex = -1; fb.focus({ preventScroll: true }); }
    }

    function showScore() {
      $$(art, ".pa-score").forEach(function (p) { p.textContent = score(rec); p.hidden = !p.textContent; });
    }

    function fromHash() {
      var i = findHash(location.hash);
      if (i < 0 && location.hash.length > 1) {
        var target = document.getElementById(decodeURIComponent(location.hash.slice(1)));
        i = target && art.contains(target) && !bar.contains(target) ? moments.length - 1 : 0;
        if (target && art.contains(target) && /^(intro|play|lesson)$/.test(target.id)) i = 0;
      }
      go(i < 0 ? 0 : i, false, true);
    }

    this.step = function (key) {
      if (key === "next") go(at + 1, true);
      else if (key === "prev") go(at - 1, true);
      else if (key === "start") go(0, true);
      else if (key === "end") go(moments.length - 1, true);
      else if (key === "hands") { showHands = !showHands; render(moments[at]); }
    };

    bar.addEventListener("click", function (e) {
      var b = e.target.closest ? e.target.closest("[data-go]") : null;
      if (b) this.step(b.getAttribute("data-go"));
    }.bind(this));
    byCard.addEventListener("change", function () {
      var m = moments[at];
      build();
      var i = 0;
      moments.forEach(function (n, j) { if (n.t < m.t || (n.t === m.t && n.k <= m.k)) i = j; });
      go(m.end ? moments.length - 1 : i, false);
    });
    var dd = art.querySelector(".dd-toggle");
    if (dd) dd.addEventListener("change", function () {
      $$(art, "svg[data-dd-label]").forEach(function (svg) {
        if (!svg.hasAttribute("data-plain-label")) svg.setAttribute("data-plain-label", svg.getAttribute("aria-label"));
        svg.setAttribute("aria-label", svg.getAttribute(dd.checked ? "data-dd-label" : "data-plain-label"));
      });
    });
    window.addEventListener("popstate", fromHash);
    window.addEventListener("hashchange", fromHash);
    build();
    bar.hidden = false;
    art.classList.add("pa-on");
    showScore();
    fromHash();
  }

  function restore(art) {  // the static page, whole, if anything went wrong
    art.classList.remove("pa-on");
    $$(art, "[hidden]").forEach(function (e) { if (!e.classList.contains("playalong") && !e.classList.contains("pa-score")) e.hidden = false; });
    $$(art.parentNode || art, "h2[hidden], h3[hidden]").forEach(function (e) { e.hidden = false; });
    $$(art, ".dg-play").forEach(function (g) { g.style.display = ""; });
    var bar = art.querySelector(".playalong");
    if (bar) bar.hidden = true;
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
