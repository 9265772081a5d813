// New messages without reloading: the conversation page (templates/press/
// conversation.html) lists messages in <ul id="messages" data-poll="URL" data-last-seq="N">.
// Every few seconds, while the tab is visible, this asks URL?after=N; the server answers 204
// (nothing new) or the new messages as <li> elements, rendered by the same template as the
// page, which are appended. Without JavaScript the page is the same, just not live.
(function () {
  "use strict";

  var list = document.getElementById("messages");
  if (!list || !list.dataset.poll) return;
  var EVERY_MS = 5000;
  var busy = false;

  function lastSeq() {
    return parseInt(list.dataset.lastSeq || "0", 10) || 0;
  }

  function append(html) {
    var holder = document.createElement("ul");
    holder.innerHTML = html;
    var added = 0;
    Array.prototype.slice.call(holder.children).forEach(function (item) {
      var seq = parseInt(item.dataset.seq || "0", 10);
      // A message already shown (the page was reloaded meanwhile) is not shown twice.
      if (!seq || seq <= lastSeq() || document.getElementById("m-" + seq)) return;
      list.appendChild(item);
      list.dataset.lastSeq = String(seq);
      added += 1;
    });
    if (added) {
      if (window.Illumineaucracy && window.Illumineaucracy.localTimes) {
        window.Illumineaucracy.localTimes(list);
      }
      var empty = document.getElementById("no-messages");
      if (empty) empty.hidden = true;
    }
  }

  function poll() {
    if (busy || document.hidden) return;
    busy = true;
    fetch(list.dataset.poll + "?after=" + lastSeq(), {
      credentials: "same-origin",
      headers: { Accept: "text/html" },
    })
      .then(function (response) {
        return response.status === 200 ? response.text() : "";
      })
      .then(function (html) {
        if (html) append(html);
      })
      .catch(function () {
        // Offline for a moment: the next tick tries again.
      })
      .then(function () {
        busy = false;
      });
  }

  window.setInterval(poll, EVERY_MS);
  document.addEventListener("visibilitychange", poll);
})();
