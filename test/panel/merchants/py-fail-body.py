#!/usr/bin/env python3
# py-fail-body: a panel merchant on http.server.ThreadingHTTPServer (HTTP/1.1, keep-alive) that
# answers every webhook with 200 and a body, SUCCESS or FAIL, and every return redirect with a 200
# page. Python 3 standard library only.
#
# Choices, and what each rests on (gateway-spec.md, docs/readings.md):
# - Webhook (spec 5.5, 6; R10, R16): POST to the path of MERCHANT_NOTIFY_URL. ALWAYS 200 with the body
#   SUCCESS (verified) or FAIL (refused) -- the common convention; certify with --accept-body SUCCESS.
#   The signature content is the raw request body bytes (read by Content-Length, never parsed or
#   re-serialized: 5.1, 5.4, 9, R3, R15) after part 3 "POST" and part 4 MERCHANT_NOTIFY_URL exactly as
#   registered (R10), every part followed by LF, the body too (5.1, R1, R2).
# - Return redirect (spec 5.6, 6; R11): GET to the path of MERCHANT_RETURN_URL. ALWAYS 200 with an HTML
#   page: "Thank you" when verified, "Payment could not be verified" when refused (certify with
#   --return-refusal-body "could not be verified"). The raw query is split at "&", each element at its
#   first "=", "+" read as space, then urllib.parse.unquote_to_bytes and a strict UTF-8 decode (invalid
#   UTF-8 refused; a malformed "%" escape kept literally). Exactly one "payment" and one
#   "authorization" parameter, else refused (R11). Part 3 "GET", part 4 MERCHANT_RETURN_URL exactly as
#   registered (its own query included, the added parameters not), part 7 "payment=" + decoded value.
# - Sign (5.2, R7): exactly 64 LOWER-case hex digits; upper-case hex is REFUSED (R7 allows either);
#   compared as bytes with hmac.compare_digest (constant time).
# - Authorization parser (5.3, R8): the STRICT parser, over the field's bytes. SP/HTAB at the two ends
#   of the whole field value are not part of it (RFC 9110 5.5) and are dropped; then the value must
#   start with "V2_SHA256" and exactly one SP; the rest is split at "," and each item at its first
#   "="; nothing is trimmed anywhere; names exact (appId, sign, timestamp, nonce); an unknown item,
#   an item without "=", an empty value, a missing or duplicate item, or no items refuse the header.
#   More than one Authorization field refuses the call.
# - appId must be the merchant's own (R9). Timestamp and nonce are the exact bytes of the header
#   (R6). No clock-skew or replay check (R12: either is acceptable).
# - Never a 500 for hostile input: every parse error is a refusal (FAIL, or the refusal page). A
#   webhook sent with Transfer-Encoding (no chunked bodies here) gets 411 Length Required.
#
# Environment: MERCHANT_APP_ID, MERCHANT_APP_SECRET (required, exit 2 without), MERCHANT_NOTIFY_URL,
# MERCHANT_RETURN_URL (as registered; routing uses their paths; required, exit 2 without),
# MERCHANT_HOST (default 127.0.0.1), MERCHANT_PORT (default 0: any free port).
# Prints the origin (http://host:port) on one line when listening; exits on SIGTERM, SIGINT and
# when stdin reaches EOF.

import hashlib
import hmac
import html
import os
import signal
import sys
import threading
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

NAMES = (b"appId", b"sign", b"timestamp", b"nonce")
LOWER_HEX = frozenset(b"0123456789abcdef")
MAX_BODY = 4 * 1024 * 1024


class Refused(Exception):
    pass


def config():
    need = ("MERCHANT_APP_ID", "MERCHANT_APP_SECRET", "MERCHANT_NOTIFY_URL", "MERCHANT_RETURN_URL")
    missing = [k for k in need if not os.environ.get(k)]
    if missing:
        print("py-fail-body: missing environment: " + ", ".join(missing), file=sys.stderr)
        sys.exit(2)
    port = os.environ.get("MERCHANT_PORT") or "0"
    if not port.isdigit():
        print("py-fail-body: MERCHANT_PORT is not a number", file=sys.stderr)
        sys.exit(2)
    notify, ret = os.environ["MERCHANT_NOTIFY_URL"], os.environ["MERCHANT_RETURN_URL"]
    return dict(
        app_id=os.environ["MERCHANT_APP_ID"].encode("utf-8"),
        secret=os.environ["MERCHANT_APP_SECRET"].encode("utf-8"),
        notify_url=notify.encode("utf-8"), return_url=ret.encode("utf-8"),
        notify_path=urllib.parse.urlsplit(notify).path or "/",
        return_path=urllib.parse.urlsplit(ret).path or "/",
        host=os.environ.get("MERCHANT_HOST") or "127.0.0.1", port=int(port))


def strict_parse(value):
    """R8's strict parser over bytes. Returns {name: value} or raises Refused."""
    if not value.startswith(b"V2_SHA256 "):
        raise Refused("not 'V2_SHA256' and one SP")
    rest = value[len(b"V2_SHA256 "):]
    if not rest:
        raise Refused("no items")
    items = {}
    for item in rest.split(b","):
        name, eq, val = item.partition(b"=")
        if not eq:
            raise Refused("an item without '='")
        if name not in NAMES:
            raise Refused("unknown item")
        if name in items:
            raise Refused("duplicate item")
        if not val:
            raise Refused("empty value")
        items[name] = val
    if len(items) != 4:
        raise Refused("missing item")
    return items


