"""A push service on loopback for the Web Push tests, written apart from the server's crates so
that it checks the standards, not the server's reading of them. It makes a subscription (a P-256
key pair and an auth secret, as a browser does), prints it as one JSON line, then for every POST:
checks the VAPID signature (RFC 8292), decrypts the payload with the subscription's private key
(RFC 8291, aes128gcm of RFC 8188) and writes what it found to a numbered file in the folder it is
given. While the folder holds a file `answer`, it answers every push with the status written
there (410: the subscription is gone) and decrypts nothing."""
import base64
import hashlib
import hmac
import http.server
import itertools
import json
import os
import pathlib
import sys
import time

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec, utils
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

folder = pathlib.Path(sys.argv[1])
private = ec.generate_private_key(ec.SECP256R1())
public = private.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
auth = os.urandom(16)
numbers = itertools.count(1)


def b64(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def hmac256(key, data):
    return hmac.new(key, data, hashlib.sha256).digest()


def decrypt(body):
    salt, record_size, id_length = body[:16], int.from_bytes(body[16:20], "big"), body[20]
    sender = body[21 : 21 + id_length]
    ciphertext = body[21 + id_length :]
    assert len(ciphertext) <= record_size, "one record"
    shared = private.exchange(ec.ECDH(), ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), sender))
    key_info = b"WebPush: info\x00" + public + sender
    ikm = hmac256(hmac256(auth, shared), key_info + b"\x01")
    prk = hmac256(salt, ikm)
    cek = hmac256(prk, b"Content-Encoding: aes128gcm\x00\x01")[:16]
    nonce = hmac256(prk, b"Content-Encoding: nonce\x00\x01")[:12]
    plain = AESGCM(cek).decrypt(nonce, ciphertext, None).rstrip(b"\x00")
    assert plain.endswith(b"\x02"), "the last record's delimiter"
    return plain[:-1]


def check_vapid(header, endpoint_origin):
    fields = dict(part.strip().split("=", 1) for part in header.removeprefix("vapid ").split(","))
    token, key = fields["t"], fields["k"]
    signing_input, signature = token.rsplit(".", 1)
    raw = unb64(signature)
    der = utils.encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    verifier = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64(key))
    verifier.verify(der, signing_input.encode(), ec.ECDSA(hashes.SHA256()))
    head, claims = (json.loads(unb64(part)) for part in signing_input.split("."))
    assert head == {"typ": "JWT", "alg": "ES256"} or head.get("alg") == "ES256", head
    assert claims["aud"] == endpoint_origin, claims
    assert time.time() < claims["exp"] <= time.time() + 24 * 3600, claims
    assert claims["sub"].startswith(("mailto:", "https:")), claims
    return key, claims


class Push(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers["Content-Length"]))
        answer = folder / "answer"
        if answer.exists():
            self.send_response(int(answer.read_text()))
            self.end_headers()
            return
        record = {"path": self.path, "ttl": self.headers["TTL"], "urgency": self.headers["Urgency"]}
        try:
            assert self.headers["Content-Encoding"] == "aes128gcm"
            key, claims = check_vapid(self.headers["Authorization"], f"http://127.0.0.1:{self.server.server_port}")
            record.update(vapid_key=key, claims=claims, payload=json.loads(decrypt(body)))
            status = 201
        except Exception as error:  # the test reads what was wrong
            record["error"] = repr(error)
            status = 400
        number = next(numbers)
        partial = folder / f"{number:04}.part"
        partial.write_text(json.dumps(record))
        partial.rename(folder / f"{number:04}.json")
        self.send_response(status)
        self.end_headers()

    def log_message(self, *args):
        pass


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Push)
print(json.dumps({"port": server.server_port, "p256dh": b64(public), "auth": b64(auth)}), flush=True)
server.serve_forever()
