#!/usr/bin/env python3
"""A local stand-in for Google's Security Token Service (sts.googleapis.com) and IAM Service
Account Credentials API (iamcredentials.googleapis.com), for workload identity federation tests:
a "platform token" (a JWT signed with a key the test holds) is exchanged for a federated access
token, which then impersonates a service account. Standard library only (python3 >= 3.10); it
verifies RS256 and ES256 signatures itself. Listens on a free port of 127.0.0.1 (or --port),
prints its base URL (http://127.0.0.1:PORT) as the first line on stdout, serves until SIGTERM or
SIGINT, then exits 0.

    python3 google_sts.py --trust-jwks-file JWKS --subject-issuer ISSUER \\
        --audience //iam.googleapis.com/projects/N/locations/global/workloadIdentityPools/P/providers/Q \\
        [--service-account EMAIL ...] [--allow-subject SUB ...] [--token-seconds 3600] [--port PORT]

POST /v1/token  (Google's STS v1 token method, RFC 8693 token exchange). The body is form-encoded
  (what Google's client libraries send) or JSON; field names in snake_case or in the REST
  reference's camelCase (grantType, requestedTokenType, subjectToken, subjectTokenType):
    grant_type            urn:ietf:params:oauth:grant-type:token-exchange
    audience              the provider's full resource name: must be --audience
    scope                 space-delimited; required
    requested_token_type  urn:ietf:params:oauth:token-type:access_token
    subject_token         the JWT
    subject_token_type    urn:ietf:params:oauth:token-type:jwt or ...:id_token
    options               optional: a JSON object serialized as a string, at most 4096 characters
  200 {"access_token", "issued_token_type": "urn:ietf:params:oauth:token-type:access_token",
  "token_type": "Bearer", "expires_in": --token-seconds}. Errors are 400 {"error",
  "error_description"}: invalid_request (a field missing or malformed, an unsupported token type,
  a body that is neither form nor JSON), unsupported_grant_type, invalid_target (a well-formed
  audience that is not this provider's), invalid_grant (the subject token refused). The subject
  token must be a JWS with header alg RS256 or ES256 and a kid naming a key of the
  --trust-jwks-file JWKS (read again at every exchange), a valid signature, iss == --subject-issuer,
  aud (or one of its values) == --audience or "https:" + --audience (https://iam.googleapis.com/
  projects/...): Google's default allowed audiences; sub, iat and exp present, exp not passed, iat
  not in the future (no clock skew allowed).
  The federated principal is principal://iam.googleapis.com/projects/N/locations/global/
  workloadIdentityPools/P/subject/SUB (the default mapping google.subject = assertion.sub).

POST /v1/projects/-/serviceAccounts/EMAIL:generateAccessToken  (IAM Credentials v1). Header
  Authorization: Bearer <a token of /v1/token>; JSON body {"scope": [..., at least one],
  "lifetime": "3600s" (optional, a Duration: seconds with up to nine fractional digits and "s";
  default and maximum 3600s), "delegates": [...] (refused: no delegation chains here)}.
  200 {"accessToken", "expireTime": RFC 3339 UTC, "2026-01-01T00:00:00Z"}. Errors in Google's
  format {"error": {"code", "message", "status"}}: 401 UNAUTHENTICATED (no, unknown or expired
  bearer token), 403 PERMISSION_DENIED (a token without the cloud-platform or iam scope; a
  service account not in --service-account; a subject not in --allow-subject when given; a service
  account's own token), 400 INVALID_ARGUMENT (body, scope, lifetime, delegates, a project other
  than "-"), 404 NOT_FOUND (another path).

GET /v1/whoami  (not Google's: for the tests) with Authorization: Bearer <token>:
  {"kind": "federated", "principal", "subject", "scope": [...]} for an STS token,
  {"kind": "service_account", "principal": EMAIL, "email": EMAIL, "scope": [...],
  "impersonated_by": federated principal} for an impersonated one; else 401 as above.

GET /_harness      {"token_url", "audience", "subject_issuer", "service_accounts"}
GET /_harness/log  {"requests": [{"path", "method", "status", "error", "grant_type",
  "subject_token_type", "requested_token_type", "audience", "scope", "options_keys",
  "authorization_header", "service_account", "lifetime"}], "counts": {"exchanges",
  "refused_exchanges", "impersonations", "refused_impersonations", "whoami"}}: one entry per
  request to /v1/..., in order; never a token. DELETE /_harness/log empties it (counts too).
"""
import argparse
import base64
import hashlib
import json
import re
import secrets
import signal
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qsl, unquote

