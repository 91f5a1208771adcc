#!/usr/bin/env python3
"""A token endpoint that misbehaves on command, for Bearer's fault-injection tests and benchmarks.

    POST /token              refresh grant; rotates refresh tokens. The previous refresh token stays
                             valid until the new one (or its access token) is first used, as servers
                             with a reuse grace period do, so a client killed after the server rotated
                             but before it saved can still refresh with the token it has.
    POST /control/issue      a valid access/refresh token pair (JSON)
    POST /control/fault      ?mode=MODE  the fault to inject into every following token request
    POST /control/release    lets the token requests that mode hold waits on go on
    GET  /control/valid      ?token=REFRESH_TOKEN  {"valid": true|false}
    GET  /resource           200 for a current access token, else 401 invalid_token
    GET  /control/stats      {"token_requests": n, "held": h, "last_answer_sent_at": t}: h is how many
                             token requests mode hold keeps waiting now; t is when the last byte of
                             the latest 200 refresh answer was handed to the socket, in seconds of
                             CLOCK_MONOTONIC (which every process on the machine shares), for the
                             benchmark of the window between an answer and its save

Modes: ok, http500, http503 (Retry-After: 2), timeout (no answer for 60 s), reset (connection
reset), html200, truncated, error200, invalid_grant, invalid_client, slow_down, huge (a 64 MiB
body), huge-unsized (64 MiB without Content-Length, until the connection closes), trickle (one
byte a second of a 200-byte body), delay (answers correctly after 0.4 s), hold (answers correctly
once POST /control/release is called, or after 30 s: a refresh kept out while a test acts).

With --any-token (the benchmarks, scripts/bench), every refresh grant gets a fresh pair and /resource
accepts any Bearer or DPoP token (a DPoP proof is not checked), as the benchmarks' sessions carry tokens this server never issued.

Keep-alive (HTTP/1.1) and TCP_NODELAY, so that a request costs a round trip and not the ~40 ms of
Nagle's algorithm meeting a delayed ACK. Prints its base URL on stdout and serves until killed.
Tokens are random and live in memory.
"""
import argparse
import json
import secrets
import socket
import struct
import sys
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

lock = threading.Lock()
mode = "ok"
requests_seen = 0
held = 0
released = threading.Event()
last_answer_sent_at = None  # time.monotonic() after the last byte of the latest 200 refresh answer
refresh_tokens = {}  # token -> {"successor": token or None, "retired": bool}
access_tokens = {}  # token -> refresh token it came with
accept_any_token = False


def issue(previous=None):
    access = secrets.token_urlsafe(24)
    refresh = secrets.token_urlsafe(24)
    refresh_tokens[refresh] = {"successor": None, "retired": False}
    access_tokens[access] = refresh
    if previous is not None:
        refresh_tokens[previous]["successor"] = refresh
    return access, refresh


def retire_predecessors(refresh):
    for record in refresh_tokens.values():
        if record["successor"] == refresh:
            record["retired"] = True


