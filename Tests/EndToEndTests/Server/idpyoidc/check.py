#!/usr/bin/env python3
"""Probe a running server.py and report what idpyoidc 5.0.0 accepts.

    python check.py [BASE_URL] [--only SECTIONS]   (default http://127.0.0.1:8765)

SECTIONS is a comma-separated list of: core (everything before the token
exchange), refresh-id-token, token-exchange (server.py --token-exchange),
id-jag (server.py --issue-id-jag). Without --only every section runs.
EXPECT_ID_JAG_CLIENT_ID (default mcp-enterprise-client) is the client_id claim
the ID-JAG checks expect; with EXPECT_ID_TOKEN_LIFETIME=N (the server started
with ID_TOKEN_LIFETIME=N) they also wait for an ID token to expire.

Every line printed is an observation: "OK"/"REFUSED" plus the HTTP status and
the error code returned. Tokens, codes, keys and assertions are never printed
(only whether they are present, and for JWTs their header and claim names).
"""
import base64
import hashlib
import json
import os
import sys
import time
import uuid
from urllib.parse import parse_qs
from urllib.parse import urlencode
from urllib.parse import urlsplit

import requests
from cryptojwt.jwk.ec import new_ec_key
from cryptojwt.jwk.jwk import key_from_jwk_dict
from cryptojwt.jwk.rsa import new_rsa_key
from cryptojwt.jws.jws import JWS
from cryptojwt.jws.jws import factory as jws_factory

SECTIONS = ("core", "refresh-id-token", "token-exchange", "id-jag")


def parse_args(argv):
    positional, only = [], None
    index = 0
    while index < len(argv):
        word = argv[index]
        if word == "--only" and index + 1 < len(argv):
            only, index = argv[index + 1], index + 2
            continue
        if word.startswith("--only="):
            only = word[len("--only="):]
        elif not word.startswith("--"):
            positional.append(word)
        index += 1
    chosen = SECTIONS if only is None else tuple(part.strip() for part in only.split(",") if part.strip())
    unknown = [part for part in chosen if part not in SECTIONS]
    if unknown:
        sys.exit(f"unknown section(s) {unknown}; choose from {list(SECTIONS)}")
    base = positional[0] if positional else os.environ.get("BASE_URL", "http://127.0.0.1:8765")
    return base.rstrip("/"), chosen


BASE, CHOSEN = parse_args(sys.argv[1:])
REDIRECT_URI = "http://127.0.0.1:9/cb"   # never contacted: we stop at the 302
JWT_BEARER = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
RESULTS = []


def record(section, what, ok, detail=""):
    RESULTS.append((section, what, ok, detail))
    print(f"[{section}] {what}: {'OK' if ok else 'REFUSED'} {detail}".rstrip(), flush=True)


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def pkce():
    verifier = b64url(os.urandom(32))
    return verifier, b64url(hashlib.sha256(verifier.encode()).digest())


def sign(payload: dict, key, alg="ES256", **header) -> str:
    if alg == "none":
        return JWS(json.dumps(payload), alg="none").sign_compact([])
    return JWS(json.dumps(payload), alg=alg, kid=key.kid, **header).sign_compact([key])


def jwt_parts(token: str):
    head, body = token.split(".")[:2]
    pad = lambda s: s + "=" * (-len(s) % 4)  # noqa: E731
    return json.loads(base64.urlsafe_b64decode(pad(head))), json.loads(base64.urlsafe_b64decode(pad(body)))


def err_of(resp):
    """Short, secret-free description of an HTTP answer."""
    if resp.status_code in (301, 302, 303, 307):
        q = parse_qs(urlsplit(resp.headers.get("Location", "")).query)
        if "error" in q:
            return f"302 redirect error={q['error'][0]} ({q.get('error_description', [''])[0][:90]})"
        return "302 redirect " + ",".join(sorted(q))
    try:
        j = resp.json()
        if "error" in j:
            return f"{resp.status_code} error={j['error']} ({str(j.get('error_description', ''))[:110]})"
        return f"{resp.status_code} keys={sorted(j)}"
    except ValueError:
        return f"{resp.status_code} body={resp.text[:110]!r}"


