// The turn slider of the board page: the form works without this script (pick a
// turn, press Show); with it, the number follows the slider and letting go shows that turn.
document.querySelectorAll("form[data-turn-scrubber]").forEach((form) => {
  const range = form.querySelector("input[type=range]");
  const output = form.querySelector("output");
  if (!range) return;
  range.addEventListener("input", () => {
    if (output) output.textContent = range.value;
  });
  range.addEventListener("change", () => form.requestSubmit());
});
