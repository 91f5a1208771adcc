#!/usr/bin/env python3
"""Writes the byte-exact legacy fixtures used by BearerMigrationTests.

The keyed archives are built here with Python's plistlib, an implementation independent of
Bearer's, in the object layout NSKeyedArchiver gives GTMAppAuth's classes. Token values are
placeholders made up for the tests. Run from this folder; the output is committed.
"""
import base64
import json
import plistlib
from plistlib import UID

NSDATE_OFFSET = 978307200  # seconds from 1970-01-01 to 2001-01-01


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def fake_jwt(claims):
    header = b64url(json.dumps({"alg": "RS256", "typ": "JWT"}, sort_keys=True).encode())
    payload = b64url(json.dumps(claims, sort_keys=True).encode())
    return f"{header}.{payload}.c2lnbmF0dXJl"


class Archive:
    """Collects NSKeyedArchiver $objects and returns UIDs."""

    def __init__(self):
        self.objects = ["$null"]
        self.classes = {}

    def add(self, value):
        self.objects.append(value)
        return UID(len(self.objects) - 1)

    def cls(self, name, supers=("NSObject",)):
        if name not in self.classes:
            self.classes[name] = self.add({"$classname": name, "$classes": [name, *supers]})
        return self.classes[name]

    def obj(self, name, fields, supers=("NSObject",)):
        entry = dict(fields)
        entry["$class"] = self.cls(name, supers)
        return self.add(entry)

    def string(self, text):
        return self.add(text)

    def url(self, text, base=None):
        return self.obj("NSURL", {"NS.base": base if base is not None else UID(0), "NS.relative": self.string(text)})

    def date(self, seconds_since_1970):
        return self.obj("NSDate", {"NS.time": float(seconds_since_1970 - NSDATE_OFFSET)})

    def dictionary(self, values, name="NSDictionary"):
        keys = [self.string(k) for k in values]
        objs = []
        for v in values.values():
            if isinstance(v, str):
                objs.append(self.string(v))
            elif isinstance(v, bool) or isinstance(v, int) or isinstance(v, float):
                objs.append(self.add(v))
            elif isinstance(v, dict):
                objs.append(self.dictionary(v))
            else:
                raise TypeError(v)
        return self.obj(name, {"NS.keys": keys, "NS.objects": objs}, ("NSObject",))

    def dump(self, root):
        return plistlib.dumps(
            {"$version": 100000, "$archiver": "NSKeyedArchiver", "$top": {"root": root}, "$objects": self.objects},
            fmt=plistlib.FMT_BINARY,
            sort_keys=False,
        )