class Client:
    def __init__(self, meta, key_alg="ES256", extra_reg=None):
        self.meta = meta
        self.key = {"ES256": lambda: new_ec_key("P-256", use="sig"), "ES384": lambda: new_ec_key("P-384", use="sig"),
                    "RS256": lambda: new_rsa_key(use="sig")}[key_alg]()
        self.alg = key_alg
        reg = {
            "redirect_uris": [REDIRECT_URI],
            "response_types": ["code"],
            "grant_types": ["authorization_code", "refresh_token"],
            "token_endpoint_auth_method": "private_key_jwt",
            "jwks": {"keys": [self.key.serialize(private=False)]},
            "client_name": "check.py",
        }
        reg.update(extra_reg or {})
        self.reg_request = reg
        self.reg_resp = requests.post(meta["registration_endpoint"], json=reg)
        self.reg = self.reg_resp.json()
        self.client_id = self.reg.get("client_id")

    def assertion(self, aud, jti=True, lifetime=60, iat_offset=0, drop=(), **extra):
        now = int(time.time()) + iat_offset
        claims = {"iss": self.client_id, "sub": self.client_id, "aud": aud, "iat": now, "exp": now + lifetime}
        if jti:
            claims["jti"] = jti if isinstance(jti, str) else str(uuid.uuid4())
        claims.update(extra)
        for k in drop:
            claims.pop(k, None)
        return sign(claims, self.key, self.alg)

    def authz_params(self, **over):
        verifier, challenge = pkce()
        p = {
            "response_type": "code",
            "client_id": self.client_id,
            "redirect_uri": REDIRECT_URI,
            "scope": "openid email",
            "state": b64url(os.urandom(12)),
            "nonce": b64url(os.urandom(12)),
            "code_challenge": challenge,
            "code_challenge_method": "S256",
        }
        p.update(over)
        return {k: v for k, v in p.items() if v is not None}, verifier

    def request_object(self, params, aud=None, iss=True, alg=None, typ="oauth-authz-req+jwt", lifetime=300,
                       drop=(), key=None, **extra):
        now = int(time.time())
        claims = dict(params)
        if iss:
            claims["iss"] = self.client_id if iss is True else iss
        claims["aud"] = BASE if aud is None else aud
        claims.update({"iat": now, "nbf": now, "exp": now + lifetime, "jti": str(uuid.uuid4())})
        claims.update(extra)
        for k in drop:
            claims.pop(k, None)
        header = {"typ": typ} if typ else {}
        return sign(claims, key or self.key, alg or self.alg, **header)

    def authorize(self, query):
        return requests.get(self.meta["authorization_endpoint"], params=query, allow_redirects=False)

    def code_from(self, resp):
        q = parse_qs(urlsplit(resp.headers.get("Location", "")).query)
        return {k: v[0] for k, v in q.items()}

    def get_code(self, **over):
        params, verifier = self.authz_params(**over)
        resp = self.authorize(params)
        return self.code_from(resp).get("code"), verifier, params, resp

    def token(self, form, aud=None, assertion=None):
        if assertion is None:
            assertion = self.assertion(self.meta["token_endpoint"] if aud is None else aud)
        form = dict(form, client_assertion_type=JWT_BEARER, client_assertion=assertion)
        return requests.post(self.meta["token_endpoint"], data=form)

    def code_token(self, code, verifier, **kw):
        return self.token({"grant_type": "authorization_code", "code": code, "redirect_uri": REDIRECT_URI,
                           "code_verifier": verifier, "client_id": self.client_id}, **kw)

    def par(self, form, aud=None, assertion=None, auth=True):
        form = dict(form)
        if auth:
            if assertion is None:
                assertion = self.assertion(self.meta["pushed_authorization_request_endpoint"] if aud is None else aud)
            form.update(client_assertion_type=JWT_BEARER, client_assertion=assertion)
        return requests.post(self.meta["pushed_authorization_request_endpoint"], data=form)


