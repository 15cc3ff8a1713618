#!/usr/bin/env python3
# py-asyncio: a panel merchant on asyncio.start_server with a hand-written HTTP/1.1 server (request
# line, header fields, Content-Length or chunked body, keep-alive, "Connection: close" honoured,
# "Expect: 100-continue" answered). Python 3 standard library only.
#
# Choices, and what each rests on (gateway-spec.md, docs/readings.md):
# - Webhook (spec 5.5, 6; R10): POST to the path of MERCHANT_NOTIFY_URL. The signature content is the
#   raw body bytes as received (Content-Length, or the chunks joined; never parsed or re-serialized:
#   5.1, 5.4, 9, R3, R15) after part 3 "POST" and part 4 MERCHANT_NOTIFY_URL exactly as registered
#   (R10), every part followed by LF, the body too (5.1, R1, R2). Verified: 200 "OK"; refused: 400
#   (text/plain) -- any non-2xx is a refusal (R16).
# - Replay (R12, either acceptable): a webhook whose sign was already accepted by this process (the
#   very same signed message again) is refused with 400; the last 10,000 signs are remembered. No
#   clock-skew check. The return page has no replay check (a browser may reload it).
# - Return redirect (spec 5.6, 6; R11): GET to the path of MERCHANT_RETURN_URL. The raw query is split
#   at "&" and each element at its first "="; a hand-written decoder reads "+" as space and "%XX" as
#   a byte (a malformed "%" escape refuses), then a strict UTF-8 decode (invalid UTF-8 refused, a BOM
#   kept). Exactly one "payment" and one "authorization" parameter, else refused (R11). Part 3 "GET",
#   part 4 MERCHANT_RETURN_URL exactly as registered (its own query included, the added parameters
#   not), part 7 "payment=" + the decoded value. Verified: 200 page; refused: 400 page.
# - Sign (5.2, R7): exactly 64 LOWER-case hex digits; upper-case hex REFUSED; compared with
#   hmac.compare_digest (constant time).
# - Authorization parser (5.3, R8): regular expressions over the field's bytes (SP/HTAB at the two
#   ends of the field value are not part of it, RFC 9110 5.5). The scheme word is compared without
#   letter case (R8 c), then one SP; OWS [ \t]* is allowed and dropped at R8's places: after that SP,
#   at both ends of each item, on both sides of "=" (R8 a, the SP/HTAB trim); other white space is
#   kept. Empty list elements (",,", a comma before the first item or after the last) are ignored
#   (R8 d). Names exact; an unknown item, an item without "=", an empty value, a missing or
#   duplicate item refuse the header (R8's strict rules). More than one Authorization field refuses.
# - appId must be the merchant's own (R9); timestamp and nonce are the exact bytes of the header (R6).
# - Never a 500 for hostile input: malformed HTTP gets 400/411/413/501, anything unexpected 400.
#
# Environment: MERCHANT_APP_ID, MERCHANT_APP_SECRET (required, exit 2 without), MERCHANT_NOTIFY_URL,
# MERCHANT_RETURN_URL (as registered; routing uses their paths; required, exit 2 without),
# MERCHANT_HOST (default 127.0.0.1), MERCHANT_PORT (default 0: any free port).
# Prints the origin (http://host:port) on one line when listening; exits on SIGTERM, SIGINT and
# when stdin reaches EOF.

import asyncio
import collections
import hashlib
import hmac
import os
import re
import signal
import sys
import threading
import urllib.parse

LIMIT = 1024 * 1024          # longest line / header section
MAX_BODY = 4 * 1024 * 1024
IDLE = 30.0                  # seconds a kept-alive connection may wait for its next request

TOKEN = re.compile(rb"[!#$%&'*+.^_`|~0-9A-Za-z-]+")
HEADER_VALUE = re.compile(rb"(?i:V2_SHA256) [ \t]*(.*)", re.S)
ELEMENT = re.compile(rb"[ \t]*(?:(?P<name>[^=]*?)[ \t]*=[ \t]*(?P<value>.*?))?[ \t]*", re.S)
SIGN = re.compile(rb"[0-9a-f]{64}")
NAMES = (b"appId", b"sign", b"timestamp", b"nonce")
REASONS = {200: "OK", 400: "Bad Request", 404: "Not Found", 405: "Method Not Allowed",
           411: "Length Required", 413: "Content Too Large", 501: "Not Implemented"}


class Refused(Exception):
    pass


class BadRequest(Exception):
    def __init__(self, status, text):
        super().__init__(text)
        self.status = status