TOKEN_EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange"
ACCESS_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:access_token"
SUBJECT_TOKEN_TYPES = {"urn:ietf:params:oauth:token-type:jwt", "urn:ietf:params:oauth:token-type:id_token"}
IMPERSONATION_SCOPES = {"https://www.googleapis.com/auth/cloud-platform", "https://www.googleapis.com/auth/iam"}
MAX_LIFETIME_SECONDS = 3600
CAMEL = {"grantType": "grant_type", "requestedTokenType": "requested_token_type", "subjectToken": "subject_token",
         "subjectTokenType": "subject_token_type"}
PROVIDER = re.compile(r"//iam\.googleapis\.com/(projects/[^/]+/locations/global/workloadIdentityPools/[^/]+"
                      r"|locations/global/workforcePools/[^/]+)/providers/[^/]+")
GENERATE = re.compile(r"/v1/projects/([^/]+)/serviceAccounts/([^/:]+):generateAccessToken")
DURATION = re.compile(r"(\d+)(\.\d{1,9})?s")

# NIST P-256 (FIPS 186-4 D.1.2.3).
P256_P = 0xFFFFFFFF00000001000000000000000000000000FFFFFFFFFFFFFFFFFFFFFFFF
P256_A = P256_P - 3
P256_B = 0x5AC635D8AA3A93E7B3EBBD55769886BC651D06B0CC53B0F63BCE3C3E27D2604B
P256_N = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551
P256_G = (0x6B17D1F2E12C4247F8BCE6E563A440F277037D812DEB33A0F4A13945D898C296,
          0x4FE342E2FE1A7F9B8EE7EB4A7C0F9E162BCE33576B315ECECBB6406837BF51F5)
# RFC 8017 §9.2 note 1: the DER DigestInfo prefix of a SHA-256 digest.
SHA256_DIGEST_INFO = bytes.fromhex("3031300d060960864801650304020105000420")


class Refusal(Exception):
    def __init__(self, status, error, description):
        super().__init__(description)
        self.status, self.error, self.description = status, error, description


def b64url_decode(text):
    if not isinstance(text, str) or not re.fullmatch(r"[A-Za-z0-9_-]*", text):
        raise ValueError("not base64url")
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def b64url_int(text):
    return int.from_bytes(b64url_decode(text), "big")


def verify_rs256(jwk, signing_input, signature):
    """RSASSA-PKCS1-v1_5 with SHA-256 (RFC 8017 §8.2.2)."""
    n, e = b64url_int(jwk["n"]), b64url_int(jwk["e"])
    size = (n.bit_length() + 7) // 8
    if n.bit_length() < 2048 or len(signature) != size:
        return False
    encoded = pow(int.from_bytes(signature, "big"), e, n).to_bytes(size, "big")
    digest = SHA256_DIGEST_INFO + hashlib.sha256(signing_input).digest()
    expected = b"\x00\x01" + b"\xff" * (size - len(digest) - 3) + b"\x00" + digest
    return secrets.compare_digest(encoded, expected)


def point_add(p, q):
    if p is None:
        return q
    if q is None:
        return p
    if p[0] == q[0] and (p[1] + q[1]) % P256_P == 0:
        return None
    if p == q:
        slope = (3 * p[0] * p[0] + P256_A) * pow(2 * p[1], -1, P256_P)
    else:
        slope = (q[1] - p[1]) * pow(q[0] - p[0], -1, P256_P)
    x = (slope * slope - p[0] - q[0]) % P256_P
    return x, (slope * (p[0] - x) - p[1]) % P256_P


