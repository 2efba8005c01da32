// The chart's anchor dialog (loaded the first time the anchor button is pressed: the page's first load stays small).
import { command } from "./access.js";
import { number, reading } from "./store.js";
import { bearing } from "./units.js";

// The anchor watch's dialog: drop (a circle by hand, from the chain let out, or the configured one); once down, how
// the boat lies, the circle set by hand, from the chain or from where she lies, and raise. The gateway's words go to
// the toast when it refuses (no fix, a circle out of range).
export function anchorMenu(updateChart) {
  const dialog = document.getElementById("anchor"), form = document.getElementById("anchor-form");
  const max = number("navigation.anchor.maxRadius"), down = !!reading("navigation.anchor.position");
  const distance = number("navigation.anchor.currentRadius"), towards = number("navigation.anchor.bearingTrue");
  const rode = number("navigation.anchor.rodeLength");
  form.radius.value = down && max ? Math.round(max.value) : "";
  form.rode.value = down && rode ? Math.round(rode.value) : "";
  form.radius.placeholder = down ? "" : "as configured";
  document.getElementById("anchor-state").textContent = down
    ? "Anchor down" + (distance ? ": " + Math.round(distance.value) + " m away" : "") +
      (towards ? ", bearing " + bearing(towards.value) + "°" : "") + (max ? ", circle " + Math.round(max.value) + " m" : "") + "."
    : "No anchor down: it is placed at the bow, from the GPS and the boat's heading.";
  document.getElementById("anchor-hint").textContent = down
    ? "Set circle: the radius given, or from the chain let out (its reach at this depth, the bow and the margin)."
    : "Give a radius, or the chain you will let out; neither: the configured circle.";
  document.getElementById("anchor-up-buttons").hidden = down;
  document.getElementById("anchor-down-buttons").hidden = !down;
  dialog.onclose = async () => {
    const radius = Number(form.radius.value), chain = Number(form.rode.value);
    const send = words => command("telltale/anchor/command", words);
    switch (dialog.returnValue) {
      case "drop":
        await send(radius > 0 ? "drop " + radius : "drop");
        if (chain > 0 && !(radius > 0)) await send("rode " + chain);
        break;
      case "set":
        if (chain > 0 && (!rode || chain !== Math.round(rode.value))) await send("rode " + chain);
        else if (radius > 0) await send("radius " + radius);
        break;
      case "fit": await send("radius"); break;
      case "raise": if (confirm("Raise the anchor? The watch ends.")) await send("raise"); break;
    }
    updateChart();
  };
  dialog.showModal();
}
