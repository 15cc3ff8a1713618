#!/usr/bin/env python3
# py-wsgi: a panel merchant (webhook + return endpoint) written as a WSGI application served by
# wsgiref.simple_server with socketserver.ThreadingMixIn. Python 3 standard library only.
#
# Choices, and what each rests on (gateway-spec.md, docs/readings.md):
# - Webhook (spec 5.5, 6; R10): POST to the path of MERCHANT_NOTIFY_URL. The signature content is
#   built from the raw request body bytes (read by Content-Length, never parsed or re-serialized:
#   5.1, 5.4, 9, R3, R15) with part 3 "POST" and part 4 MERCHANT_NOTIFY_URL exactly as registered
#   (R10), every part followed by LF, the body too (5.1, R1, R2). Accepted: 200 "OK" (text/plain);
#   refused: 403 "Forbidden: ..." (text/plain) -- any non-2xx is a refusal (R16).
# - Return redirect (spec 5.6, 6; R11): GET to the path of MERCHANT_RETURN_URL. The query is split by
#   urllib.parse.parse_qsl (each name and value decoded once as a query component: "+" as space,
#   percent-decoding as UTF-8 with errors="strict", so invalid UTF-8 is refused; a malformed "%"
#   escape is kept literally as WHATWG URLSearchParams does). Exactly one "payment" and one
#   "authorization" parameter, else refused (R11). Part 3 "GET", part 4 MERCHANT_RETURN_URL exactly as
#   registered (its own query included, the added parameters not), part 7 "payment=" + decoded value.
#   Valid: 302 to /orders/<merchantTradeNo> (taken from the verified payment JSON, else from the
#   query); refused: 302 to /payment-failed (certify with --return-refusal-location /payment-failed).
# - Sign (5.2, R7): must be 64 hex digits; upper-case (or mixed-case) hex is ACCEPTED: the received
#   sign is lower-cased (ASCII only) and compared with hmac.compare_digest (constant time).
# - Authorization parser (5.3, R8): the field value loses SP/HTAB at its two ends (RFC 9110 5.5);
#   the scheme word "V2_SHA256" (exact case) ends at the first Python white-space character, then
#   Python str.strip() at every R8 place: after the scheme word, at both ends of each item, on
#   both sides of "=" (R8 a, the Python strip trim; the header bytes are decoded as UTF-8 with
#   surrogateescape so non-ASCII white space is seen and other bytes kept as sent). The value is
#   split at the first "=". Item names compared without letter case (ASCII, R8 e); unknown items
#   ignored, one with an empty name included (R8 b); an item without "=" or an empty list element
#   refuses the header; appId, sign, timestamp, nonce each exactly once (after case folding), none
#   empty (R8). More than one Authorization field refuses the call.
# - appId must be the merchant's own (R9). Timestamp and nonce are the exact strings of the header
#   (R6). No clock-skew or replay check (R12: either is acceptable).
# - Never a 500 for hostile input: every parse error is a refusal. A body sent with Transfer-Encoding
#   (wsgiref reads none) gets 411 Length Required.
#
# Environment: MERCHANT_APP_ID, MERCHANT_APP_SECRET (required, exit 2 without), MERCHANT_NOTIFY_URL,
# MERCHANT_RETURN_URL (as registered; routing uses their paths; required, exit 2 without),
# MERCHANT_HOST (default 127.0.0.1), MERCHANT_PORT (default 0: any free port).
# Prints the origin (http://host:port) on one line when listening; exits on SIGTERM, SIGINT and
# when stdin reaches EOF.

import hashlib
import hmac
import json
import os
import re
import signal
import socketserver
import sys
import threading
import urllib.parse
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

SCHEME = "V2_SHA256"
ITEMS = ("appid", "sign", "timestamp", "nonce")
HEX64 = re.compile(r"[0-9A-Fa-f]{64}")
MAX_BODY = 4 * 1024 * 1024


class Refused(Exception):
    pass


