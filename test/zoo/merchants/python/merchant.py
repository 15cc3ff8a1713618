#!/usr/bin/env python3
"""A merchant's two V2_SHA256 endpoints in Python 3 (stdlib only): a zoo member.

Written from ../shared/spec/gateway-spec.md (5.1-5.6, 6), docs/readings.md and
docs/guide/merchant-certification.md alone: no code of the kit or of its sample
merchant was read.

Interface
  env  MERCHANT_APP_ID, MERCHANT_APP_SECRET   required (exit 2 without them)
       MERCHANT_NOTIFY_URL, MERCHANT_RETURN_URL the URLs as registered with the gateway:
                                                part 4 of the signed content; requests
                                                are routed on their paths
       MERCHANT_HOST (127.0.0.1), MERCHANT_PORT (0 = any free port)
       MERCHANT_MISTAKE                         empty/absent = the correct merchant,
                                                else one of MISTAKES below (unknown: exit 2)
  stdout  one line, the origin it listens on (http://127.0.0.1:43121)
  exit    on SIGTERM, and when stdin reaches EOF (so a dead parent leaves no orphan)

Answers
  webhook  POST <notify path>: 200 "SUCCESS" when it verifies, 401 "FAIL" when not,
           400 "FAIL" for a body that cannot be read, 405 for another method
  return   GET <return path>: 200 thank-you page when it verifies, 401 short page when not
  other    404

Verification (the correct merchant)
  content = appId LF appSecret LF method LF url LF timestamp LF nonce LF part7 LF  (5.1, R1-R3)
    webhook:  method POST, url = MERCHANT_NOTIFY_URL as registered (R10), part 7 = the body
              bytes exactly as received (never decoded, trimmed or re-serialized: R3, R15)
    redirect: method GET, url = MERCHANT_RETURN_URL as registered, its own query included
              (R11), part 7 = b"payment=" + the payment value decoded once as a query
              component ("+" as space, percent-decoding as UTF-8)
  sign = lowercase hex SHA-256 of the content (5.2), compared in constant time
  the header's appId must be our own (R9)

Choices where the readings allow several (each one the readings call defensible):
  * Authorization (R8): the strict parser. "V2_SHA256" then exactly one SP, then items split
    at ",", each split at its first "="; names compared exactly (appId, sign, timestamp,
    nonce), each exactly once, none empty; an unknown item, an empty list element, an item
    without "=", white space inside the list, another scheme word (letter case included) are
    all refused. Only SP/HTAB around the whole field value are dropped (RFC 9110 5.5). More
    than one Authorization header field is refused.
  * Header values reach Python as ISO-8859-1 text (http.server); they are turned back into
    the bytes received before they go into the content, so a non-ASCII nonce is signed as
    the bytes the gateway sent.
  * Upper-case hex sign (R7): refused (the comparison is exact against lowercase hex).
  * Replay (R12): no clock or nonce check (the spec gives none).
  * Redirect query: split at "&" only; names and values decoded as query components with
    strict UTF-8 (invalid UTF-8 is refused, not replaced by U+FFFD); exactly one payment
    and one authorization parameter (R11), counted after decoding the names; other
    parameters (the returnUrl's own, paymentNo, merchantTradeNo) are not looked at.
  * A webhook body that verifies is accepted whatever it holds (no JSON check: the spec
    does not describe the webhook payload, 6; the correct merchant never parses it).
  * A webhook body is read from Content-Length, or chunked Transfer-Encoding; it is always
    read to the end before answering (no reset connection); over 16 MiB: 413.

MERCHANT_MISTAKE switches on exactly one bug (MISTAKES below), everything else staying
correct. The header and comparison mistakes (startswith, empty-skips-check, no-appid-check,
items-by-position) live in the shared verification code, so they hit both endpoints; for
empty-skips-check the parser lets an empty sign through (the PHP code it ports has no
emptiness check of its own: `!empty($sign)` is the only one). landed-url keeps the whole
query the browser landed on, authorization included (self.path unchanged).
"""

import hashlib
import hmac
import json
import os
import signal
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, parse_qsl, unquote_plus, urlsplit

