#!/usr/bin/env python3
"""Runs the test authorization server on 127.0.0.1.

A multi-threaded WSGI server (Django's ThreadedWSGIServer, daemon threads) that
speaks HTTP/1.1 keep-alive and sets TCP_NODELAY on every connection: without
it Nagle's algorithm and delayed ACKs add ~40 ms to each request.

The socket is bound before Django is set up, so the settings know the final
base URL (BEARER_E2E_BASE_URL) even when the port is picked by the OS (--port 0).
"""

import argparse
import os
import socket
import sys
from pathlib import Path


SERVER_DIR = Path(__file__).resolve().parent
sys.path.insert(0, str(SERVER_DIR))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "e2e_site.settings")

from django.core.servers.basehttp import ThreadedWSGIServer, WSGIRequestHandler  # noqa: E402


class RequestHandler(WSGIRequestHandler):
    # Django's handler already speaks HTTP/1.1 and keeps connections alive
    # whenever the response has a Content-Length.
    protocol_version = "HTTP/1.1"

    def setup(self):
        super().setup()
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0, help="0 lets the OS pick a free port")
    parser.add_argument("--port-file", help="write the bound port to this file once listening")
    args = parser.parse_args()

    httpd = ThreadedWSGIServer((args.host, args.port), RequestHandler)
    port = httpd.server_address[1]
    base_url = f"http://{args.host}:{port}"
    os.environ["BEARER_E2E_BASE_URL"] = base_url

    from django.core.wsgi import get_wsgi_application

    httpd.set_app(get_wsgi_application())

    if args.port_file:
        temporary = Path(args.port_file + ".tmp")
        temporary.write_text(f"{port}\n")
        temporary.replace(args.port_file)
    print(f"listening on {base_url}", file=sys.stderr, flush=True)
    try:
        httpd.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        httpd.server_close()


if __name__ == "__main__":
    main()
