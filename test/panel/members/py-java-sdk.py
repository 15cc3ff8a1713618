#!/usr/bin/env python3
"""Panel member `py-java-sdk`: a protocol v1 testee (JSON lines on stdin/stdout), Python 3.11, stdlib only.

The adapter of a Java SDK, ported line by line to Python: a correct implementation of the gateway's
V2_SHA256 signing scheme and evidence upload, written from gateway-spec.md and readings.md alone, that
keeps the Java library's string semantics. Its defensible choices (each within the readings):

- Authorization parsing (5.3, R8), as `header.trim()`, `startsWith("V2_SHA256 ")`, `split(",")`,
  `indexOf('=')`, `equalsIgnoreCase`:
  - `String.trim()` (every char <= U+0020 removed) at every place R8(a) names: the whole header, both
    ends of each item, both sides of "=" (RFC 9110 5.5 and the BWS of auth-params). White space inside
    a value is kept. The scheme word is compared exactly and followed by one SP (R8).
  - `String.split(",")` without a limit: trailing empty strings are dropped, so `...,nonce=x,` is read
    as its four items (R8(d): empty list elements ignored, RFC 9110 5.6.1); an empty element in the
    middle or first is an item without "=" and refuses the header (the strict answer).
  - item names matched with `String.equalsIgnoreCase` (R8(e), RFC 9110 11.2): char by char, equal when
    `Character.toUpperCase` agrees or `Character.toLowerCase` of those agrees (the simple, one-char
    mappings: U+017F and U+0131 match s and i, U+0130 lower-cases to i). A name that matches none of
    the four is an unknown item, ignored (R8(b)); a duplicate after folding (`appid` and `appId`) is
    refused.
- Verification (5.2, R7): only the lower-case hex digest is accepted; upper case is refused.
- upload.validate (2.2, 8, R13): 2 MB = 2,000,000 bytes; the extension is compared exactly, so
  `scan.PDF` is refused.
- authorization.format writes the items in the order of 5.3 (appId, sign, timestamp, nonce).
- redirect decoding (R11) as `URLDecoder.decode(value, UTF_8)` would, but strict: `+` is a space,
  percent-escapes are UTF-8 and malformed ones refuse the redirect.
- upload.form uses a boundary like Java HTTP clients' (`----JavaFormBoundary` + 16 hex digits).
Everything else follows the spec and R1-R16 as written: content bytes R1-R6, URL as sent R4, raw
response bytes R9 (only 200 verified, 200 without Authorization invalid, appId must be the
merchant's own), webhook part 4 = notifyUrl as submitted R10, exactly one payment and one
authorization parameter R11, upload form R14.
"""
import base64
import hashlib
import hmac
import io
import json
import secrets
import sys

IMPLEMENTATION = {"name": "panel-py-java-sdk", "version": "1.0.0", "language": "python"}
ITEMS = ("appId", "sign", "timestamp", "nonce")
OK_TYPES = ("jpg", "jpeg", "png", "pdf", "xls", "xlsx")
TWO_MB = 2_000_000


class Refuse(Exception):
    """The SDK's IllegalArgumentException."""


def get_text(i, key):
    if key not in i or not isinstance(i[key], str):
        raise Refuse(key + " must be a String")
    return i[key]


def get_bytes(i, key):
    return base64.b64decode(get_text(i, key), validate=True)


def content_bytes(app_id, secret, method, url, timestamp, nonce, body):
    """A StringBuilder of parts 1-6, each with LF, its UTF-8 bytes, then the body and LF (5.1; R1-R3)."""
    sb = []
    for part in (app_id, secret, method, url, timestamp, nonce):
        sb.append(part)
        sb.append("\n")
    return b"".join(["".join(sb).encode("utf-8"), body, b"\n"])


def java_trim(s):
    """String.trim(): every char <= U+0020 removed at both ends."""
    start, end = 0, len(s)
    while start < end and s[start] <= " ":
        start += 1
    while end > start and s[end - 1] <= " ":
        end -= 1
    return s[start:end]


def java_split(s, sep):
    """String.split(sep) with no limit: trailing empty strings removed (all of them when only those)."""
    parts = s.split(sep)
    while parts and parts[-1] == "" and len(s) > 0:
        parts.pop()
    return parts


def java_upper(c):
    """Character.toUpperCase(char): the one-char mapping, else the char itself."""
    u = c.upper()
    return u if len(u) == 1 else c


def java_lower(c):
    """Character.toLowerCase(char): the one-char mapping (U+0130 to i), else the char itself."""
    if c == "\u0130":
        return "i"
    low = c.lower()
    return low if len(low) == 1 else c


def utf16_units(s):
    return s.encode("utf-16-le")


