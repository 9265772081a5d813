// "Check in your browser" on the verify page (RULES R23): the browser recomputes one roll
// from the seed printed on the page with its own Web Crypto, so a player need not trust the
// server's arithmetic. Die i of the roll with key K is HMAC-SHA256(key = the seed's 32
// bytes, message = "K:i" in UTF-8), its first 8 bytes read big-endian, modulo the sides
// (6 for a key ending ":perception", else 10), plus 1: campaigns/engine/dice.py roll_faces.
// Without Web Crypto (an old browser, or a page not served over HTTPS) the button stays
// hidden and the page's own steps and form still work.
(function () {
  "use strict";

  var box = document.querySelector("[data-browser-check]");
  if (!box || !window.crypto || !window.crypto.subtle || typeof BigInt === "undefined") return;
  var button = box.querySelector("button");
  var out = box.querySelector("[data-browser-faces]");
  var verdict = box.querySelector("[data-browser-match]");
  var seedText = (document.querySelector("[data-seed]") || {}).textContent || "";
  var keyInput = document.getElementById("id_key");
  var diceInput = document.getElementById("id_dice");
  var maxDice = parseInt(box.getAttribute("data-max-dice"), 10);

  function seedBytes(hex) {
    if (!/^[0-9a-f]{64}$/.test(hex)) return null;
    var bytes = new Uint8Array(32);
    for (var i = 0; i < 32; i++) bytes[i] = parseInt(hex.substr(i * 2, 2), 16);
    return bytes;
  }

  function faces(secret, key, dice) {
    var sides = BigInt(/:perception$/.test(key) ? 6 : 10);
    var encoder = new TextEncoder();
    return window.crypto.subtle
      .importKey("raw", secret, { name: "HMAC", hash: "SHA-256" }, false, ["sign"])
      .then(function (hmacKey) {
        var dies = [];
        for (var i = 0; i < dice; i++) {
          dies.push(window.crypto.subtle.sign("HMAC", hmacKey, encoder.encode(key + ":" + i)));
        }
        return Promise.all(dies);
      })
      .then(function (digests) {
        return digests.map(function (digest) {
          var first = new DataView(digest).getBigUint64(0, false);
          return Number((first % sides) + BigInt(1));
        });
      });
  }

  // The faces the server printed for this same key and number of dice, if it did.
  function serverFaces(key, dice) {
    var shown = document.querySelector("#result [data-faces]");
    if (!shown || shown.getAttribute("data-key") !== key) return null;
    if (shown.getAttribute("data-dice") !== String(dice)) return null;
    return shown.getAttribute("data-faces-list");
  }

  button.addEventListener("click", function () {
    var secret = seedBytes(seedText.trim());
    var key = keyInput ? keyInput.value.trim() : "";
    var dice = diceInput ? parseInt(diceInput.value, 10) : NaN;
    verdict.textContent = "";
    verdict.className = "mb-0";
    if (!secret || !key || !(dice >= 0 && dice <= maxDice)) {
      out.textContent = box.getAttribute("data-need-input");
      return;
    }
    faces(secret, key, dice).then(function (computed) {
      var text = computed.join(" ");
      out.textContent = text || box.getAttribute("data-no-dice");
      var server = serverFaces(key, dice);
      if (server === null) return;
      var same = server === text;
      verdict.textContent = box.getAttribute(same ? "data-same" : "data-differs");
      verdict.className = "mb-0 " + (same ? "text-success" : "text-danger");
    });
  });
  box.hidden = false;
})();