def load_config():
    keys = ("MERCHANT_APP_ID", "MERCHANT_APP_SECRET", "MERCHANT_NOTIFY_URL", "MERCHANT_RETURN_URL")
    missing = [k for k in keys if not os.environ.get(k)]
    port = os.environ.get("MERCHANT_PORT") or "0"
    if missing or not port.isdigit():
        sys.stderr.write("py-asyncio: missing environment: %s\n" % ", ".join(missing or ["MERCHANT_PORT"]))
        sys.exit(2)
    env = os.environ
    return {
        "app_id": env["MERCHANT_APP_ID"].encode(), "secret": env["MERCHANT_APP_SECRET"].encode(),
        "notify_url": env["MERCHANT_NOTIFY_URL"].encode(), "return_url": env["MERCHANT_RETURN_URL"].encode(),
        "notify_path": (urllib.parse.urlsplit(env["MERCHANT_NOTIFY_URL"]).path or "/").encode(),
        "return_path": (urllib.parse.urlsplit(env["MERCHANT_RETURN_URL"]).path or "/").encode(),
        "host": env.get("MERCHANT_HOST") or "127.0.0.1", "port": int(port),
    }


def parse_authorization(value):
    m = HEADER_VALUE.fullmatch(value)
    if not m:
        raise Refused("not the V2_SHA256 scheme followed by SP")
    items = {}
    for element in m.group(1).split(b","):
        e = ELEMENT.fullmatch(element)
        if not e:
            raise Refused("an item without '='")
        name = e.group("name")
        if name is None:
            continue  # R8 d: an empty list element
        if name not in NAMES:
            raise Refused("unknown item")
        if name in items:
            raise Refused("duplicate item")
        if not e.group("value"):
            raise Refused("empty value")
        items[name] = e.group("value")
    if len(items) != 4:
        raise Refused("missing item")
    return items


def verify(cfg, authorization, method, url, part7):
    items = parse_authorization(authorization)
    if not hmac.compare_digest(items[b"appId"], cfg["app_id"]):
        raise Refused("another appId")
    if not SIGN.fullmatch(items[b"sign"]):
        raise Refused("sign is not 64 lower-case hex digits")
    content = b"\n".join((items[b"appId"], cfg["secret"], method, url, items[b"timestamp"],
                          items[b"nonce"], part7)) + b"\n"
    if not hmac.compare_digest(items[b"sign"], hashlib.sha256(content).hexdigest().encode()):
        raise Refused("signature mismatch")
    return items[b"sign"]


HEXDIGITS = b"0123456789abcdefABCDEF"


def query_decode(raw):
    out = bytearray()
    i, n = 0, len(raw)
    while i < n:
        c = raw[i]
        if c == 0x2B:  # "+"
            out.append(0x20)
            i += 1
        elif c == 0x25:  # "%"
            pair = raw[i + 1:i + 3]
            if len(pair) != 2 or pair[0] not in HEXDIGITS or pair[1] not in HEXDIGITS:
                raise Refused("malformed percent escape")
            out.append(int(pair, 16))
            i += 3
        else:
            out.append(c)
            i += 1
    try:
        return bytes(out).decode("utf-8")
    except UnicodeDecodeError:
        raise Refused("not UTF-8")


class Merchant:
    def __init__(self, cfg):
        self.cfg = cfg
        self.seen = collections.OrderedDict()

    def webhook(self, headers, body):
        try:
            fields = headers.get(b"authorization", [])
            if len(fields) != 1:
                raise Refused("not exactly one Authorization")
            sign = verify(self.cfg, fields[0], b"POST", self.cfg["notify_url"], body)
            if sign in self.seen:
                raise Refused("replayed")
            self.seen[sign] = True
            while len(self.seen) > 10000:
                self.seen.popitem(last=False)
        except Refused as why:
            return 400, "text/plain; charset=utf-8", ("refused: %s\n" % why).encode()
        return 200, "text/plain; charset=utf-8", b"OK\n"

    def return_page(self, query):
        try:
            params = []
            for element in query.split(b"&"):
                if element:
                    name, _, value = element.partition(b"=")
                    params.append((query_decode(name), query_decode(value)))
            payments = [v for k, v in params if k == "payment"]
            auths = [v for k, v in params if k == "authorization"]
            if len(payments) != 1 or len(auths) != 1:
                raise Refused("need exactly one payment and one authorization")
            verify(self.cfg, auths[0].encode(), b"GET", self.cfg["return_url"],
                   b"payment=" + payments[0].encode())
        except Refused:
            return 400, "text/html; charset=utf-8", (
                b"<!doctype html><title>Payment</title><h1>Payment could not be verified</h1>\n")
        return 200, "text/html; charset=utf-8", (
            b"<!doctype html><title>Thank you</title><h1>Thank you, your payment is recorded</h1>\n")

    def route(self, method, target, headers, body):
        if target.startswith(b"/"):
            path, _, query = target.partition(b"?")
        else:  # absolute-form
            parts = urllib.parse.urlsplit(target)
            path, query = parts.path or b"/", parts.query
        path = path.partition(b"#")[0]
        query = query.partition(b"#")[0]
        if path == self.cfg["notify_path"] and method == b"POST":
            return self.webhook(headers, body)
        if path == self.cfg["return_path"] and method == b"GET":
            return self.return_page(query)
        if path in (self.cfg["notify_path"], self.cfg["return_path"]):
            return 405, "text/plain", b"Method Not Allowed\n"
        return 404, "text/plain", b"Not Found\n"


