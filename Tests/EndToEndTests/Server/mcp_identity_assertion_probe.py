#!/usr/bin/env python3
"""Checks mcp_authorization.py's identity-assertion grant (jwt-bearer with an ID-JAG) end to end.

Run with the MCP environment's python (it has PyJWT and cryptography):

    python="$(scripts/mcp-venv | tail -n 1)"
    "$python" Tests/EndToEndTests/Server/mcp_identity_assertion_probe.py

It makes an EC P-256 and an RSA key, serves their JWKS on 127.0.0.1 as the identity provider would,
writes a fresh client secret to a temporary file, starts mcp_authorization.py with the
--identity-assertion-* switches, mints ID-JAGs and presents them at /token with client_secret_basic.
Prints one line per check, OK (a good exchange and its token at the resource) or REFUSED (a
hostile request and the OAuth error it got); FAIL and exit status 1 if a check does not hold.
Never prints a token, an assertion or the secret.
"""
import base64
import json
import os
import secrets
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import jwt
from cryptography.hazmat.primitives.asymmetric import ec, rsa

HERE = os.path.dirname(os.path.abspath(__file__))
IDP = "https://idp.example.test"
CLIENT_ID = "mcp-enterprise-client"
JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer"
OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))
failures = []


def jwk(key, kid):
    """The public JWK of a private key, as PyJWT writes it, with a kid."""
    algorithm = jwt.algorithms.ECAlgorithm if isinstance(key, ec.EllipticCurvePrivateKey) else jwt.algorithms.RSAAlgorithm
    document = json.loads(algorithm.to_jwk(key.public_key()))
    document["kid"] = kid
    return document


def serve_jwks(keys):
    body = json.dumps({"keys": keys}).encode()

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *arguments):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/jwks.json"


def request(method, url, form=None, headers=None):
    """(status, JSON answer or None)."""
    data = urllib.parse.urlencode(form).encode() if form is not None else None
    call = urllib.request.Request(url, data=data, method=method, headers=headers or {})
    try:
        with OPENER.open(call, timeout=10) as answer:
            status, body = answer.status, answer.read()
    except urllib.error.HTTPError as error:
        status, body = error.code, error.read()
    try:
        return status, json.loads(body)
    except ValueError:
        return status, None


def check(condition, line):
    if condition:
        print(line)
    else:
        print("FAIL " + line.split(" ", 1)[1])
        failures.append(line)