def point_multiply(k, point):
    result = None
    while k:
        if k & 1:
            result = point_add(result, point)
        point = point_add(point, point)
        k >>= 1
    return result


def verify_es256(jwk, signing_input, signature):
    """ECDSA P-256 with SHA-256 (FIPS 186-4 §6.4.2); the JWS signature is r || s (RFC 7518 §3.4)."""
    if jwk.get("crv") != "P-256" or len(signature) != 64:
        return False
    x, y = b64url_int(jwk["x"]), b64url_int(jwk["y"])
    if not (x < P256_P and y < P256_P and (y * y - x * x * x - P256_A * x - P256_B) % P256_P == 0):
        return False
    r, s = int.from_bytes(signature[:32], "big"), int.from_bytes(signature[32:], "big")
    if not (0 < r < P256_N and 0 < s < P256_N):
        return False
    z = int.from_bytes(hashlib.sha256(signing_input).digest(), "big")
    w = pow(s, -1, P256_N)
    point = point_add(point_multiply(z * w % P256_N, P256_G), point_multiply(r * w % P256_N, (x, y)))
    return point is not None and point[0] % P256_N == r


VERIFIERS = {"RS256": ("RSA", verify_rs256), "ES256": ("EC", verify_es256)}


def grant_refusal(description):
    return Refusal(400, "invalid_grant", description)


def verify_subject_token(token, keys, issuer, audiences, now):
    """The claims of a subject token, or a Refusal naming the failed check."""
    parts = token.split(".")
    if len(parts) != 3:
        raise grant_refusal("the subject token is not a JWS in compact serialization")
    try:
        header = json.loads(b64url_decode(parts[0]))
        claims = json.loads(b64url_decode(parts[1]))
        signature = b64url_decode(parts[2])
    except ValueError:
        raise grant_refusal("the subject token is not a JWS in compact serialization")
    if not isinstance(header, dict) or not isinstance(claims, dict):
        raise grant_refusal("the subject token's header and payload must be JSON objects")
    algorithm, kid = header.get("alg"), header.get("kid")
    if algorithm not in VERIFIERS:
        raise grant_refusal("the subject token's alg must be RS256 or ES256")
    if not isinstance(kid, str):
        raise grant_refusal("the subject token's header has no kid")
    kty, verify = VERIFIERS[algorithm]
    matching = [key for key in keys if key.get("kid") == kid and key.get("kty") == kty
                and key.get("alg", algorithm) == algorithm and key.get("use", "sig") == "sig"]
    if not matching:
        raise grant_refusal("no trusted key has the subject token's kid and alg")
    signing_input = (parts[0] + "." + parts[1]).encode("ascii")
    try:
        verified = any(verify(key, signing_input, signature) for key in matching)
    except (KeyError, ValueError, TypeError):
        verified = False
    if not verified:
        raise grant_refusal("the subject token's signature does not verify")
    for name in ("iss", "aud", "sub", "iat", "exp"):
        if name not in claims:
            raise grant_refusal(f"the subject token has no {name} claim")
    if claims["iss"] != issuer:
        raise grant_refusal("the subject token's iss is not the trusted issuer")
    audience = claims["aud"] if isinstance(claims["aud"], list) else [claims["aud"]]
    if not any(each in audiences for each in audience):
        raise grant_refusal("the subject token's aud is not an allowed audience of the provider")
    if not isinstance(claims["sub"], str) or not claims["sub"]:
        raise grant_refusal("the subject token's sub must be a non-empty string")
    for name in ("iat", "exp"):
        if isinstance(claims[name], bool) or not isinstance(claims[name], (int, float)):
            raise grant_refusal(f"the subject token's {name} must be a number")
    if claims["exp"] <= now:
        raise grant_refusal("the subject token has expired")
    if claims["iat"] > now:
        raise grant_refusal("the subject token's iat is in the future")
    return claims


