#!/usr/bin/env python3
"""A protected resource that accepts only DPoP-bound access tokens and checks every DPoP proof
itself (RFC 9449 §4.3 and §7.1), for the end-to-end tests of Bearer's DPoP support.

    GET|POST|PUT|DELETE /resource[/...]
                             a protected resource. Needs `Authorization: DPoP <token>` and exactly
                             one `DPoP` header holding a proof JWT. 200 {"ok": true, "htm", "htu",
                             "jkt", "jti_count"[, "body_length"]} when every check passes, else 401:
                               WWW-Authenticate: DPoP error="invalid_dpop_proof",
                                 error_description="..."   {"error": "invalid_dpop_proof",
                                                            "failed": CHECK}
                               WWW-Authenticate: DPoP error="use_dpop_nonce", ...  with DPoP-Nonce,
                                 when the proof lacks the current nonce  {"error": "use_dpop_nonce"}
                               WWW-Authenticate: DPoP error="invalid_token"  for another scheme
                                 (Bearer) or a malformed token  {"error": "invalid_token"}
                               WWW-Authenticate: DPoP algs="ES256"  without any Authorization
    GET    /log              {"verified": [{"status", "method", "htu", "failed", "jkt",
                             "nonce_used", "ath_ok"}, ...]}: one entry per /resource request, in
                             order. Never a token, never a whole proof.
    DELETE /log              empties the log. The proofs' jti values are kept: replay protection
                             outlives the log.
    GET    /nonce            {"nonce": the current DPoP nonce}
    POST   /control/rotate   {"nonce": a new nonce}, which replaces the current one at once

Checks, each named in "failed" and made in this order (RFC 9449 §4.3 lets a server choose it):
dpop_header, jwt, typ, alg, jwk, signature, htm, iat, jti, ath, htu, jkt, then the nonce. Only
ES256 proofs with an EC P-256 `jwk` are accepted. `htu` must be this server's base URL followed
by the request's path, without query or fragment, compared after RFC 3986 syntax- and
scheme-based normalisation. `ath` must be the base64url SHA-256 of the access token. When the
access token is a JWT whose claims hold `cnf.jkt`, it must be the RFC 7638 thumbprint of the
proof's key; any other token string is accepted as it is. A jti is refused once seen, for the
life of the process, even from a proof that failed a later check.

With the nonce required (the default), the proof's `nonce` must be the current one. The nonce
rotates after every --nonce-uses successful requests, and the 200 that uses it up carries the new
one in `DPoP-Nonce`: a client has to take nonces from successful answers too.

The signature is checked with the `cryptography` package, as Debian's python3-cryptography (38)
provides it; the rest is the standard library. Keep-alive (HTTP/1.1) and TCP_NODELAY. Prints its
base URL (http://127.0.0.1:PORT) on stdout and serves until killed.
"""
import argparse
import base64
import hashlib
import json
import re
import secrets
import socket
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature

RESOURCE_PREFIX = "/resource"
NONCE_CHALLENGE = 'DPoP error="use_dpop_nonce", error_description="Resource server requires nonce in DPoP proof"'
TOKEN68 = re.compile(r"[A-Za-z0-9\-._~+/]+=*")
BASE64URL = re.compile(r"[A-Za-z0-9_-]*")
UNRESERVED = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
DEFAULT_PORTS = {"http": 80, "https": 443}


class ProofError(Exception):
    """A failed check: `check` names it (the "failed" member of the answer), `description` says why."""

    def __init__(self, check, description):
        super().__init__(description)
        self.check = check
        self.description = description


class NonceRequired(Exception):
    """The proof is valid but does not carry the server's current nonce."""


# Encoding helpers.

def b64url_decode(text):
    """Strict base64url without padding (RFC 7515 §2): None unless `text` is its canonical form."""
    if not isinstance(text, str) or not BASE64URL.fullmatch(text) or len(text) % 4 == 1:
        return None
    data = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    return data if b64url_encode(data) == text else None