async def read_line(reader):
    try:
        line = await reader.readuntil(b"\n")
    except asyncio.LimitOverrunError:
        raise BadRequest(400, "line too long")
    return line[:-2] if line.endswith(b"\r\n") else line[:-1]


async def read_body(reader, writer, headers):
    if headers.get(b"expect", [b""])[-1].lower() == b"100-continue":
        writer.write(b"HTTP/1.1 100 Continue\r\n\r\n")
    te = headers.get(b"transfer-encoding")
    cl = headers.get(b"content-length")
    if te is not None:
        if cl is not None:
            raise BadRequest(400, "both Transfer-Encoding and Content-Length")
        if len(te) != 1 or te[0].lower() != b"chunked":
            raise BadRequest(501, "unsupported Transfer-Encoding")
        chunks, total = [], 0
        while True:
            size = (await read_line(reader)).partition(b";")[0].strip(b" \t")
            if not size or any(ch not in HEXDIGITS for ch in size):
                raise BadRequest(400, "bad chunk size")
            size = int(size, 16)
            total += size
            if total > MAX_BODY:
                raise BadRequest(413, "body too large")
            if size == 0:
                while await read_line(reader):  # trailer fields, ignored
                    pass
                return b"".join(chunks)
            chunks.append(await reader.readexactly(size))
            if await read_line(reader):
                raise BadRequest(400, "chunk not followed by CRLF")
    if cl is None:
        return b""
    values = {v.strip(b" \t") for field in cl for v in field.split(b",")}
    if len(values) != 1:
        raise BadRequest(400, "conflicting Content-Length")
    (length,) = values
    if not length.isdigit():
        raise BadRequest(400, "bad Content-Length")
    if int(length) > MAX_BODY:
        raise BadRequest(413, "body too large")
    return await reader.readexactly(int(length))


def response(status, ctype, body, close):
    head = ["HTTP/1.1 %d %s" % (status, REASONS.get(status, "")), "Content-Type: " + ctype,
            "Content-Length: %d" % len(body), "Cache-Control: no-store"]
    if close:
        head.append("Connection: close")
    return ("\r\n".join(head) + "\r\n\r\n").encode("ascii") + body


async def serve(merchant, reader, writer):
    try:
        while True:
            try:
                line = await asyncio.wait_for(read_line(reader), IDLE)
            except (asyncio.TimeoutError, asyncio.IncompleteReadError):
                return
            if not line:
                continue  # RFC 9112 2.2: an empty line before the request line is ignored
            close = True
            try:
                parts = line.split(b" ")
                if len(parts) != 3 or not TOKEN.fullmatch(parts[0]) or not parts[1] \
                        or parts[2] not in (b"HTTP/1.1", b"HTTP/1.0"):
                    raise BadRequest(400, "bad request line")
                method, target, version = parts
                headers = {}
                while True:
                    field = await read_line(reader)
                    if not field:
                        break
                    if field[:1] in (b" ", b"\t"):
                        raise BadRequest(400, "obsolete line folding")
                    name, colon, value = field.partition(b":")
                    if not colon or not TOKEN.fullmatch(name):
                        raise BadRequest(400, "bad header field")
                    headers.setdefault(name.lower(), []).append(value.strip(b" \t"))
                tokens = {t.strip(b" \t").lower() for f in headers.get(b"connection", []) for t in f.split(b",")}
                close = b"close" in tokens or (version == b"HTTP/1.0" and b"keep-alive" not in tokens)
                body = await read_body(reader, writer, headers)
                try:
                    status, ctype, payload = merchant.route(method, target, headers, body)
                except Exception as error:  # hostile input never earns a 500
                    sys.stderr.write("py-asyncio: refused after %r\n" % (error,))
                    status, ctype, payload = 400, "text/plain", b"Bad Request\n"
            except BadRequest as bad:
                close = True
                status, ctype, payload = bad.status, "text/plain", (str(bad) + "\n").encode()
            writer.write(response(status, ctype, payload, close))
            await writer.drain()
            if close:
                return
    except (asyncio.IncompleteReadError, ConnectionError):
        return
    except asyncio.CancelledError:
        return  # shutting down; a cancelled connection task makes Python 3.11's streams log a traceback
    finally:
        writer.close()


async def main():
    cfg = load_config()
    merchant = Merchant(cfg)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    server = await asyncio.start_server(lambda r, w: serve(merchant, r, w),
                                        cfg["host"], cfg["port"], limit=LIMIT)
    host, port = server.sockets[0].getsockname()[:2]
    print("http://%s:%d" % ("[%s]" % host if ":" in host else host, port), flush=True)
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)

    def watch_stdin():
        try:
            while os.read(sys.stdin.fileno(), 65536):
                pass
        except OSError:
            pass
        loop.call_soon_threadsafe(stop.set)

    threading.Thread(target=watch_stdin, daemon=True).start()
    await stop.wait()
    server.close()


if __name__ == "__main__":
    asyncio.run(main())
