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
The rest is as the spec and the readings write it, nothing chosen: the seven parts as bytes (R1-R6:
the body untouched, the URL as sent), a response verified over its raw bytes and only when 200, its
appId the merchant's own (R9), the webhook's part 4 the notifyUrl as submitted (R10), one payment and
one authorization parameter in a redirect (R11), the formFields in order then the file (R14).
"""
import sys
import json
import hmac
import hashlib
import base64
import secrets

IMPLEMENTATION = {"name": "panel-py-go-style", "version": "1.0.0", "language": "python"}
ITEMS = ("appId", "sign", "timestamp", "nonce")
OK_TYPES = ("jpg", "jpeg", "png", "pdf", "xls", "xlsx")
TWO_MB = 2 << 20


class Refuse(Exception):
    """An error value, as the Go code returns one."""


def get_text(i, key):
    s = i[key]
    if type(s) is not str:
        raise Refuse(f"input {key}: want a string")
    return s


def get_bytes(i, key):
    return base64.b64decode(get_text(i, key).encode("ascii"), validate=True)


def content_bytes(app_id, secret, method, url, timestamp, nonce, body):
    """A bytes.Buffer of the seven parts, each followed by LF (5.1; R1-R3: the body's bytes as they are)."""
    buf = bytearray()
    for part in (app_id, secret, method, url, timestamp, nonce):
        buf += part.encode("utf-8")
        buf += b"\n"
    buf += body
    buf += b"\n"
    return bytes(buf)


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
        if value == "" or known in values:
            raise Refuse(f"{known}: " + ("duplicate item" if known in values else "empty value"))
        values[known] = value
    if len(values) != len(ITEMS):
        raise Refuse("want appId, sign, timestamp and nonce; have " + ",".join(values))
    return {n: values[n] for n in ITEMS}


def format_header(i):
    """fmt.Sprintf of the four items, sign first (5.3: any order)."""
    vals = {n: get_text(i, n) for n in ITEMS}
    if any(v == "" or "," in v for v in vals.values()):
        raise Refuse("an item value is empty or holds a comma")
    return "V2_SHA256 sign={sign},appId={appId},nonce={nonce},timestamp={timestamp}".format(**vals)


def check_sign(app_id, secret, method, url, header, body):
    """The Go gateway's verifySignature: nil (None) when it verifies, else the error text."""
    if header is None:
        return "missing Authorization"
    try:
        items = parse_header(header)
    except Refuse as e:
        return f"authorization: {e}"
    if items["appId"] != app_id:
        return "appId mismatch (R9)"
    try:
        got = bytes.fromhex(items["sign"]) if len(items["sign"]) == 64 else None  # hex.DecodeString: either case
    except ValueError:
        got = None
    if got is None:
        return "sign is not 64 hex digits"
    want = hashlib.sha256(content_bytes(app_id, secret, method, url, items["timestamp"], items["nonce"], body)).digest()
    return None if hmac.compare_digest(want, got) else "signature mismatch"


def verdict(err):
    return {"valid": True} if err is None else {"valid": False, "reason": err}


def query_unescape(s):
    """url.QueryUnescape, then utf8.ValidString: '+' is a space, a bad %-escape or bytes that are not UTF-8 an error."""
    raw = bytearray()
    pos = 0
    while pos < len(s):
        if s[pos] == "%":
            digits = s[pos + 1:pos + 3]
            if len(digits) < 2 or not all(d in "0123456789abcdefABCDEF" for d in digits):
                raise Refuse(f"invalid URL escape {s[pos:pos + 3]!r}")
            raw.append(int(digits, 16))
            pos += 3
        else:
            raw += b" " if s[pos] == "+" else s[pos].encode("utf-8")
            pos += 1
    return raw.decode("utf-8")


def parse_query(query):
    """url.ParseQuery: every key's values in order (an error stops the redirect)."""
    values = {}
    for pair in query.split("&"):
        if pair:
            key, _, value = pair.partition("=")
            values.setdefault(query_unescape(key), []).append(query_unescape(value))
    return values


def op_redirect(i):
    u = get_text(i, "redirectUrl").split("#")[0]
    try:
        q = parse_query(u.split("?", 1)[1] if "?" in u else "")
    except (Refuse, UnicodeDecodeError) as e:
        return {"valid": False, "payment": None, "reason": str(e)}
    payments, auths = q.get("payment", []), q.get("authorization", [])
    if len(payments) != 1 or len(auths) != 1:
        return {"valid": False, "payment": None, "reason": "want one payment and one authorization (R11)"}
    err = check_sign(get_text(i, "appId"), get_text(i, "appSecret"), "GET", get_text(i, "returnUrl"), auths[0], b"payment=" + payments[0].encode("utf-8"))
    return {**verdict(err), "payment": payments[0] if err is None else None}


def op_verify(url_key, status_checked=False):
    def run(i):
        if status_checked and (type(i["status"]) is not int or i["status"] != 200):
            return verdict(f"status {i['status']} is not 200 (R9)")
        return verdict(check_sign(get_text(i, "appId"), get_text(i, "appSecret"), get_text(i, "method"), get_text(i, url_key), i["authorization"], get_bytes(i, "bodyB64")))
    return run


def op_validate(i):
    errs = []
    name = i.get("filename")
    if not isinstance(name, str):
        errs.append("filename: required string (2.1)")
    else:
        if len(name) > 32:
            errs.append("filename: over 32 characters (2.1)")
        dot = name.rfind(".")
        ext = name[dot + 1:] if dot >= 0 else ""
        if not any(equal_fold(ext, t) for t in OK_TYPES):
            errs.append(f"file type {ext!r} not allowed (2.2)")
    ct = i.get("contentType")
    if ct is not None and not (isinstance(ct, str) and len(ct) <= 32):
        errs.append("contentType: at most 32 characters (2.1)")
    if i.get("scene") != "DISPUTE_EVIDENCE":
        errs.append("scene: DISPUTE_EVIDENCE only (2.2)")
    size = i.get("fileSize")
    if size is not None and (type(size) is not int or size < 0 or size > TWO_MB):
        errs.append("fileSize: 0 to 2 MB = 2,097,152 bytes (8, R13)")
    return verdict("; ".join(errs) or None)


def op_form(i):
    fields = i["formFields"]
    if not isinstance(fields, list) or any(not isinstance(f, list) or len(f) != 2 or not all(isinstance(x, str) for x in f) for f in fields):
        raise Refuse("formFields: want [][2]string")
    data = get_bytes(i, "fileB64")
    boundary = secrets.token_hex(30)  # mime/multipart's randomBoundary
    esc = lambda t: t.replace("\r", "%0D").replace("\n", "%0A").replace('"', "%22")
    buf = b""
    for name, value in fields:
        buf += f'--{boundary}\r\nContent-Disposition: form-data; name="{esc(name)}"\r\n\r\n'.encode("utf-8") + value.encode("utf-8") + b"\r\n"
    ctype = i.get("contentType") if isinstance(i.get("contentType"), str) else "application/octet-stream"
    buf += (f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="{esc(get_text(i, "filename"))}"\r\n'
            f"Content-Type: {ctype}\r\n\r\n").encode("utf-8") + data + f"\r\n--{boundary}--\r\n".encode("ascii")
    return {"contentType": "multipart/form-data; boundary=" + boundary, "bodyB64": base64.b64encode(buf).decode("ascii")}


def seven_parts(i):
    return content_bytes(*(get_text(i, k) for k in ("appId", "appSecret", "method", "url", "timestamp", "nonce")), get_bytes(i, "bodyB64"))


ROUTES = {
    "signature.content": lambda i: {"contentB64": base64.b64encode(seven_parts(i)).decode("ascii")},
    "signature.sign": lambda i: {"sign": hashlib.sha256(seven_parts(i)).hexdigest()},
    "authorization.format": lambda i: {"header": format_header(i)},
    "authorization.parse": lambda i: parse_header(i["header"]),
    "request.verify": op_verify("url"),
    "response.verify": op_verify("url", status_checked=True),
    "webhook.verify": op_verify("notifyUrl"),
    "redirect.verify": op_redirect,
    "upload.validate": op_validate,
    "upload.form": op_form,
}


def serve(stdin, stdout):
    for line in stdin:
        try:
            m = json.loads(line)
        except ValueError as e:
            print("bad line:", e, file=sys.stderr)
            continue
        if m.get("cmd") == "stop":
            return
        if m.get("cmd") == "start":
            out = ({"ready": True, "protocol": 1, "implementation": IMPLEMENTATION, "operations": list(ROUTES)}
                   if m.get("protocol") == 1 else {"ready": False, "reason": "speaks protocol 1"})
        elif m.get("op") not in ROUTES:
            out = {"id": m["id"], "unsupported": {"reason": "no such operation here"}}
        else:
            try:
                out = {"id": m["id"], "result": ROUTES[m["op"]](m["input"])}
            except Exception as e:
                out = {"id": m["id"], "rejected": {"reason": f"{type(e).__name__}: {e}"}}
        stdout.write(json.dumps(out, separators=(",", ":")) + "\n")
        stdout.flush()


if __name__ == "__main__":
    serve(sys.stdin, sys.stdout)
