#!/usr/bin/env python3
"""Checks dpop_resource.py from outside: starts it, sends it DPoP proofs built here with the
`cryptography` package, and checks each answer. Also replays the example proofs of RFC 9449
(Figures 2, 7 and 13, and the access token of Figure 8) against a server whose clock is pinned to
the examples' time.

    python3 Tests/EndToEndTests/Server/dpop_resource_selftest.py

Prints one line per check and exits 0 when all pass. Prints no token and no proof.
"""
import base64
import hashlib
import http.client
import json
import os
import secrets
import socket
import subprocess
import sys
import time
import urllib.parse

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature, encode_dss_signature

SERVER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "dpop_resource.py")
NONCE_CHALLENGE = 'DPoP error="use_dpop_nonce", error_description="Resource server requires nonce in DPoP proof"'


def rfc8792_unfold(text):
    """Undoes RFC 8792 single-backslash line wrapping (§7.2.2): a line ending in a backslash is
    joined to the next one, whose leading whitespace is dropped. Also drops the indentation the
    RFC gives its figures."""
    lines = []
    for raw in text.strip("\n").split("\n"):
        piece = raw.strip()
        if lines and lines[-1].endswith("\\"):
            lines[-1] = lines[-1][:-1] + piece
        else:
            lines.append(piece)
    return "\n".join(lines)


# RFC 9449 §4.1, Figure 2 (the proof decoded in Figure 4; the same proof as Figure 5 in §5).
RFC_FIGURE_2 = r"""
   DPoP: eyJ0eXAiOiJkcG9wK2p3dCIsImFsZyI6IkVTMjU2IiwiandrIjp7Imt0eSI6Ik\
    VDIiwieCI6Imw4dEZyaHgtMzR0VjNoUklDUkRZOXpDa0RscEJoRjQyVVFVZldWQVdCR\
    nMiLCJ5IjoiOVZFNGpmX09rX282NHpiVFRsY3VOSmFqSG10NnY5VERWclUwQ2R2R1JE\
    QSIsImNydiI6IlAtMjU2In19.eyJqdGkiOiItQndDM0VTYzZhY2MybFRjIiwiaHRtIj\
    oiUE9TVCIsImh0dSI6Imh0dHBzOi8vc2VydmVyLmV4YW1wbGUuY29tL3Rva2VuIiwia\
    WF0IjoxNTYyMjYyNjE2fQ.2-GxA6T8lP4vfrg8v-FdWP0A0zdrj8igiMLvqRMUvwnQg\
    4PtFLbdLXiOSsX0x7NVY-FNyJK70nfbV37xRZT3Lg
"""

# RFC 9449 §5, Figure 7: the proof of a refresh token request.
RFC_FIGURE_7 = r"""
   DPoP: eyJ0eXAiOiJkcG9wK2p3dCIsImFsZyI6IkVTMjU2IiwiandrIjp7Imt0eSI6Ik\
    VDIiwieCI6Imw4dEZyaHgtMzR0VjNoUklDUkRZOXpDa0RscEJoRjQyVVFVZldWQVdCR\
    nMiLCJ5IjoiOVZFNGpmX09rX282NHpiVFRsY3VOSmFqSG10NnY5VERWclUwQ2R2R1JE\
    QSIsImNydiI6IlAtMjU2In19.eyJqdGkiOiItQndDM0VTYzZhY2MybFRjIiwiaHRtIj\
    oiUE9TVCIsImh0dSI6Imh0dHBzOi8vc2VydmVyLmV4YW1wbGUuY29tL3Rva2VuIiwia\
    WF0IjoxNTYyMjY1Mjk2fQ.pAqut2IRDm_De6PR93SYmGBPXpwrAk90e8cP2hjiaG5Qs\
    GSuKDYW7_X620BxqhvYC8ynrrvZLTk41mSRroapUA
"""

