#!/usr/bin/python3
"""Smoke check of the glewlwyd test server: DPoP (RFC 9449) with mandatory nonces.

    /usr/bin/python3 dpop_smoke.py BASE_URL      e.g. "$(scripts/glewlwyd-server url)"

Signs alice in for the public client bearer-dpop (authorization code + PKCE S256, with `nonce`
since `openid` is requested) the way glewlwyd's login page does, then with an ES256 key:

- the code exchange without DPoP is refused (the client requires DPoP) and the code survives;
- the exchange with a proof without nonce gets 400 use_dpop_nonce and a DPoP-Nonce header;
- the exchange with the nonce gets 200, token_type DPoP, and an access token bound to the key;
- userinfo with `Authorization: DPoP`, `ath` and the nonce answers 200;
- a refresh with the same key answers 200, a refresh with another key 403, and the refresh token
  still works with the first key afterwards.

The server's nonce rotates (every 4th successful request with oauth-dpop-nonce-counter 3), so the
DPoP-Nonce header of every response is kept. Prints one PASS or FAIL line per check, never a code
or a token; exits 0 when every check passes. Needs the cryptography package (Debian:
python3-cryptography).
"""
import base64
import hashlib
import http.cookiejar
import json
import secrets
import sys
import time
import urllib.error
import urllib.parse
import urllib.request

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature

CLIENT_ID = "bearer-dpop"
REDIRECT_URI = "http://127.0.0.1:18171/callback"
SCOPE = "openid api.read"
USER = "alice"
PASSWORD = "alice-test-password"


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def b64url_json(value):
    return b64url(json.dumps(value, separators=(",", ":")).encode())


class Key:
    """An ES256 key producing DPoP proofs."""

    def __init__(self):
        self.private = ec.generate_private_key(ec.SECP256R1())
        numbers = self.private.public_key().public_numbers()
        self.jwk = {"kty": "EC", "crv": "P-256",
                    "x": b64url(numbers.x.to_bytes(32, "big")), "y": b64url(numbers.y.to_bytes(32, "big"))}
        canonical = json.dumps({k: self.jwk[k] for k in ("crv", "kty", "x", "y")}, separators=(",", ":"))
        self.thumbprint = b64url(hashlib.sha256(canonical.encode()).digest())  # RFC 7638

    def proof(self, method, url, nonce=None, access_token=None):
        claims = {"jti": secrets.token_urlsafe(16), "htm": method, "htu": url, "iat": int(time.time())}
        if nonce is not None:
            claims["nonce"] = nonce
        if access_token is not None:
            claims["ath"] = b64url(hashlib.sha256(access_token.encode()).digest())
        signing_input = (b64url_json({"typ": "dpop+jwt", "alg": "ES256", "jwk": self.jwk}) + "." +
                         b64url_json(claims)).encode()
        r, s = decode_dss_signature(self.private.sign(signing_input, ec.ECDSA(hashes.SHA256())))
        return signing_input.decode() + "." + b64url(r.to_bytes(32, "big") + s.to_bytes(32, "big"))


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


class Response:
    def __init__(self, status, headers, body):
        self.status = status
        self.headers = headers
        self.body = body

    def json(self):
        try:
            return json.loads(self.body) if self.body.strip() else {}
        except ValueError:
            return {}

    def describe(self):
        """Status and OAuth error only: never a body that may hold a token."""
        data = self.json()
        error = data.get("error") if isinstance(data, dict) else None
        return f"HTTP {self.status}" + (f" error={error}" if error else "")


