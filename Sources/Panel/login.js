// The shore's login page: the name and password sent as JSON to POST /telltale/v1/login, which sets the session's
// cookie (HttpOnly: this script never sees it); then the panel. A refusal is said as the shore words it.
"use strict";
document.getElementById("login").addEventListener("submit", async (event) => {
  event.preventDefault();
  const said = document.getElementById("said");
  const button = document.getElementById("submit");
  button.disabled = true;
  said.textContent = "";
  try {
    const response = await fetch("/telltale/v1/login", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      credentials: "same-origin",
      body: JSON.stringify({
        name: document.getElementById("name").value.trim(),
        password: document.getElementById("password").value,
      }),
    });
    if (response.ok) {
      location.replace("/");
      return;
    }
    const answer = await response.json().catch(() => ({}));
    said.textContent = answer.message || `refused (${response.status})`;
  } catch (error) {
    said.textContent = "the shore cannot be reached: " + error.message;
  } finally {
    button.disabled = false;
  }
});