MISTAKES = {
    "args-get-first": "redirect params read Flask-style: first occurrence, no once-only check",
    "args-last": "PHP $_GET port: dict(parse_qsl(q)), last occurrence wins, no once-only check",
    "json-dumps": "webhook verified over json.dumps(json.loads(raw)) (Python's defaults)",
    "json-dumps-compact": "webhook verified over compact json.dumps(..., ensure_ascii=False)",
    "strip-body": "the body .strip()ped before verifying",
    "utf8-sig": "the body decoded as utf-8-sig and re-encoded (drops a BOM) before verifying",
    "host-header-url": "part 4 of the webhook built from the Host header and the request path",
    "unquote-twice": "the payment value decoded by parse_qs and then unquote_plus again",
    "raw-payment": "part 7 uses the payment value as it appears in the raw query string",
    "startswith": "sign compared with expected.startswith(sign.lower())",
    "empty-skips-check": "PHP if (!empty($sign) && !hash_equals(...)) ported: empty sign accepted",
    "no-appid-check": "the header's appId is never compared with the merchant's own",
    "items-by-position": "Authorization items read by position, names ignored",
    "strict-model": "webhook payload checked against a fixed list of known fields",
    "landed-url": "part 4 of the redirect is the URL the browser landed on (query included)",
    "unverified-return": "the return handler does not verify at all",
}

SCHEME = "V2_SHA256"
ITEM_NAMES = ("appId", "sign", "timestamp", "nonce")
MAX_BODY = 16 * 1024 * 1024
# The payment fields of 2.5 -- what a "model" of the webhook payload would list (mistake 14).
KNOWN_PAYMENT_FIELDS = frozenset((
    "amount", "createdTime", "currency", "merchantAttach",
    "merchantTradeNo", "paymentNo", "refundStatus", "status",
))


class Refused(Exception):
    """The call does not verify: answer with a refusal."""


class BadRequest(Exception):
    """The request cannot be read at all."""


def die(message):
    sys.stderr.write("merchant.py: %s\n" % message)
    sys.stderr.flush()
    sys.exit(2)


APP_ID = os.environ.get("MERCHANT_APP_ID", "")
APP_SECRET = os.environ.get("MERCHANT_APP_SECRET", "")
NOTIFY_URL = os.environ.get("MERCHANT_NOTIFY_URL", "")
RETURN_URL = os.environ.get("MERCHANT_RETURN_URL", "")
HOST = os.environ.get("MERCHANT_HOST", "") or "127.0.0.1"
MISTAKE = os.environ.get("MERCHANT_MISTAKE", "").strip()

if not APP_ID or not APP_SECRET:
    die("MERCHANT_APP_ID and MERCHANT_APP_SECRET are required")
if not NOTIFY_URL or not RETURN_URL:
    die("MERCHANT_NOTIFY_URL and MERCHANT_RETURN_URL are required")
if MISTAKE and MISTAKE not in MISTAKES:
    die("unknown MERCHANT_MISTAKE %r (known: %s)" % (MISTAKE, ", ".join(MISTAKES)))
try:
    PORT = int(os.environ.get("MERCHANT_PORT", "") or "0")
except ValueError:
    die("MERCHANT_PORT must be a number")

NOTIFY_PATH = urlsplit(NOTIFY_URL).path or "/"
RETURN_PATH = urlsplit(RETURN_URL).path or "/"


# --- signing ---------------------------------------------------------------------------

def signature_content(app_id, method, url, timestamp, nonce, part7):
    """5.1: seven parts, each followed by LF; parts given as bytes (or str -> UTF-8)."""
    parts = [app_id, APP_SECRET, method, url, timestamp, nonce, part7]
    out = bytearray()
    for part in parts:
        out += part if isinstance(part, (bytes, bytearray)) else part.encode("utf-8")
        out += b"\n"
    return bytes(out)


def expected_sign(content):
    """5.2: lowercase hex SHA-256, 64 characters."""
    return hashlib.sha256(content).hexdigest().encode("ascii")


