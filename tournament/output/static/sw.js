/* The service worker (served at /sw.js, so its scope is the whole site): it shows each push message as a
   notification, and opens the message's page when the notification is tapped. A repeat of a message (the
   sender's at-least-once, T-222) carries the same id, used as the notification's tag: it replaces the first
   instead of showing twice. Its "Stop these" action opens the page that stops the subscription (T-239). */
"use strict";

self.addEventListener("install", function () { self.skipWaiting(); });
self.addEventListener("activate", function (event) { event.waitUntil(self.clients.claim()); });

self.addEventListener("push", function (event) {
  var message = {};
  try { message = event.data ? event.data.json() : {}; } catch (e) { message = {body: event.data ? event.data.text() : ""}; }
  event.waitUntil(self.registration.showNotification(message.title || "headjudge", {
    body: message.body || "",
    tag: message.id || undefined,
    data: {url: message.url || "/me", stop: message.stop || null},
    actions: message.stop ? [{action: "stop", title: "Stop these"}] : []
  }));
});

self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  var data = event.notification.data || {};
  var url = (event.action === "stop" && data.stop) || data.url || "/me";
  event.waitUntil(self.clients.matchAll({type: "window", includeUncontrolled: true}).then(function (open) {
    for (var i = 0; i < open.length; i++) {
      if (open[i].url === url && "focus" in open[i]) { return open[i].focus(); }
    }
    return self.clients.openWindow(url);
  }));
});
