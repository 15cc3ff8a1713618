#!/usr/bin/env python3
"""Panel member `py-regex`: a protocol v1 testee (JSON lines on stdin/stdout), Python 3.11, stdlib only.

A correct implementation of the gateway's V2_SHA256 signing scheme and evidence upload, written from
gateway-spec.md and readings.md alone. Its defensible choices (each within the readings):

- Authorization parsing (5.3, R8) with regular expressions: one `re.fullmatch` for the header
  skeleton (`V2_SHA256` SP item *("," item)) and one per item (name "=" value, split at the first
  "="). White space -- here the set Java's `String.trim` removes, every character <= U+0020 -- at any
  of R8(a)'s places (after the scheme word, either end of an item, either side of "=") makes the
  parser refuse the header; other characters (U+00A0, U+3000, ...) are kept as part of the name or
  value, and white space inside a value is kept. Unknown items are refused (the strict parser of R8).
  The scheme word is compared without regard to ASCII letter case (R8(c); `re.ASCII | re.IGNORECASE`).
- Verification (5.2, R7): the right digest written in upper-case (or mixed-case) hex is accepted;
  wrong length or non-hex is invalid.
- upload.validate (2.2, 8, R13): 2 MB = 2,000,000 bytes (the lower bound R13 leaves open); the
  extension must be written in lower case as listed in 2.2, so `scan.PDF` is refused.
- authorization.format writes the items in alphabetical order (appId, nonce, sign, timestamp; 5.3:
  any order).
- redirect decoding (R11) is hand-written: `+` as space, %XX runs decoded as strict UTF-8, a `%` not
  followed by two hex digits kept as it is.
- upload.form uses a boundary of letters and digits (`PanelPyRegex` + 32 hex digits), unquoted.
Everything else follows the spec and R1-R16 as written: content bytes R1-R6, URL as sent R4, raw
response bytes R9 (only 200 verified, 200 without Authorization invalid, appId must be the
merchant's own), webhook part 4 = notifyUrl as submitted R10, exactly one payment and one
authorization parameter R11, upload form R14.
"""
import base64
import binascii
import hashlib
import hmac
import json
import re
import secrets
import sys

IMPLEMENTATION = {"name": "panel-py-regex", "version": "1.0.0", "language": "python"}
NAMES = ("appId", "sign", "timestamp", "nonce")
TYPES = frozenset({"jpg", "jpeg", "png", "pdf", "xls", "xlsx"})
MAX_BYTES = 2_000_000  # R13 lower bound

SKELETON = re.compile(r"V2_SHA256 ([^,]+(?:,[^,]+)*)", re.ASCII | re.IGNORECASE | re.DOTALL)
# name: no "=", no white space (<= U+0020) at either end; value: non-empty, no white space at either end
ITEM = re.compile(r"([^=\x00-\x20](?:[^=]*[^=\x00-\x20])?)=([^\x00-\x20](?:.*[^\x00-\x20])?)", re.DOTALL)
HEX64 = re.compile(r"[0-9A-Fa-f]{64}")
PCT = re.compile(rb"%([0-9A-Fa-f]{2})")


class Refusal(ValueError):
    pass


def s(i, key):
    v = i[key]
    if not isinstance(v, str):
        raise Refusal(f"{key} must be a string")
    return v


def raw(i, key):
    return base64.b64decode(s(i, key), validate=True)


def build_content(app_id, secret, method, url, ts, nonce, body):
    out = bytearray()
    for part in (app_id, secret, method, url, ts, nonce):
        out += part.encode("utf-8")
        out += b"\n"
    out += body
    out += b"\n"
    return bytes(out)


def parse(header):
    if not isinstance(header, str):
        raise Refusal("header must be a string")
    m = SKELETON.fullmatch(header)
    if m is None:
        raise Refusal("header is not 'V2_SHA256' SP item *(',' item)")
    items = {}
    for text in m.group(1).split(","):
        im = ITEM.fullmatch(text)
        if im is None:
            raise Refusal(f"item {text!r} is not name=value (no white space at its ends or around '=')")
        name, value = im.group(1), im.group(2)
        if name not in NAMES:
            raise Refusal(f"unknown item {name!r}")
        if name in items:
            raise Refusal(f"duplicate item {name}")
        items[name] = value
    missing = [n for n in NAMES if n not in items]
    if missing:
        raise Refusal("missing item(s) " + ", ".join(missing))
    return {n: items[n] for n in NAMES}


