// The boat watch on this phone (ashore, behind the shore's accounts): "Notify this phone" subscribes it for Web Push
// with the shore's VAPID key (the panel's service worker, sw.js, shows each message), "Stop notifying" takes it back.
// Shown only where the browser can (on an iPhone, the panel added to the home screen first) and the shore does.

/** The VAPID key as the Push API takes it (URL-safe base64 into bytes). */
export function keyBytes(text) {
  const padded = (text + "===".slice((text.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/");
  return Uint8Array.from(atob(padded), c => c.charCodeAt(0));
}

/** The app's manifest and icon, for the shore's panel alone (the boat's page stays light): a phone adds it to its
 * home screen as an app, which an iPhone needs before it takes pushes. */
function installable() {
  for (const [rel, href] of [["manifest", "/manifest.webmanifest"], ["apple-touch-icon", "/icon.svg"]]) {
    if (document.querySelector(`link[rel="${rel}"]`)) continue;
    const link = document.createElement("link");
    link.rel = rel;
    link.href = href;
    document.head.append(link);
  }
}

export async function pushButton() {
  installable();
  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !window.isSecureContext) return null;
  let key;
  try {
    const r = await fetch("/telltale/v1/fleet/push/key", { cache: "no-store" });
    if (!r.ok) return null;
    key = (await r.json()).publicKey;
  } catch (e) { return null; }
  const button = document.createElement("button");
  button.className = "fleet-push";
  const registration = await navigator.serviceWorker.register("/sw.js");
  const show = async () => {
    const current = await registration.pushManager.getSubscription();
    button.textContent = current ? "Stop notifying this phone" : "Notify this phone";
    button.dataset.on = current ? "1" : "";
  };
  button.onclick = async () => {
    button.disabled = true;
    try {
      const current = await registration.pushManager.getSubscription();
      if (current) {
        await fetch("/telltale/v1/fleet/push/unsubscribe", { method: "POST", headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ endpoint: current.endpoint }) });
        await current.unsubscribe();
      } else if (await Notification.requestPermission() === "granted") {
        const made = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key) });
        const r = await fetch("/telltale/v1/fleet/push/subscribe", { method: "POST",
          headers: { "Content-Type": "application/json" }, body: JSON.stringify(made.toJSON()) });
        if (!r.ok) { await made.unsubscribe(); button.title = await r.text(); }
      }
    } catch (e) {
      button.title = String(e);
    }
    button.disabled = false;
    show();
  };
  await show();
  return button;
}