def gtmappauth_archive(root_class, needs_refresh, issuer_in_config, with_id_token):
    a = Archive()
    discovery = a.dictionary(
        {
            "issuer": "https://accounts.google.com",
            "authorization_endpoint": "https://accounts.google.com/o/oauth2/v2/auth",
            "token_endpoint": "https://oauth2.googleapis.com/token",
            "revocation_endpoint": "https://oauth2.googleapis.com/revoke",
            "userinfo_endpoint": "https://openidconnect.googleapis.com/v1/userinfo",
        },
        name="OIDServiceDiscovery",
    )
    config_fields = {
        "authorizationEndpoint": a.url("https://accounts.google.com/o/oauth2/v2/auth"),
        "tokenEndpoint": a.url("token", base=a.url("https://oauth2.googleapis.com/")),
        "discoveryDocument": discovery,
    }
    if issuer_in_config:
        config_fields["issuer"] = a.url("https://accounts.google.com")
    config = a.obj("OIDServiceConfiguration", config_fields)
    client_id = "223520599684-kg64hfn0h950oureqacja2fltg00msv3.apps.googleusercontent.com"
    redirect = "com.googleusercontent.apps.223520599684-kg64hfn0h950oureqacja2fltg00msv3:/oauth2callback"
    auth_request = a.obj(
        "OIDAuthorizationRequest",
        {
            "configuration": config,
            "response_type": a.string("code"),
            "client_id": a.string(client_id),
            "scope": a.string("openid email https://www.googleapis.com/auth/drive.readonly"),
            "redirect_uri": a.url(redirect),
            "state": a.string("fixture-state"),
            "nonce": a.string("fixture-nonce"),
            "code_verifier": a.string("fixture-code-verifier-0123456789012345678901234567"),
            "code_challenge": a.string("fixture-code-challenge"),
            "code_challenge_method": a.string("S256"),
            "additionalParameters": a.dictionary({"login_hint": "fixture.user@example.com"}),
        },
    )
    auth_response = a.obj(
        "OIDAuthorizationResponse",
        {"request": auth_request, "code": a.string("fixture-authorization-code"), "state": a.string("fixture-state"),
         "additionalParameters": a.dictionary({"authuser": "0"})},
    )
    token_request = a.obj(
        "OIDTokenRequest",
        {
            "configuration": config,
            "grant_type": a.string("authorization_code"),
            "code": a.string("fixture-authorization-code"),
            "client_id": a.string(client_id),
            "redirect_uri": a.url(redirect),
            "code_verifier": a.string("fixture-code-verifier-0123456789012345678901234567"),
            "additionalParameters": a.dictionary({}),
        },
    )
    token_fields = {
        "request": token_request,
        "access_token": a.string("fixture-access-token"),
        "expires_in": a.date(1800003600),
        "token_type": a.string("Bearer"),
        "refresh_token": a.string("fixture-refresh-token"),
        "scope": a.string("openid https://www.googleapis.com/auth/userinfo.email https://www.googleapis.com/auth/drive.readonly"),
        "additionalParameters": a.dictionary({"refresh_token_expires_in": 604799, "x_extra": {"nested": "yes"}}),
    }
    if with_id_token:
        token_fields["id_token"] = a.string(fake_jwt({
            "iss": "https://accounts.google.com", "aud": client_id, "azp": client_id, "sub": "110169484474386276334",
            "email": "fixture.user@example.com", "email_verified": True, "iat": 1800000000, "exp": 1800003600,
        }))
    token_response = a.obj("OIDTokenResponse", token_fields)
    auth_state = a.obj(
        "OIDAuthState",
        {
            "lastAuthorizationResponse": auth_response,
            "lastTokenResponse": token_response,
            "scope": a.string("openid https://www.googleapis.com/auth/userinfo.email https://www.googleapis.com/auth/drive.readonly"),
            "refreshToken": a.string("fixture-refresh-token"),
            "needsTokenRefresh": needs_refresh,
        },
    )
    root = a.obj(
        root_class,
        {
            "authState": auth_state,
            "serviceProvider": a.string("Google"),
            "userID": a.string("110169484474386276334"),
            "userEmail": a.string("fixture.user@example.com"),
            "userEmailIsVerified": a.string("true"),
        },
    )
    return a.dump(root)


def cyclic_archive():
    a = Archive()
    # An NSDictionary whose only value is itself.
    dictionary_uid = UID(len(a.objects) + 2)
    a.cls("NSDictionary")
    key = a.string("self")
    a.add({"NS.keys": [key], "NS.objects": [dictionary_uid], "$class": a.classes["NSDictionary"]})
    config = a.obj("OIDServiceConfiguration", {
        "authorizationEndpoint": a.url("https://accounts.google.com/o/oauth2/v2/auth"),
        "tokenEndpoint": a.url("https://oauth2.googleapis.com/token"),
    })
    request = a.obj("OIDTokenRequest", {"configuration": config, "client_id": a.string("cyclic-client")})
    response = a.obj("OIDTokenResponse", {"request": request, "access_token": a.string("fixture-access-token"),
                                          "additionalParameters": dictionary_uid})
    state = a.obj("OIDAuthState", {"lastTokenResponse": response})
    return a.dump(a.obj("GTMAppAuthFetcherAuthorization", {"authState": state}))


def dangling_archive():
    a = Archive()
    state = a.obj("OIDAuthState", {"lastTokenResponse": UID(999)})
    return a.dump(a.obj("GTMAppAuthFetcherAuthorization", {"authState": state}))