def equals_ignore_case(a, b):
    """String.equalsIgnoreCase, over UTF-16 code units as Java compares them."""
    ua, ub = utf16_units(a), utf16_units(b)
    if len(ua) != len(ub):
        return False
    ca = [ua[k:k + 2].decode("utf-16-le", "surrogatepass") for k in range(0, len(ua), 2)]
    cb = [ub[k:k + 2].decode("utf-16-le", "surrogatepass") for k in range(0, len(ub), 2)]
    for x, y in zip(ca, cb):
        if x == y:
            continue
        ux, uy = java_upper(x), java_upper(y)
        if ux == uy or java_lower(ux) == java_lower(uy):
            continue
        return False
    return True


def parse_header(header):
    if not isinstance(header, str):
        raise Refuse("header is not a string")
    header = java_trim(header)
    prefix = "V2_SHA256 "
    if not header.startswith(prefix):
        raise Refuse("not a V2_SHA256 header")
    values = {}
    for part in java_split(header[len(prefix):], ","):
        item = java_trim(part)
        eq = item.find("=")
        if eq < 0:
            raise Refuse(f"item {item!r} lacks '='")
        name = java_trim(item[:eq])
        value = java_trim(item[eq + 1:])
        known = next((n for n in ITEMS if equals_ignore_case(n, name)), None)
        if known is None:
            continue  # R8(b): an unknown item is ignored
        if known in values:
            raise Refuse(f"item {known} appears twice")
        if value == "":
            raise Refuse(f"item {known} has no value")
        values[known] = value
    absent = [n for n in ITEMS if n not in values]
    if absent:
        raise Refuse("missing " + ",".join(absent))
    return {n: values[n] for n in ITEMS}


def format_header(i):
    """The SDK's buildAuthorization: the four items in the order of 5.3."""
    sb = "V2_SHA256 "
    for k, name in enumerate(ITEMS):
        value = get_text(i, name)
        if value == "" or value.find(",") >= 0:
            raise Refuse(name + " must be non-empty and comma-free")
        sb += ("," if k > 0 else "") + name + "=" + value
    return sb


class V2Verifier:
    """The SDK's verifier, one per merchant: parse, check the appId, compare the lower-case hex digest."""

    def __init__(self, app_id, secret):
        self.app_id = app_id
        self.secret = secret

    def check(self, method, url, authorization, body):
        if authorization is None:
            return {"valid": False, "reason": "no Authorization header"}
        try:
            items = parse_header(authorization)
        except Refuse as e:
            return {"valid": False, "reason": f"bad Authorization: {e}"}
        if items["appId"] != self.app_id:
            return {"valid": False, "reason": "the header names another appId (R9)"}
        sign = items["sign"]
        if len(sign) != 64 or any(c not in "0123456789abcdef" for c in sign):
            return {"valid": False, "reason": "sign must be 64 lower-case hex digits (R7)"}
        mine = hashlib.sha256(content_bytes(self.app_id, self.secret, method, url, items["timestamp"], items["nonce"], body)).hexdigest()
        return {"valid": True} if hmac.compare_digest(mine.encode("ascii"), sign.encode("ascii")) else {"valid": False, "reason": "sign mismatch"}


def verifier(i):
    return V2Verifier(get_text(i, "appId"), get_text(i, "appSecret"))


def url_decode(text):
    """URLDecoder.decode(text, UTF_8), strict: '+' is a space, %XX runs are UTF-8, anything malformed refuses."""
    out = bytearray()
    k = 0
    while k < len(text):
        c = text[k]
        if c == "+":
            out += b" "
            k += 1
        elif c == "%":
            pair = text[k + 1:k + 3]
            if len(pair) != 2 or any(x not in "0123456789abcdefABCDEF" for x in pair):
                raise Refuse("malformed %-escape")
            out.append(int(pair, 16))
            k += 3
        else:
            out += c.encode("utf-8")
            k += 1
    return out.decode("utf-8")  # strict: not UTF-8 raises


def verify_redirect(i):
    v = verifier(i)
    target = get_text(i, "redirectUrl").partition("#")[0]
    query = target.partition("?")[2]
    found = {"payment": [], "authorization": []}
    try:
        for pair in query.split("&"):
            if pair == "":
                continue
            key, _, value = pair.partition("=")
            key = url_decode(key)
            if key in found:
                found[key].append(url_decode(value))
    except (Refuse, UnicodeDecodeError) as e:
        return {"valid": False, "payment": None, "reason": f"undecodable query: {e}"}
    if len(found["payment"]) != 1 or len(found["authorization"]) != 1:
        return {"valid": False, "payment": None, "reason": "exactly one payment and one authorization parameter are required (R11)"}
    payment = found["payment"][0]
    verdict = v.check("GET", get_text(i, "returnUrl"), found["authorization"][0], ("payment=" + payment).encode("utf-8"))
    return {**verdict, "payment": payment if verdict["valid"] else None}


def verify_response(i):
    status = i["status"]
    if type(status) is not int or status != 200:
        return {"valid": False, "reason": "only an HTTP 200 response is verified (R9)"}
    return verifier(i).check(get_text(i, "method"), get_text(i, "url"), i["authorization"], get_bytes(i, "bodyB64"))


