#!/usr/bin/env python3
"""Panel member `py-go-style`: a protocol v1 testee (JSON lines on stdin/stdout), Python 3.11, stdlib only.

The header parser of a gateway written in Go, ported to Python with Go's string semantics; the same
parser serves `go-style-gateway.py`, a small gateway over HTTP. A correct implementation of the
gateway's V2_SHA256 signing scheme and evidence upload, written from gateway-spec.md and readings.md
alone. Its defensible choices (each within the readings):

- Authorization parsing (5.3, R8), as `strings.TrimSpace`, `strings.Cut(h, " ")`,
  `strings.Split(rest, ",")`, `strings.Cut(part, "=")`, `strings.EqualFold`:
  - `strings.TrimSpace` (Unicode White_Space: HTAB, LF, VT, FF, CR, SP, U+0085, U+00A0, U+1680,
    U+2000-U+200A, U+2028, U+2029, U+202F, U+205F, U+3000) at every place R8(a) names: the whole
    header, both ends of each item, both sides of "=". White space inside a value is kept.
  - the scheme word ends at the first SP and is compared with `strings.EqualFold` (R8(c)).
  - an element that is empty once trimmed is skipped wherever it stands (R8(d), RFC 9110 5.6.1).
  - item names are compared with `strings.EqualFold` (R8(e), RFC 9110 11.2): Go's simple case
    folding, emulated here by the one-char upper case then lower case, U+0130 and U+0131 folding to
    themselves (CaseFolding.txt gives them only Turkic and full mappings), U+017F to s, U+212A to k.
    A duplicate after folding is refused.
  - unknown items are refused (R8(b) the other way).
- Verification (5.2, R7): the sign is hex-decoded (either case, as `hex.DecodeString`) and the bytes
  compared, so the right digest in upper case is accepted.
- upload.validate (2.2, 8, R13): 2 MB = 2,097,152 bytes; the extension compared with
  `strings.EqualFold`, so `scan.PDF` is accepted.
- authorization.format writes the items in the order sign, appId, nonce, timestamp (5.3: any order).
- redirect decoding (R11) as `url.ParseQuery`: `+` is a space, percent-escapes are UTF-8, malformed
  ones refuse the redirect.
- upload.form uses a boundary like Go's mime/multipart (60 hex digits).
Everything else follows the spec and R1-R16 as written: content bytes R1-R6, URL as sent R4, raw
response bytes R9 (only 200 verified, 200 without Authorization invalid, appId must be the
merchant's own), webhook part 4 = notifyUrl as submitted R10, exactly one payment and one
authorization parameter R11, upload form R14.
"""
import base64
import hashlib
import hmac
import json
import secrets
import sys
from urllib.parse import unquote_plus

IMPLEMENTATION = {"name": "panel-py-go-style", "version": "1.0.0", "language": "python"}
ITEMS = ("appId", "sign", "timestamp", "nonce")
OK_TYPES = ("jpg", "jpeg", "png", "pdf", "xls", "xlsx")
TWO_MB = 2_097_152


class Refuse(Exception):
    pass


def get_text(i, key):
    value = i[key]
    if not isinstance(value, str):
        raise Refuse(f"{key} is not a string")
    return value


def get_bytes(i, key):
    return base64.b64decode(get_text(i, key), validate=True)


def content_bytes(app_id, secret, method, url, timestamp, nonce, body):
    lines = "\n".join((app_id, secret, method, url, timestamp, nonce)) + "\n"
    return lines.encode("utf-8") + body + b"\n"


GO_SPACE = set("\t\n\v\f\r \u0085\u00a0\u1680\u2028\u2029\u202f\u205f\u3000") | {chr(c) for c in range(0x2000, 0x200B)}


def trim_space(s):
    """strings.TrimSpace: Unicode White_Space removed at both ends."""
    start, end = 0, len(s)
    while start < end and s[start] in GO_SPACE:
        start += 1
    while end > start and s[end - 1] in GO_SPACE:
        end -= 1
    return s[start:end]


def fold_rune(c):
    """One rune under Go's simple case folding (what strings.EqualFold compares)."""
    special = {"\u017f": "s", "\u212a": "k", "\u0130": "\u0130", "\u0131": "\u0131"}
    if c in special:
        return special[c]
    u = c.upper()
    u = u if len(u) == 1 else c
    low = u.lower()
    return low if len(low) == 1 else u


def equal_fold(a, b):
    """strings.EqualFold: rune by rune under simple case folding."""
    return len(a) == len(b) and all(x == y or fold_rune(x) == fold_rune(y) for x, y in zip(a, b))