def check(cfg, auth, method, url, part7):
    items = strict_parse(auth)
    if not hmac.compare_digest(items[b"appId"], cfg["app_id"]):
        raise Refused("another appId")
    sign = items[b"sign"]
    if len(sign) != 64 or not LOWER_HEX.issuperset(sign):
        raise Refused("sign is not 64 lower-case hex digits")
    digest = hashlib.sha256()
    for part in (items[b"appId"], cfg["secret"], method, url, items[b"timestamp"],
                 items[b"nonce"], part7):
        digest.update(part)
        digest.update(b"\n")
    if not hmac.compare_digest(sign, digest.hexdigest().encode("ascii")):
        raise Refused("signature mismatch")


def query_params(query):
    """Raw query (bytes) -> list of (name, value) str pairs, each decoded once (R11)."""
    out = []
    for element in query.split(b"&"):
        if not element:
            continue
        name, _, value = element.partition(b"=")
        try:
            out.append(tuple(urllib.parse.unquote_to_bytes(part.replace(b"+", b" ")).decode("utf-8")
                             for part in (name, value)))
        except UnicodeDecodeError:
            raise Refused("a parameter is not UTF-8")
    return out


PAGE = ("<!doctype html><html><head><meta charset=\"utf-8\"><title>%s</title></head>"
        "<body><h1>%s</h1><p>%s</p></body></html>\n")


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # headers and body go out in separate writes: without TCP_NODELAY a kept-alive connection
    # waits for the client's delayed ACK (about 40 ms) on every answer
    disable_nagle_algorithm = True
    server_version = "py-fail-body/1"
    cfg = None

    def log_message(self, *args):
        pass

    def answer(self, status, body, ctype="text/plain; charset=utf-8"):
        data = body.encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)

    def read_body(self):
        if self.headers.get("Transfer-Encoding"):
            self.close_connection = True
            raise Refused("Transfer-Encoding not supported")
        lengths = self.headers.get_all("Content-Length") or ["0"]
        if len(set(lengths)) != 1 or not lengths[0].isascii() or not lengths[0].isdigit():
            self.close_connection = True
            raise Refused("bad Content-Length")
        n = int(lengths[0])
        if n > MAX_BODY:
            self.close_connection = True
            raise Refused("body too large")
        body = self.rfile.read(n)
        if len(body) != n:
            self.close_connection = True
            raise Refused("body shorter than Content-Length")
        return body

    def split_target(self):
        path, _, query = self.path.partition("?")
        return path, query.encode("latin-1")  # the request line arrives as ISO-8859-1

    def do_POST(self):
        path, _ = self.split_target()
        if path != self.cfg["notify_path"]:
            try:
                self.read_body()
            except Refused:
                pass
            return self.answer(404 if path != self.cfg["return_path"] else 405, "Not Found\n")
        if self.headers.get("Transfer-Encoding"):  # no chunked bodies here: HTTP framing, not a verdict
            self.close_connection = True
            return self.answer(411, "Length Required\n")
        try:
            body = self.read_body()
            fields = self.headers.get_all("Authorization") or []
            if len(fields) != 1:
                raise Refused("not exactly one Authorization")
            # http.client decoded the field as ISO-8859-1: these are its bytes as sent.
            check(self.cfg, fields[0].encode("latin-1").strip(b" \t"), b"POST",
                  self.cfg["notify_url"], body)
        except Refused:
            return self.answer(200, "FAIL")
        return self.answer(200, "SUCCESS")

    def do_GET(self):
        path, query = self.split_target()
        if path != self.cfg["return_path"]:
            return self.answer(404 if path != self.cfg["notify_path"] else 405, "Not Found\n")
        try:
            params = query_params(query)
            payments = [v for k, v in params if k == "payment"]
            auths = [v for k, v in params if k == "authorization"]
            if len(payments) != 1 or len(auths) != 1:
                raise Refused("need exactly one payment and one authorization")
            check(self.cfg, auths[0].encode("utf-8"), b"GET", self.cfg["return_url"],
                  b"payment=" + payments[0].encode("utf-8"))
        except Refused:
            return self.answer(200, PAGE % ("Payment", "Payment could not be verified",
                                            "Please contact the shop."), "text/html; charset=utf-8")
        trade = [v for k, v in params if k == "merchantTradeNo"]
        ref = html.escape(trade[0]) if len(trade) == 1 else ""
        return self.answer(200, PAGE % ("Thank you", "Thank you for your order",
                                        "Order reference: " + ref), "text/html; charset=utf-8")

    def do_HEAD(self):
        self.answer(405, "")

    def do_PUT(self):
        self.answer(405, "Method Not Allowed\n")
        self.close_connection = True

    do_DELETE = do_PATCH = do_OPTIONS = do_PUT


class Server(ThreadingHTTPServer):
    # socketserver's listen backlog is 5: a burst of connections beyond it waits for a SYN retry (1 s)
    request_queue_size = 128
    daemon_threads = True


def main():
    cfg = config()
    Handler.cfg = cfg
    server = Server((cfg["host"], cfg["port"]), Handler)
    host, port = server.server_address[:2]
    print("http://%s:%d" % ("[%s]" % host if ":" in host else host, port), flush=True)

    def shutdown(*_):
        threading.Thread(target=server.shutdown, daemon=True).start()

    signal.signal(signal.SIGTERM, shutdown)
    signal.signal(signal.SIGINT, shutdown)

    def stdin_eof():
        try:
            while os.read(sys.stdin.fileno(), 65536):
                pass
        except OSError:
            pass
        shutdown()

    threading.Thread(target=stdin_eof, daemon=True).start()
    try:
        server.serve_forever(poll_interval=0.2)
    finally:
        server.server_close()


if __name__ == "__main__":
    main()
