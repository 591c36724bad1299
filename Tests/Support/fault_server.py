#!/usr/bin/env python3
"""Errand's fault server: HTTP/1.1 misbehaviour that httpbin cannot produce.

Standard library only. Binds 127.0.0.1 on an ephemeral port (or --port N), prints
``PORT <n>`` as one line on stdout, flushes, then serves one thread per connection
until SIGTERM or SIGINT, on which it exits with status 0.

Every endpoint answers any method (GET is what tests use) and ignores unknown query
parameters. Well-behaved answers carry ``Connection: close`` and the connection is
closed after each response, so a client never races a server-side keep-alive timeout.

    /silence                      read the request, send nothing; hold the connection
                                  open until the client goes away (at most 120 s)
    /drip?bytes=N&interval=S      200, Content-Length N, then one byte every S seconds
                                  (defaults N=20, S=0.5): idle timeouts never fire, the
                                  whole request takes N*S seconds
    /stall-body?sent=N&length=M   200, Content-Length M (default 1000, at most 2^62),
                                  sends N bytes (default 10), then nothing more until the
                                  client goes away (at most 120 s): a transfer that can only
                                  end by the client's cancel or deadline
    /truncated                    200, Content-Length 1000, sends 10 bytes, closes (FIN)
    /reset                        200, Content-Length 100000, sends 1000 bytes, then
                                  resets the connection (SO_LINGER 0 + close -> RST)
    /garbage-status               "HTTP/1.1 abc not-a-status\\r\\n\\r\\n", closes
    /huge?mb=N[&chunked=1]        200 application/octet-stream, N MiB (default 8),
                                  streamed in 64 KiB pieces with Content-Length, or
                                  with chunked=1 as a chunked body with no length
    /basic-challenge              401, WWW-Authenticate: Basic realm="errand",
                                  JSON body {"error":"unauthorized"}
    /json?status=N                {"ok":true} with status N (default 200)
    /invalid-utf8                 200 text/plain; charset=utf-8 whose body is not UTF-8:
                                  b"caf\xc3\xa9 \xe9t\xe9" (a latin1 byte at offset 6)
    /encoded?text=T&charset=C     200 text/plain; charset=L, body T (UTF-8 in the query)
            [&label=L]            encoded with Python's codec C; L defaults to C and is
                                  sent as given (quoted, upper case: the client's concern)
    /reset-before                 reads the request, then resets the connection (RST)
                                  before a byte of the response
    /close                        reads the request, then closes (FIN) without a byte
                                  of answer: the "empty reply" of a server that
                                  accepts and hangs up at once
    /endless-headers?interval=S   200 status line, then one more header line every S
                                  seconds (default 0.05), never the blank line that ends
                                  the head, until the client goes away (at most 120 s)
    /invalid-json                 200 application/json whose body is not JSON:
                                  {"ok": tru  (cut short)
    /redirect-loop                302 to itself, Location: /redirect-loop, forever
    /broken-chunk                 200 chunked: one good 5-byte chunk, then the chunk
                                  size line "zz", then closes
    anything else                 404

Bad parameter values get a 400 with a JSON body that says which one was wrong.
A client that disconnects mid-response is normal here and is not logged as an error.
One access line per request goes to stderr.
"""

from __future__ import annotations

import argparse
import http
import json
import select
import signal
import socket
import struct
import sys
import threading
import time
from urllib.parse import parse_qs, urlsplit

SILENCE_CAP_SECONDS = 120.0
REQUEST_READ_TIMEOUT = 30.0
MAX_HEADER_BYTES = 64 * 1024
MAX_BODY_BYTES = 64 * 1024 * 1024
HUGE_CHUNK = b"\xab" * (64 * 1024)
MIB = 1024 * 1024

# Errors that mean "the peer went away"; expected in a fault server, never logged as failures.
PEER_GONE = (BrokenPipeError, ConnectionResetError, ConnectionAbortedError, TimeoutError)


class BadRequest(Exception):
    """The request (or one of its parameters) is unusable; answered with a 400."""


class Request:
    def __init__(self, method: str, target: str, headers: dict[str, str]) -> None:
        self.method = method
        self.target = target
        self.headers = headers
        parts = urlsplit(target)
        self.path = parts.path or "/"
        self.query = {k: v[-1] for k, v in parse_qs(parts.query, keep_blank_values=True).items()}

    def int_param(self, name: str, default: int, lo: int, hi: int) -> int:
        raw = self.query.get(name)
        if raw is None or raw == "":
            return default
        try:
            value = int(raw)
        except ValueError:
            raise BadRequest(f"{name} must be an integer, got {raw!r}") from None
        if not lo <= value <= hi:
            raise BadRequest(f"{name} must be between {lo} and {hi}, got {value}")
        return value

    def float_param(self, name: str, default: float, lo: float, hi: float) -> float:
        raw = self.query.get(name)
        if raw is None or raw == "":
            return default
        try:
            value = float(raw)
        except ValueError:
            raise BadRequest(f"{name} must be a number, got {raw!r}") from None
        if not lo <= value <= hi:  # also rejects nan
            raise BadRequest(f"{name} must be between {lo} and {hi}, got {value}")
        return value