def core_checks(meta):
    TOK, PAR = meta["token_endpoint"], meta["pushed_authorization_request_endpoint"]

    # ---------------------------------------------------------------- registration
    c = Client(meta)
    reg = c.reg
    record("registration", "jwks + private_key_jwt", c.reg_resp.status_code in (200, 201) and bool(c.client_id),
           f"status={c.reg_resp.status_code} keys={sorted(reg)}")
    record("registration", "token_endpoint_auth_method echoed",
           reg.get("token_endpoint_auth_method") == "private_key_jwt", repr(reg.get("token_endpoint_auth_method")))
    record("registration", "client_secret issued anyway", "client_secret" in reg,
           "(value not shown)" if "client_secret" in reg else "")
    record("registration", "jwks echoed", "jwks" in reg)
    bad = requests.post(meta["registration_endpoint"], json=dict(c.reg_request, token_endpoint_auth_method="tls_client_auth"))
    record("registration", "unsupported token_endpoint_auth_method=tls_client_auth accepted",
           bad.status_code in (200, 201), err_of(bad) + " echoed=" + repr(bad.json().get("token_endpoint_auth_method")))

    # ---------------------------------------------------------------- plain code flow
    code, verifier, params, resp = c.get_code()
    q = c.code_from(resp)
    record("authz", "GET /authorization -> 302 to redirect_uri", resp.status_code == 302 and
           resp.headers["Location"].startswith(REDIRECT_URI), f"{resp.status_code} params={sorted(q)}")
    record("authz", "state echoed", q.get("state") == params["state"])
    record("authz", "iss == issuer (RFC 9207)", q.get("iss") == meta["issuer"], repr(q.get("iss")))

    r = c.code_token(code, verifier)
    tok = r.json()
    record("token", "code + PKCE + private_key_jwt(aud=token endpoint)", r.status_code == 200 and "access_token" in tok,
           f"{r.status_code} keys={sorted(tok)} token_type={tok.get('token_type')}")
    if "id_token" in tok:
        h, p = jwt_parts(tok["id_token"])
        jwks = requests.get(meta["jwks_uri"]).json()
        kids = [k.get("kid") for k in jwks["keys"]]
        record("id_token", "header", True, f"alg={h.get('alg')} kid_in_jwks={h.get('kid') in kids} typ={h.get('typ')}")
        key = key_from_jwk_dict([k for k in jwks["keys"] if k.get("kid") == h.get("kid")][0])
        try:
            JWS(alg=h["alg"]).verify_compact(tok["id_token"], [key])
            sig_ok = True
        except Exception:
            sig_ok = False
        record("id_token", "signature verifies with jwks_uri key", sig_ok)
        record("id_token", "claims", True, f"names={sorted(p)} iss={p.get('iss')!r} aud={p.get('aud')!r} "
               f"sub={p.get('sub')!r} nonce_matches={p.get('nonce') == params['nonce']}")
    def userinfo(access_token):
        return requests.get(meta["userinfo_endpoint"], headers={"Authorization": "Bearer " + access_token})
    ui = userinfo(tok["access_token"])
    record("userinfo", "GET with Bearer access token", ui.status_code == 200, err_of(ui) +
           (f" sub==id_token.sub: {ui.json().get('sub') == p.get('sub')}" if ui.status_code == 200 else ""))
    record("token", "refresh_token issued for scope 'openid email' (no offline_access)", "refresh_token" in tok)
    if "refresh_token" in tok:
        rr = c.token({"grant_type": "refresh_token", "refresh_token": tok["refresh_token"], "client_id": c.client_id})
        record("refresh", "refresh grant for a token obtained without offline_access", rr.status_code == 200,
               err_of(rr))
    r2 = c.code_token(code, verifier)
    record("token", "same code a second time", r2.status_code == 200, err_of(r2))
    ui = userinfo(tok["access_token"])
    record("userinfo", "access token from that code, after the code replay", ui.status_code == 200, err_of(ui))

    # code without PKCE / wrong verifier
    params, _ = c.authz_params(code_challenge=None, code_challenge_method=None)
    record("pkce", "authorization request without code_challenge", c.authorize(params).status_code == 302 and
           "code" in c.code_from(c.authorize(params)), err_of(c.authorize(params)))
    params, _ = c.authz_params(code_challenge_method="plain", code_challenge="x" * 43)
    rr = c.authorize(params)
    record("pkce", "code_challenge_method=plain", "code" in c.code_from(rr), err_of(rr))
    code, verifier, _, _ = c.get_code()
    rr = c.code_token(code, "wrong" + verifier)
    record("pkce", "wrong code_verifier at token", rr.status_code == 200, err_of(rr))

    # no nonce
    code, verifier, _, rr = c.get_code(nonce=None)
    record("id_token", "authorization request without nonce", bool(code), err_of(rr))
    if code:
        rr = c.code_token(code, verifier)
        idt = rr.json().get("id_token")
        record("id_token", "id_token issued without nonce", bool(idt),
               f"nonce claim present={('nonce' in jwt_parts(idt)[1]) if idt else None}")

    # ---------------------------------------------------------------- refresh
    params, _ = c.authz_params(scope="openid offline_access")
    rr = c.authorize(params)
    record("refresh", "scope=openid offline_access without prompt=consent", "code" in c.code_from(rr), err_of(rr))
    code, verifier, _, rr = c.get_code(scope="openid offline_access", prompt="consent")
    record("refresh", "scope=openid offline_access&prompt=consent", bool(code), err_of(rr))
    tok = c.code_token(code, verifier).json()
    record("refresh", "refresh_token in code answer", "refresh_token" in tok, f"keys={sorted(tok)}")
    if "refresh_token" in tok:
        rr = c.token({"grant_type": "refresh_token", "refresh_token": tok["refresh_token"], "client_id": c.client_id})
        rj = rr.json()
        record("refresh", "refresh_token grant (private_key_jwt, aud=token endpoint)",
               rr.status_code == 200 and "access_token" in rj,
               f"{rr.status_code} keys={sorted(rj)} rotated={rj.get('refresh_token') not in (None, tok['refresh_token'])}")
        if "id_token" in rj:
            record("refresh", "id_token on refresh", True, f"alg={jwt_parts(rj['id_token'])[0].get('alg')}")
        rr2 = c.token({"grant_type": "refresh_token", "refresh_token": tok["refresh_token"], "client_id": c.client_id})
        record("refresh", "old refresh_token used again", rr2.status_code == 200, err_of(rr2))
        if rj.get("refresh_token"):
            rr3 = c.token({"grant_type": "refresh_token", "refresh_token": rj["refresh_token"], "client_id": c.client_id})
            record("refresh", "new refresh_token", rr3.status_code == 200, err_of(rr3))
        rr4 = requests.post(TOK, data={"grant_type": "refresh_token", "refresh_token": tok["refresh_token"],
                                       "client_id": c.client_id})
        record("refresh", "refresh grant without client authentication", rr4.status_code == 200, err_of(rr4))

    # ---------------------------------------------------------------- client assertion aud
    print("# private_key_jwt: aud values at the token endpoint")
    auds = {
        "issuer string": BASE,
        "issuer + '/'": BASE + "/",
        "token endpoint URL": TOK,
        "PAR endpoint URL": PAR,
        "[issuer]": [BASE],
        "[issuer, token endpoint]": [BASE, TOK],
        "[token endpoint, other]": [TOK, "https://other.example"],
        "unrelated URL": "https://other.example",
    }
    for name, aud in auds.items():
        code, verifier, _, _ = c.get_code()
        rr = c.code_token(code, verifier, aud=aud)
        record("aud@token", name, rr.status_code == 200, err_of(rr))
    print("# private_key_jwt: aud values at the PAR endpoint")
    for name, aud in auds.items():
        params, _ = c.authz_params()
        rr = c.par(params, aud=aud)
        record("aud@par", name, rr.status_code in (200, 201), err_of(rr))

    # ---------------------------------------------------------------- assertion rules
    print("# private_key_jwt: other assertion rules (token endpoint)")
    def try_assertion(name, assertion):
        code, verifier, _, _ = c.get_code()
        rr = c.code_token(code, verifier, assertion=assertion)
        record("assertion", name, rr.status_code == 200, err_of(rr))
        return rr

    jti = str(uuid.uuid4())
    a = c.assertion(TOK, jti=jti)
    try_assertion("fresh jti", a)
    try_assertion("same assertion (same jti) replayed", a)
    try_assertion("new assertion, same jti value", c.assertion(TOK, jti=jti))
    try_assertion("no jti", c.assertion(TOK, jti=False))
    try_assertion("no jti, replayed (1st)", a2 := c.assertion(TOK, jti=False))
    try_assertion("no jti, replayed (2nd)", a2)
    try_assertion("lifetime 1 hour", c.assertion(TOK, lifetime=3600))
    try_assertion("lifetime 1 year", c.assertion(TOK, lifetime=365 * 86400))
    try_assertion("no exp", c.assertion(TOK, drop=("exp",)))
    try_assertion("expired (exp 10 s ago)", c.assertion(TOK, iat_offset=-70, lifetime=60))
    try_assertion("expired (exp 30 s ago)", c.assertion(TOK, iat_offset=-90, lifetime=60))
    try_assertion("expired (exp 1 h ago)", c.assertion(TOK, iat_offset=-3660, lifetime=60))
    try_assertion("iat 10 s in the future", c.assertion(TOK, iat_offset=10))
    try_assertion("nbf 1 h in the future", c.assertion(TOK, nbf=int(time.time()) + 3600))
    try_assertion("iat 1 hour in the future", c.assertion(TOK, iat_offset=3600))
    try_assertion("no iat", c.assertion(TOK, drop=("iat",)))
    try_assertion("no sub", c.assertion(TOK, drop=("sub",)))
    try_assertion("sub != iss", c.assertion(TOK, sub="someone-else"))
    try_assertion("signed with an unregistered key",
                  sign({"iss": c.client_id, "sub": c.client_id, "aud": TOK, "jti": str(uuid.uuid4()),
                        "exp": int(time.time()) + 60}, new_ec_key("P-256", use="sig")))
    try_assertion("alg=none", sign({"iss": c.client_id, "sub": c.client_id, "aud": TOK, "jti": str(uuid.uuid4()),
                                    "exp": int(time.time()) + 60}, None, "none"))
    code, verifier, _, _ = c.get_code()
    rr = requests.post(TOK, data={"grant_type": "authorization_code", "code": code, "redirect_uri": REDIRECT_URI,
                                  "code_verifier": verifier, "client_id": c.client_id})
    record("assertion", "no client authentication at all (public)", rr.status_code == 200, err_of(rr))
    # client_secret_post with the secret the registration handed out
    if "client_secret" in reg:
        code, verifier, _, _ = c.get_code()
        rr = requests.post(TOK, data={"grant_type": "authorization_code", "code": code, "redirect_uri": REDIRECT_URI,
                                      "code_verifier": verifier, "client_id": c.client_id,
                                      "client_secret": reg["client_secret"]})
        record("assertion", "client_secret_post with the issued secret (endpoint allows only private_key_jwt)",
               rr.status_code == 200, err_of(rr))

    # ---------------------------------------------------------------- PAR
    print("# PAR")
    params, verifier = c.authz_params()
    rr = c.par(params)
    pj = rr.json()
    record("par", "POST form + private_key_jwt(aud=PAR URL)", rr.status_code in (200, 201),
           f"status={rr.status_code} content-type={rr.headers.get('Content-Type')} keys={sorted(pj)} "
           f"request_uri_prefix={str(pj.get('request_uri'))[:9]!r} expires_in={pj.get('expires_in')!r}")
    rr = c.par(params, auth=False)
    record("par", "without client authentication", rr.status_code in (200, 201), err_of(rr))
    # Which parameters must accompany request_uri at the authorization endpoint?
    outer_sets = [
        ("client_id+request_uri only (RFC 9126 style)", {}),
        ("+response_type", {"response_type": "code"}),
        ("+response_type+scope", {"response_type": "code", "scope": "openid"}),
        ("+response_type+redirect_uri", {"response_type": "code", "redirect_uri": REDIRECT_URI}),
        ("+response_type+scope+redirect_uri", {"response_type": "code", "scope": "openid", "redirect_uri": REDIRECT_URI}),
    ]
    working = None
    for name, extra in outer_sets:
        params, verifier = c.authz_params()
        pj = c.par(params).json()
        rr = c.authorize(dict(extra, client_id=c.client_id, request_uri=pj["request_uri"]))
        q = c.code_from(rr)
        record("par", f"GET /authorization {name}", "code" in q, err_of(rr))
        if "code" in q and working is None:
            working = extra
            record("par", "state from the pushed request comes back", q.get("state") == params["state"])
            record("par", "scope in answer = pushed scope (outer said 'openid')", True, repr(q.get("scope")))
            rt = c.code_token(q["code"], verifier)
            record("par", "token for PAR-obtained code (PKCE from pushed request)", rt.status_code == 200, err_of(rt))
            rr = c.authorize(dict(extra, client_id=c.client_id, request_uri=pj["request_uri"]))
            record("par", "same request_uri a second time", "code" in c.code_from(rr), err_of(rr))
    working = outer_sets[-1][1] if working is None else working
    print(f"# PAR: using outer parameters {sorted(working)} from here on")
    params, _ = c.authz_params(state="pushed-state")
    pj = c.par(params).json()
    rr = c.authorize(dict(working, client_id=c.client_id, request_uri=pj["request_uri"], state="outer-state"))
    record("par", "outer state vs pushed state", "code" in c.code_from(rr),
           f"returned state={c.code_from(rr).get('state')!r}")
    for name, uri in [("unknown urn:uuid request_uri", "urn:uuid:" + str(uuid.uuid4())),
                      ("unknown urn:ietf:params:oauth:request_uri:...",
                       "urn:ietf:params:oauth:request_uri:" + b64url(os.urandom(16)))]:
        rr = c.authorize(dict(working, client_id=c.client_id, request_uri=uri))
        record("par", name, "code" in c.code_from(rr), err_of(rr) + f" Location={rr.headers.get('Location', '')[:40]!r}")
    rr = c.authorize(dict(working, client_id=c.client_id, request_uri="urn:uuid:" + str(uuid.uuid4()), state="s1"))
    record("par", "unknown request_uri: is it a redirect to the client?", rr.status_code == 302, err_of(rr))
    c2 = Client(meta)
    params, verifier = c.authz_params()
    pj = c.par(params).json()
    rr = c2.authorize(dict(working, client_id=c2.client_id, request_uri=pj["request_uri"]))
    q = c2.code_from(rr)
    record("par", "request_uri of client A presented with client_id of client B", "code" in q,
           err_of(rr) + (f" answer client_id is A: {q.get('client_id') == c.client_id}" if q else ""))
    ttl = os.environ.get("EXPECT_PAR_TTL")
    if ttl:
        params, verifier = c.authz_params()
        pj = c.par(params).json()
        time.sleep(int(ttl) + 3)
        rr = c.authorize(dict(working, client_id=c.client_id, request_uri=pj["request_uri"]))
        record("par", f"request_uri used {int(ttl) + 3}s after PAR (expires_in={pj.get('expires_in')})",
               "code" in c.code_from(rr), err_of(rr))

    # ---------------------------------------------------------------- JAR
    print("# JAR (request parameter at the authorization endpoint)")
    def jar(name, outer_extra=None, client=c, **ro):
        params, verifier = client.authz_params()
        ro_params = ro.pop("params", params)
        jwt = client.request_object(ro_params, **ro)
        outer = {"client_id": client.client_id, "request": jwt}
        outer.update(outer_extra or {})
        outer = {k: v for k, v in outer.items() if v is not None}
        rr = client.authorize(outer)
        q = client.code_from(rr)
        record("jar", name, "code" in q, err_of(rr))
        return rr, q, params, verifier

    full = {"response_type": "code", "scope": "openid", "redirect_uri": REDIRECT_URI}
    for name, extra in outer_sets:
        jar(f"outer {name.replace('request_uri', 'request')}; RO aud=issuer iss=client_id typ=oauth-authz-req+jwt ES256",
            outer_extra=extra)
    rr, q, params, verifier = jar("outer repeats response_type/scope/redirect_uri", outer_extra=full)
    if "code" in q:
        rt = c.code_token(q["code"], verifier)
        record("jar", "token for JAR-obtained code", rt.status_code == 200, err_of(rt))
        record("jar", "state from request object comes back", q.get("state") == params["state"])
    jar("typ=JWT", outer_extra=full, typ="JWT")
    jar("no typ header", outer_extra=full, typ=None)
    jar("no aud", outer_extra=full, drop=("aud",))
    jar("aud=unrelated URL", outer_extra=full, aud="https://other.example")
    jar("aud=authorization endpoint URL", outer_extra=full, aud=meta["authorization_endpoint"])
    jar("aud=[issuer]", outer_extra=full, aud=[BASE])
    jar("no iss", outer_extra=full, iss=False)
    jar("iss=someone-else", outer_extra=full, iss="someone-else")
    jar("expired (exp 1h ago)", outer_extra=full, lifetime=-3600)
    jar("no exp", outer_extra=full, drop=("exp",))
    jar("signed with unregistered key", outer_extra=full, key=new_ec_key("P-256", use="sig"))
    params, _ = c.authz_params(state="state-from-unsigned-ro")
    rr, q, _, _ = jar("alg=none (unsigned)", outer_extra=dict(full, state="outer-state"), alg="none", params=params)
    record("jar", "alg=none: parameters of the unsigned request object are used", q.get("state") == params["state"],
           f"returned state={q.get('state')!r}")
    params, _ = c.authz_params(state="ro-state")
    rr, q, _, _ = jar("outer state differs from request object state", outer_extra=dict(full, state="outer-state"),
                      params=params)
    record("jar", "state precedence", True, f"returned state={q.get('state')!r}")
    c384 = Client(meta, key_alg="ES384")
    jar("ES384 request object (ES384 not in request_object_signing_alg_values_supported)", outer_extra=full, client=c384)
    params, _ = c.authz_params()
    jar("request object without client_id claim", outer_extra=full,
        params={k: v for k, v in params.items() if k != "client_id"})
    params, _ = c.authz_params()
    jar("request object redirect_uri unregistered", outer_extra=full,
        params=dict(params, redirect_uri="http://127.0.0.1:9/evil"))
    # replay of the same request object
    params, _ = c.authz_params()
    jwt = c.request_object(params)
    o = dict(full, client_id=c.client_id, request=jwt)
    r1, r2 = c.authorize(o), c.authorize(o)
    record("jar", "same request object (same jti) twice: 1st", "code" in c.code_from(r1), err_of(r1))
    record("jar", "same request object (same jti) twice: 2nd", "code" in c.code_from(r2), err_of(r2))
    # RS256 client without registering request_object_signing_alg, and ES256 client that registered RS256 only
    crsa = Client(meta, key_alg="RS256")
    jar("RS256 request object, no request_object_signing_alg registered", outer_extra=full, client=crsa)
    cpin = Client(meta, extra_reg={"request_object_signing_alg": "RS256"})
    record("registration", "request_object_signing_alg=RS256 registered/echoed", True,
           repr(cpin.reg.get("request_object_signing_alg")))
    jar("ES256 request object although client registered request_object_signing_alg=RS256",
        outer_extra=full, client=cpin)
    cpin2 = Client(meta, extra_reg={"request_object_signing_alg": "ES256"})
    record("registration", "request_object_signing_alg=ES256 registered/echoed", True,
           repr(cpin2.reg.get("request_object_signing_alg")))
    jar("ES256 request object, client registered request_object_signing_alg=ES256", outer_extra=full, client=cpin2)

    # ---------------------------------------------------------------- JAR inside PAR
    print("# JAR inside PAR")
    def par_jar(name, outer_extra=None, **ro):
        params, verifier = c.authz_params()
        form = {"client_id": c.client_id, "request": c.request_object(params, **ro)}
        form.update(outer_extra or {})
        rp = c.par(form)
        if rp.status_code not in (200, 201):
            record("par+jar", name, False, "PAR: " + err_of(rp))
            return
        ra = c.authorize(dict(working, client_id=c.client_id, request_uri=rp.json()["request_uri"]))
        q = c.code_from(ra)
        if "code" not in q:
            record("par+jar", name, False, "PAR ok, authorization: " + err_of(ra))
            return
        rt = c.code_token(q["code"], verifier)
        record("par+jar", name, rt.status_code == 200, f"PAR {rp.status_code}, authz 302 code, token {err_of(rt)}")

    par_jar("request only (client_id+request+client_assertion), aud=issuer")
    par_jar("aud=PAR endpoint URL", aud=PAR)
    par_jar("aud=unrelated URL", aud="https://other.example")
    par_jar("no aud, no iss", drop=("aud",), iss=False)
    par_jar("expired request object", lifetime=-3600)
    par_jar("alg=none request object", alg="none")
    par_jar("signed with unregistered key", key=new_ec_key("P-256", use="sig"))
    par_jar("no iss", iss=False)
    par_jar("typ=JWT", typ="JWT")
    # replay of one request object at PAR
    params, _ = c.authz_params()
    ro = c.request_object(params)
    p1 = c.par({"client_id": c.client_id, "request": ro})
    p2 = c.par({"client_id": c.client_id, "request": ro})
    record("par+jar", "same request object pushed twice: 2nd", p2.status_code in (200, 201), err_of(p2))

