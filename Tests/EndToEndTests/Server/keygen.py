#!/usr/bin/env python3
"""Writes the per-run secrets of the test server into its state directory.

* oidc-rsa-private-key.pem: RSA key signing the ID tokens (RS256);
* secret_key: Django's SECRET_KEY.

Both are created with mode 0600 and never leave the state directory.
"""

import os
import sys
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa


def write_private(path, data):
    try:
        path.unlink()
    except FileNotFoundError:
        pass
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as file:
        file.write(data)


def main():
    if len(sys.argv) != 2:
        sys.exit(f"usage: {sys.argv[0]} STATE_DIR")
    state = Path(sys.argv[1])
    state.mkdir(parents=True, exist_ok=True)
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    pem = key.private_bytes(
        encoding=serialization.Encoding.PEM,
        format=serialization.PrivateFormat.PKCS8,
        encryption_algorithm=serialization.NoEncryption(),
    )
    write_private(state / "oidc-rsa-private-key.pem", pem)
    write_private(state / "secret_key", os.urandom(32).hex().encode("ascii"))


if __name__ == "__main__":
    main()