def format_header(i):
    order = ("appId", "nonce", "sign", "timestamp")
    vals = {n: s(i, n) for n in order}
    for n, v in vals.items():
        if not v or "," in v:
            raise Refusal(f"{n} cannot be written in the header")
    return "V2_SHA256 " + ",".join(f"{n}={vals[n]}" for n in order)


def authentic(app_id, secret, method, url, authorization, body):
    if authorization is None:
        return False, "no Authorization"
    try:
        it = parse(authorization)
    except Refusal as e:
        return False, f"Authorization refused: {e}"
    if it["appId"] != app_id:
        return False, "appId differs from the merchant's"
    if not HEX64.fullmatch(it["sign"]):
        return False, "sign is not 64 hex digits"
    want = hashlib.sha256(build_content(app_id, secret, method, url, it["timestamp"], it["nonce"], body)).hexdigest()
    if not hmac.compare_digest(want.encode("ascii"), it["sign"].lower().encode("ascii")):
        return False, "sign does not match"
    return True, None


def result(ok, why):
    return {"valid": True} if ok else {"valid": False, "reason": why}


def request_verify(i):
    return result(*authentic(s(i, "appId"), s(i, "appSecret"), s(i, "method"), s(i, "url"),
                             i["authorization"], raw(i, "bodyB64")))


def response_verify(i):
    status = i["status"]
    if type(status) is not int or status != 200:
        return result(False, f"status {status}: only HTTP 200 is verified (R9)")
    return request_verify(i)


def webhook_verify(i):
    return result(*authentic(s(i, "appId"), s(i, "appSecret"), s(i, "method"), s(i, "notifyUrl"),
                             i["authorization"], raw(i, "bodyB64")))


def query_decode(text):
    data = text.replace("+", " ").encode("utf-8")
    data = PCT.sub(lambda m: bytes([int(m.group(1), 16)]), data)
    return data.decode("utf-8")  # strict: invalid UTF-8 raises


def redirect_verify(i):
    app_id, secret, return_url = s(i, "appId"), s(i, "appSecret"), s(i, "returnUrl")
    url = s(i, "redirectUrl")
    hash_at = url.find("#")
    if hash_at >= 0:
        url = url[:hash_at]
    q_at = url.find("?")
    query = url[q_at + 1:] if q_at >= 0 else ""
    payment, authorization = [], []
    try:
        for piece in query.split("&"):
            if piece == "":
                continue
            name, _, value = piece.partition("=")
            name = query_decode(name)
            if name == "payment":
                payment.append(query_decode(value))
            elif name == "authorization":
                authorization.append(query_decode(value))
    except UnicodeError as e:
        return {"valid": False, "payment": None, "reason": f"a parameter is not UTF-8: {e}"}
    if len(payment) != 1 or len(authorization) != 1:
        return {"valid": False, "payment": None, "reason": "need exactly one payment and one authorization (R11)"}
    ok, why = authentic(app_id, secret, "GET", return_url, authorization[0],
                        b"payment=" + payment[0].encode("utf-8"))
    return {"valid": True, "payment": payment[0]} if ok else {"valid": False, "payment": None, "reason": why}


def upload_validate(i):
    fn, ct, scene, size = i.get("filename"), i.get("contentType"), i.get("scene"), i.get("fileSize")
    def bad(why):
        return {"valid": False, "reason": why}
    if not isinstance(fn, str):
        return bad("filename is required and must be a string (2.1)")
    if len(fn) > 32:
        return bad("filename longer than 32 characters (2.1)")
    m = re.fullmatch(r"(.*)\.([^.]+)", fn, re.DOTALL)
    if m is None:
        return bad("filename has no extension (2.1)")
    if m.group(2) not in TYPES:
        return bad(f"file type {m.group(2)!r} not accepted; accepted: jpg, jpeg, png, pdf, xls, xlsx (2.2)")
    if ct is not None and (not isinstance(ct, str) or len(ct) > 32):
        return bad("contentType must be a string of at most 32 characters (2.1)")
    if not isinstance(scene, str):
        return bad("scene is required and must be a string (2.1)")
    if len(scene) > 50 or scene != "DISPUTE_EVIDENCE":
        return bad(f"scene {scene!r} is not DISPUTE_EVIDENCE (2.2)")
    if size is None:
        return {"valid": True}  # not given: unknown at this step, nothing to check (2.1 has no such field)
    if type(size) is not int or size < 0:
        return bad("fileSize must be a non-negative integer")
    if size > MAX_BYTES:
        return bad(f"{size} bytes is more than 2 MB = 2,000,000 bytes (2.2, R13)")
    return {"valid": True}