class Client:
    def __init__(self):
        self.opener = urllib.request.build_opener(
            NoRedirect, urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        self.nonce = None  # the latest DPoP-Nonce the server sent

    def request(self, method, url, form=None, json_body=None, headers=None):
        data = None
        request_headers = dict(headers or {})
        if form is not None:
            data = urllib.parse.urlencode(form).encode()
            request_headers["Content-Type"] = "application/x-www-form-urlencoded"
        elif json_body is not None:
            data = json.dumps(json_body).encode()
            request_headers["Content-Type"] = "application/json"
        request = urllib.request.Request(url, data=data, method=method, headers=request_headers)
        try:
            with self.opener.open(request, timeout=30) as answer:
                response = Response(answer.status, answer.headers, answer.read().decode(errors="replace"))
        except urllib.error.HTTPError as error:
            response = Response(error.code, error.headers, error.read().decode(errors="replace"))
        if response.headers.get("DPoP-Nonce"):
            self.nonce = response.headers["DPoP-Nonce"]
        return response

    def dpop(self, key, method, url, form=None, access_token=None):
        """A DPoP request with the latest nonce; retried once with a fresh proof when the server
        answers use_dpop_nonce (the nonce rotated)."""
        for _ in range(2):
            headers = {"DPoP": key.proof(method, url, self.nonce, access_token)}
            if access_token is not None:
                headers["Authorization"] = "DPoP " + access_token
            sent_nonce = self.nonce
            response = self.request(method, url, form=form, headers=headers)
            challenge = response.headers.get("WWW-Authenticate") or ""
            refused_nonce = (response.json().get("error") == "use_dpop_nonce" if response.status == 400 else
                             "use_dpop_nonce" in challenge)
            if not refused_nonce or self.nonce == sent_nonce:
                return response
        return response


failures = 0


def check(name, condition, detail=""):
    global failures
    if condition:
        print(f"PASS {name}")
    else:
        failures += 1
        print(f"FAIL {name}" + (f" ({detail})" if detail else ""))
    return condition


def jwt_payload(token):
    try:
        payload = token.split(".")[1]
        return json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
    except (IndexError, ValueError):
        return {}


def authorization_code(client, discovery, base_url):
    """Signs alice in the way glewlwyd's login page does; returns (code, verifier) or None."""
    verifier = secrets.token_urlsafe(48)
    challenge = b64url(hashlib.sha256(verifier.encode()).digest())
    state = secrets.token_urlsafe(12)
    auth_url = discovery["authorization_endpoint"] + "?" + urllib.parse.urlencode({
        "response_type": "code", "client_id": CLIENT_ID, "redirect_uri": REDIRECT_URI, "scope": SCOPE,
        "state": state, "nonce": secrets.token_urlsafe(12),
        "code_challenge": challenge, "code_challenge_method": "S256",
    })
    first = client.request("GET", auth_url)
    if not check("authorization endpoint sends the person to login.html",
                 first.status == 302 and "/login.html" in (first.headers.get("Location") or ""),
                 first.describe()):
        return None
    signed_in = client.request("POST", base_url + "/api/auth/", json_body={"username": USER, "password": PASSWORD})
    granted = client.request("PUT", base_url + "/api/auth/grant/" + CLIENT_ID, json_body={"scope": SCOPE})
    if not check("sign-in and grant", signed_in.status == 200 and granted.status == 200,
                 f"sign-in {signed_in.describe()}, grant {granted.describe()}"):
        return None
    final = client.request("GET", auth_url + "&g_continue")
    location = final.headers.get("Location") or ""
    query = urllib.parse.parse_qs(urllib.parse.urlparse(location).query)
    check("redirect carries the RFC 9207 iss", query.get("iss") == [discovery["issuer"]])
    if not check("redirect to the client with state and code",
                 final.status == 302 and location.startswith(REDIRECT_URI) and query.get("state") == [state]
                 and "code" in query, f"HTTP {final.status}, error={query.get('error')}"):
        return None
    return query["code"][0], verifier


def main():
    if len(sys.argv) != 2:
        print("usage: dpop_smoke.py BASE_URL", file=sys.stderr)
        return 2
    base_url = sys.argv[1].rstrip("/")
    client = Client()
    discovery_response = client.request("GET", base_url + "/api/oidc/.well-known/openid-configuration")
    if not check("discovery", discovery_response.status == 200, discovery_response.describe()):
        return 1
    discovery = discovery_response.json()
    check("discovery lists ES256 in dpop_signing_alg_values_supported",
          "ES256" in discovery.get("dpop_signing_alg_values_supported", []))
    token_url, userinfo_url = discovery["token_endpoint"], discovery["userinfo_endpoint"]

    grant = authorization_code(client, discovery, base_url)
    if grant is None:
        return 1
    code, verifier = grant
    exchange = {"grant_type": "authorization_code", "code": code, "redirect_uri": REDIRECT_URI,
                "client_id": CLIENT_ID, "code_verifier": verifier}
    key, other_key = Key(), Key()

    # bearer-dpop has dpop_bound_access_tokens = "true": no DPoP, no tokens (and the code survives).
    response = client.request("POST", token_url, form=exchange)
    check("code exchange without DPoP is refused (403 invalid_dpop_proof)",
          response.status == 403 and response.json().get("error") == "invalid_dpop_proof", response.describe())

    response = client.request("POST", token_url, form=exchange, headers={"DPoP": key.proof("POST", token_url)})
    check("code exchange with a proof without nonce: 400 use_dpop_nonce with DPoP-Nonce",
          response.status == 400 and response.json().get("error") == "use_dpop_nonce"
          and bool(response.headers.get("DPoP-Nonce")), response.describe())

    response = client.request("POST", token_url, form=exchange,
                              headers={"DPoP": key.proof("POST", token_url, client.nonce)})
    tokens = response.json()
    if not check("code exchange with the nonce: 200 token_type DPoP",
                 response.status == 200 and tokens.get("token_type") == "DPoP"
                 and "access_token" in tokens and "refresh_token" in tokens, response.describe()):
        return 1
    check("access token bound to the key (cnf.jkt)",
          jwt_payload(tokens["access_token"]).get("cnf", {}).get("jkt") == key.thumbprint)

    response = client.dpop(key, "GET", userinfo_url, access_token=tokens["access_token"])
    check("userinfo with Authorization: DPoP, ath and nonce: 200",
          response.status == 200 and response.json().get("sub"), response.describe())

    refresh = {"grant_type": "refresh_token", "client_id": CLIENT_ID}
    response = client.dpop(key, "POST", token_url, form={**refresh, "refresh_token": tokens["refresh_token"]})
    refreshed = response.json()
    if not check("refresh with the same key: 200 token_type DPoP, new refresh token",
                 response.status == 200 and refreshed.get("token_type") == "DPoP"
                 and refreshed.get("refresh_token") not in (None, tokens["refresh_token"]), response.describe()):
        return 1

    response = client.dpop(other_key, "POST", token_url, form={**refresh, "refresh_token": refreshed["refresh_token"]})
    check("refresh with another key: 403 invalid_dpop_proof",
          response.status == 403 and response.json().get("error") == "invalid_dpop_proof", response.describe())

    response = client.dpop(key, "POST", token_url, form={**refresh, "refresh_token": refreshed["refresh_token"]})
    check("the refresh token still works with the first key: 200",
          response.status == 200 and response.json().get("token_type") == "DPoP", response.describe())

    print("PASS all checks" if failures == 0 else f"FAIL {failures} check(s)")
    return 0 if failures == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
