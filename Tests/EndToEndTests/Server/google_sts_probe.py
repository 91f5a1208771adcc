#!/usr/bin/env python3
"""Checks google_sts.py end to end: the workload identity federation flow and hostile requests.

    /usr/bin/python3 Tests/EndToEndTests/Server/google_sts_probe.py

Needs the `cryptography` module (Debian's python3-cryptography) to sign the platform tokens;
the server itself uses only the standard library. Prints one line per check: OK (a good request
and what it answered) or REFUSED (a hostile request and the error it got); FAIL and exit status 1
if a check does not hold. Never prints a token.
"""
import base64
import json
import os
import secrets
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec, padding, rsa
from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature

HERE = os.path.dirname(os.path.abspath(__file__))
ISSUER = "https://platform.example.test"
AUDIENCE = "//iam.googleapis.com/projects/123456789/locations/global/workloadIdentityPools/ci-pool/providers/ci"
POOL = "projects/123456789/locations/global/workloadIdentityPools/ci-pool"
ACCOUNT = "deployer@example-project.iam.gserviceaccount.com"
CLOUD = "https://www.googleapis.com/auth/cloud-platform"
EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange"
ACCESS = "urn:ietf:params:oauth:token-type:access_token"
JWT_TYPE = "urn:ietf:params:oauth:token-type:jwt"
OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))
failures = []