def parse_header(header):
    if not isinstance(header, str):
        raise Refuse("header is not a string")
    scheme, sp, rest = trim_space(header).partition(" ")
    if not sp or not equal_fold(scheme, "V2_SHA256"):
        raise Refuse("not a V2_SHA256 header")
    values = {}
    for part in rest.split(","):
        part = trim_space(part)
        if part == "":
            continue  # R8(d): an empty list element is skipped
        name, eq, value = part.partition("=")
        if not eq:
            raise Refuse(f"item {part!r} lacks '='")
        name, value = trim_space(name), trim_space(value)
        known = next((n for n in ITEMS if equal_fold(n, name)), None)
        if known is None:
            raise Refuse(f"unknown item {name!r}")
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
    order = ("sign", "appId", "nonce", "timestamp")
    written = []
    for name in order:
        value = get_text(i, name)
        if "," in value or not value:
            raise Refuse(f"{name} is empty or holds ','")
        written.append(f"{name}={value}")
    return "V2_SHA256 " + ",".join(written)


HEX = set("0123456789abcdefABCDEF")


def verify(app_id, secret, method, url, authorization, body):
    if authorization is None:
        return {"valid": False, "reason": "the Authorization header is missing"}
    try:
        items = parse_header(authorization)
    except Refuse as e:
        return {"valid": False, "reason": f"Authorization: {e}"}
    if items["appId"] != app_id:
        return {"valid": False, "reason": "appId is not ours"}
    given = items["sign"]
    if len(given) != 64 or not set(given) <= HEX:
        return {"valid": False, "reason": "sign is not 64 hex digits"}
    expected = hashlib.sha256(content_bytes(app_id, secret, method, url, items["timestamp"], items["nonce"], body)).digest()
    if not hmac.compare_digest(expected, bytes.fromhex(given)):
        return {"valid": False, "reason": "signature mismatch"}
    return {"valid": True}


def op_request(i):
    return verify(get_text(i, "appId"), get_text(i, "appSecret"), get_text(i, "method"), get_text(i, "url"),
                  i["authorization"], get_bytes(i, "bodyB64"))


def op_response(i):
    status = i["status"]
    if isinstance(status, bool) or status != 200:
        return {"valid": False, "reason": f"HTTP {status}: only 200 responses are authenticated (5.4, R9)"}
    return op_request(i)


def op_webhook(i):
    return verify(get_text(i, "appId"), get_text(i, "appSecret"), get_text(i, "method"), get_text(i, "notifyUrl"),
                  i["authorization"], get_bytes(i, "bodyB64"))


def op_redirect(i):
    app_id, secret, return_url = get_text(i, "appId"), get_text(i, "appSecret"), get_text(i, "returnUrl")
    address = get_text(i, "redirectUrl").split("#", 1)[0]
    query = address.split("?", 1)[1] if "?" in address else ""
    payment, authorization = [], []
    try:
        for field in filter(None, query.split("&")):
            key, _, value = field.partition("=")
            key = unquote_plus(key, errors="strict")
            if key == "payment":
                payment.append(unquote_plus(value, errors="strict"))
            elif key == "authorization":
                authorization.append(unquote_plus(value, errors="strict"))
    except UnicodeDecodeError as e:
        return {"valid": False, "payment": None, "reason": f"percent-decoding is not UTF-8: {e}"}
    if len(payment) != 1 or len(authorization) != 1:
        return {"valid": False, "payment": None,
                "reason": f"{len(payment)} payment / {len(authorization)} authorization parameters; one each needed (R11)"}
    out = verify(app_id, secret, "GET", return_url, authorization[0], ("payment=" + payment[0]).encode("utf-8"))
    out["payment"] = payment[0] if out["valid"] else None
    return out