def env_config():
    cfg = {k: os.environ.get(k) for k in (
        "MERCHANT_APP_ID", "MERCHANT_APP_SECRET", "MERCHANT_NOTIFY_URL", "MERCHANT_RETURN_URL")}
    missing = [k for k, v in cfg.items() if not v]
    if missing:
        sys.stderr.write("py-wsgi: missing environment: %s\n" % ", ".join(missing))
        sys.exit(2)
    try:
        port = int(os.environ.get("MERCHANT_PORT") or "0")
    except ValueError:
        sys.stderr.write("py-wsgi: MERCHANT_PORT is not a number\n")
        sys.exit(2)
    return {
        "app_id": cfg["MERCHANT_APP_ID"],
        "secret": cfg["MERCHANT_APP_SECRET"],
        "notify_url": cfg["MERCHANT_NOTIFY_URL"],
        "return_url": cfg["MERCHANT_RETURN_URL"],
        "notify_path": urllib.parse.urlsplit(cfg["MERCHANT_NOTIFY_URL"]).path or "/",
        "return_path": urllib.parse.urlsplit(cfg["MERCHANT_RETURN_URL"]).path or "/",
        "host": os.environ.get("MERCHANT_HOST") or "127.0.0.1",
        "port": port,
    }


def fold(name):
    # ASCII-only case folding (RFC 9110 11.2: auth-param names are case-insensitive).
    return name.lower() if name.isascii() else name


def parse_authorization(value):
    """R8 with Python str.strip() at every place, names case-insensitive, unknown items ignored.
    Returns a dict with the four values (str), or raises Refused."""
    value = value.strip(" \t")  # RFC 9110 5.5: not part of the field value
    cut = next((i for i, c in enumerate(value) if c.isspace()), -1)
    if cut < 0:
        raise Refused("no items after the scheme")
    if value[:cut] != SCHEME:
        raise Refused("not the V2_SHA256 scheme")
    rest = value[cut:].strip()
    if not rest:
        raise Refused("no items")
    found = {}
    for item in rest.split(","):
        item = item.strip()
        if "=" not in item:
            raise Refused("an item without '='")
        name, _, val = item.partition("=")
        name = fold(name.strip())
        val = val.strip()
        if name not in ITEMS:
            continue  # R8 b: unknown items ignored
        if name in found:
            raise Refused("duplicate item " + name)
        if not val:
            raise Refused("empty item " + name)
        found[name] = val
    for name in ITEMS:
        if name not in found:
            raise Refused("missing item " + name)
    return found


def verify(cfg, auth_value, method, url, part7):
    """auth_value: str (surrogateescape-decoded header or decoded query value); part7: bytes."""
    items = parse_authorization(auth_value)

    def raw(s):
        return s.encode("utf-8", "surrogateescape")

    if not hmac.compare_digest(raw(items["appid"]), cfg["app_id"].encode("utf-8")):
        raise Refused("another appId")
    sign = items["sign"]
    if not HEX64.fullmatch(sign):
        raise Refused("sign is not 64 hex digits")
    content = b"".join(part + b"\n" for part in (
        raw(items["appid"]), cfg["secret"].encode("utf-8"), method.encode("ascii"),
        url.encode("utf-8"), raw(items["timestamp"]), raw(items["nonce"]), part7))
    expected = hashlib.sha256(content).hexdigest()
    if not hmac.compare_digest(sign.lower().encode("ascii"), expected.encode("ascii")):
        raise Refused("signature mismatch")


def text(start_response, status, body, extra=()):
    data = body.encode("utf-8")
    start_response(status, [("Content-Type", "text/plain; charset=utf-8"),
                            ("Content-Length", str(len(data)))] + list(extra))
    return [data]


def read_body(environ):
    length = environ.get("CONTENT_LENGTH") or "0"
    if not length.isdigit() or not length.isascii():
        raise Refused("bad Content-Length")
    n = int(length)
    if n > MAX_BODY:
        raise Refused("body too large")
    stream = environ["wsgi.input"]
    chunks, left = [], n
    while left > 0:
        chunk = stream.read(left)
        if not chunk:
            raise Refused("body shorter than Content-Length")
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def header_values(environ):
    raw = environ.get("pgv2.authorization")
    if raw is None:  # another WSGI server: fall back to the CGI variable
        raw = [environ["HTTP_AUTHORIZATION"]] if "HTTP_AUTHORIZATION" in environ else []
    return raw


def webhook(cfg, environ, start_response):
    try:
        body = read_body(environ)
        values = header_values(environ)
        if len(values) != 1:
            raise Refused("no Authorization" if not values else "more than one Authorization")
        # The field arrives decoded as ISO-8859-1 (PEP 3333); recover its bytes, see them as UTF-8.
        value = values[0].encode("latin-1").decode("utf-8", "surrogateescape")
        verify(cfg, value, "POST", cfg["notify_url"], body)
    except Refused as refusal:
        return text(start_response, "403 Forbidden", "Forbidden: %s\n" % refusal)
    return text(start_response, "200 OK", "OK\n")