# RFC 9449 §7.1, Figure 13: a protected resource request (decoded in Figure 14).
RFC_FIGURE_13 = r"""
   GET /protectedresource HTTP/1.1
   Host: resource.example.org
   Authorization: DPoP Kz~8mXK1EalYznwH-LC-1fBAo.4Ljp~zsPE_NeO.gxU
   DPoP: eyJ0eXAiOiJkcG9wK2p3dCIsImFsZyI6IkVTMjU2IiwiandrIjp7Imt0eSI6Ik\
    VDIiwieCI6Imw4dEZyaHgtMzR0VjNoUklDUkRZOXpDa0RscEJoRjQyVVFVZldWQVdCR\
    nMiLCJ5IjoiOVZFNGpmX09rX282NHpiVFRsY3VOSmFqSG10NnY5VERWclUwQ2R2R1JE\
    QSIsImNydiI6IlAtMjU2In19.eyJqdGkiOiJlMWozVl9iS2ljOC1MQUVCIiwiaHRtIj\
    oiR0VUIiwiaHR1IjoiaHR0cHM6Ly9yZXNvdXJjZS5leGFtcGxlLm9yZy9wcm90ZWN0Z\
    WRyZXNvdXJjZSIsImlhdCI6MTU2MjI2MjYxOCwiYXRoIjoiZlVIeU8ycjJaM0RaNTNF\
    c05yV0JiMHhXWG9hTnk1OUlpS0NBcWtzbVFFbyJ9.2oW9RP35yRqzhrtNP86L-Ey71E\
    OptxRimPPToA1plemAgR6pxHF8y6-yqyVnmcw6Fy1dqd-jfxSYoMxhAJpLjA
"""

# RFC 9449 §6.1, Figure 8: a JWT access token with cnf.jkt, the thumbprint of the examples' key.
RFC_FIGURE_8 = r"""
   eyJhbGciOiJFUzI1NiIsImtpZCI6IkJlQUxrYiJ9.eyJzdWIiOiJzb21lb25lQGV4YW1\
   wbGUuY29tIiwiaXNzIjoiaHR0cHM6Ly9zZXJ2ZXIuZXhhbXBsZS5jb20iLCJuYmYiOjE\
   1NjIyNjI2MTEsImV4cCI6MTU2MjI2NjIxNiwiY25mIjp7ImprdCI6IjBaY09DT1JaTll\
   5LURXcHFxMzBqWnlKR0hUTjBkMkhnbEJWM3VpZ3VBNEkifX0.3Tyo8VTcn6u_PboUmAO\
   YUY1kfAavomW_YwYMkmRNizLJoQzWy2fCo79Zi5yObpIzjWb5xW4OGld7ESZrh0fsrA
"""

RFC_JKT = "0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I"  # §6.1, Figure 9
RFC_FIGURE_14_ATH = "fUHyO2r2Z3DZ53EsNrWBb0xWXoaNy59IiKCAqksmQEo"
RFC_EXAMPLE_TIME = 1562262618  # iat of Figure 14


