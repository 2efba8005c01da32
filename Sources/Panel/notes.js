// What the gateway's boot left to say (a boot partition late or broken, a configuration refused or replaced), shown
// under the header until the gateway stops saying it: /telltale/v1/notes, read at the start and every minute.

export function renderNotes(notes) {
  const box = document.getElementById("notes");
  box.hidden = notes.length === 0;
  const key = JSON.stringify(notes);
  if (box.dataset.key === key) return;
  box.dataset.key = key;
  box.replaceChildren(...notes.map(text => {
    const row = document.createElement("div");
    row.textContent = "ⓘ " + text.trim();
    return row;
  }));
}

async function fetchNotes() {
  try {
    const response = await fetch("/telltale/v1/notes", { cache: "no-store" });
    if (response.ok) renderNotes((await response.json()).notes || []);
  } catch (e) { }
}

export function startNotes() {
  fetchNotes();
  setInterval(fetchNotes, 60000);
}