# ---------------------------------------------------------------- token exchange / ID-JAG
TE_GRANT = "urn:ietf:params:oauth:grant-type:token-exchange"
TT_ACCESS = "urn:ietf:params:oauth:token-type:access_token"
TT_REFRESH = "urn:ietf:params:oauth:token-type:refresh_token"
TT_ID_TOKEN = "urn:ietf:params:oauth:token-type:id_token"
TT_ID_JAG = "urn:ietf:params:oauth:token-type:id-jag"
TT_JWT = "urn:ietf:params:oauth:token-type:jwt"
TE_AUDIENCE = "https://billing.example"        # server.py TOKEN_EXCHANGE_AUDIENCES
TE_RESOURCE = "https://billing.example/api"    # server.py TOKEN_EXCHANGE_RESOURCES
JAG_AUDIENCE = "https://mcp-as.example"        # any value: the target authorization server's issuer
JAG_RESOURCE = "https://mcp.example/mcp"
SECRET_FIELDS = ("access_token", "refresh_token", "id_token")


def answer_shape(resp):
    """Secret-free summary of a token answer: field names and the non-secret values."""
    try:
        body = resp.json()
    except ValueError:
        return err_of(resp)
    if "error" in body:
        return err_of(resp)
    shown = {k: v for k, v in body.items() if k not in SECRET_FIELDS}
    present = [k for k in SECRET_FIELDS if k in body]
    return f"{resp.status_code} keys={sorted(body)} {shown} present={present}"