def header_value(unfolded, name):
    for line in unfolded.split("\n"):
        if line.startswith(name + ": "):
            return line[len(name) + 2:]
    raise KeyError(name)


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def b64url_decode(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def b64url_json(value):
    return b64url(json.dumps(value, separators=(",", ":")).encode("utf-8"))


def public_jwk(key):
    numbers = key.public_key().public_numbers()
    return {"kty": "EC", "crv": "P-256", "x": b64url(numbers.x.to_bytes(32, "big")),
            "y": b64url(numbers.y.to_bytes(32, "big"))}


def thumbprint(jwk):
    canonical = json.dumps({"crv": jwk["crv"], "kty": jwk["kty"], "x": jwk["x"], "y": jwk["y"]},
                           separators=(",", ":"), sort_keys=True)
    return b64url(hashlib.sha256(canonical.encode("utf-8")).digest())


def ath(token):
    return b64url(hashlib.sha256(token.encode("ascii")).digest())


def sign(key, signing_input):
    r, s = decode_dss_signature(key.sign(signing_input, ec.ECDSA(hashes.SHA256())))
    return r.to_bytes(32, "big") + s.to_bytes(32, "big")


def make_proof(key, method, htu, token, nonce=None, header=None, claims=None, drop=(), private_jwk=False):
    """An ES256 DPoP proof; `header` and `claims` override members, `drop` removes claims."""
    jwk = public_jwk(key)
    if private_jwk:
        jwk["d"] = b64url(key.private_numbers().private_value.to_bytes(32, "big"))
    protected = {"typ": "dpop+jwt", "alg": "ES256", "jwk": jwk}
    protected.update(header or {})
    payload = {"jti": secrets.token_urlsafe(16), "htm": method, "htu": htu, "iat": int(time.time()),
               "ath": ath(token)}
    if nonce is not None:
        payload["nonce"] = nonce
    payload.update(claims or {})
    for name in drop:
        payload.pop(name, None)
    signing_input = b64url_json(protected) + "." + b64url_json(payload)
    return signing_input + "." + b64url(sign(key, signing_input.encode("ascii")))


def flip_signature_byte(proof):
    head, body, signature = proof.split(".")
    raw = bytearray(b64url_decode(signature))
    raw[10] ^= 0x01
    return head + "." + body + "." + b64url(bytes(raw))


def verify_locally(proof):
    """Checks an ES256 proof's signature with its own jwk, here, without the server."""
    head, body, signature = proof.split(".")
    jwk = json.loads(b64url_decode(head))["jwk"]
    key = ec.EllipticCurvePublicNumbers(int.from_bytes(b64url_decode(jwk["x"]), "big"),
                                        int.from_bytes(b64url_decode(jwk["y"]), "big"),
                                        ec.SECP256R1()).public_key()
    raw = b64url_decode(signature)
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    try:
        key.verify(der, (head + "." + body).encode("ascii"), ec.ECDSA(hashes.SHA256()))
        return True
    except InvalidSignature:
        return False


def unsigned_jwt(claims):
    """A JWT-shaped access token: the resource server reads its claims, it does not verify it."""
    return b64url_json({"alg": "ES256", "typ": "at+jwt"}) + "." + b64url_json(claims) + "." + b64url(secrets.token_bytes(64))


class Server:
    """dpop_resource.py in a subprocess, with one keep-alive connection to it."""

    def __init__(self, *arguments):
        self.process = subprocess.Popen([sys.executable, SERVER, *arguments], stdout=subprocess.PIPE, text=True)
        self.base_url = self.process.stdout.readline().strip()
        parts = urllib.parse.urlsplit(self.base_url)
        self.connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
        self.resource_requests = 0

    def request(self, method, path, headers=(), body=None):
        if path == "/resource" or path.startswith(("/resource/", "/resource?")):
            self.resource_requests += 1
        self.connection.putrequest(method, path, skip_accept_encoding=True)
        for name, value in headers:
            self.connection.putheader(name, value)
        data = body.encode() if isinstance(body, str) else body
        if data is not None:
            self.connection.putheader("Content-Length", str(len(data)))
        elif method in ("POST", "PUT"):
            self.connection.putheader("Content-Length", "0")
        self.connection.endheaders(data)
        response = self.connection.getresponse()
        payload = response.read()
        return response.status, response.headers, json.loads(payload) if payload else None

    def resource(self, method, path, token, proof, extra=(), body=None, scheme="DPoP"):
        headers = [("Authorization", f"{scheme} {token}")]
        if proof is not None:
            headers.append(("DPoP", proof))
        return self.request(method, path, headers + list(extra), body)

    def nonce(self):
        return self.request("GET", "/nonce")[2]["nonce"]

    def stop(self):
        self.connection.close()
        self.process.terminate()
        self.process.wait(timeout=10)
        self.process.stdout.close()


results = []


def check(name, condition, detail=""):
    results.append(bool(condition))
    print(f"{'PASS' if condition else 'FAIL'}  {name}" + (f"  ({detail})" if detail and not condition else ""), flush=True)


def expect_invalid(name, answer, failed):
    status, headers, body = answer
    check(name, status == 401 and body == {"error": "invalid_dpop_proof", "failed": failed}
          and headers.get("WWW-Authenticate", "").startswith('DPoP error="invalid_dpop_proof", error_description="'),
          f"{status} {body}")


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_default_server():
    server = Server()
    try:
        base = server.base_url
        key = ec.generate_private_key(ec.SECP256R1())
        jkt = thumbprint(public_jwk(key))
        token = secrets.token_urlsafe(32)
        url = base + "/resource/items"
        check("prints http://127.0.0.1:PORT first", base.startswith("http://127.0.0.1:"))

        status, headers, body = server.resource("GET", "/resource/items?x=1", token, make_proof(key, "GET", url, token))
        first_nonce = headers.get("DPoP-Nonce")
        check("no nonce: 401 use_dpop_nonce with DPoP-Nonce",
              status == 401 and body == {"error": "use_dpop_nonce"} and first_nonce
              and headers.get("WWW-Authenticate") == NONCE_CHALLENGE, f"{status} {body}")
        check("GET /nonce is the nonce of the challenge", server.nonce() == first_nonce)

        status, headers, body = server.resource("GET", "/resource/items?x=1", token, make_proof(key, "GET", url, token, first_nonce))
        check("with the nonce: 200", status == 200 and body["ok"] is True and body["htm"] == "GET"
              and body["htu"] == url and body["jkt"] == jkt and isinstance(body["jti_count"], int), f"{status} {body}")
        check("a 200 that leaves the nonce uses has no DPoP-Nonce", "DPoP-Nonce" not in headers)
        replayable = make_proof(key, "POST", url, token, first_nonce)
        status, headers, body = server.resource("POST", "/resource/items", token, replayable, body="hello=world")
        check("POST with a body: 200 and its length", status == 200 and body.get("body_length") == 11, f"{status} {body}")
        check("second use: no DPoP-Nonce yet", "DPoP-Nonce" not in headers)
        status, headers, body = server.resource("PUT", "/resource/items", token, make_proof(key, "PUT", url, token, first_nonce), body="{}")
        second_nonce = headers.get("DPoP-Nonce")
        check("third use (--nonce-uses 3): 200 carrying a new DPoP-Nonce",
              status == 200 and second_nonce and second_nonce != first_nonce, f"{status} {body}")
        check("GET /nonce shows the rotation", server.nonce() == second_nonce)

        status, headers, body = server.resource("DELETE", "/resource/items", token, make_proof(key, "DELETE", url, token, first_nonce))
        check("the used-up nonce: 401 use_dpop_nonce with the current nonce",
              status == 401 and body == {"error": "use_dpop_nonce"} and headers.get("DPoP-Nonce") == second_nonce
              and headers.get("WWW-Authenticate") == NONCE_CHALLENGE, f"{status} {body}")
        status, headers, body = server.resource("DELETE", "/resource/items", token, make_proof(key, "DELETE", url, token, second_nonce))
        check("DELETE with the new nonce: 200", status == 200 and body["htm"] == "DELETE", f"{status} {body}")

        expect_invalid("replayed proof (same jti): invalid_dpop_proof jti",
                       server.resource("POST", "/resource/items", token, replayable, body="hello=world"), "jti")

        nonce = server.nonce()

        def attempt(method="GET", path="/resource/items", proof_method=None, htu=None, **options):
            proof = make_proof(key, proof_method or method, htu or base + path.split("?")[0], options.pop("proof_token", token),
                               nonce, **options)
            return server.resource(method, path, token, proof)

        expect_invalid("wrong htm", attempt(proof_method="POST"), "htm")
        expect_invalid("wrong htu (another path)", attempt(htu=base + "/resource/other"), "htu")
        expect_invalid("htu with the request's query", attempt(path="/resource/items?x=1", htu=base + "/resource/items?x=1"), "htu")
        expect_invalid("htu with a fragment", attempt(htu=base + "/resource/items#top"), "htu")
        expect_invalid("htu of another host", attempt(htu=base.replace("127.0.0.1", "localhost") + "/resource/items"), "htu")
        expect_invalid("wrong ath", attempt(proof_token=token + "x"), "ath")
        expect_invalid("missing ath", attempt(drop=("ath",)), "ath")
        expect_invalid("bad signature (one byte flipped)",
                       server.resource("GET", "/resource/items", token, flip_signature_byte(make_proof(key, "GET", url, token, nonce))),
                       "signature")
        expect_invalid("iat 120 s old", attempt(claims={"iat": int(time.time()) - 120}), "iat")
        expect_invalid("iat 120 s ahead", attempt(claims={"iat": int(time.time()) + 120}), "iat")
        expect_invalid("iat a string", attempt(claims={"iat": str(int(time.time()))}), "iat")
        expect_invalid("jwk with d", attempt(private_jwk=True), "jwk")
        expect_invalid("jwk of another curve", attempt(header={"jwk": dict(public_jwk(key), crv="P-384")}), "jwk")
        expect_invalid("typ JWT", attempt(header={"typ": "JWT"}), "typ")
        expect_invalid("alg RS256", attempt(header={"alg": "RS256"}), "alg")
        expect_invalid("empty jti", attempt(claims={"jti": ""}), "jti")
        expect_invalid("another key's signature",
                       server.resource("GET", "/resource/items", token,
                                       ".".join(make_proof(key, "GET", url, token, nonce).split(".")[:2]
                                                + [make_proof(ec.generate_private_key(ec.SECP256R1()), "GET", url, token, nonce).split(".")[2]])),
                       "signature")
        expect_invalid("proof not a JWT", server.resource("GET", "/resource/items", token, "not.a-jwt"), "jwt")
        expect_invalid("no DPoP header", server.resource("GET", "/resource/items", token, None), "dpop_header")
        expect_invalid("two DPoP headers",
                       server.resource("GET", "/resource/items", token, make_proof(key, "GET", url, token, nonce),
                                       extra=[("DPoP", make_proof(key, "GET", url, token, nonce))]), "dpop_header")

        other_key = ec.generate_private_key(ec.SECP256R1())
        bound_elsewhere = unsigned_jwt({"sub": "alice", "cnf": {"jkt": thumbprint(public_jwk(other_key))}})
        expect_invalid("token JWT with cnf.jkt of another key",
                       server.resource("GET", "/resource/items", bound_elsewhere, make_proof(key, "GET", url, bound_elsewhere, nonce)), "jkt")

        bound_here = unsigned_jwt({"sub": "alice", "cnf": {"jkt": jkt}})
        status, headers, body = server.resource("GET", "/resource/items", bound_here, make_proof(key, "GET", url, bound_here, nonce))
        check("token JWT with cnf.jkt of the proof's key: 200", status == 200 and body["jkt"] == jkt, f"{status} {body}")
        nonce = headers.get("DPoP-Nonce", nonce)

        normalized_htu = base.replace("http://", "HTTP://") + "/resource/%7eitems/./a/../b"
        status, headers, body = server.resource("GET", "/resource/~items/b", token, make_proof(key, "GET", normalized_htu, token, nonce),
                                                scheme="dpop")
        check("htu equal after RFC 3986 normalisation, scheme 'dpop' in lower case: 200", status == 200, f"{status} {body}")
        nonce = headers.get("DPoP-Nonce", nonce)

        status, headers, body = server.resource("GET", "/resource/items", token, make_proof(key, "GET", url, token, nonce), scheme="Bearer")
        check("Authorization: Bearer: 401 invalid_token",
              status == 401 and body == {"error": "invalid_token"} and headers.get("WWW-Authenticate") == 'DPoP error="invalid_token"',
              f"{status} {body}")
        status, headers, body = server.request("GET", "/resource/items")
        check("no Authorization: 401 with a DPoP challenge",
              status == 401 and headers.get("WWW-Authenticate", "").startswith("DPoP"), f"{status} {body}")

        before = server.nonce()
        status, headers, body = server.request("POST", "/control/rotate")
        check("POST /control/rotate: a new nonce", status == 200 and body["nonce"] != before and server.nonce() == body["nonce"])

        status, headers, log = server.request("GET", "/log")
        entries = log["verified"]
        text = json.dumps(log)
        check("GET /log: one entry per /resource request", status == 200 and len(entries) == server.resource_requests,
              f"{len(entries)} entries for {server.resource_requests} requests")
        check("log entries have the fields asked for",
              all(set(entry) == {"status", "method", "htu", "failed", "jkt", "nonce_used", "ath_ok"} for entry in entries))
        check("log records the first exchange",
              entries[0]["status"] == 401 and entries[0]["failed"] == "nonce" and entries[0]["ath_ok"] is True
              and entries[1] == {"status": 200, "method": "GET", "htu": url, "failed": None, "jkt": jkt,
                                 "nonce_used": True, "ath_ok": True}, json.dumps(entries[:2]))
        check("log records each failed check",
              [entry["failed"] for entry in entries[6:12]] == ["jti", "htm", "htu", "htu", "htu", "htu"], json.dumps(entries[6:12]))
        check("log holds no token and no proof",
              token not in text and bound_here not in text and bound_elsewhere not in text and replayable not in text
              and replayable.split(".")[2] not in text)

        status, headers, body = server.request("DELETE", "/log")
        check("DELETE /log empties it", status == 200 and server.request("GET", "/log")[2] == {"verified": []})
        expect_invalid("a replay after DELETE /log is still refused",
                       server.resource("POST", "/resource/items", token, replayable, body="hello=world"), "jti")
        status, headers, body = server.request("GET", "/elsewhere")
        check("unknown path: 404", status == 404)
    finally:
        server.stop()


def test_rfc_examples():
    figure_2 = header_value(rfc8792_unfold(RFC_FIGURE_2), "DPoP")
    figure_7 = header_value(rfc8792_unfold(RFC_FIGURE_7), "DPoP")
    figure_13_request = rfc8792_unfold(RFC_FIGURE_13)
    figure_13 = header_value(figure_13_request, "DPoP")
    figure_13_token = header_value(figure_13_request, "Authorization")[len("DPoP "):]
    figure_8 = rfc8792_unfold(RFC_FIGURE_8).strip()

    # The copied text itself, checked here without the server.
    check("RFC 9449 Figure 2 signature verifies (checked here, as copied)", verify_locally(figure_2))
    check("RFC 9449 Figure 7 signature verifies (checked here, as copied)", verify_locally(figure_7))
    check("RFC 9449 Figure 13 signature verifies (checked here, as copied)", verify_locally(figure_13))
    header = json.loads(b64url_decode(figure_2.split(".")[0]))
    check("RFC 9449 Figure 4 header decoded from Figure 2",
          header == {"typ": "dpop+jwt", "alg": "ES256", "jwk": {"kty": "EC", "x": "l8tFrhx-34tV3hRICRDY9zCkDlpBhF42UQUfWVAWBFs",
                                                                "y": "9VE4jf_Ok_o64zbTTlcuNJajHmt6v9TDVrU0CdvGRDA", "crv": "P-256"}})
    check("RFC 9449 Figure 4 claims decoded from Figure 2",
          json.loads(b64url_decode(figure_2.split(".")[1])) == {"jti": "-BwC3ESc6acc2lTc", "htm": "POST",
                                                                "htu": "https://server.example.com/token", "iat": 1562262616})
    check("RFC 9449 §6.1: the examples' key has thumbprint " + RFC_JKT, thumbprint(header["jwk"]) == RFC_JKT)
    check("RFC 9449 Figure 14: ath is the hash of Figure 13's token", ath(figure_13_token) == RFC_FIGURE_14_ATH
          and json.loads(b64url_decode(figure_13.split(".")[1]))["ath"] == RFC_FIGURE_14_ATH)
    check("RFC 9449 Figure 9: Figure 8's token holds cnf.jkt " + RFC_JKT,
          json.loads(b64url_decode(figure_8.split(".")[1]))["cnf"] == {"jkt": RFC_JKT})

    # The same proofs through the server, its clock pinned to the examples' time. Its htu is
    # http://127.0.0.1:PORT/..., so an RFC proof gets as far as the first check that depends on
    # the server's own address; the checks are made in the order signature, htm, iat, jti, ath, htu.
    port = free_port()
    server = Server("--port", str(port), "--no-nonce", "--now", str(RFC_EXAMPLE_TIME), "--iat-window", "3600")
    try:
        check("--port PORT is used", server.base_url == f"http://127.0.0.1:{port}")
        expect_invalid("server: Figure 13 with a flipped signature byte fails the signature",
                       server.resource("GET", "/resource", figure_13_token, flip_signature_byte(figure_13)), "signature")
        expect_invalid("server: Figure 13 passes signature, htm, iat (pinned clock), jti and ath; fails only htu",
                       server.resource("GET", "/resource", figure_13_token, figure_13), "htu")
        expect_invalid("server: Figure 2 passes signature, htm, iat and jti; fails ath (a token request proof has none)",
                       server.resource("POST", "/resource", figure_13_token, figure_2), "ath")
        expect_invalid("server: Figure 7 passes the signature and is refused as a replay: it reuses Figure 2's jti",
                       server.resource("POST", "/resource", figure_13_token, figure_7), "jti")
        entries = server.request("GET", "/log")[2]["verified"]
        check("server log: Figure 13 got RFC 9449's thumbprint and ath_ok",
              entries[1] == {"status": 401, "method": "GET", "htu": "https://resource.example.org/protectedresource",
                             "failed": "htu", "jkt": RFC_JKT, "nonce_used": False, "ath_ok": True}, json.dumps(entries[1]))

        key = ec.generate_private_key(ec.SECP256R1())
        url = server.base_url + "/resource"
        status, headers, body = server.resource("GET", "/resource", figure_13_token,
                                                make_proof(key, "GET", url, figure_13_token, claims={"iat": RFC_EXAMPLE_TIME}))
        check("server --no-nonce: an own proof for Figure 13's token at the pinned time: 200 without DPoP-Nonce",
              status == 200 and "DPoP-Nonce" not in headers, f"{status} {body}")
        expect_invalid("server: an own proof at the real time is outside the pinned clock's window",
                       server.resource("GET", "/resource", figure_13_token, make_proof(key, "GET", url, figure_13_token)), "iat")
        expect_invalid("server: Figure 8's token is bound to the RFC key, refused with an own key's proof",
                       server.resource("GET", "/resource", figure_8,
                                       make_proof(key, "GET", url, figure_8, claims={"iat": RFC_EXAMPLE_TIME})), "jkt")
    finally:
        server.stop()


def main():
    test_default_server()
    test_rfc_examples()
    failed = results.count(False)
    print(f"{len(results) - failed} passed, {failed} failed", flush=True)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