class State:
    def __init__(self, arguments):
        self.arguments = arguments
        self.audience = arguments.audience
        self.audiences = {arguments.audience, "https:" + arguments.audience}
        self.pool = PROVIDER.fullmatch(arguments.audience).group(1)
        self.lock = threading.Lock()
        self.tokens = {}  # token -> {"kind", "principal", "subject"/"email", "scope", "expires_at", ...}
        self.log = []
        self.counts = dict.fromkeys(["exchanges", "refused_exchanges", "impersonations", "refused_impersonations",
                                     "whoami"], 0)

    def trusted_keys(self):
        try:
            with open(self.arguments.trust_jwks_file, encoding="utf-8") as file:
                document = json.load(file)
        except (OSError, ValueError):
            raise grant_refusal("the trusted JWKS file cannot be read")
        keys = document.get("keys") if isinstance(document, dict) else None
        return [key for key in keys if isinstance(key, dict)] if isinstance(keys, list) else []

    def mint(self, record):
        token = "ya29." + secrets.token_urlsafe(48)
        with self.lock:
            self.tokens[token] = record
        return token

    def lookup(self, authorization):
        """The record of a live bearer token, or a 401 Refusal."""
        scheme, _, token = (authorization or "").partition(" ")
        with self.lock:
            record = self.tokens.get(token.strip()) if scheme.lower() == "bearer" else None
        if record is None or record["expires_at"] <= time.time():
            raise Refusal(401, "UNAUTHENTICATED", "Request had invalid authentication credentials. Expected OAuth 2 "
                          "access token, login cookie or other valid authentication credential.")
        return record


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "LocalGoogleSTS"
    state: State = None

    def log_message(self, *arguments):
        pass

    def answer(self, status, document):
        body = json.dumps(document).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)

    def body(self):
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length > 0 else b""

    def do_GET(self):
        path = self.path.split("?", 1)[0]
        if path == "/_harness":
            arguments = self.state.arguments
            return self.answer(200, {"token_url": self.base() + "/v1/token", "audience": arguments.audience,
                                     "subject_issuer": arguments.subject_issuer,
                                     "service_accounts": arguments.service_account})
        if path == "/_harness/log":
            with self.state.lock:
                return self.answer(200, {"requests": list(self.state.log), "counts": dict(self.state.counts)})
        if path == "/v1/whoami":
            return self.logged(path, self.whoami)
        self.google_error(404, "NOT_FOUND", "Not found.")

    def do_DELETE(self):
        if self.path.split("?", 1)[0] != "/_harness/log":
            return self.google_error(404, "NOT_FOUND", "Not found.")
        with self.state.lock:
            self.state.log.clear()
            self.state.counts = dict.fromkeys(self.state.counts, 0)
        self.answer(200, {"requests": [], "counts": self.state.counts})

    def do_POST(self):
        path = self.path.split("?", 1)[0]
        if path == "/v1/token":
            return self.logged(path, self.exchange)
        match = GENERATE.fullmatch(path)
        if match:
            return self.logged(path, lambda entry: self.generate(entry, unquote(match.group(1)),
                                                                 unquote(match.group(2))))
        self.body()
        self.google_error(404, "NOT_FOUND", "Not found.")

    def base(self):
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def google_error(self, status, code, message):
        self.answer(status, {"error": {"code": status, "message": message, "status": code}})

    def logged(self, path, handle):
        entry = {"path": path, "method": self.command, "status": None, "error": None,
                 "authorization_header": "Authorization" in self.headers}
        with self.state.lock:
            self.state.log.append(entry)
        try:
            status, document = handle(entry)
        except Refusal as refusal:
            status, entry["error"] = refusal.status, refusal.error
            if path == "/v1/token":
                document = {"error": refusal.error, "error_description": refusal.description}
            else:
                document = {"error": {"code": refusal.status, "message": refusal.description,
                                      "status": refusal.error}}
        entry["status"] = status
        kind = {"/v1/token": "exchanges", "/v1/whoami": "whoami"}.get(path, "impersonations")
        with self.state.lock:
            if kind == "whoami":
                self.state.counts["whoami"] += 1
            else:
                self.state.counts[kind if status == 200 else "refused_" + kind] += 1
        self.answer(status, document)

    def exchange(self, entry):
        raw = self.body()
        content_type = (self.headers.get("Content-Type") or "").split(";")[0].strip().lower()
        if content_type == "application/json":
            try:
                fields = json.loads(raw)
            except ValueError:
                fields = None
            if not isinstance(fields, dict):
                raise Refusal(400, "invalid_request", "the JSON body is not an object")
        elif content_type == "application/x-www-form-urlencoded":
            pairs = parse_qsl(raw.decode("utf-8", "replace"), keep_blank_values=True)
            names = [name for name, _ in pairs]
            if len(names) != len(set(names)):
                raise Refusal(400, "invalid_request", "a parameter is repeated")
            fields = dict(pairs)
        else:
            raise Refusal(400, "invalid_request", "the body must be form-encoded or JSON")
        fields = {CAMEL.get(name, name): value for name, value in fields.items()}
        for name in ("grant_type", "subject_token_type", "requested_token_type", "audience", "scope"):
            entry[name] = fields.get(name) if isinstance(fields.get(name), str) else None
        options = fields.get("options")
        entry["options_keys"] = None
        for name in ("grant_type", "audience", "scope", "requested_token_type", "subject_token",
                     "subject_token_type"):
            if not isinstance(fields.get(name), str) or not fields[name]:
                raise Refusal(400, "invalid_request", f"{name} is required")
        if fields["grant_type"] != TOKEN_EXCHANGE:
            raise Refusal(400, "unsupported_grant_type", f"grant_type must be {TOKEN_EXCHANGE}")
        if fields["requested_token_type"] != ACCESS_TOKEN_TYPE:
            raise Refusal(400, "invalid_request", f"requested_token_type must be {ACCESS_TOKEN_TYPE}")
        if fields["subject_token_type"] not in SUBJECT_TOKEN_TYPES:
            raise Refusal(400, "invalid_request", "subject_token_type must be urn:ietf:params:oauth:token-type:jwt "
                          "or urn:ietf:params:oauth:token-type:id_token for this OIDC provider")
        if options is not None:
            try:
                parsed = json.loads(options) if isinstance(options, str) and len(options) <= 4096 else None
            except ValueError:
                parsed = None
            if not isinstance(parsed, dict):
                raise Refusal(400, "invalid_request", "options must be a JSON object serialized as a string "
                              "of at most 4096 characters")
            entry["options_keys"] = sorted(parsed)
        if not PROVIDER.fullmatch(fields["audience"]):
            raise Refusal(400, "invalid_request", "audience must be the full resource name of a workload or "
                          "workforce identity pool provider")
        if fields["audience"] != self.state.audience:
            raise Refusal(400, "invalid_target", "the audience names no provider of this service")
        claims = verify_subject_token(fields["subject_token"], self.state.trusted_keys(),
                                      self.state.arguments.subject_issuer, self.state.audiences, time.time())
        seconds = self.state.arguments.token_seconds
        principal = f"principal://iam.googleapis.com/{self.state.pool}/subject/{claims['sub']}"
        token = self.state.mint({"kind": "federated", "principal": principal, "subject": claims["sub"],
                                 "scope": fields["scope"].split(), "expires_at": time.time() + seconds})
        return 200, {"access_token": token, "issued_token_type": ACCESS_TOKEN_TYPE, "token_type": "Bearer",
                     "expires_in": seconds}

    def generate(self, entry, project, email):
        raw = self.body()
        entry["service_account"], entry["scope"], entry["lifetime"] = email, None, None
        caller = self.state.lookup(self.headers.get("Authorization"))
        try:
            request = json.loads(raw) if raw else {}
        except ValueError:
            request = None
        if not isinstance(request, dict):
            raise Refusal(400, "INVALID_ARGUMENT", "Invalid JSON payload received.")
        scope, lifetime = request.get("scope"), request.get("lifetime")
        entry["scope"] = scope if isinstance(scope, list) else None
        entry["lifetime"] = lifetime if isinstance(lifetime, str) else None
        if caller["kind"] != "federated" or not IMPERSONATION_SCOPES & set(caller["scope"]):
            raise Refusal(403, "PERMISSION_DENIED", "Request had insufficient authentication scopes."
                          if caller["kind"] == "federated" else
                          "Permission 'iam.serviceAccounts.getAccessToken' denied on resource (or it may not "
                          "exist).")
        if project != "-":
            raise Refusal(400, "INVALID_ARGUMENT", "The project of the service account must be the - wildcard.")
        allowed = self.state.arguments.allow_subject
        if email not in self.state.arguments.service_account or (allowed and caller["subject"] not in allowed):
            raise Refusal(403, "PERMISSION_DENIED", "Permission 'iam.serviceAccounts.getAccessToken' denied on "
                          "resource (or it may not exist).")
        if request.get("delegates"):
            raise Refusal(400, "INVALID_ARGUMENT", "Delegation chains are not supported here.")
        if not isinstance(scope, list) or not scope or not all(isinstance(each, str) and each for each in scope):
            raise Refusal(400, "INVALID_ARGUMENT", "Scope is required: at least one scope.")
        seconds = MAX_LIFETIME_SECONDS
        if lifetime is not None:
            match = DURATION.fullmatch(lifetime) if isinstance(lifetime, str) else None
            if not match:
                raise Refusal(400, "INVALID_ARGUMENT", "Invalid value for lifetime: a Duration such as \"3600s\".")
            seconds = int(match.group(1)) + float(match.group(2) or 0)
            if not 0 < seconds <= MAX_LIFETIME_SECONDS:
                raise Refusal(400, "INVALID_ARGUMENT", "The lifetime requested is not valid: at most 3600s.")
        expires_at = time.time() + seconds
        token = self.state.mint({"kind": "service_account", "principal": email, "email": email, "scope": scope,
                                 "expires_at": expires_at, "impersonated_by": caller["principal"]})
        return 200, {"accessToken": token,
                     "expireTime": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(int(expires_at)))}

    def whoami(self, entry):
        record = self.state.lookup(self.headers.get("Authorization"))
        described = {name: value for name, value in record.items() if name != "expires_at"}
        described["expires_in"] = int(record["expires_at"] - time.time())
        return 200, described