def verify_with_jwks(meta, token):
    header = jwt_parts(token)[0]
    jwks = requests.get(meta["jwks_uri"]).json()
    keys = [key_from_jwk_dict(k) for k in jwks["keys"] if k.get("kid") == header.get("kid")]
    if not keys:
        return False
    try:
        JWS(alg=header["alg"]).verify_compact(token, keys)
        return True
    except Exception:
        return False


def signed_in(c, scope="openid email"):
    code, verifier, _, _ = c.get_code(scope=scope)
    return c.code_token(code, verifier).json()


def refresh_id_token_checks(meta):
    print("# ID token in the refresh answer (server.py --issue-refresh)")
    c = Client(meta)
    tok = signed_in(c)
    if "refresh_token" not in tok:
        record("refresh-id-token", "refresh_token in the code answer (needs --issue-refresh)", False,
               f"keys={sorted(tok)}")
        return
    rr = c.token({"grant_type": "refresh_token", "refresh_token": tok["refresh_token"], "client_id": c.client_id})
    rj = rr.json()
    record("refresh-id-token", "refresh grant answer", rr.status_code == 200, answer_shape(rr))
    record("refresh-id-token", "refresh answer carries an id_token", "id_token" in rj)
    if "id_token" in rj and "id_token" in tok:
        (h0, p0), (h1, p1) = jwt_parts(tok["id_token"]), jwt_parts(rj["id_token"])
        record("refresh-id-token", "it is a new ID token (value differs)", rj["id_token"] != tok["id_token"])
        record("refresh-id-token", "new ID token signature verifies with jwks_uri key", verify_with_jwks(meta, rj["id_token"]),
               f"alg={h1.get('alg')}")
        record("refresh-id-token", "claims", True,
               f"names={sorted(p1)} same sub={p1.get('sub') == p0.get('sub')} same aud={p1.get('aud') == p0.get('aud')} "
               f"iat later or equal={p1.get('iat', 0) >= p0.get('iat', 0)} same auth_time={p1.get('auth_time') == p0.get('auth_time')} "
               f"same nonce={p1.get('nonce') == p0.get('nonce')} same sid={p1.get('sid') == p0.get('sid')} "
               f"exp-iat={p1.get('exp', 0) - p1.get('iat', 0)}")