def return_page(cfg, environ, start_response):
    def redirect(location):
        body = b""
        start_response("302 Found", [("Location", location), ("Content-Length", "0"),
                                     ("Cache-Control", "no-store")])
        return [body]

    try:
        query = environ.get("QUERY_STRING", "")
        try:
            query = query.encode("latin-1").decode("utf-8")
            pairs = urllib.parse.parse_qsl(query, keep_blank_values=True,
                                           encoding="utf-8", errors="strict")
        except (UnicodeError, ValueError):
            raise Refused("query is not UTF-8")
        payments = [v for k, v in pairs if k == "payment"]
        auths = [v for k, v in pairs if k == "authorization"]
        if len(payments) != 1 or len(auths) != 1:
            raise Refused("need exactly one payment and one authorization")
        payment = payments[0]
        verify(cfg, auths[0], "GET", cfg["return_url"],
               b"payment=" + payment.encode("utf-8"))
    except Refused:
        return redirect("/payment-failed")
    trade_no = None
    try:
        obj = json.loads(payment)
        if isinstance(obj, dict) and isinstance(obj.get("merchantTradeNo"), str):
            trade_no = obj["merchantTradeNo"]
    except ValueError:
        pass
    if not trade_no:
        trade_nos = [v for k, v in pairs if k == "merchantTradeNo"]
        trade_no = trade_nos[0] if len(trade_nos) == 1 and trade_nos[0] else "unknown"
    return redirect("/orders/" + urllib.parse.quote(trade_no, safe=""))


def make_app(cfg):
    def app(environ, start_response):
        method = environ.get("REQUEST_METHOD", "")
        path = environ.get("PATH_INFO", "")
        try:
            if environ.get("HTTP_TRANSFER_ENCODING"):  # wsgiref reads no chunked body: not a refusal
                return text(start_response, "411 Length Required", "Length Required\n")
            if path == cfg["notify_path"] and method == "POST":
                return webhook(cfg, environ, start_response)
            if path == cfg["return_path"] and method == "GET":
                return return_page(cfg, environ, start_response)
            if path in (cfg["notify_path"], cfg["return_path"]):
                return text(start_response, "405 Method Not Allowed", "Method Not Allowed\n",
                            [("Allow", "POST" if path == cfg["notify_path"] else "GET")])
            return text(start_response, "404 Not Found", "Not Found\n")
        except Exception as error:  # last resort: hostile input never earns a 500
            sys.stderr.write("py-wsgi: refused after %r\n" % (error,))
            return text(start_response, "400 Bad Request", "Bad Request\n")
    return app


class ThreadingWSGIServer(socketserver.ThreadingMixIn, WSGIServer):
    # socketserver's listen backlog is 5: a burst of connections beyond it waits for a SYN retry (1 s)
    request_queue_size = 128
    daemon_threads = True
    allow_reuse_address = True


class Handler(WSGIRequestHandler):
    disable_nagle_algorithm = True  # answers in several writes: no delayed-ACK wait between them
    def get_environ(self):
        env = super().get_environ()
        # wsgiref joins repeated fields and strips the value with str.strip(); keep the fields as
        # they came (ISO-8859-1 strings, the leading SP/HTAB already dropped by the parser).
        env["pgv2.authorization"] = self.headers.get_all("Authorization") or []
        return env

    def log_message(self, *args):
        pass


def main():
    cfg = env_config()
    server = make_server(cfg["host"], cfg["port"], make_app(cfg),
                         server_class=ThreadingWSGIServer, handler_class=Handler)
    host, port = server.server_address[:2]
    shown = "[%s]" % host if ":" in host else host
    sys.stdout.write("http://%s:%d\n" % (shown, port))
    sys.stdout.flush()

    def stop(*_):
        threading.Thread(target=server.shutdown, daemon=True).start()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)

    def watch_stdin():
        # os.read, not sys.stdin.buffer: a daemon thread blocked inside the buffered reader holds
        # its lock, and the interpreter aborts on it at shutdown.
        try:
            while os.read(sys.stdin.fileno(), 65536):
                pass
        except (OSError, ValueError):
            pass
        stop()

    threading.Thread(target=watch_stdin, daemon=True).start()
    try:
        server.serve_forever(poll_interval=0.2)
    finally:
        server.server_close()


if __name__ == "__main__":
    main()
