/* whistbook: the site's search, run in the page itself. A browser forbids Workers and
   fetching files on file:// pages, so the index comes as a script (search/search_index.js,
   written by the whistbook-search plugin) and lunr runs here. No network, no framework. */
(function () {
  "use strict";
  var data = window.whistbookSearchIndex;
  var form = document.getElementById("whistbook-search-form");
  var input = document.getElementById("whistbook-search-query");
  var status = document.getElementById("whistbook-search-status");
  var list = document.getElementById("whistbook-search-results");
  if (!form || !input || !status || !list) return;
  if (!data || !window.lunr) {
    status.textContent = "Search is unavailable: its index did not load.";
    return;
  }
  var MAX = 50;
  var base = (list.getAttribute("data-base") || ".").replace(/\/$/, "");
  var config = data.config || {};
  var minLength = config.min_search_length || 3;
  if (config.separator) lunr.tokenizer.separator = new RegExp(config.separator);

  var docs = {};
  var index = lunr(function () {
    this.ref("location");
    this.field("title", { boost: 5 });
    // a page's opening (a lesson's source and theme line, a theme's description) weighs more
    // than the lists of other lessons further down
    this.field("opening", { boost: 3 });
    this.field("text");
    data.docs.forEach(function (doc) {
      docs[doc.location] = doc;
      this.add({ location: doc.location, title: doc.title, text: doc.text, opening: doc.text.slice(0, 200) });
    }, this);
  });

  // Every word is required; stop words ("of", "the") are dropped since the index has none.
  function terms(query) {
    return lunr.tokenizer(query).filter(function (token) {
      return lunr.stopWordFilter(token) !== undefined;
    }).map(String);
  }

  function find(words, presence) {
    return index.query(function (q) {
      words.forEach(function (w) { q.term(w, { presence: presence }); });
    });
  }

  function excerpt(text, words) {
    var lower = text.toLowerCase(), at = -1;
    for (var i = 0; i < words.length && at < 0; i++) at = lower.indexOf(words[i].slice(0, 4));
    var start = Math.max(0, at - 60);
    if (start > 0) start = text.indexOf(" ", start) + 1;  // from a word's start
    var cut = text.slice(start, start + 220);
    return (start > 0 ? "… " : "") + cut + (start + 220 < text.length ? " …" : "");
  }

  function titleOf(doc) {
    var hash = doc.location.indexOf("#");
    if (hash < 0) return doc.title;
    var page = docs[doc.location.slice(0, hash)];
    return page && page.title !== doc.title ? page.title + " — " + doc.title : doc.title;
  }

  // A page's first heading is indexed again as a section of it: keep the page alone.
  function isPageTitle(doc) {
    var hash = doc.location.indexOf("#"), page = hash < 0 ? null : docs[doc.location.slice(0, hash)];
    return page !== null && page !== undefined && page.title === doc.title;
  }

  function show(query, results, words) {
    while (list.firstChild) list.removeChild(list.firstChild);
    results = results.filter(function (r) { return !isPageTitle(docs[r.ref]); });
    results.slice(0, MAX).forEach(function (r) {
      var doc = docs[r.ref], li = document.createElement("li");
      var a = document.createElement("a"), p = document.createElement("p");
      a.href = base + "/" + doc.location;
      a.textContent = titleOf(doc);
      p.textContent = excerpt(doc.text, words);
      li.appendChild(a);
      li.appendChild(p);
      list.appendChild(li);
    });
    var n = results.length;
    status.textContent = n === 0 ? "Nothing found for “" + query + "”."
      : (n === 1 ? "One place" : n + " places") + " found for “" + query + "”"
        + (n > MAX ? ", the first " + MAX + " shown." : ".");
  }

  function run() {
    var query = input.value.trim();
    if (query.length < minLength) {
      while (list.firstChild) list.removeChild(list.firstChild);
      status.textContent = query ? "Type at least " + minLength + " letters." : "";
      return;
    }
    var words = terms(query);
    var results = words.length ? find(words, lunr.Query.presence.REQUIRED) : [];
    if (!results.length && words.length > 1) results = find(words, lunr.Query.presence.OPTIONAL);
    show(query, results, words);
  }

  var timer = null;
  input.addEventListener("input", function () {
    clearTimeout(timer);
    timer = setTimeout(run, 150);
  });
  form.addEventListener("submit", function (event) {
    event.preventDefault();
    run();
  });
  var match = /[?&]q=([^&#]*)/.exec(window.location.search);
  if (match) {
    input.value = decodeURIComponent(match[1].replace(/\+/g, " "));
    run();
  }
})();
