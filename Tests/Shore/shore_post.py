"""The boat watch's delivery (shore_accounts_check.py, part 7): a real SMTP submission server on loopback (PyPI's
aiosmtpd: STARTTLS required before AUTH, a certificate from a CA made with openssl for the check), and a Web Push
service on loopback (HTTPS, the same CA) whose messages are decrypted by an independent library (PyPI's http_ece, with
the keys the "phone" made for its subscription) and whose VAPID tokens are verified by PyPI's cryptography."""
import base64
import email
import email.policy
import http.server
import json
import os
import ssl
import threading
import time

import http_ece
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature

from shore_https import make_ca
from support import free_port


def b64(data):
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def unb64(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Post:
    """The mail server and the push service, each in its thread; what they took, with when (monotonic)."""
    USER, PASSWORD = "shore", "p@ss word"

    def __init__(self, work):
        folder = os.path.join(work, "post")
        os.makedirs(folder)
        self.files = make_ca(folder)
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(self.files["shore.crt"], self.files["shore.key"])
        self.letters, self.pushes = [], []
        self.smtp_port, self.push_port = free_port(), free_port()

        def authenticate(server, session, envelope, mechanism, data):
            return AuthResult(success=isinstance(data, LoginPassword) and data.login == self.USER.encode()
                              and data.password == self.PASSWORD.encode())

        self.mail = Controller(self, hostname="127.0.0.1", port=self.smtp_port, tls_context=context,
                               require_starttls=True, authenticator=authenticate, auth_require_tls=True)
        self.mail.start()
        post = self

        class Push(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                post.pushes.append((time.monotonic(), self.path, dict(self.headers), body))
                self.send_response(410 if self.path.endswith("/gone") else 201)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.push = http.server.ThreadingHTTPServer(("127.0.0.1", self.push_port), Push)
        self.push.socket = context.wrap_socket(self.push.socket, server_side=True)
        threading.Thread(target=self.push.serve_forever, daemon=True).start()

    async def handle_DATA(self, server, session, envelope):
        self.letters.append((time.monotonic(), envelope.mail_from, list(envelope.rcpt_tos), envelope.content,
                             bool(session.authenticated), session.ssl is not None))
        return "250 OK"

    def flags(self):
        """What `telltale fleet` is told: the server (the password percent-encoded), the sender, the check's CA, the
        push service on loopback (named: the shore posts to no push service it is not told of)."""
        return ["--smtp", f"smtp://{self.USER}:p%40ss%20word@localhost:{self.smtp_port}",
                "--mail-from", "watch@shore.example.org", "--post-ca", self.files["ca.crt"], "--push-host", "localhost"]

    def stop(self):
        self.mail.stop()
        self.push.shutdown()

    def mails(self, to, words):
        """The letters to `to` whose text has `words`: (when, the parsed message, its plain text, TLS, logged in)."""
        found = []
        for when, _, rcpts, content, authenticated, tls in self.letters:
            message = email.message_from_bytes(content, policy=email.policy.default)
            text = message.get_body(("plain",)).get_content()
            if to in rcpts and (words in text or words in str(message["Subject"])):
                found.append((when, message, text, tls, authenticated))
        return found


class Phone:
    """A phone's browser as the Push API makes it: a P-256 key pair and a 16-byte auth secret; its subscription."""

    def __init__(self, endpoint):
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)
        self.endpoint = endpoint
        point = self.key.public_key().public_bytes(serialization.Encoding.X962,
                                                   serialization.PublicFormat.UncompressedPoint)
        self.subscription = {"endpoint": endpoint, "keys": {"p256dh": b64(point), "auth": b64(self.auth)}}

    def read(self, headers, body):
        """The payload decrypted by http_ece, or None."""
        try:
            return json.loads(http_ece.decrypt(body, private_key=self.key, auth_secret=self.auth,
                                               version="aes128gcm"))
        except Exception:  # noqa: BLE001 - anything http_ece refuses is a message the phone could not read
            return None


def vapid(headers, audience, public_key):
    """The VAPID header checked: an ES256 JWT for this audience, unexpired, with a mailto contact, signed by the key the
    shore hands phones; the claims, or the reason it is not."""
    words = headers.get("Authorization", "")
    if not words.startswith("vapid "):
        return None, "no vapid Authorization"
    parts = dict(p.strip().split("=", 1) for p in words[6:].split(","))
    if parts.get("k") != public_key:
        return None, "k is not the shore's key"
    header, claims, signature = parts["t"].split(".")
    raw = unb64(signature)
    key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64(public_key))
    try:
        key.verify(encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big")),
                   f"{header}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))
    except InvalidSignature:
        return None, "the signature does not verify"
    claims = json.loads(unb64(claims))
    if json.loads(unb64(header)) != {"typ": "JWT", "alg": "ES256"} or claims.get("aud") != audience \
            or not time.time() < claims.get("exp", 0) <= time.time() + 86400 \
            or not str(claims.get("sub", "")).startswith("mailto:"):
        return None, f"claims {claims}"
    return claims, ""