def log(message: str) -> None:
    try:
        sys.stderr.write(f"[fault_server {time.strftime('%H:%M:%S')}] {message}\n")
        sys.stderr.flush()
    except (OSError, ValueError):
        pass


# --- reading ---------------------------------------------------------------------------


def read_request(conn: socket.socket) -> Request | None:
    """Reads one request head and discards its body. None when the client sent nothing."""
    buf = b""
    while b"\r\n\r\n" not in buf:
        if len(buf) > MAX_HEADER_BYTES:
            raise BadRequest("request head too large")
        chunk = conn.recv(65536)
        if not chunk:
            if buf:
                raise BadRequest("connection closed in the middle of the request head")
            return None
        buf += chunk
    head, _, rest = buf.partition(b"\r\n\r\n")
    lines = head.decode("iso-8859-1").split("\r\n")
    fields = lines[0].split()
    if len(fields) != 3 or not fields[2].startswith("HTTP/"):
        raise BadRequest(f"malformed request line {lines[0]!r}")
    method, target, _version = fields
    headers: dict[str, str] = {}
    for line in lines[1:]:
        name, sep, value = line.partition(":")
        if sep:
            headers[name.strip().lower()] = value.strip()
    discard_body(conn, headers, rest)
    return Request(method, target, headers)


def discard_body(conn: socket.socket, headers: dict[str, str], already: bytes) -> None:
    if "chunked" in headers.get("transfer-encoding", "").lower():
        discard_chunked(conn, already)
        return
    try:
        length = int(headers.get("content-length", "0"))
    except ValueError:
        raise BadRequest("invalid Content-Length") from None
    if length < 0 or length > MAX_BODY_BYTES:
        raise BadRequest("Content-Length out of range")
    remaining = length - len(already)
    while remaining > 0:
        chunk = conn.recv(min(remaining, 65536))
        if not chunk:
            raise BadRequest("connection closed in the middle of the request body")
        remaining -= len(chunk)


def discard_chunked(conn: socket.socket, buf: bytes) -> None:
    total = 0

    def fill(need: int) -> None:
        nonlocal buf
        while len(buf) < need:
            chunk = conn.recv(65536)
            if not chunk:
                raise BadRequest("connection closed in the middle of a chunked body")
            buf += chunk

    while True:
        while b"\r\n" not in buf:
            fill(len(buf) + 1)
        size_line, _, buf = buf.partition(b"\r\n")
        try:
            size = int(size_line.split(b";")[0].strip(), 16)
        except ValueError:
            raise BadRequest("malformed chunk size") from None
        total += size
        if total > MAX_BODY_BYTES:
            raise BadRequest("chunked body too large")
        if size == 0:
            # Trailers end with an empty line.
            while True:
                while b"\r\n" not in buf:
                    fill(len(buf) + 1)
                line, _, buf = buf.partition(b"\r\n")
                if not line:
                    return
        fill(size + 2)
        buf = buf[size + 2 :]


# --- writing ---------------------------------------------------------------------------


def head_bytes(status: int, headers: list[tuple[str, str]]) -> bytes:
    try:
        reason = http.HTTPStatus(status).phrase
    except ValueError:
        reason = "Status"
    lines = [f"HTTP/1.1 {status} {reason}"]
    lines += [f"{name}: {value}" for name, value in headers]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("iso-8859-1")


def send_simple(
    conn: socket.socket,
    req: Request | None,
    status: int,
    body: bytes,
    content_type: str = "application/json",
    extra: list[tuple[str, str]] | None = None,
) -> None:
    headers = list(extra or [])
    no_body = status in (204, 304)
    if not no_body:
        headers += [("Content-Type", content_type), ("Content-Length", str(len(body)))]
    headers.append(("Connection", "close"))
    payload = head_bytes(status, headers)
    if not no_body and (req is None or req.method != "HEAD"):
        payload += body
    conn.sendall(payload)


def json_bytes(value: object) -> bytes:
    return json.dumps(value, separators=(",", ":")).encode()


# --- endpoints -------------------------------------------------------------------------