def shared_blob_archive(references):
    """A GTMAppAuth archive whose token response's extras name one 50 KB blob from many arrays."""
    a = Archive()
    blob = a.add(bytes(range(256)) * 200)
    arrays = [a.obj("NSArray", {"NS.objects": [blob]}) for _ in range(references)]
    extras = a.obj("NSDictionary", {"NS.keys": [a.string("blobs")],
                                    "NS.objects": [a.obj("NSArray", {"NS.objects": arrays})]})
    config = a.obj("OIDServiceConfiguration", {
        "authorizationEndpoint": a.url("https://accounts.example.com/authorize"),
        "tokenEndpoint": a.url("https://accounts.example.com/token"),
        "issuer": a.url("https://accounts.example.com"),
    })
    request = a.obj("OIDTokenRequest", {"configuration": config, "client_id": a.string("blob-client")})
    response = a.obj("OIDTokenResponse", {"request": request, "access_token": a.string("fixture-access-token"),
                                          "additionalParameters": extras})
    state = a.obj("OIDAuthState", {"lastTokenResponse": response})
    return a.dump(a.obj("GTMAppAuthFetcherAuthorization", {"authState": state}))


def nested_data_plist(count):
    """A bplist00 of `count` data objects, each starting inside the one before it."""
    body = bytearray(b"bplist00")
    for index in range(count):
        body += bytes([0x4F, 0x11]) + (4 * (count - index - 1)).to_bytes(2, "big")
    table = len(body)
    for index in range(count):
        body += (8 + 4 * index).to_bytes(3, "big")
    body += bytes([0, 0, 0, 0, 0, 0, 3, 2]) + count.to_bytes(8, "big") + (0).to_bytes(8, "big")
    body += table.to_bytes(8, "big")
    return bytes(body)


def write(name, data):
    with open(name, "wb") as handle:
        handle.write(data if isinstance(data, bytes) else data.encode())


archive = gtmappauth_archive("GTMAppAuthFetcherAuthorization", False, True, True)
write("gtmappauth-google.archive", archive)
write("gtmappauth-needs-refresh.archive", gtmappauth_archive("GTMAuthSession", True, False, False))
write("gtmappauth-truncated.archive", archive[: len(archive) // 2])
write("gtmappauth-cycle.archive", cyclic_archive())
write("gtmappauth-dangling.archive", dangling_archive())

write("gtmappauth-dialect.txt",
      "access_token=access_token&refresh_token=refresh_token&scope=profile&serviceProvider=fooProvider"
      "&userEmail=foo%40foo.com&userEmailIsVerified=y&userID=123456789")
write("gtmoauth2-dialect.txt",
      "email=fixture.user%40example.com&isVerified=1&refresh_token=1%2Ffixture-refresh-token"
      "&scope=https%3A%2F%2Fwww.googleapis.com%2Fauth%2Fuserinfo.email%20openid&serviceProvider=Google&userID=4242")
write("gtmoauth2-awkward.txt",
      "refresh_token=a=b=c&scope=&email=first%40example.com&email=second%40example.com&bad=%zz%4&flag"
      "&isVerified=0&plus=a+b&&userID=")
write("googlesignin-fingerprint.txt",
      "com.google.GoogleSignInInternalSample.dev-223520599684-kg64hfn0h950oureqacja2fltg00msv3"
      ".apps.googleusercontent.com-email profile")
write("googlesignin-persistence.txt",
      "access_token=fixture-access-token&email=fixture.user%40example.com&isVerified=1"
      "&refresh_token=fixture-refresh-token&scope=email%20profile&serviceProvider=Google&userID=110169484474386276334")
write("googlesignin-atrp.txt", "hd=example.com&param=value")
write("adc-authorized-user.json", json.dumps({
    "account": "", "client_id": "764086051850-fixture.apps.googleusercontent.com",
    "client_secret": "fixture-client-secret", "quota_project_id": "fixture-project",
    "refresh_token": "fixture-refresh-token", "type": "authorized_user", "universe_domain": "googleapis.com",
}, sort_keys=True, indent=2, separators=(",", ": ")))
write("adc-service-account.json", json.dumps({"type": "service_account", "client_id": "x", "refresh_token": "y"}))

# Inputs built to expand, for the fuzz corpus: they must be refused within 64 × their size.
corpus = "../../Fuzz/Corpus/"
for target in ("keyed-archive", "legacy-format"):
    write(corpus + target + "/hostile-shared-blob.archive", shared_blob_archive(5000))
    write(corpus + target + "/hostile-overlapping.plist", nested_data_plist(14000))

# JSON that ends just as it nests 513 deep, which Foundation's decoder traps on.
for target in ("device-authorization", "discovery", "session-envelope", "legacy-format"):
    write(corpus + target + "/nested-513-deep", b"[" * 513)
write(corpus + "token-response/nested-513-deep", b"\x00" + b"[" * 513)