def main():
    parser = argparse.ArgumentParser(description="A local stand-in for Google's STS and IAM Credentials APIs.")
    parser.add_argument("--trust-jwks-file", required=True, metavar="PATH",
                        help="the JWKS of the keys that sign subject tokens (read at every exchange)")
    parser.add_argument("--subject-issuer", required=True, metavar="ISSUER", help="the iss of subject tokens")
    parser.add_argument("--audience", required=True, metavar="PROVIDER",
                        help="the provider's full resource name, //iam.googleapis.com/projects/N/locations/global/"
                             "workloadIdentityPools/P/providers/Q")
    parser.add_argument("--service-account", action="append", default=[], metavar="EMAIL",
                        help="a service account federated principals may impersonate (repeatable)")
    parser.add_argument("--allow-subject", action="append", default=[], metavar="SUB",
                        help="only these subjects may impersonate (repeatable; default: any of the pool)")
    parser.add_argument("--token-seconds", type=int, default=3600, metavar="N",
                        help="lifetime of the STS's tokens (default 3600)")
    parser.add_argument("--port", type=int, default=0, help="listen on PORT (default: a free port)")
    arguments = parser.parse_args()
    if not PROVIDER.fullmatch(arguments.audience):
        parser.error("--audience must be a workload (or workforce) identity pool provider's full resource name")
    if arguments.token_seconds < 1:
        parser.error("--token-seconds must be at least 1")

    Handler.state = State(arguments)
    server = ThreadingHTTPServer(("127.0.0.1", arguments.port), Handler)
    server.daemon_threads = True

    def stop(signum, frame):
        threading.Thread(target=server.shutdown, daemon=True).start()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    print(f"http://127.0.0.1:{server.server_address[1]}", flush=True)
    server.serve_forever()
    server.server_close()
    sys.exit(0)


if __name__ == "__main__":
    main()