def is_valid(refresh):
    record = refresh_tokens.get(refresh)
    if record is None or record["retired"]:
        return False
    successor = record["successor"]
    # A rotated token stays valid until its successor has been used.
    return successor is None or not refresh_tokens[successor].get("used", False)


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def setup(self):
        super().setup()
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def log_message(self, *args):
        pass

    def send(self, status, body, content_type="application/json", headers=()):
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)

    def stream(self, chunks, pause):
        try:
            for chunk in chunks:
                self.wfile.write(chunk)
                self.wfile.flush()
                time.sleep(pause)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def query(self):
        return dict(urllib.parse.parse_qsl(urllib.parse.urlparse(self.path).query))

    def do_GET(self):
        path = urllib.parse.urlparse(self.path).path
        if path == "/control/valid":
            with lock:
                self.send(200, {"valid": is_valid(self.query().get("token", ""))})
        elif path == "/control/stats":
            with lock:
                self.send(200, {"token_requests": requests_seen, "held": held,
                                "last_answer_sent_at": last_answer_sent_at})
        elif path == "/resource":
            scheme, _, token = self.headers.get("Authorization", "").partition(" ")
            if accept_any_token and token and scheme.lower() in ("bearer", "dpop"):
                self.send(200, {"ok": True})
                return
            with lock:
                refresh = access_tokens.get(token)
                if refresh is not None and is_valid(refresh):
                    refresh_tokens[refresh]["used"] = True
                    retire_predecessors(refresh)
                    self.send(200, {"ok": True})
                    return
            self.send(401, {"error": "invalid_token"}, headers=[("WWW-Authenticate", 'Bearer error="invalid_token"')])
        else:
            self.send(404, {"error": "not_found"})

    def do_POST(self):
        global mode, requests_seen, held, last_answer_sent_at
        length = int(self.headers.get("Content-Length", "0"))
        body = dict(urllib.parse.parse_qsl(self.rfile.read(length).decode()))
        path = urllib.parse.urlparse(self.path).path
        if path == "/control/issue":
            with lock:
                access, refresh = issue()
            self.send(200, {"access_token": access, "refresh_token": refresh})
            return
        if path == "/control/fault":
            with lock:
                mode = self.query().get("mode", "ok")
                released.clear()
            self.send(200, {"mode": mode})
            return
        if path == "/control/release":
            released.set()
            self.send(200, {"released": True})
            return
        if path != "/token":
            self.send(404, {"error": "not_found"})
            return
        with lock:
            requests_seen += 1
            current = mode
        if current == "http500":
            self.send(500, b"Internal Server Error", "text/plain")
        elif current == "http503":
            self.send(503, b"<h1>Service Unavailable</h1>", "text/html", [("Retry-After", "2")])
        elif current == "timeout":
            time.sleep(60)
        elif current == "reset":
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            self.close_connection = True
            self.connection.close()
        elif current == "html200":
            self.send(200, b"<html><body>Sign in to the hotel Wi-Fi</body></html>", "text/html")
        elif current == "truncated":
            self.send(200, b'{"access_token":"abc","token_type":"Bea', "application/json")
        elif current == "error200":
            self.send(200, {"error": "invalid_request", "error_description": "A 200 that is an error"})
        elif current == "invalid_grant":
            self.send(400, {"error": "invalid_grant", "error_description": "Token has been expired or revoked."})
        elif current == "invalid_client":
            self.send(401, {"error": "invalid_client", "error_description": "The OAuth client was not found."})
        elif current == "slow_down":
            self.send(400, {"error": "slow_down"})
        elif current == "huge":
            self.send(200, b"x" * (64 << 20), "application/octet-stream")
        elif current == "huge-unsized":
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Connection", "close")
            self.end_headers()
            self.close_connection = True
            self.stream([b" " * (1 << 20)] * 64, pause=0)
        elif current == "trickle":
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", "200")
            self.end_headers()
            self.close_connection = True
            self.stream([b" "] * 200, pause=1)
        else:
            if current == "delay":
                time.sleep(0.4)
            elif current == "hold":
                with lock:
                    held += 1
                released.wait(30)
                with lock:
                    held -= 1
            refresh = body.get("refresh_token", "")
            with lock:
                if body.get("grant_type") != "refresh_token" or not (accept_any_token or is_valid(refresh)):
                    self.send(400, {"error": "invalid_grant"})
                    return
                if accept_any_token:
                    access, new_refresh = issue()
                else:
                    refresh_tokens[refresh]["used"] = True
                    retire_predecessors(refresh)
                    successor = refresh_tokens[refresh]["successor"]
                    if successor is not None:
                        # A retry with the previous token: hand out the same successor again.
                        access = next(a for a, r in access_tokens.items() if r == successor)
                        new_refresh = successor
                    else:
                        access, new_refresh = issue(previous=refresh)
            self.send(200, {"access_token": access, "token_type": "Bearer", "expires_in": 3600,
                            "refresh_token": new_refresh})
            # wfile is unbuffered: the answer's last byte is in the kernel (on loopback, in the
            # client's receive buffer) once send returns.
            sent_at = time.monotonic()
            with lock:
                last_answer_sent_at = sent_at


class Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 1024


parser = argparse.ArgumentParser(description="A token endpoint that misbehaves on command.")
parser.add_argument("--any-token", action="store_true", help="accept tokens this server never issued")
accept_any_token = parser.parse_args().any_token
server = Server(("127.0.0.1", 0), Handler)
print(f"http://127.0.0.1:{server.server_address[1]}", flush=True)
server.serve_forever()
