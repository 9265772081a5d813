// The board import's progress: an honest indicator, not a promise. As soon as a
// file is chosen it says what the file is (name, size, and how many departments it holds,
// counted here when the file can be read: JSON's "departments", a CSV's lines); on "Import"
// it says at once what happens now (the file is sent, then every department is checked by
// the rules before anything is saved), with the seconds gone by, and the button cannot be
// pressed twice. The page the server sends back replaces it: the board, or the list of
// problems. The words come from the page (data-text-*, translated), with {file}, {size},
// {n} and {seconds} filled in here.
(function () {
  "use strict";
  const form = document.querySelector("form[data-board-import]");
  if (!form) return;
  const input = form.querySelector("input[type=file]");
  const chosen = form.querySelector("[data-import-file]");
  const progress = form.querySelector("[data-import-progress]");
  const status = form.querySelector("[data-import-status]");
  const elapsed = form.querySelector("[data-import-elapsed]");
  const text = (name, values) =>
    form.dataset[name].replace(/\{(\w+)\}/g, (_, key) => String(values[key] ?? ""));
  const language = document.documentElement.lang || undefined;
  let described = null; // {file, size, n} of the file chosen

  function size(bytes) {
    const units = [["MB", 1024 * 1024], ["KB", 1024]];
    for (const [unit, factor] of units) {
      if (bytes >= factor) {
        const value = (bytes / factor).toLocaleString(language, { maximumFractionDigits: 1 });
        return `${value} ${unit}`;
      }
    }
    return `${bytes.toLocaleString(language)} B`;
  }

  // How many departments the file holds, or null if it cannot be told here (the server
  // will say what is wrong with it).
  function departments(file, content) {
    if (file.name.toLowerCase().endsWith(".csv")) {
      const lines = content.split(/\r?\n/).filter((line) => line.replace(/[,;\s"]/g, ""));
      return Math.max(0, lines.length - 1);
    }
    try {
      const data = JSON.parse(content);
      return Array.isArray(data.departments) ? data.departments.length : null;
    } catch (error) {
      return null;
    }
  }

  async function describe() {
    const file = input.files && input.files[0];
    described = null;
    chosen.textContent = "";
    if (!file) return;
    described = { file: file.name, size: size(file.size), n: null };
    chosen.textContent = text("textChosenUnknown", described);
    try {
      described.n = departments(file, await file.text());
    } catch (error) {
      described.n = null;
    }
    if (described.n !== null) {
      described.n = described.n.toLocaleString(language);
      chosen.textContent = text("textChosen", described);
    }
  }

  input.addEventListener("change", describe);
  form.addEventListener("submit", (event) => {
    // A disabled button is left out of what the form sends, so the pressed one's value
    // ("Import it as it is" carries the confirmation) goes along in a hidden field.
    const pressed = event.submitter;
    if (pressed && pressed.name) {
      const carried = document.createElement("input");
      carried.type = "hidden";
      carried.name = pressed.name;
      carried.value = pressed.value;
      form.appendChild(carried);
    }
    form.querySelectorAll("button[type=submit]").forEach((button) => { button.disabled = true; });
    // No file chosen: the text in the form is sent (a file kept after a problem, or pasted).
    const values = described || { file: "", size: "", n: null };
    const busy = !described ? "textBusyText" : values.n === null ? "textBusyUnknown" : "textBusy";
    status.textContent = text(busy, values);
    const started = Date.now();
    const tick = () => {
      elapsed.textContent = text("textElapsed", {
        seconds: Math.floor((Date.now() - started) / 1000).toLocaleString(language),
      });
    };
    tick();
    window.setInterval(tick, 1000);
    progress.hidden = false;
    form.setAttribute("aria-busy", "true");
  });
  // Back to this page from the browser's history: as it was before "Import".
  window.addEventListener("pageshow", (event) => {
    if (!event.persisted) return;
    progress.hidden = true;
    form.removeAttribute("aria-busy");
    form.querySelectorAll("button[type=submit]").forEach((button) => { button.disabled = false; });
  });
  if (input.files && input.files.length) describe();
})();