def silence(conn: socket.socket, req: Request) -> None:
    deadline = time.monotonic() + SILENCE_CAP_SECONDS
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            return
        readable, _, _ = select.select([conn], [], [], min(left, 1.0))
        if readable and not conn.recv(65536):
            return  # the client went away


def drip(conn: socket.socket, req: Request) -> None:
    count = req.int_param("bytes", 20, 0, 10_000)
    interval = req.float_param("interval", 0.5, 0.0, 60.0)
    head = [
        ("Content-Type", "application/octet-stream"),
        ("Content-Length", str(count)),
        ("Connection", "close"),
    ]
    conn.sendall(head_bytes(200, head))
    if req.method == "HEAD":
        return
    for _ in range(count):
        time.sleep(interval)
        conn.sendall(b"*")


def stall_body(conn: socket.socket, req: Request) -> None:
    length = req.int_param("length", 1000, 1, 1 << 62)
    sent = req.int_param("sent", 10, 0, length - 1)
    head = [
        ("Content-Type", "application/octet-stream"),
        ("Content-Length", str(length)),
        ("Connection", "close"),
    ]
    conn.sendall(head_bytes(200, head) + b"s" * sent)
    silence(conn, req)


def truncated(conn: socket.socket, req: Request) -> None:
    head = [("Content-Type", "application/octet-stream"), ("Content-Length", "1000")]
    conn.sendall(head_bytes(200, head) + b"0123456789")
    # Returning closes the socket normally (FIN) with 990 bytes still owed.


def reset(conn: socket.socket, req: Request) -> None:
    head = [("Content-Type", "application/octet-stream"), ("Content-Length", "100000")]
    conn.sendall(head_bytes(200, head) + b"r" * 1000)
    # Let the head and the first 1000 bytes reach the client before the reset, so it is
    # really "mid-body": with SO_LINGER 0, close() throws away anything still queued.
    time.sleep(0.2)
    conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    # The caller closes the socket; with linger 0 that sends RST instead of FIN.


def reset_before(conn: socket.socket, req: Request) -> None:
    conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    # The caller closes the socket; with linger 0 that sends RST and no response at all.


def close_at_once(conn: socket.socket, req: Request) -> None:
    # Returning closes the socket normally (FIN) before any byte of a response.
    pass


def endless_headers(conn: socket.socket, req: Request) -> None:
    interval = req.float_param("interval", 0.05, 0.0, 10.0)
    conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n")
    deadline = time.monotonic() + SILENCE_CAP_SECONDS
    count = 0
    while time.monotonic() < deadline:
        conn.sendall(f"X-Filler-{count}: never the end of the head\r\n".encode())
        count += 1
        time.sleep(interval)


def invalid_json(conn: socket.socket, req: Request) -> None:
    send_simple(conn, req, 200, b'{"ok": tru')


def redirect_loop(conn: socket.socket, req: Request) -> None:
    send_simple(conn, req, 302, b"", content_type="text/plain", extra=[("Location", "/redirect-loop")])


def broken_chunk(conn: socket.socket, req: Request) -> None:
    head = [("Content-Type", "application/octet-stream"), ("Transfer-Encoding", "chunked")]
    conn.sendall(head_bytes(200, head) + b"5\r\nhello\r\nzz\r\nnot a chunk\r\n")
    # Returning closes the socket (FIN) in the middle of a body that can no longer be parsed.


def garbage_status(conn: socket.socket, req: Request) -> None:
    conn.sendall(b"HTTP/1.1 abc not-a-status\r\n\r\n")


def huge(conn: socket.socket, req: Request) -> None:
    mb = req.int_param("mb", 8, 0, 4096)
    chunked = req.int_param("chunked", 0, 0, 1) == 1
    total = mb * MIB
    head = [("Content-Type", "application/octet-stream"), ("Connection", "close")]
    head.append(("Transfer-Encoding", "chunked") if chunked else ("Content-Length", str(total)))
    conn.sendall(head_bytes(200, head))
    if req.method == "HEAD":
        return
    view = memoryview(HUGE_CHUNK)
    remaining = total
    while remaining > 0:
        n = min(remaining, len(HUGE_CHUNK))
        if chunked:
            conn.sendall(b"%x\r\n" % n + view[:n] + b"\r\n")
        else:
            conn.sendall(view[:n])
        remaining -= n
    if chunked:
        conn.sendall(b"0\r\n\r\n")


def basic_challenge(conn: socket.socket, req: Request) -> None:
    send_simple(
        conn,
        req,
        401,
        json_bytes({"error": "unauthorized"}),
        extra=[("WWW-Authenticate", 'Basic realm="errand"')],
    )


