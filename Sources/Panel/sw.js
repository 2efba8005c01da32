// The panel's service worker, registered by the shore's Fleet layout when the owner asks for notifications on this
// phone (fleetalerts.js): each Web Push message of the boat watch shown as a notification, a later one of the same
// boat and kind replacing it; a tap opens the panel. It caches nothing: the panel is live or it is nothing.
self.addEventListener("push", event => {
  let data = {};
  try { data = event.data ? event.data.json() : {}; } catch (e) { data = { body: event.data ? event.data.text() : "" }; }
  const title = data.title || "Telltale";
  event.waitUntil(self.registration.showNotification(title, {
    body: data.body || "",
    tag: `${data.boat || ""}/${data.kind || ""}`,
    renotify: true,
    requireInteraction: !data.clear,
    icon: "/icon.svg",
    data: { url: "/" },
  }));
});

self.addEventListener("notificationclick", event => {
  event.notification.close();
  event.waitUntil((async () => {
    const open = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
    const panel = open.find(c => new URL(c.url).origin === self.location.origin);
    if (panel) return panel.focus();
    return self.clients.openWindow(event.notification.data && event.notification.data.url || "/");
  })());
});
