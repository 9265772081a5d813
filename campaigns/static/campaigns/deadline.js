// Deadlines in the reader's own time zone, with a live countdown.
//
// The server renders each instant as <time datetime="...UTC ISO..." data-local-time>, with
// the campaign's own zone (or the reader's profile zone) as the text and the campaign's as the
// title, so the page is right without JavaScript. base.html loads this script on every page:
// it rewrites that text in the reader's zone (the campaign's stays on hover) and fills every
// [data-countdown="ISO"] element. The reader's zone is the one of their profile when they
// chose one (<html data-time-zone>), else the browser's; the format follows the site's
// language (<html lang>). Illumineaucracy.localTimes(element) does the same for content
// added later (press.js).
(function () {
  "use strict";

  var root = document.documentElement;
  var options = {
    weekday: "short",
    day: "numeric",
    month: "short",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    timeZoneName: "short",
  };
  if (root.getAttribute("data-time-zone")) options.timeZone = root.getAttribute("data-time-zone");
  var localFormat;
  try {
    localFormat = new Intl.DateTimeFormat(root.lang || undefined, options);
  } catch (error) {
    // A zone this browser does not know: its own zone rather than no times at all.
    delete options.timeZone;
    localFormat = new Intl.DateTimeFormat(root.lang || undefined, options);
  }

  // A zone without a common abbreviation prints as "GMT+1", which names no place: its
  // name from the time zone database ("Europe/Berlin") says which clock is meant.
  var zoneName = localFormat.resolvedOptions().timeZone;
  function formatted(when) {
    return localFormat.formatToParts(when).map(function (part) {
      var offset = part.type === "timeZoneName" && /^(GMT|UTC)[+\u2212-]/.test(part.value);
      return offset && zoneName ? zoneName : part.value;
    }).join("");
  }

  function parse(text) {
    var when = new Date(text);
    return isNaN(when.getTime()) ? null : when;
  }

  function pad(n) {
    return (n < 10 ? "0" : "") + n;
  }

  // The countdown's words in the page's language (<body data-*>, base.html), English if a
  // page lacks them.
  var body = document.body;
  var leftText = body.getAttribute("data-remaining-text") || "%(time)s left";
  var passedText =
    body.getAttribute("data-passed-text") || "deadline passed: the turn is being processed";
  var units = (body.getAttribute("data-time-units") || "d h m s").split(" ");
  if (units.length !== 4) units = ["d", "h", "m", "s"];
  var d = units[0], h = units[1], m = units[2], sec = units[3];

  // "2d 03h 04m 05s", dropping leading zero units: "04m 05s".
  function remaining(ms) {
    var s = Math.floor(ms / 1000);
    var days = Math.floor(s / 86400);
    var hours = Math.floor((s % 86400) / 3600);
    var minutes = Math.floor((s % 3600) / 60);
    var seconds = s % 60;
    if (days > 0) return days + d + " " + pad(hours) + h + " " + pad(minutes) + m + " " + pad(seconds) + sec;
    if (hours > 0) return hours + h + " " + pad(minutes) + m + " " + pad(seconds) + sec;
    return minutes + m + " " + pad(seconds) + sec;
  }

  function localTimes(scope) {
    scope.querySelectorAll("time[data-local-time]").forEach(function (el) {
      var when = parse(el.getAttribute("datetime"));
      if (!when) return;
      // The campaign's own zone stays on hover (_instant.html sets it; older markup did not).
      if (!el.title) el.title = el.textContent.trim();
      el.textContent = formatted(when);
    });
  }

  localTimes(document);
  window.Illumineaucracy = window.Illumineaucracy || {};
  window.Illumineaucracy.localTimes = localTimes;

  var counters = [];
  document.querySelectorAll("[data-countdown]").forEach(function (el) {
    var when = parse(el.getAttribute("data-countdown"));
    if (when) counters.push({ el: el, when: when });
  });

  function tick() {
    var now = Date.now();
    counters.forEach(function (c) {
      var ms = c.when.getTime() - now;
      c.el.textContent = ms > 0 ? leftText.replace("%(time)s", remaining(ms)) : passedText;
      c.el.classList.toggle("text-bg-warning", ms > 0 && ms < 24 * 3600 * 1000);
      c.el.hidden = false;
    });
  }

  if (counters.length) {
    tick();
    window.setInterval(tick, 1000);
  }
})();