def parse_authorization(value):
    """R8, the strict parser. value: bytes (the field value, or the decoded query value).

    Returns a dict name -> bytes with the four items, or raises Refused.
    """
    if MISTAKE == "items-by-position":
        # The developer who "knows" the gateway writes appId, sign, timestamp, nonce.
        if not value.startswith(SCHEME.encode() + b" "):
            raise Refused("not a V2_SHA256 authorization")
        items = value[len(SCHEME) + 1:].split(b",")
        try:
            app_id, sign, timestamp, nonce = [i.split(b"=", 1)[1] for i in items]
        except (ValueError, IndexError):
            raise Refused("malformed authorization")
        return {"appId": app_id, "sign": sign, "timestamp": timestamp, "nonce": nonce}

    prefix = SCHEME.encode() + b" "
    if not value.startswith(prefix):
        raise Refused("not a V2_SHA256 authorization")
    rest = value[len(prefix):]
    if not rest:
        raise Refused("no items")
    found = {}
    for item in rest.split(b","):
        name, eq, val = item.partition(b"=")
        if not eq:
            raise Refused("an item without '='")
        try:
            key = name.decode("ascii")
        except UnicodeDecodeError:
            raise Refused("unknown item")
        if key not in ITEM_NAMES:
            raise Refused("unknown item %r" % key)
        if key in found:
            raise Refused("item %s twice" % key)
        if not val and not (MISTAKE == "empty-skips-check" and key == "sign"):
            # (the PHP port reads an empty sign as "" and lets the comparison decide)
            raise Refused("item %s empty" % key)
        found[key] = val
    missing = [n for n in ITEM_NAMES if n not in found]
    if missing:
        raise Refused("missing item(s) %s" % ", ".join(missing))
    return found


def check(auth, method, url, part7):
    """Verify the parsed Authorization items against the content; raise Refused if not."""
    if MISTAKE != "no-appid-check":
        if not hmac.compare_digest(auth["appId"], APP_ID.encode("utf-8")):
            raise Refused("appId is not ours")
    content = signature_content(auth["appId"], method, url, auth["timestamp"], auth["nonce"], part7)
    expected = expected_sign(content)
    sign = auth["sign"]
    if MISTAKE == "startswith":
        if not sign:
            raise Refused("empty sign")
        if not expected.startswith(sign.lower()):
            raise Refused("sign mismatch")
        return
    if MISTAKE == "empty-skips-check":
        if sign and not hmac.compare_digest(expected, sign):
            raise Refused("sign mismatch")
        return
    if not hmac.compare_digest(expected, sign):
        raise Refused("sign mismatch")


# --- the two endpoints -----------------------------------------------------------------

def webhook_part7(raw):
    """Part 7 of a webhook: the body as received (the mistakes change this one step)."""
    if MISTAKE == "json-dumps":
        try:
            return json.dumps(json.loads(raw)).encode("utf-8")
        except ValueError:
            raise Refused("body is not JSON")
    if MISTAKE == "json-dumps-compact":
        try:
            return json.dumps(json.loads(raw), separators=(",", ":"), ensure_ascii=False).encode()
        except ValueError:
            raise Refused("body is not JSON")
    if MISTAKE == "strip-body":
        return raw.strip()
    if MISTAKE == "utf8-sig":
        try:
            return raw.decode("utf-8-sig").encode("utf-8")
        except UnicodeDecodeError:
            raise Refused("body is not UTF-8")
    return raw


def verify_webhook(handler, raw):
    fields = handler.headers.get_all("Authorization") or []
    if len(fields) != 1:
        raise Refused("no Authorization" if not fields else "Authorization sent more than once")
    # http.server decoded the header as ISO-8859-1: back to the bytes that were sent; SP and
    # HTAB around a field value are not part of it (RFC 9110 5.5).
    value = fields[0].encode("latin-1", "replace").strip(b" \t")
    auth = parse_authorization(value)
    if MISTAKE == "host-header-url":
        url = "http://%s%s" % (handler.headers.get("Host", ""), handler.path)
    else:
        url = NOTIFY_URL
    check(auth, "POST", url, webhook_part7(raw))
    if MISTAKE == "strict-model":
        # class PaymentNotification(BaseModel): model_config = ConfigDict(extra="forbid") ...
        try:
            payload = json.loads(raw)
        except ValueError:
            raise Refused("body is not JSON")
        if not isinstance(payload, dict):
            raise Refused("payload is not an object")
        extra = sorted(set(payload) - KNOWN_PAYMENT_FIELDS)
        if extra:
            raise Refused("extra fields not permitted: %s" % ", ".join(extra))