def main():
    ec_key = ec.generate_private_key(ec.SECP256R1())
    rsa_key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    stranger = ec.generate_private_key(ec.SECP256R1())  # signs with a kid the JWKS does not list
    impostor = ec.generate_private_key(ec.SECP256R1())  # signs with the listed kid, but another key
    jwks_server, jwks_url = serve_jwks([jwk(ec_key, "ec-1"), jwk(rsa_key, "rsa-1")])
    secret = secrets.token_urlsafe(32)
    workspace = tempfile.mkdtemp(prefix="mcp-id-jag-probe-")
    secret_file = os.path.join(workspace, "client-secret")
    with open(os.open(secret_file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "w") as file:
        file.write(secret + "\n")
    server = subprocess.Popen(
        [sys.executable, os.path.join(HERE, "mcp_authorization.py"),
         "--identity-assertion-jwks", jwks_url, "--identity-assertion-issuer", IDP,
         "--identity-assertion-client-secret-file", secret_file],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
    )
    try:
        issuer = server.stdout.readline().strip()
        run(issuer, secret, ec_key, rsa_key, stranger, impostor)
    finally:
        server.terminate()
        server.wait(timeout=10)
        jwks_server.shutdown()
        os.remove(secret_file)
        os.rmdir(workspace)
    sys.exit(1 if failures else 0)


def run(issuer, secret, ec_key, rsa_key, stranger, impostor):
    _, harness = request("GET", issuer + "/_harness")
    resource, other = harness["resource"], harness["other_resource"]
    check(harness.get("identity_assertion_client_id") == CLIENT_ID, "OK harness names the pre-registered client")
    _, metadata = request("GET", issuer + "/.well-known/oauth-authorization-server")
    check(JWT_BEARER in metadata.get("grant_types_supported", [])
          and metadata.get("authorization_grant_profiles_supported") == ["urn:ietf:params:oauth:grant-profile:id-jag"],
          "OK metadata advertises jwt-bearer and the id-jag grant profile")

    def mint(key=ec_key, kid="ec-1", algorithm="ES256", typ="oauth-id-jag+jwt", drop=(), **changes):
        now = int(time.time())
        claims = {"iss": IDP, "sub": "alice@enterprise.example", "aud": issuer, "client_id": CLIENT_ID,
                  "jti": secrets.token_urlsafe(12), "iat": now, "exp": now + 300, "resource": resource,
                  "scope": "mcp:read"}
        claims.update(changes)
        for name in drop:
            del claims[name]
        return jwt.encode(claims, key, algorithm=algorithm, headers={"typ": typ, "kid": kid})

    basic = "Basic " + base64.b64encode(f"{CLIENT_ID}:{secret}".encode()).decode()

    def exchange(assertion, client_secret_header=basic, **extra):
        form = {"grant_type": JWT_BEARER, "assertion": assertion, "client_id": CLIENT_ID, "scope": "mcp:read",
                "resource": resource}
        form.update(extra)
        form = {name: value for name, value in form.items() if value is not None}
        return request("POST", issuer + "/token", form, {"Authorization": client_secret_header})

    def good(name, answer, at=resource):
        status, body = answer
        if status != 200:
            check(False, f"OK {name}: {status} {body}")
            return None
        token = body["access_token"]
        bearer = {"Authorization": "Bearer " + token}
        whoami_status, whoami = request("GET", at + "/whoami", headers=bearer)
        check(body.get("token_type") == "Bearer" and "refresh_token" not in body and body.get("expires_in") == 3600
              and whoami_status == 200 and whoami.get("subject") == "alice@enterprise.example"
              and whoami.get("client_id") == CLIENT_ID and whoami.get("resource") == at,
              f"OK {name}: 200 Bearer, no refresh_token, scope {body.get('scope')!r}; /whoami 200 subject and resource")
        return token

    def refused(name, answer, error, status=400):
        got_status, body = answer
        got = (body or {}).get("error")
        check(got_status == status and got == error,
              f"REFUSED {name}: {got_status} {got} ({(body or {}).get('error_description')})")

    token = good("ES256 ID-JAG", exchange(mint()))
    initialize = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "probe", "version": "1"}}}).encode()
    call = urllib.request.Request(resource, data=initialize, method="POST", headers={
        "Authorization": "Bearer " + token, "Content-Type": "application/json",
        "Accept": "application/json, text/event-stream"})
    with OPENER.open(call, timeout=10) as answer:
        check(answer.status == 200, f"OK MCP initialize with that token: {answer.status}")
    status, _ = request("GET", other + "/whoami", headers={"Authorization": "Bearer " + token})
    check(status == 401, f"REFUSED that token at the other resource: {status} invalid_token")
    good("RS256 ID-JAG", exchange(mint(rsa_key, "rsa-1", "RS256")))
    good("resource from the ID-JAG alone (no resource parameter)", exchange(mint(), resource=None))
    good("other resource named by both", exchange(mint(resource=other), resource=other), at=other)
    good("typ with application/ prefix", exchange(mint(typ="application/oauth-id-jag+jwt")))

    reused = mint()
    good("first use of a jti", exchange(reused))
    refused("reused jti", exchange(reused), "invalid_grant")
    refused("wrong aud", exchange(mint(aud="https://other-as.example.test")), "invalid_grant")
    refused("wrong typ (JWT)", exchange(mint(typ="JWT")), "invalid_grant")
    refused("wrong iss", exchange(mint(iss="https://evil-idp.example.test")), "invalid_grant")
    refused("wrong client_id claim", exchange(mint(client_id="someone-else")), "invalid_grant")
    refused("expired", exchange(mint(iat=int(time.time()) - 600, exp=int(time.time()) - 5)), "invalid_grant")
    refused("unknown key (kid not in JWKS)", exchange(mint(stranger, "stranger-1")), "invalid_grant")
    refused("listed kid, other key (bad signature)", exchange(mint(impostor, "ec-1")), "invalid_grant")
    refused("HS256 with the secret", exchange(jwt.encode({"iss": IDP}, secret, "HS256",
                                                         headers={"typ": "oauth-id-jag+jwt", "kid": "ec-1"})),
            "invalid_grant")
    refused("no sub", exchange(mint(drop=["sub"])), "invalid_grant")
    refused("no jti", exchange(mint(drop=["jti"])), "invalid_grant")
    refused("not a JWT", exchange("not-a-jwt"), "invalid_grant")
    refused("resource parameter not the ID-JAG's", exchange(mint(), resource=other), "invalid_target")
    refused("ID-JAG resource not this server's", exchange(mint(resource="https://elsewhere.example.test/mcp"),
                                                        resource=None), "invalid_target")
    refused("scope beyond the ID-JAG's", exchange(mint(), scope="mcp:read mcp:admin"), "invalid_scope")
    wrong = "Basic " + base64.b64encode(f"{CLIENT_ID}:not-the-secret".encode()).decode()
    refused("wrong client secret", exchange(mint(), client_secret_header=wrong), "invalid_client", status=401)
    call = urllib.request.Request(issuer + "/register", method="POST", headers={"Content-Type": "application/json"},
                                  data=json.dumps({"redirect_uris": ["http://127.0.0.1:9/cb"],
                                                   "grant_types": ["authorization_code", JWT_BEARER]}).encode())
    try:
        OPENER.open(call, timeout=10)
        check(False, "REFUSED registering a client for jwt-bearer: 201")
    except urllib.error.HTTPError as error:
        body = json.loads(error.read())
        check(error.code == 400, f"REFUSED registering a client for jwt-bearer: {error.code} {body.get('error')}")

    _, log = request("GET", issuer + "/_harness/log")
    grants = [entry for entry in log["requests"] if entry["path"] == "/token"]
    text = json.dumps(log)
    check(grants and all(entry["grant_type"] == JWT_BEARER for entry in grants)
          and secret not in text and token not in text and reused not in text,
          f"OK /_harness/log: {len(grants)} /token requests with grant_type jwt-bearer, no token or secret")


if __name__ == "__main__":
    main()