RULES = [
    ("filename", lambda v: isinstance(v, str), "filename is a required string (2.1)"),
    ("filename", lambda v: not isinstance(v, str) or len(v) <= 32, "filename is longer than 32 characters (2.1)"),
    ("filename", lambda v: not isinstance(v, str) or v.rpartition(".")[2] in OK_TYPES and "." in v,
     "the extension is none of jpg, jpeg, png, pdf, xls, xlsx as written (2.2)"),
    ("contentType", lambda v: v is None or isinstance(v, str) and len(v) <= 32, "contentType is a string of at most 32 characters (2.1)"),
    ("scene", lambda v: v == "DISPUTE_EVIDENCE", "scene must be DISPUTE_EVIDENCE (2.2)"),
    ("fileSize", lambda v: v is None or type(v) is int and 0 <= v <= TWO_MB, "fileSize is over 2 MB = 2,000,000 bytes, or not a size (8, R13)"),
]


def validate(i):
    broken = [why for key, ok, why in RULES if not ok(i.get(key))]
    return {"valid": False, "reason": "; ".join(broken)} if broken else {"valid": True}


def escape_disposition(text):
    return text.replace("\r", "%0D").replace("\n", "%0A").replace('"', "%22")


def build_form(i):
    pairs = i["formFields"]
    if not isinstance(pairs, list) or not all(isinstance(p, list) and len(p) == 2 and all(isinstance(x, str) for x in p) for p in pairs):
        raise Refuse("formFields must be a list of [name, value] strings")
    file_type = i.get("contentType") or "application/octet-stream"
    data = get_bytes(i, "fileB64")
    chunks = [(f'form-data; name="{escape_disposition(n)}"', None, v.encode("utf-8")) for n, v in pairs]
    chunks.append((f'form-data; name="file"; filename="{escape_disposition(get_text(i, "filename"))}"', file_type, data))
    boundary = "----JavaFormBoundary" + secrets.token_hex(8)
    while any(boundary.encode("ascii") in c[2] for c in chunks):
        boundary = "----JavaFormBoundary" + secrets.token_hex(8)
    out = io.BytesIO()
    for disposition, part_type, payload in chunks:
        out.write(f"--{boundary}\r\nContent-Disposition: {disposition}\r\n".encode("utf-8"))
        if part_type is not None:
            out.write(f"Content-Type: {part_type}\r\n".encode("utf-8"))
        out.write(b"\r\n" + payload + b"\r\n")
    out.write(f"--{boundary}--\r\n".encode("ascii"))
    return {"contentType": f"multipart/form-data; boundary={boundary}", "bodyB64": base64.b64encode(out.getvalue()).decode("ascii")}


def parts_of(i):
    return [get_text(i, k) for k in ("appId", "appSecret", "method", "url", "timestamp", "nonce")] + [get_bytes(i, "bodyB64")]


HANDLERS = {
    "signature.content": lambda i: {"contentB64": base64.b64encode(content_bytes(*parts_of(i))).decode("ascii")},
    "signature.sign": lambda i: {"sign": hashlib.sha256(content_bytes(*parts_of(i))).hexdigest()},
    "authorization.format": lambda i: {"header": format_header(i)},
    "authorization.parse": lambda i: parse_header(i["header"]),
    "request.verify": lambda i: verifier(i).check(get_text(i, "method"), get_text(i, "url"), i["authorization"], get_bytes(i, "bodyB64")),
    "response.verify": verify_response,
    "webhook.verify": lambda i: verifier(i).check(get_text(i, "method"), get_text(i, "notifyUrl"), i["authorization"], get_bytes(i, "bodyB64")),
    "redirect.verify": verify_redirect,
    "upload.validate": validate,
    "upload.form": build_form,
}


def answer(msg):
    if msg.get("cmd") == "start":
        ok = msg.get("protocol") == 1
        return {"ready": True, "protocol": 1, "implementation": IMPLEMENTATION, "operations": list(HANDLERS)} if ok else {"ready": False, "reason": "protocol 1 only"}
    handler = HANDLERS.get(msg.get("op"))
    if handler is None:
        return {"id": msg["id"], "unsupported": {"reason": "not offered"}}
    try:
        return {"id": msg["id"], "result": handler(msg["input"])}
    except Exception as e:  # the SDK's exceptions, as the adapter reports them
        return {"id": msg["id"], "rejected": {"reason": f"{type(e).__name__}: {e}"}}


if __name__ == "__main__":
    for line in sys.stdin:
        try:
            message = json.loads(line)
        except ValueError as e:
            print(f"not a protocol line: {e}", file=sys.stderr)
            continue
        if message.get("cmd") == "stop":
            break
        sys.stdout.write(json.dumps(answer(message), separators=(",", ":")) + "\n")
        sys.stdout.flush()