def redirect_params(query):
    """The payment and authorization values (str) of a return redirect, or Refused."""
    if MISTAKE == "args-get-first":
        params = parse_qs(query, keep_blank_values=True, errors="strict")
        try:
            return params["payment"][0], params["authorization"][0]
        except KeyError:
            raise Refused("payment or authorization missing")
    if MISTAKE == "args-last":
        params = dict(parse_qsl(query, keep_blank_values=True, errors="strict"))
        try:
            return params["payment"], params["authorization"]
        except KeyError:
            raise Refused("payment or authorization missing")
    pairs = parse_qsl(query, keep_blank_values=True, errors="strict")
    payments = [v for k, v in pairs if k == "payment"]
    auths = [v for k, v in pairs if k == "authorization"]
    if len(payments) != 1 or len(auths) != 1:
        raise Refused("payment and authorization must each appear exactly once")
    return payments[0], auths[0]


def verify_return(handler, query):
    if MISTAKE == "unverified-return":
        return
    try:
        payment, authorization = redirect_params(query)
    except UnicodeDecodeError:
        raise Refused("query is not UTF-8")
    if MISTAKE == "unquote-twice":
        payment = unquote_plus(payment, errors="strict")
    if MISTAKE == "raw-payment":
        raw = [item.split("=", 1)[1] for item in query.split("&") if item.startswith("payment=")]
        part7 = "payment=" + (raw[0] if raw else "")
    else:
        part7 = "payment=" + payment
    auth = parse_authorization(authorization.encode("utf-8"))
    if MISTAKE == "landed-url":
        registered = urlsplit(RETURN_URL)
        url = "%s://%s%s" % (registered.scheme, registered.netloc, handler.path)
    else:
        url = RETURN_URL
    check(auth, "GET", url, part7)


THANK_YOU = (b"<!doctype html><html><head><meta charset=\"utf-8\"><title>Thank you</title></head>"
             b"<body><h1>Thank you for your payment</h1><p>Your order is being processed.</p>"
             b"</body></html>\n")
NOT_VERIFIED = (b"<!doctype html><html><head><meta charset=\"utf-8\"><title>Not verified</title>"
                b"</head><body><p>This payment could not be verified.</p></body></html>\n")


