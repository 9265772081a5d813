// A form with data-busy-text says so while it is being sent (a long import), and cannot be
// sent twice.
document.querySelectorAll("form[data-busy-text]").forEach((form) => {
  form.addEventListener("submit", () => {
    const status = form.querySelector("[data-busy-status]");
    if (status) status.textContent = form.dataset.busyText;
    form.querySelectorAll("button[type=submit]").forEach((button) => {
      button.disabled = true;
    });
  });
});