def token_exchange_checks(meta):
    print("# RFC 8693 token exchange (idpyoidc TokenExchangeHelper; server.py --token-exchange)")
    record("token-exchange", "grant type listed in grant_types_supported", TE_GRANT in meta.get("grant_types_supported", []),
           repr(meta.get("grant_types_supported")))
    c = Client(meta)
    tok = signed_in(c)

    def exchange(what, client=None, auth=True, **form):
        body = {"grant_type": TE_GRANT, "subject_token": tok.get("access_token"), "subject_token_type": TT_ACCESS}
        body.update(form)
        body = {k: v for k, v in body.items() if v is not None}
        client = client or c
        rr = client.token(body) if auth else requests.post(meta["token_endpoint"], data=dict(body, client_id=client.client_id))
        detail = answer_shape(rr)
        if rr.status_code == 200 and str(rr.json().get("access_token", "")).count(".") == 2:
            h, p = jwt_parts(rr.json()["access_token"])
            detail += f" new token: alg={h.get('alg')} aud={p.get('aud')!r} client_id_is_caller={p.get('client_id') == client.client_id} scope={p.get('scope')!r}"
        record("token-exchange", what, rr.status_code == 200, detail)
        return rr

    exchange("access_token -> (no requested_token_type)")
    rr = exchange("access_token -> access_token", requested_token_type=TT_ACCESS)
    if rr.status_code == 200:
        ui = requests.get(meta["userinfo_endpoint"], headers={"Authorization": "Bearer " + rr.json()["access_token"]})
        record("token-exchange", "exchanged access token at userinfo", ui.status_code == 200, err_of(ui))
    exchange(f"audience={TE_AUDIENCE} (allowed)", requested_token_type=TT_ACCESS, audience=TE_AUDIENCE)
    exchange(f"resource={TE_RESOURCE} (allowed)", requested_token_type=TT_ACCESS, resource=TE_RESOURCE)
    exchange("allowed audience + allowed resource", requested_token_type=TT_ACCESS, audience=TE_AUDIENCE,
             resource=TE_RESOURCE)
    exchange("scope=openid (narrower)", scope="openid")
    exchange("scope=openid profile (profile not granted)", scope="openid profile")
    exchange("unknown audience https://other.example", audience="https://other.example")
    exchange("resource not allowed https://other.example/api", resource="https://other.example/api")
    exchange("requested_token_type id-jag (subject access_token)", requested_token_type=TT_ID_JAG)
    exchange("requested_token_type jwt", requested_token_type=TT_JWT)
    exchange("requested_token_type refresh_token", requested_token_type=TT_REFRESH)
    exchange("bad subject_token (random string)", subject_token=b64url(os.urandom(24)))
    exchange("ID token presented as access_token", subject_token=tok.get("id_token"))
    exchange("ID token, subject_token_type id_token", subject_token=tok.get("id_token"), subject_token_type=TT_ID_TOKEN)
    if "refresh_token" in tok:
        exchange("refresh token as subject (subject_token_type refresh_token)", subject_token=tok["refresh_token"],
                 subject_token_type=TT_REFRESH)
        exchange("refresh token as subject (subject_token_type access_token)", subject_token=tok["refresh_token"])
    exchange("no subject_token_type", subject_token_type=None)
    exchange("actor_token given", actor_token=tok.get("access_token"), actor_token_type=TT_ACCESS)
    exchange("no client authentication", auth=False)
    if "client_secret" in c.reg:
        rr = requests.post(meta["token_endpoint"], data={"grant_type": TE_GRANT, "subject_token": tok.get("access_token"),
                                                          "subject_token_type": TT_ACCESS, "client_id": c.client_id,
                                                          "client_secret": c.reg["client_secret"]})
        record("token-exchange", "client_secret_post with the issued secret", rr.status_code == 200, err_of(rr))
    exchange("another registered client presents this client's access token", client=Client(meta))


