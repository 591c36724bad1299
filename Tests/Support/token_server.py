#!/usr/bin/env python3
"""A small OAuth-style token server for Errand's live auth tests (standard library only).

Binds 127.0.0.1 on an ephemeral port and prints `PORT <n>`. Every endpoint takes a `client`
query item, or a `/clients/C` path prefix (so a base URL can carry it), and counts are kept per
client, so tests running in parallel do not mix.

  POST /login?client=C&ttl=S        issue tokens; the access token expires after S seconds
                                     (default 300; 0 or less: already expired)
  POST /refresh?client=C&ttl=S&delay=D
                                     body {"refresh_token": "..."}; a valid refresh token gets
                                     new tokens (the old refresh token stops working), counted;
                                     an invalid one gets 401 {"error": "invalid_grant"}.
                                     D seconds of server-side delay widen the window in which
                                     concurrent clients would start a second refresh.
  POST /token?client=C&ttl=S         OAuth 2 refresh (RFC 6749, section 6): form body
                                     grant_type=refresh_token&refresh_token=...; answers
                                     {"access_token", "refresh_token", "expires_in", "token_type"},
                                     counted as a refresh; an unknown refresh token gets 400
                                     {"error": "invalid_grant"}, another grant type 400
                                     {"error": "unsupported_grant_type"}.
  POST /control?client=C             body {"token_status": N} makes /refresh and /token answer
                                     status N (a 503 outage, say) until {"token_status": null};
                                     such answers are counted as "outages".
  GET  /protected?client=C           200 with a valid, unexpired bearer token; else 401
  GET  /stats?client=C               {"logins", "refreshes", "accepted", "refused", "outages"}
"""
import json
import secrets
import signal
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

COUNTS = ("logins", "refreshes", "accepted", "refused", "outages")

LOCK = threading.Lock()
CLIENTS = {}


def client_state(name):
    state = CLIENTS.get(name)
    if state is None:
        state = {"access": {}, "refresh": set(), "token_status": None}
        state.update({name: 0 for name in COUNTS})
        CLIENTS[name] = state
    return state


def issue(state, ttl):
    access = "at-" + secrets.token_hex(8)
    refresh = "rt-" + secrets.token_hex(8)
    state["access"][access] = time.monotonic() + ttl
    state["refresh"].add(refresh)
    return {"access_token": access, "refresh_token": refresh, "expires_in": ttl, "token_type": "Bearer"}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, fmt, *args):
        pass

    def reply(self, status, body, headers=None):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)

    def parts(self):
        """The path without a `/clients/C` prefix, and the query with `client` set from it."""
        url = urlsplit(self.path)
        query = {k: v[-1] for k, v in parse_qs(url.query).items()}
        path = url.path
        segments = path.split("/")
        if len(segments) > 3 and segments[1] == "clients":
            query.setdefault("client", segments[2])
            path = "/" + "/".join(segments[3:])
        return path, query

    def read_body(self):
        """The body as a dict: JSON, or form fields when it is form-url-encoded."""
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        if self.headers.get("Content-Type", "").startswith("application/x-www-form-urlencoded"):
            return {k: v[-1] for k, v in parse_qs(raw.decode()).items()}
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            return {}
        return body if isinstance(body, dict) else {}

    def do_POST(self):
        path, query = self.parts()
        body = self.read_body()
        ttl = float(query.get("ttl", "300"))
        with LOCK:
            state = client_state(query.get("client", "default"))
            if path == "/login":
                state["logins"] += 1
                return self.reply(200, issue(state, ttl))
            if path == "/control":
                state["token_status"] = body.get("token_status")
                return self.reply(200, {"token_status": state["token_status"]})
            if path in ("/refresh", "/token") and state["token_status"]:
                state["outages"] += 1
                return self.reply(int(state["token_status"]), {"error": "temporarily_unavailable"})
        if path == "/refresh":
            delay = float(query.get("delay", "0"))
            if delay > 0:
                time.sleep(min(delay, 5))
            with LOCK:
                token = body.get("refresh_token")
                if token not in state["refresh"]:
                    return self.reply(401, {"error": "invalid_grant"})
                state["refresh"].discard(token)
                state["refreshes"] += 1
                return self.reply(200, issue(state, ttl))
        if path == "/token":
            with LOCK:
                if body.get("grant_type") != "refresh_token":
                    return self.reply(400, {"error": "unsupported_grant_type"})
                token = body.get("refresh_token")
                if token not in state["refresh"]:
                    return self.reply(400, {"error": "invalid_grant"})
                state["refresh"].discard(token)
                state["refreshes"] += 1
                return self.reply(200, issue(state, ttl), {"Cache-Control": "no-store"})
        self.reply(404, {"error": "not found"})

    def do_GET(self):
        path, query = self.parts()
        with LOCK:
            state = client_state(query.get("client", "default"))
            if path == "/stats":
                return self.reply(200, {k: state[k] for k in COUNTS})
            if path == "/protected":
                auth = self.headers.get("Authorization", "")
                token = auth[7:] if auth.startswith("Bearer ") else None
                expiry = state["access"].get(token)
                if expiry is not None and expiry > time.monotonic():
                    state["accepted"] += 1
                    return self.reply(200, {"ok": True, "token": token})
                state["refused"] += 1
                return self.reply(401, {"error": "invalid_token"}, {"WWW-Authenticate": 'Bearer error="invalid_token"'})
        self.reply(404, {"error": "not found"})


def main():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    signal.signal(signal.SIGTERM, lambda *_: threading.Thread(target=server.shutdown).start())
    print(f"PORT {server.server_address[1]}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