def header_quote(text):
    return text.replace('"', "%22").replace("\r", "%0D").replace("\n", "%0A").encode("utf-8")


def upload_form(i):
    pairs = i["formFields"]
    if not isinstance(pairs, list) or not all(isinstance(p, list) and len(p) == 2 and all(isinstance(x, str) for x in p) for p in pairs):
        raise Refusal("formFields must be [name, value] string pairs")
    filename = s(i, "filename")
    ctype = i.get("contentType")
    if ctype is None:
        ctype = "application/octet-stream"
    elif not isinstance(ctype, str):
        raise Refusal("contentType must be a string")
    file_bytes = raw(i, "fileB64")
    values = [v.encode("utf-8") for _, v in pairs]
    boundary = None
    while boundary is None or any(boundary in v for v in values + [file_bytes]):
        boundary = b"PanelPyRegex" + secrets.token_hex(16).encode("ascii")
    chunks = []
    for (name, _), value in zip(pairs, values):
        chunks.append(b"--%s\r\nContent-Disposition: form-data; name=\"%s\"\r\n\r\n%s\r\n" % (boundary, header_quote(name), value))
    chunks.append(b"--%s\r\nContent-Disposition: form-data; name=\"file\"; filename=\"%s\"\r\nContent-Type: %s\r\n\r\n"
                  % (boundary, header_quote(filename), ctype.encode("utf-8")))
    chunks.append(file_bytes)
    chunks.append(b"\r\n--%s--\r\n" % boundary)
    return {"contentType": "multipart/form-data; boundary=" + boundary.decode("ascii"),
            "bodyB64": base64.b64encode(b"".join(chunks)).decode("ascii")}


def content_op(i):
    c = build_content(s(i, "appId"), s(i, "appSecret"), s(i, "method"), s(i, "url"), s(i, "timestamp"),
                      s(i, "nonce"), raw(i, "bodyB64"))
    return c


OPS = {
    "signature.content": lambda i: {"contentB64": base64.b64encode(content_op(i)).decode("ascii")},
    "signature.sign": lambda i: {"sign": hashlib.sha256(content_op(i)).hexdigest()},
    "authorization.format": lambda i: {"header": format_header(i)},
    "authorization.parse": lambda i: parse(i["header"]),
    "request.verify": request_verify,
    "response.verify": response_verify,
    "webhook.verify": webhook_verify,
    "redirect.verify": redirect_verify,
    "upload.validate": upload_validate,
    "upload.form": upload_form,
}


def handle(msg):
    if msg["cmd"] == "start":
        if msg.get("protocol") != 1:
            return {"ready": False, "reason": "protocol 1 only"}
        return {"ready": True, "protocol": 1, "implementation": IMPLEMENTATION, "operations": sorted(OPS)}
    op = msg.get("op")
    if op not in OPS:
        return {"id": msg["id"], "unsupported": {"reason": f"{op} not implemented"}}
    try:
        return {"id": msg["id"], "result": OPS[op](msg["input"])}
    except (Refusal, binascii.Error, UnicodeError, KeyError, TypeError, ValueError) as e:
        return {"id": msg["id"], "rejected": {"reason": f"{type(e).__name__}: {e}"}}


if __name__ == "__main__":
    for line in sys.stdin.buffer:
        try:
            msg = json.loads(line)
        except ValueError as e:
            sys.stderr.write(f"ignored a line that is not JSON: {e}\n")
            continue
        if msg.get("cmd") == "stop":
            break
        print(json.dumps(handle(msg), separators=(",", ":")), flush=True)