def b64url_encode(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def reject_duplicates(pairs):
    seen = {}
    for name, value in pairs:
        if name in seen:
            raise ValueError(f"duplicate member {name}")
        seen[name] = value
    return seen


def json_object(segment):
    """The JSON object a base64url segment encodes, or None."""
    data = b64url_decode(segment)
    if data is None:
        return None
    try:
        value = json.loads(data.decode("utf-8"), object_pairs_hook=reject_duplicates)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def thumbprint(jwk):
    """RFC 7638 JWK SHA-256 thumbprint of an EC public key, base64url without padding."""
    canonical = json.dumps({"crv": jwk["crv"], "kty": jwk["kty"], "x": jwk["x"], "y": jwk["y"]},
                           separators=(",", ":"), sort_keys=True)
    return b64url_encode(hashlib.sha256(canonical.encode("utf-8")).digest())


def remove_dot_segments(path):
    """RFC 3986 §5.2.4."""
    output = []
    while path:
        if path.startswith("../"):
            path = path[3:]
        elif path.startswith("./"):
            path = path[2:]
        elif path.startswith("/./"):
            path = path[2:]
        elif path == "/.":
            path = "/"
        elif path.startswith("/../"):
            path = path[3:]
            if output:
                output.pop()
        elif path == "/..":
            path = "/"
            if output:
                output.pop()
        elif path in (".", ".."):
            path = ""
        else:
            start = 1 if path.startswith("/") else 0
            end = path.find("/", start)
            end = len(path) if end == -1 else end
            output.append(path[:end])
            path = path[end:]
    return "".join(output)


def normalize_percent_encoding(text):
    """RFC 3986 §6.2.2.1 and §6.2.2.2: upper-case hex digits, decode unreserved characters."""
    def replace(match):
        char = chr(int(match.group(1), 16))
        return char if char in UNRESERVED else "%" + match.group(1).upper()
    return re.sub(r"%([0-9A-Fa-f]{2})", replace, text)


def normalize_uri(uri):
    """An http(s) URI after RFC 3986 §6.2.2 syntax-based and §6.2.3 scheme-based normalisation,
    as a tuple to compare, or None when it is not an absolute http(s) URI."""
    try:
        parts = urllib.parse.urlsplit(uri)
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if scheme not in DEFAULT_PORTS or not parts.hostname:
        return None
    if port == DEFAULT_PORTS[scheme]:
        port = None
    path = remove_dot_segments(normalize_percent_encoding(parts.path)) or "/"
    has_query = "?" in uri
    has_fragment = "#" in uri
    return (scheme, parts.username, parts.password, parts.hostname.lower(), port, path,
            normalize_percent_encoding(parts.query) if has_query else None,
            normalize_percent_encoding(parts.fragment) if has_fragment else None)


# The checks of RFC 9449 §4.3, one function each. Every one raises ProofError when it fails.

def check_single_dpop_header(values):
    """RFC 9449 §4.3 step 1: there is not more than one DPoP HTTP request header field (and, for a
    protected resource with a DPoP-bound token, §7.1: there is one)."""
    if len(values) != 1:
        raise ProofError("dpop_header", f"expected exactly one DPoP header, got {len(values)}")
    return values[0].strip()


def check_well_formed_jwt(proof):
    """RFC 9449 §4.3 step 2: the DPoP header field value is a single and well-formed JWT: three
    base64url segments without padding, a JSON object header and payload, a 64-byte signature."""
    segments = proof.split(".")
    if len(segments) != 3:
        raise ProofError("jwt", "the DPoP proof is not a JWT of three segments")
    header, payload = json_object(segments[0]), json_object(segments[1])
    signature = b64url_decode(segments[2])
    if header is None or payload is None or signature is None:
        raise ProofError("jwt", "a segment of the DPoP proof is not base64url JSON")
    signing_input = (segments[0] + "." + segments[1]).encode("ascii")
    return header, payload, signing_input, signature


def check_typ(header):
    """RFC 9449 §4.3 step 4: the typ JOSE Header Parameter has the value dpop+jwt."""
    if header.get("typ") != "dpop+jwt":
        raise ProofError("typ", "typ is not dpop+jwt")


def check_alg(header):
    """RFC 9449 §4.3 step 5: alg is a registered asymmetric signature algorithm, not none,
    supported and acceptable by local policy. This server accepts ES256 only."""
    if header.get("alg") != "ES256":
        raise ProofError("alg", "alg is not ES256")


def check_jwk(header):
    """RFC 9449 §4.3 step 7: the jwk JOSE Header Parameter does not contain a private key; and it
    must be an EC P-256 public key (kty EC, crv P-256, 32-byte x and y on the curve) to check the
    ES256 signature with (step 6). Returns the public key."""
    jwk = header.get("jwk")
    if not isinstance(jwk, dict):
        raise ProofError("jwk", "jwk is missing or not an object")
    if "d" in jwk:
        raise ProofError("jwk", "jwk contains a private key")
    if jwk.get("kty") != "EC" or jwk.get("crv") != "P-256":
        raise ProofError("jwk", "jwk is not an EC P-256 key")
    x, y = b64url_decode(jwk.get("x")), b64url_decode(jwk.get("y"))
    if x is None or y is None or len(x) != 32 or len(y) != 32:
        raise ProofError("jwk", "jwk x and y are not 32-byte base64url values")
    try:
        numbers = ec.EllipticCurvePublicNumbers(int.from_bytes(x, "big"), int.from_bytes(y, "big"), ec.SECP256R1())
        return numbers.public_key()
    except ValueError:
        raise ProofError("jwk", "jwk is not a point on P-256") from None


def check_signature(public_key, signing_input, signature):
    """RFC 9449 §4.3 step 6: the JWT signature verifies with the public key contained in the jwk
    JOSE Header Parameter. ES256 (RFC 7518 §3.4): 64 bytes, r then s, over the ASCII
    `header.payload`."""
    if len(signature) != 64:
        raise ProofError("signature", "an ES256 signature is 64 bytes")
    der = encode_dss_signature(int.from_bytes(signature[:32], "big"), int.from_bytes(signature[32:], "big"))
    try:
        public_key.verify(der, signing_input, ec.ECDSA(hashes.SHA256()))
    except InvalidSignature:
        raise ProofError("signature", "the signature does not verify with the jwk") from None


def check_htm(payload, method):
    """RFC 9449 §4.3 step 8 (and step 3 for its presence): the htm claim matches the HTTP method
    of the current request."""
    if payload.get("htm") != method:
        raise ProofError("htm", "htm does not match the request method")


def check_iat(payload, now, window):
    """RFC 9449 §4.3 step 11 (and step 3 for its presence): the creation time of the JWT, from the
    iat claim, is within an acceptable window (§11.1): `window` seconds either side of now."""
    iat = payload.get("iat")
    if isinstance(iat, bool) or not isinstance(iat, (int, float)):
        raise ProofError("iat", "iat is missing or not a number")
    if abs(iat - now) > window:
        raise ProofError("iat", "iat is outside the acceptable window")


def check_jti(payload, seen):
    """RFC 9449 §4.3 step 3 (the jti claim of §4.2 is present) and §11.1: a proof whose jti was
    seen before is a replay. The jti is remembered from here on. Call with the lock held."""
    jti = payload.get("jti")
    if not isinstance(jti, str) or not jti:
        raise ProofError("jti", "jti is missing or empty")
    if jti in seen:
        raise ProofError("jti", "jti was used before")
    seen.add(jti)


def check_ath(payload, token):
    """RFC 9449 §4.3 step 12, first bullet (and §4.2, §7): the ath claim equals the base64url
    SHA-256 hash of the ASCII access token presented with the proof."""
    try:
        expected = b64url_encode(hashlib.sha256(token.encode("ascii")).digest())
    except UnicodeEncodeError:
        raise ProofError("ath", "the access token is not ASCII") from None
    if payload.get("ath") != expected:
        raise ProofError("ath", "ath does not match the access token")


def check_htu(payload, expected_uri):
    """RFC 9449 §4.3 step 9 (and step 3 for its presence): the htu claim matches the HTTP URI of
    the request, without its query and fragment, after RFC 3986 syntax-based and scheme-based
    normalisation. An htu that carries a query or fragment does not match."""
    htu = payload.get("htu")
    if not isinstance(htu, str) or normalize_uri(htu) is None or normalize_uri(htu) != normalize_uri(expected_uri):
        raise ProofError("htu", "htu does not match the request URI")


def check_token_binding(token, jkt):
    """RFC 9449 §4.3 step 12, second bullet (and §6.1, §7.1): the public key to which the access
    token is bound matches the proof's key. A JWT access token whose claims hold cnf.jkt is bound
    to the key of that RFC 7638 thumbprint; any other token is taken as it is."""
    segments = token.split(".")
    claims = json_object(segments[1]) if len(segments) == 3 else None
    cnf = claims.get("cnf") if claims is not None else None
    if isinstance(cnf, dict) and "jkt" in cnf and cnf["jkt"] != jkt:
        raise ProofError("jkt", "the access token is bound to another key")


def check_nonce(payload, current):
    """RFC 9449 §4.3 step 10 and §9: when the server provides nonces, the nonce claim matches the
    server-provided nonce value. Raises NonceRequired, answered with use_dpop_nonce."""
    if payload.get("nonce") != current:
        raise NonceRequired()


# Server state.

class State:
    def __init__(self, base_url, require_nonce, nonce_uses, iat_window, now):
        self.lock = threading.Lock()
        self.base_url = base_url
        self.require_nonce = require_nonce
        self.nonce_uses = nonce_uses
        self.iat_window = iat_window
        self.pinned_now = now
        self.seen_jtis = set()
        self.log = []
        self.nonce = secrets.token_urlsafe(16)
        self.nonce_used_count = 0

    def now(self):
        return self.pinned_now if self.pinned_now is not None else time.time()

    def rotate(self):
        """Call with the lock held."""
        self.nonce = secrets.token_urlsafe(16)
        self.nonce_used_count = 0
        return self.nonce


state = None


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def setup(self):
        super().setup()
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def log_message(self, *args):
        pass

    def send(self, status, body, headers=()):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Cache-Control", "no-store")
        self.send_header("Content-Length", str(len(data)))
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)

    def read_body(self):
        if "chunked" in self.headers.get("Transfer-Encoding", "").lower():
            body = b""
            while True:
                size = int(self.rfile.readline().split(b";")[0].strip() or b"0", 16)
                if size == 0:
                    while self.rfile.readline().strip():
                        pass
                    return body
                body += self.rfile.read(size)
                self.rfile.readline()
        return self.rfile.read(int(self.headers.get("Content-Length", "0") or "0"))

    def route(self, method):
        body = self.read_body()
        path = urllib.parse.urlsplit(self.path).path
        if path == RESOURCE_PREFIX or path.startswith(RESOURCE_PREFIX + "/"):
            self.resource(method, path, body)
        elif path == "/log" and method == "GET":
            with state.lock:
                self.send(200, {"verified": list(state.log)})
        elif path == "/log" and method == "DELETE":
            with state.lock:
                state.log.clear()
            self.send(200, {"verified": []})
        elif path == "/nonce" and method == "GET":
            with state.lock:
                self.send(200, {"nonce": state.nonce})
        elif path == "/control/rotate" and method == "POST":
            with state.lock:
                nonce = state.rotate()
            self.send(200, {"nonce": nonce})
        else:
            self.send(404, {"error": "not_found"})

    def do_GET(self):
        self.route("GET")

    def do_POST(self):
        self.route("POST")

    def do_PUT(self):
        self.route("PUT")

    def do_DELETE(self):
        self.route("DELETE")

    def resource(self, method, path, body):
        entry = {"status": 401, "method": method, "htu": None, "failed": None, "jkt": None,
                 "nonce_used": False, "ath_ok": False}
        try:
            status, answer, headers = self.verify(method, path, body, entry)
        except Exception as error:  # a bug here: answer and log it rather than drop the connection
            entry["failed"] = "internal"
            status, answer, headers = 500, {"error": "server_error", "detail": type(error).__name__}, []
        entry["status"] = status
        with state.lock:
            state.log.append(entry)
        self.send(status, answer, headers)

    def verify(self, method, path, body, entry):
        authorizations = self.headers.get_all("Authorization") or []
        if not authorizations:
            entry["failed"] = "authorization"
            return 401, {"error": "invalid_token"}, [("WWW-Authenticate", 'DPoP algs="ES256"')]
        scheme, _, token = authorizations[0].strip().partition(" ")
        token = token.strip(" ")
        if len(authorizations) != 1 or scheme.lower() != "dpop" or not TOKEN68.fullmatch(token):
            entry["failed"] = "authorization"
            return 401, {"error": "invalid_token"}, [("WWW-Authenticate", 'DPoP error="invalid_token"')]
        try:
            proof = check_single_dpop_header(self.headers.get_all("DPoP") or [])
            header, payload, signing_input, signature = check_well_formed_jwt(proof)
            if isinstance(payload.get("htu"), str):
                entry["htu"] = payload["htu"]
            check_typ(header)
            check_alg(header)
            public_key = check_jwk(header)
            jkt = thumbprint(header["jwk"])
            entry["jkt"] = jkt
            check_signature(public_key, signing_input, signature)
            check_htm(payload, method)
            check_iat(payload, state.now(), state.iat_window)
            with state.lock:
                check_jti(payload, state.seen_jtis)
            check_ath(payload, token)
            entry["ath_ok"] = True
            check_htu(payload, state.base_url + path)
            check_token_binding(token, jkt)
            headers = []
            if state.require_nonce:
                with state.lock:
                    check_nonce(payload, state.nonce)
                    entry["nonce_used"] = True
                    state.nonce_used_count += 1
                    if state.nonce_used_count >= state.nonce_uses:
                        headers.append(("DPoP-Nonce", state.rotate()))
            with state.lock:
                jti_count = len(state.seen_jtis)
        except ProofError as error:
            entry["failed"] = error.check
            challenge = f'DPoP error="invalid_dpop_proof", error_description="{error.description}"'
            return 401, {"error": "invalid_dpop_proof", "failed": error.check}, [("WWW-Authenticate", challenge)]
        except NonceRequired:
            entry["failed"] = "nonce"
            with state.lock:
                nonce = state.nonce
            return 401, {"error": "use_dpop_nonce"}, [("WWW-Authenticate", NONCE_CHALLENGE), ("DPoP-Nonce", nonce)]
        answer = {"ok": True, "htm": method, "htu": payload["htu"], "jkt": jkt, "jti_count": jti_count}
        if body:
            answer["body_length"] = len(body)
        return 200, answer, headers


class Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 1024


def main():
    global state
    parser = argparse.ArgumentParser(description="A DPoP-protected resource that verifies every proof.")
    parser.add_argument("--port", type=int, default=0, help="port to listen on (default: a free one)")
    parser.add_argument("--require-nonce", dest="require_nonce", action="store_true", default=True,
                        help="require the server's DPoP nonce in every proof (the default)")
    parser.add_argument("--no-nonce", dest="require_nonce", action="store_false",
                        help="do not use DPoP nonces")
    parser.add_argument("--nonce-uses", type=int, default=3, metavar="N",
                        help="successful requests a nonce serves before it rotates (default 3)")
    parser.add_argument("--iat-window", type=float, default=60, metavar="SECONDS",
                        help="how far iat may be from now, either way (default 60)")
    parser.add_argument("--now", type=float, default=None, metavar="SECONDS",
                        help="pin the clock to these seconds since the epoch (to check fixed examples)")
    arguments = parser.parse_args()
    if arguments.nonce_uses < 1:
        parser.error("--nonce-uses must be at least 1")
    server = Server(("127.0.0.1", arguments.port), Handler)
    base_url = f"http://127.0.0.1:{server.server_address[1]}"
    state = State(base_url, arguments.require_nonce, arguments.nonce_uses, arguments.iat_window, arguments.now)
    print(base_url, flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
