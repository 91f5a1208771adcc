#!/usr/bin/env python3
"""Probe a running server.py and report what idpyoidc 5.0.0 accepts.

    python check.py [BASE_URL]            (default http://127.0.0.1:8765)

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

BASE = (sys.argv[1] if len(sys.argv) > 1 else os.environ.get("BASE_URL", "http://127.0.0.1:8765")).rstrip("/")
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


def main():
    meta = requests.get(BASE + "/.well-known/openid-configuration").json()
    TOK, PAR = meta["token_endpoint"], meta["pushed_authorization_request_endpoint"]
    print("# discovery")
    for k in ["issuer", "authorization_endpoint", "token_endpoint", "jwks_uri", "registration_endpoint",
              "userinfo_endpoint", "pushed_authorization_request_endpoint",
              "token_endpoint_auth_methods_supported", "request_object_signing_alg_values_supported",
              "code_challenge_methods_supported", "authorization_response_iss_parameter_supported",
              "id_token_signing_alg_values_supported", "require_pushed_authorization_requests"]:
        print(f"  {k} = {meta.get(k)!r}")
    record("discovery", "issuer == base URL", meta["issuer"] == BASE, meta["issuer"])

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

    print("\n# summary")
    for section, what, ok, detail in RESULTS:
        print(f"{'OK     ' if ok else 'REFUSED'} [{section}] {what} {detail}")


if __name__ == "__main__":
    main()