def json_status(conn: socket.socket, req: Request) -> None:
    status = req.int_param("status", 200, 200, 599)
    send_simple(conn, req, status, json_bytes({"ok": True}))


INVALID_UTF8_BODY = b"caf\xc3\xa9 \xe9t\xe9"


def invalid_utf8(conn: socket.socket, req: Request) -> None:
    send_simple(conn, req, 200, INVALID_UTF8_BODY, content_type="text/plain; charset=utf-8")


def encoded(conn: socket.socket, req: Request) -> None:
    text = req.query.get("text", "")
    codec = req.query.get("charset", "utf-8")
    label = req.query.get("label", codec)
    try:
        body = text.encode(codec)
    except LookupError:
        raise BadRequest(f"charset {codec!r} is not a Python codec") from None
    except UnicodeEncodeError:
        raise BadRequest(f"text {text!r} cannot be encoded in {codec}") from None
    send_simple(conn, req, 200, body, content_type=f"text/plain; charset={label}")


HOSTILE_HEADER = "\x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\\x1b]0;pwned\x07"
FORGED_ENTRY = "[errand #999] \u2190 200 GET /admin 1.0 ms 0 B"


def hostile_headers(conn: socket.socket, req: Request) -> None:
    # Terminal escapes (OSC 8, OSC 0) in a header value and forged log entries in the body.
    body = f"ok\n{FORGED_ENTRY}\r\n\x1b[2J{HOSTILE_HEADER}".encode()
    send_simple(
        conn, req, 200, body, content_type="text/plain; charset=utf-8", extra=[("X-Evil", HOSTILE_HEADER)]
    )


ROUTES = {
    "/silence": silence,
    "/drip": drip,
    "/stall-body": stall_body,
    "/truncated": truncated,
    "/reset": reset,
    "/garbage-status": garbage_status,
    "/huge": huge,
    "/basic-challenge": basic_challenge,
    "/json": json_status,
    "/invalid-utf8": invalid_utf8,
    "/encoded": encoded,
    "/hostile-headers": hostile_headers,
    "/reset-before": reset_before,
    "/close": close_at_once,
    "/endless-headers": endless_headers,
    "/invalid-json": invalid_json,
    "/redirect-loop": redirect_loop,
    "/broken-chunk": broken_chunk,
}


# --- serving ---------------------------------------------------------------------------


def handle(conn: socket.socket, peer: tuple) -> None:
    req: Request | None = None
    started = time.monotonic()
    outcome = "ok"
    try:
        conn.settimeout(REQUEST_READ_TIMEOUT)
        req = read_request(conn)
        if req is None:
            return
        conn.settimeout(None)
        route = ROUTES.get(req.path)
        if route is None:
            send_simple(conn, req, 404, json_bytes({"error": "not found", "path": req.path}))
        else:
            route(conn, req)
    except BadRequest as error:
        outcome = f"400 {error}"
        try:
            send_simple(conn, req, 400, json_bytes({"error": str(error)}))
        except (OSError, *PEER_GONE):
            pass
    except PEER_GONE as error:
        outcome = f"client went away ({type(error).__name__})"
    except OSError as error:
        outcome = f"socket error: {error}"
    except Exception as error:  # noqa: BLE001 - one line, never a traceback per request
        outcome = f"internal error: {type(error).__name__}: {error}"
    finally:
        try:
            conn.close()
        except OSError:
            pass
        if req is not None:
            elapsed = time.monotonic() - started
            log(f"{peer[0]}:{peer[1]} {req.method} {req.target} -> {outcome} ({elapsed:.2f}s)")


def serve(host: str, port: int) -> int:
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind((host, port))
    listener.listen(128)
    print(f"PORT {listener.getsockname()[1]}", flush=True)
    log(f"listening on http://{host}:{listener.getsockname()[1]}")
    try:
        while True:
            try:
                conn, peer = listener.accept()
            except OSError as error:
                log(f"accept failed: {error}")
                time.sleep(0.05)
                continue
            conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            threading.Thread(target=handle, args=(conn, peer), daemon=True).start()
    except (KeyboardInterrupt, SystemExit):
        log("stopping")
        return 0
    finally:
        listener.close()


def main() -> int:
    parser = argparse.ArgumentParser(description="Errand's HTTP fault server (see module docstring).")
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=0, help="port to bind (default 0: ephemeral)")
    args = parser.parse_args()

    def stop(signum: int, frame: object) -> None:
        raise SystemExit(0)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    if hasattr(signal, "SIGHUP"):
        signal.signal(signal.SIGHUP, stop)
    return serve(args.host, args.port)


if __name__ == "__main__":
    sys.exit(main())