def b64(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def number(value, size=None):
    return b64(value.to_bytes(size or (value.bit_length() + 7) // 8, "big"))


def public_jwk(key, kid):
    numbers = key.public_key().public_numbers()
    if isinstance(key, rsa.RSAPrivateKey):
        return {"kty": "RSA", "kid": kid, "use": "sig", "alg": "RS256", "n": number(numbers.n), "e": number(numbers.e)}
    return {"kty": "EC", "kid": kid, "crv": "P-256", "x": number(numbers.x, 32), "y": number(numbers.y, 32)}


def sign(key, kid, claims, algorithm=None):
    algorithm = algorithm or ("RS256" if isinstance(key, rsa.RSAPrivateKey) else "ES256")
    signing_input = f"{b64(json.dumps({'alg': algorithm, 'kid': kid, 'typ': 'JWT'}).encode())}." \
                    f"{b64(json.dumps(claims).encode())}"
    if algorithm == "RS256":
        signature = key.sign(signing_input.encode(), padding.PKCS1v15(), hashes.SHA256())
    else:
        r, s = decode_dss_signature(key.sign(signing_input.encode(), ec.ECDSA(hashes.SHA256())))
        signature = r.to_bytes(32, "big") + s.to_bytes(32, "big")
    return signing_input + "." + b64(signature)


def request(method, url, form=None, body=None, token=None):
    headers = {}
    data = None
    if form is not None:
        data, headers["Content-Type"] = urllib.parse.urlencode(form).encode(), "application/x-www-form-urlencoded"
    if body is not None:
        data, headers["Content-Type"] = json.dumps(body).encode(), "application/json"
    if token is not None:
        headers["Authorization"] = "Bearer " + token
    call = urllib.request.Request(url, data=data, method=method, headers=headers)
    try:
        with OPENER.open(call, timeout=30) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


def check(condition, line):
    print(line if condition else "FAIL " + line.split(" ", 1)[1])
    if not condition:
        failures.append(line)


def start(jwks_file, *extra):
    process = subprocess.Popen(
        [sys.executable, os.path.join(HERE, "google_sts.py"), "--trust-jwks-file", jwks_file,
         "--subject-issuer", ISSUER, "--audience", AUDIENCE, "--service-account", ACCOUNT, *extra],
        stdout=subprocess.PIPE, text=True)
    return process, process.stdout.readline().strip()


def main():
    rsa_key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    ec_key = ec.generate_private_key(ec.SECP256R1())
    impostor = ec.generate_private_key(ec.SECP256R1())
    workspace = tempfile.mkdtemp(prefix="google-sts-probe-")
    jwks_file = os.path.join(workspace, "jwks.json")
    with open(jwks_file, "w") as file:
        json.dump({"keys": [public_jwk(rsa_key, "rsa-1"), public_jwk(ec_key, "ec-1")]}, file)
    processes = []
    try:
        process, base = start(jwks_file)
        processes.append(process)
        run(base, rsa_key, ec_key, impostor)
        short, short_base = start(jwks_file, "--token-seconds", "1")
        processes.append(short)
        expiry(short_base, ec_key)
        process.send_signal(15)
        code = process.wait(timeout=10)
        check(code == 0, f"OK SIGTERM: exit status {code}")
    finally:
        for each in processes:
            if each.poll() is None:
                each.terminate()
                each.wait(timeout=10)
        os.remove(jwks_file)
        os.rmdir(workspace)
    sys.exit(1 if failures else 0)


def platform_claims(**changes):
    now = int(time.time())
    claims = {"iss": ISSUER, "aud": "https:" + AUDIENCE, "sub": "repo:example/app:ref:refs/heads/main",
              "iat": now, "exp": now + 300}
    claims.update(changes)
    return {name: value for name, value in claims.items() if value is not None}


def exchange_form(subject_token, **changes):
    form = {"grant_type": EXCHANGE, "audience": AUDIENCE, "scope": CLOUD, "requested_token_type": ACCESS,
            "subject_token": subject_token, "subject_token_type": JWT_TYPE}
    form.update(changes)
    return {name: value for name, value in form.items() if value is not None}


def expiry(base, ec_key):
    status, answer = request("POST", base + "/v1/token", form=exchange_form(sign(ec_key, "ec-1", platform_claims())))
    token = answer.get("access_token") if status == 200 else None
    time.sleep(2.2)
    status, answer = request("GET", base + "/v1/whoami", token=token)
    check(status == 401 and answer["error"]["status"] == "UNAUTHENTICATED",
          f"REFUSED STS token after its expires_in (1 s): {status} {answer['error']['status']}")


def run(base, rsa_key, ec_key, impostor):
    token_url = base + "/v1/token"
    generate_url = f"{base}/v1/projects/-/serviceAccounts/{ACCOUNT}:generateAccessToken"

    def good_exchange(name, answer):
        status, body = answer
        ok = status == 200 and body.get("token_type") == "Bearer" and body.get("issued_token_type") == ACCESS \
            and body.get("expires_in") == 3600 and isinstance(body.get("access_token"), str)
        check(ok, f"OK {name}: {status} {sorted(body) if isinstance(body, dict) else body}")
        return body.get("access_token") if ok else None

    def refused(name, answer, status, error):
        got_status, body = answer
        got = body.get("error") if isinstance(body, dict) else None
        if isinstance(got, dict):  # Google's API error format
            got, description = got.get("status"), got.get("message")
        else:
            description = body.get("error_description") if isinstance(body, dict) else None
        check(got_status == status and got == error, f"REFUSED {name}: {got_status} {got} ({description})")

    sts = good_exchange("RS256 platform token, form-encoded", request(
        "POST", token_url, form=exchange_form(sign(rsa_key, "rsa-1", platform_claims()))))
    status, whoami = request("GET", base + "/v1/whoami", token=sts)
    check(status == 200 and whoami.get("kind") == "federated"
          and whoami.get("principal") == f"principal://iam.googleapis.com/{POOL}/subject/"
                                         "repo:example/app:ref:refs/heads/main",
          f"OK /v1/whoami with the STS token: {status} {whoami.get('kind')} {whoami.get('principal')}")
    for round in range(3):
        good_exchange(f"ES256 platform token #{round + 1}", request(
            "POST", token_url, form=exchange_form(sign(ec_key, "ec-1", platform_claims()))))
    good_exchange("id_token type, aud without https:, JSON camelCase body, options", request("POST", token_url, body={
        "grantType": EXCHANGE, "audience": AUDIENCE, "scope": CLOUD, "requestedTokenType": ACCESS,
        "subjectToken": sign(ec_key, "ec-1", platform_claims(aud=AUDIENCE)),
        "subjectTokenType": "urn:ietf:params:oauth:token-type:id_token",
        "options": json.dumps({"userProject": "example-project"})}))

    status, generated = request("POST", generate_url, body={"scope": [CLOUD], "lifetime": "1800s"}, token=sts)
    expire = generated.get("expireTime", "") if status == 200 else ""
    left = time.mktime(time.strptime(expire, "%Y-%m-%dT%H:%M:%SZ")) - time.mktime(time.gmtime()) if expire else 0
    check(status == 200 and isinstance(generated.get("accessToken"), str) and 1790 <= left <= 1801,
          f"OK generateAccessToken lifetime 1800s: {status} {sorted(generated)}, expireTime {expire} (RFC 3339 Z)")
    impersonated = generated.get("accessToken")
    status, whoami = request("GET", base + "/v1/whoami", token=impersonated)
    check(status == 200 and whoami.get("kind") == "service_account" and whoami.get("principal") == ACCOUNT
          and whoami.get("impersonated_by", "").startswith("principal://"),
          f"OK /v1/whoami with the impersonated token: {status} {whoami.get('kind')} {whoami.get('principal')}")
    status, generated = request("POST", generate_url.replace("@", "%40"), body={"scope": [CLOUD]}, token=sts)
    check(status == 200, f"OK generateAccessToken, email percent-encoded, default lifetime: {status}")

    def exchange(**changes):
        return request("POST", token_url, form=exchange_form(sign(ec_key, "ec-1", platform_claims(**changes))))

    refused("subject token aud not the provider's", exchange(aud="https://elsewhere.example.test"), 400,
            "invalid_grant")
    refused("subject token iss not trusted", exchange(iss="https://evil.example.test"), 400, "invalid_grant")
    refused("subject token expired", exchange(iat=int(time.time()) - 600, exp=int(time.time()) - 5), 400,
            "invalid_grant")
    refused("subject token iat in the future", exchange(iat=int(time.time()) + 600), 400, "invalid_grant")
    refused("subject token without sub", exchange(sub=None), 400, "invalid_grant")
    refused("unknown kid", request("POST", token_url, form=exchange_form(sign(ec_key, "ec-2", platform_claims()))),
            400, "invalid_grant")
    refused("listed kid, other key", request("POST", token_url, form=exchange_form(
        sign(impostor, "ec-1", platform_claims()))), 400, "invalid_grant")
    refused("RS256 kid with an ES256 signature", request("POST", token_url, form=exchange_form(
        sign(ec_key, "rsa-1", platform_claims()))), 400, "invalid_grant")
    unsigned = ".".join([b64(json.dumps({"alg": "none", "kid": "ec-1"}).encode()),
                         b64(json.dumps(platform_claims()).encode()), ""])
    refused("alg none", request("POST", token_url, form=exchange_form(unsigned)), 400, "invalid_grant")
    tampered = sign(ec_key, "ec-1", platform_claims()).split(".")
    tampered[1] = b64(json.dumps(platform_claims(sub="someone-else")).encode())
    refused("payload changed after signing", request("POST", token_url, form=exchange_form(".".join(tampered))),
            400, "invalid_grant")
    good = sign(ec_key, "ec-1", platform_claims())
    refused("audience of another provider", request("POST", token_url, form=exchange_form(
        good, audience=AUDIENCE.replace("/providers/ci", "/providers/other"))), 400, "invalid_target")
    refused("audience not a provider name", request("POST", token_url, form=exchange_form(good, audience="ci")),
            400, "invalid_request")
    refused("grant_type client_credentials", request("POST", token_url, form=exchange_form(
        good, grant_type="client_credentials")), 400, "unsupported_grant_type")
    refused("no scope", request("POST", token_url, form=exchange_form(good, scope=None)), 400, "invalid_request")
    refused("requested_token_type jwt", request("POST", token_url, form=exchange_form(
        good, requested_token_type=JWT_TYPE)), 400, "invalid_request")
    refused("subject_token_type saml2", request("POST", token_url, form=exchange_form(
        good, subject_token_type="urn:ietf:params:oauth:token-type:saml2")), 400, "invalid_request")
    refused("options not JSON", request("POST", token_url, form=exchange_form(good, options="{")), 400,
            "invalid_request")

    refused("generateAccessToken without a token", request("POST", generate_url, body={"scope": [CLOUD]}), 401,
            "UNAUTHENTICATED")
    refused("generateAccessToken with an unknown token", request("POST", generate_url, body={"scope": [CLOUD]},
                                                                 token="ya29.unknown"), 401, "UNAUTHENTICATED")
    refused("generateAccessToken with the impersonated token", request("POST", generate_url,
            body={"scope": [CLOUD]}, token=impersonated), 403, "PERMISSION_DENIED")
    refused("another service account", request("POST", generate_url.replace("deployer@", "admin@"),
            body={"scope": [CLOUD]}, token=sts), 403, "PERMISSION_DENIED")
    storage = "https://www.googleapis.com/auth/devstorage.read_only"
    narrow = request("POST", token_url, form=exchange_form(sign(ec_key, "ec-1", platform_claims()), scope=storage))
    refused("STS token without cloud-platform scope", request("POST", generate_url, body={"scope": [CLOUD]},
            token=narrow[1].get("access_token")), 403, "PERMISSION_DENIED")
    refused("lifetime 7200s", request("POST", generate_url, body={"scope": [CLOUD], "lifetime": "7200s"}, token=sts),
            400, "INVALID_ARGUMENT")
    refused("lifetime 3600 (no s)", request("POST", generate_url, body={"scope": [CLOUD], "lifetime": "3600"},
                                            token=sts), 400, "INVALID_ARGUMENT")
    refused("empty scope", request("POST", generate_url, body={"scope": []}, token=sts), 400, "INVALID_ARGUMENT")
    refused("project id instead of -", request("POST", generate_url.replace("/projects/-/", "/projects/p/"),
            body={"scope": [CLOUD]}, token=sts), 400, "INVALID_ARGUMENT")
    refused("/v1/whoami without a token", request("GET", base + "/v1/whoami"), 401, "UNAUTHENTICATED")

    _, log = request("GET", base + "/_harness/log")
    text = json.dumps(log)
    exchanges = [entry for entry in log["requests"] if entry["path"] == "/v1/token"]
    counts = log["counts"]
    check(counts["exchanges"] == 6 and counts["refused_exchanges"] == 17 and counts["impersonations"] == 2
          and counts["refused_impersonations"] == 9 and all(entry["grant_type"] is not None for entry in exchanges)
          and exchanges[0]["subject_token_type"] == JWT_TYPE and exchanges[0]["audience"] == AUDIENCE
          and sts not in text and impersonated not in text and good not in text,
          f"OK /_harness/log: counts {log['counts']}, no token")


if __name__ == "__main__":
    main()
