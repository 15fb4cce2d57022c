/* Passkeys (tournament/web/passkeys.py): a form marked data-passkey="create" or "get" runs a WebAuthn ceremony
   before it is sent. Its button asks the server for options (POST data-options, JSON, the form's CSRF token in
   a header), hands them to navigator.credentials, and sends the form with the authenticator's answer (base64url
   JSON) in its "credential" field: the server checks it and answers with a redirect, as every form.
   Where the page is no secure context the server writes no such form; this script checks again (a proxy may
   have told the server otherwise) and shows the form's data-passkey-unavailable note instead. */
(function () {
  "use strict";

  function toBytes(text) {
    var plain = atob(text.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((text.length + 3) % 4));
    return Uint8Array.from(plain, function (c) { return c.charCodeAt(0); });
  }

  function toText(buffer) {
    var plain = String.fromCharCode.apply(null, new Uint8Array(buffer));
    return btoa(plain).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }

  /* The options' base64url fields as the bytes navigator.credentials takes. */
  function decoded(options) {
    options.challenge = toBytes(options.challenge);
    if (options.user) { options.user.id = toBytes(options.user.id); }
    (options.excludeCredentials || []).concat(options.allowCredentials || []).forEach(function (c) { c.id = toBytes(c.id); });
    return options;
  }

  /* The authenticator's answer as the JSON the server reads (the library's RegistrationResponseJSON and
     AuthenticationResponseJSON). */
  function encoded(credential) {
    var r = credential.response, response = {clientDataJSON: toText(r.clientDataJSON)};
    if (r.attestationObject) {
      response.attestationObject = toText(r.attestationObject);
      response.transports = r.getTransports ? r.getTransports() : [];
    } else {
      response.authenticatorData = toText(r.authenticatorData);
      response.signature = toText(r.signature);
      if (r.userHandle) { response.userHandle = toText(r.userHandle); }
    }
    return JSON.stringify({
      id: credential.id, rawId: toText(credential.rawId), type: credential.type, response: response,
      authenticatorAttachment: credential.authenticatorAttachment || undefined, clientExtensionResults: {}
    });
  }

  function say(form, text) {
    var box = form.querySelector("[data-passkey-error]");
    box.textContent = text;
    box.hidden = false;
  }

  document.querySelectorAll("form[data-passkey]").forEach(function (form) {
    var button = form.querySelector("button");
    if (!window.isSecureContext || !window.PublicKeyCredential) {
      form.querySelector("[data-passkey-unavailable]").hidden = false;
      button.disabled = true;
      return;
    }
    form.addEventListener("submit", function (event) {
      if (form.elements.credential.value) { return; }  /* the answer is in: send it */
      event.preventDefault();
      button.disabled = true;
      fetch(form.dataset.options, {
        method: "POST", cache: "no-store", credentials: "same-origin",
        headers: {"Accept": "application/json", "X-CSRFToken": form.elements._csrf_token.value}
      }).then(function (answer) {
        return answer.json().then(function (body) {
          if (!answer.ok) { throw new Error(body.error || "the server refused"); }
          return body;
        });
      }).then(function (options) {
        var publicKey = decoded(options);
        return form.dataset.passkey === "create" ? navigator.credentials.create({publicKey: publicKey}) : navigator.credentials.get({publicKey: publicKey});
      }).then(function (credential) {
        form.elements.credential.value = encoded(credential);
        form.submit();
      }).catch(function (error) {
        button.disabled = false;
        /* NotAllowedError: the person closed the prompt, or it timed out, or no passkey here is for this address */
        say(form, error.name === "NotAllowedError" ? "No passkey was used. Try again, or sign in with your card or code." : String(error.message || error));
      });
    });
  });
})();