def id_jag_checks(meta):
    print("# ID-JAG issuance (server.py --issue-id-jag, answered by the wrapper)")
    expected_client_id = os.environ.get("EXPECT_ID_JAG_CLIENT_ID", "mcp-enterprise-client")
    c = Client(meta)
    tok = signed_in(c)
    id_token = tok.get("id_token")
    record("id-jag", "sign-in with scope 'openid email' gives an id_token", bool(id_token), f"keys={sorted(tok)}")
    if not id_token:
        return
    sub = jwt_parts(id_token)[1].get("sub")

    def jag(what, client=None, assertion=None, auth=True, subject=id_token, **form):
        body = {"grant_type": TE_GRANT, "requested_token_type": TT_ID_JAG, "subject_token": subject,
                "subject_token_type": TT_ID_TOKEN, "audience": JAG_AUDIENCE}
        body.update(form)
        body = {k: v for k, v in body.items() if v is not None}
        client = client or c
        if auth:
            rr = client.token(body, assertion=assertion)
        else:
            rr = requests.post(meta["token_endpoint"], data=dict(body, client_id=client.client_id))
        record("id-jag", what, rr.status_code == 200, answer_shape(rr))
        return rr

    rr = jag("ID token -> ID-JAG with audience, resource, scope", resource=JAG_RESOURCE, scope="mcp:tools mcp:read")
    if rr.status_code == 200:
        body = rr.json()
        record("id-jag", "answer: issued_token_type id-jag, token_type N_A, expires_in 300, scope echoed",
               body.get("issued_token_type") == TT_ID_JAG and body.get("token_type") == "N_A"
               and body.get("expires_in") == 300 and body.get("scope") == "mcp:tools mcp:read",
               f"no refresh_token={'refresh_token' not in body}")
        h, p = jwt_parts(body["access_token"])
        jwks = requests.get(meta["jwks_uri"]).json()
        record("id-jag", "header typ=oauth-id-jag+jwt alg=ES256 kid in jwks",
               h.get("typ") == "oauth-id-jag+jwt" and h.get("alg") == "ES256"
               and h.get("kid") in [k.get("kid") for k in jwks["keys"]], f"header names={sorted(h)}")
        record("id-jag", "signature verifies with the jwks_uri key", verify_with_jwks(meta, body["access_token"]))
        record("id-jag", "claims", True, f"names={sorted(p)}")
        record("id-jag", "iss == issuer", p.get("iss") == meta["issuer"])
        record("id-jag", "sub == ID token sub", p.get("sub") == sub)
        record("id-jag", f"aud == {JAG_AUDIENCE}", p.get("aud") == JAG_AUDIENCE, repr(p.get("aud")))
        record("id-jag", f"client_id == {expected_client_id}", p.get("client_id") == expected_client_id,
               repr(p.get("client_id")))
        record("id-jag", "exp - iat == 300, jti present", p.get("exp", 0) - p.get("iat", 0) == 300 and bool(p.get("jti")))
        record("id-jag", "resource and scope claims", p.get("resource") == JAG_RESOURCE and p.get("scope") == "mcp:tools mcp:read",
               f"resource={p.get('resource')!r} scope={p.get('scope')!r}")
    rr = jag("minimal (no resource, no scope)")
    if rr.status_code == 200:
        record("id-jag", "minimal: claims / answer", True,
               f"claims={sorted(jwt_parts(rr.json()['access_token'])[1])} answer keys={sorted(rr.json())}")
    rr = c.token({"grant_type": TE_GRANT, "requested_token_type": TT_ID_JAG, "subject_token": id_token,
                  "subject_token_type": TT_ID_TOKEN, "audience": JAG_AUDIENCE,
                  "resource": [JAG_RESOURCE, JAG_RESOURCE + "2"]})
    record("id-jag", "two resource parameters", rr.status_code == 200,
           answer_shape(rr) + (f" resource claim={jwt_parts(rr.json()['access_token'])[1].get('resource')!r}"
                               if rr.status_code == 200 else ""))
    jag("no audience", audience=None)
    jag("subject_token_type access_token (with the ID token)", subject_token_type=TT_ACCESS)
    jag("no subject_token_type", subject_token_type=None)
    jag("access token as subject (subject_token_type id_token)", subject=tok["access_token"])
    if "refresh_token" in tok:
        jag("refresh token as subject (subject_token_type id_token)", subject=tok["refresh_token"])
    jag("bad subject_token (random string)", subject=b64url(os.urandom(24)))
    h, p = jwt_parts(id_token)
    foreign = new_ec_key("P-256", use="sig")
    foreign.kid = h.get("kid")  # same kid as the provider's key, different key
    jag("ID token re-signed with a foreign key (provider's kid)", subject=sign(p, foreign))
    head, body_part, sig = id_token.split(".")
    jag("ID token with a changed payload (sub)", subject=".".join(
        [head, b64url(json.dumps(dict(p, sub="someone-else")).encode()), sig]))
    jag("ID token of another client presented by this client", subject=signed_in(Client(meta)).get("id_token"))
    jag("this client's ID token presented by another registered client", client=Client(meta))
    jag("no client authentication", auth=False)
    assertion = c.assertion(meta["token_endpoint"])
    jag("fresh assertion (1st use)", assertion=assertion)
    jag("same assertion replayed", assertion=assertion)
    jag("assertion aud=issuer", assertion=c.assertion(meta["issuer"]))
    if "client_secret" in c.reg:
        rr = requests.post(meta["token_endpoint"], data={
            "grant_type": TE_GRANT, "requested_token_type": TT_ID_JAG, "subject_token": id_token,
            "subject_token_type": TT_ID_TOKEN, "audience": JAG_AUDIENCE, "client_id": c.client_id,
            "client_secret": c.reg["client_secret"]})
        record("id-jag", "client_secret_post with the issued secret", rr.status_code == 200, err_of(rr))
    if "refresh_token" in tok:
        rr = c.token({"grant_type": "refresh_token", "refresh_token": tok["refresh_token"], "client_id": c.client_id})
        fresh = rr.json().get("id_token")
        if fresh:
            jag("ID token from the refresh answer", subject=fresh)
            jag("the first ID token, after that refresh", subject=id_token)
    # Tokens of a code that was then replayed (idpyoidc revokes them).
    code, verifier, _, _ = c.get_code()
    first = c.code_token(code, verifier).json()
    c.code_token(code, verifier)
    if first.get("id_token"):
        jag("ID token whose code was then replayed", subject=first["id_token"])
    lifetime = os.environ.get("EXPECT_ID_TOKEN_LIFETIME")
    if lifetime:
        short = signed_in(c).get("id_token")
        time.sleep(int(lifetime) + 2)
        jag(f"ID token {int(lifetime) + 2}s old (lifetime {lifetime}s)", subject=short)
    # Other token requests still go to idpyoidc.
    code, verifier, _, _ = c.get_code()
    rr = c.code_token(code, verifier)
    record("id-jag", "code grant on the same server (idpyoidc)", rr.status_code == 200, answer_shape(rr))


def main():
    meta = requests.get(BASE + "/.well-known/openid-configuration").json()
    print("# discovery")
    for k in ["issuer", "authorization_endpoint", "token_endpoint", "jwks_uri", "registration_endpoint",
              "userinfo_endpoint", "pushed_authorization_request_endpoint",
              "token_endpoint_auth_methods_supported", "request_object_signing_alg_values_supported",
              "code_challenge_methods_supported", "authorization_response_iss_parameter_supported",
              "id_token_signing_alg_values_supported", "require_pushed_authorization_requests",
              "grant_types_supported"]:
        print(f"  {k} = {meta.get(k)!r}")
    record("discovery", "issuer == base URL", meta["issuer"] == BASE, meta["issuer"])
    if "core" in CHOSEN:
        core_checks(meta)
    if "refresh-id-token" in CHOSEN:
        refresh_id_token_checks(meta)
    if "token-exchange" in CHOSEN:
        token_exchange_checks(meta)
    if "id-jag" in CHOSEN:
        id_jag_checks(meta)

    print("\n# summary")
    for section, what, ok, detail in RESULTS:
        print(f"{'OK     ' if ok else 'REFUSED'} [{section}] {what} {detail}")


if __name__ == "__main__":
    main()