class Handler(BaseHTTPRequestHandler):
    # keep-alive (HTTP/1.1), as a production server does: a connection ends after an answer only
    # when the request's body was not read to its end (it cannot be told from the next request)
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # answers in several writes: no delayed-ACK wait between them
    server_version = "zoo-python-merchant/1"
    sys_version = ""

    def log_message(self, format, *args):  # quiet: stdout carries only the origin line
        pass

    def send(self, status, body, content_type="text/plain; charset=utf-8"):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        unread = not getattr(self, "body_read", False) and (self.headers.get("Content-Length") or self.headers.get("Transfer-Encoding"))
        if unread:
            self.send_header("Connection", "close")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)
        if unread:
            self.close_connection = True

    def split_path(self):
        path, _, query = self.path.partition("?")
        return path, query

    def read_body(self):
        """The request body, byte for byte; BadRequest if it cannot be read."""
        body = self.read_body_bytes()
        self.body_read = True
        return body

    def read_body_bytes(self):
        te = (self.headers.get("Transfer-Encoding") or "").strip().lower()
        if te:
            if te != "chunked":
                raise BadRequest("unsupported Transfer-Encoding")
            body = bytearray()
            while True:
                line = self.rfile.readline(65537)
                try:
                    size = int(line.split(b";", 1)[0].strip(), 16)
                except ValueError:
                    raise BadRequest("bad chunk size")
                if size < 0:
                    raise BadRequest("bad chunk size")
                if size == 0:
                    while self.rfile.readline(65537) not in (b"\r\n", b"\n", b""):
                        pass  # trailers
                    return bytes(body)
                if len(body) + size > MAX_BODY:
                    raise BadRequest("body too large")
                chunk = self.rfile.read(size)
                if len(chunk) != size:
                    raise BadRequest("truncated chunk")
                body += chunk
                self.rfile.readline(65537)
        lengths = self.headers.get_all("Content-Length") or []
        if not lengths:
            return b""
        if len(set(v.strip() for v in lengths)) != 1:
            raise BadRequest("conflicting Content-Length")
        try:
            length = int(lengths[0].strip())
        except ValueError:
            raise BadRequest("bad Content-Length")
        if length < 0:
            raise BadRequest("bad Content-Length")
        if length > MAX_BODY:
            raise BadRequest("body too large")
        body = self.rfile.read(length)
        if len(body) != length:
            raise BadRequest("truncated body")
        return body

    def do_POST(self):
        path, _ = self.split_path()
        if path != NOTIFY_PATH:
            return self.not_here(path)
        try:
            raw = self.read_body()
        except BadRequest as e:
            self.log_refusal("webhook", e)
            return self.send(413 if "large" in str(e) else 400, b"FAIL")
        try:
            verify_webhook(self, raw)
        except Refused as e:
            self.log_refusal("webhook", e)
            return self.send(401, b"FAIL")
        # (here a real shop would look the order up and mark it paid)
        return self.send(200, b"SUCCESS")

    def do_GET(self):
        path, query = self.split_path()
        if path != RETURN_PATH:
            return self.not_here(path)
        try:
            # the request line came in as ISO-8859-1 text: back to its bytes, read as UTF-8
            query = query.encode("latin-1").decode("utf-8")
        except UnicodeError:
            self.log_refusal("return", "query is not UTF-8")
            return self.send(400, NOT_VERIFIED, "text/html; charset=utf-8")
        try:
            verify_return(self, query)
        except Refused as e:
            self.log_refusal("return", e)
            return self.send(401, NOT_VERIFIED, "text/html; charset=utf-8")
        return self.send(200, THANK_YOU, "text/html; charset=utf-8")

    def do_HEAD(self):
        return self.do_GET()

    def not_here(self, path):
        if path in (NOTIFY_PATH, RETURN_PATH):
            try:
                self.read_body()
            except BadRequest:
                pass
            return self.send(405, b"method not allowed")
        return self.send(404, b"not found")

    def do_PUT(self):
        return self.not_here(self.split_path()[0])

    do_DELETE = do_PATCH = do_OPTIONS = do_PUT

    def log_refusal(self, endpoint, reason):
        if os.environ.get("MERCHANT_DEBUG"):
            sys.stderr.write("refused %s: %s\n" % (endpoint, reason))

    def handle_one_request(self):
        # never a 500 page or a dropped connection for hostile input the handlers missed
        self.body_read = False  # one handler serves every request of a kept-alive connection
        try:
            super().handle_one_request()
        except (ConnectionError, TimeoutError):
            self.close_connection = True
        except Exception as e:  # pragma: no cover - a last resort
            sys.stderr.write("merchant.py: %s: %r\n" % (type(e).__name__, e))
            try:
                self.send(400, b"FAIL")
            except Exception:
                pass
            self.close_connection = True


def main():
    try:
        # socketserver's listen backlog is 5: a burst of connections beyond it waits for a SYN retry (1 s)
        ThreadingHTTPServer.request_queue_size = 128
        server = ThreadingHTTPServer((HOST, PORT), Handler)
    except OSError as e:
        die("cannot listen on %s:%s: %s" % (HOST, PORT, e))
    server.daemon_threads = True
    stop = threading.Event()

    def on_signal(signum, frame):
        stop.set()

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)

    def watch_stdin(fd):
        # os.read on the descriptor, not sys.stdin: a thread blocked inside the buffered
        # reader holds its lock and makes the interpreter abort at exit (after SIGTERM).
        try:
            while os.read(fd, 65536):
                pass
        except OSError:
            pass
        stop.set()

    try:
        stdin_fd = sys.stdin.fileno() if sys.stdin is not None else None
    except (OSError, ValueError):
        stdin_fd = None
    if stdin_fd is not None:
        threading.Thread(target=watch_stdin, args=(stdin_fd,), name="stdin-eof", daemon=True).start()
    threading.Thread(target=server.serve_forever, args=(0.1,), name="http", daemon=True).start()

    host, port = server.server_address[:2]
    shown = "[%s]" % host if ":" in host else host
    sys.stdout.write("http://%s:%d\n" % (shown, port))
    sys.stdout.flush()

    while not stop.wait(0.2):
        pass
    server.shutdown()
    server.server_close()
    sys.exit(0)


if __name__ == "__main__":
    main()