def op_validate(i):
    problems = []
    filename = i.get("filename")
    if filename is None:
        problems.append("filename is required (2.1)")
    elif not isinstance(filename, str):
        problems.append("filename must be a string")
    else:
        if len(filename) > 32:
            problems.append(f"filename: {len(filename)} characters > 32 (2.1)")
        _, dot, ext = filename.rpartition(".")
        if not dot or not ext:
            problems.append("filename has no extension (2.1)")
        elif not ext.isascii() or ext.lower() not in OK_TYPES:
            problems.append(f"file type {ext!r} not accepted (2.2)")
    content_type = i.get("contentType")
    if content_type is not None and (not isinstance(content_type, str) or len(content_type) > 32):
        problems.append("contentType: string of at most 32 characters (2.1)")
    scene = i.get("scene")
    if scene is None:
        problems.append("scene is required (2.1)")
    elif not isinstance(scene, str) or len(scene) > 50 or scene != "DISPUTE_EVIDENCE":
        problems.append(f"scene {scene!r}: must be DISPUTE_EVIDENCE (2.2)")
    size = i.get("fileSize")
    if size is None:
        pass  # not given: unknown at this step, nothing to check (2.1 has no such field)
    elif isinstance(size, bool) or not isinstance(size, int) or size < 0:
        problems.append("fileSize must be a non-negative integer")
    elif size > TWO_MB:
        problems.append(f"file size {size} > 2 MB = 2,097,152 bytes (8, R13)")
    if problems:
        return {"valid": False, "reason": "; ".join(problems)}
    return {"valid": True}


def quoted(value):
    return value.replace("\n", "%0A").replace("\r", "%0D").replace('"', "%22").encode("utf-8")


def op_form(i):
    fields = i["formFields"]
    if not isinstance(fields, list):
        raise Refuse("formFields is not a list")
    entries = []
    for entry in fields:
        if not isinstance(entry, list) or len(entry) != 2 or not all(isinstance(x, str) for x in entry):
            raise Refuse("a formFields entry is not a pair of strings")
        entries.append((entry[0], entry[1].encode("utf-8")))
    filename = get_text(i, "filename")
    content_type = i.get("contentType")
    if content_type is None:
        content_type = "application/octet-stream"
    elif not isinstance(content_type, str):
        raise Refuse("contentType is not a string")
    data = get_bytes(i, "fileB64")
    while True:
        boundary = secrets.token_hex(30)
        delimiter = b"--" + boundary.encode("ascii")
        if delimiter not in data and not any(delimiter in v for _, v in entries):
            break
    body = b""
    for name, value in entries:
        body += delimiter + b'\r\nContent-Disposition: form-data; name="' + quoted(name) + b'"\r\n\r\n' + value + b"\r\n"
    body += (delimiter + b'\r\nContent-Disposition: form-data; name="file"; filename="' + quoted(filename)
             + b'"\r\nContent-Type: ' + content_type.encode("utf-8") + b"\r\n\r\n" + data + b"\r\n")
    body += delimiter + b"--\r\n"
    return {"contentType": f"multipart/form-data; boundary={boundary}",
            "bodyB64": base64.b64encode(body).decode("ascii")}


def op_content(i):
    c = content_bytes(*(get_text(i, k) for k in ("appId", "appSecret", "method", "url", "timestamp", "nonce")),
                      get_bytes(i, "bodyB64"))
    return {"contentB64": base64.b64encode(c).decode("ascii")}


def op_sign(i):
    c = content_bytes(*(get_text(i, k) for k in ("appId", "appSecret", "method", "url", "timestamp", "nonce")),
                      get_bytes(i, "bodyB64"))
    return {"sign": hashlib.sha256(c).hexdigest()}


OPS = {
    "signature.content": op_content,
    "signature.sign": op_sign,
    "authorization.format": lambda i: {"header": format_header(i)},
    "authorization.parse": lambda i: parse_header(i["header"]),
    "request.verify": op_request,
    "response.verify": op_response,
    "webhook.verify": op_webhook,
    "redirect.verify": op_redirect,
    "upload.validate": op_validate,
    "upload.form": op_form,
}


def reply(msg):
    if msg["cmd"] == "start":
        if msg.get("protocol") == 1:
            return {"ready": True, "protocol": 1, "implementation": IMPLEMENTATION, "operations": list(OPS)}
        return {"ready": False, "reason": "only protocol 1 is spoken"}
    handler = OPS.get(msg.get("op"))
    if handler is None:
        return {"id": msg["id"], "unsupported": {"reason": "operation not implemented"}}
    try:
        return {"id": msg["id"], "result": handler(msg["input"])}
    except Exception as e:
        return {"id": msg["id"], "rejected": {"reason": f"{type(e).__name__}: {e}"}}


def main():
    out = sys.stdout
    for line in sys.stdin.buffer:
        try:
            msg = json.loads(line)
        except ValueError as e:
            print(f"not a protocol line: {e}", file=sys.stderr)
            continue
        if msg.get("cmd") == "stop":
            break
        out.write(json.dumps(reply(msg), separators=(",", ":")) + "\n")
        out.flush()


if __name__ == "__main__":
    main()
