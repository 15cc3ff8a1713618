#!/usr/bin/env python3
"""Panel member `py-streaming`: a protocol v1 testee (JSON lines on stdin/stdout), Python 3.11, stdlib only.

A correct implementation of the gateway's V2_SHA256 signing scheme and evidence upload, written from
gateway-spec.md and readings.md alone. Its defensible choices (each within the readings):

- Signing (5.1, 5.2, R1-R3): the signer never builds the signature content as one buffer: it feeds
  hashlib.sha256 part by part (each part's UTF-8, then its LF) and the body in chunks of 7 bytes, then
  the final LF. (signature.content builds the content, as the operation asks for it.) Every verify
  operation uses this streaming signer.
- Authorization parsing (5.3, R8): a character scanner. The header must start with `V2_SHA256` and
  one SP (scheme compared exactly). Only SP and HTAB (RFC 9110 OWS/BWS) are trimmed, at the two ends
  of each item and on both sides of "=" -- so further SP/HTAB after the scheme word's SP are trimmed
  as the first item's leading end; any other white space (CR, LF, U+00A0, U+3000, ...) is kept as part
  of the name or value (R8(a): "kept"). Unknown items are refused (the strict parser).
- Verification (5.2, R7): the right digest in upper-case hex is refused; only lower case is accepted.
- upload.validate (2.2, 8, R13): 2 MB = 2,000,000 bytes; the extension is compared without regard to
  ASCII letter case (`scan.PDF` accepted).
- authorization.format writes the items in the order of 5.3.
- redirect decoding (R11) is a hand-written byte scanner: `+` as space, %XX decoded, the bytes decoded
  as strict UTF-8; a `%` not followed by two hex digits is kept as it is.
- upload.form writes the multipart body part by part with CRLF line ends and a boundary of the form
  `----PanelPyStreaming` + 20 hex digits.
Everything else follows the spec and R1-R16 as written: URL as sent R4, raw response bytes R9 (only
200 verified, 200 without Authorization invalid, appId must be the merchant's own), webhook part 4 =
notifyUrl as submitted R10, exactly one payment and one authorization parameter R11, upload form R14.
"""
import base64
import hashlib
import hmac
import json
import os
import sys

IMPLEMENTATION = {"name": "panel-py-streaming", "version": "1.0.0", "language": "python"}
KNOWN = ("appId", "sign", "timestamp", "nonce")
OWS = " \t"
CHUNK = 7
LIMIT = 2_000_000
EXTENSIONS = {"jpg", "jpeg", "png", "pdf", "xls", "xlsx"}


class Invalid(Exception):
    pass


def text(i, k):
    v = i[k]
    if type(v) is not str:
        raise Invalid(f"{k}: a string is required")
    return v


def body_of(i, k):
    return base64.b64decode(text(i, k), validate=True)


def streamed_sign(parts, body):
    """SHA-256 of parts 1-6 (each + LF), the body fed 7 bytes at a time, then LF; lower-case hex."""
    h = hashlib.sha256()
    for p in parts:
        h.update(p.encode("utf-8"))
        h.update(b"\n")
    view = memoryview(body)
    for at in range(0, len(view), CHUNK):
        h.update(view[at:at + CHUNK])
    h.update(b"\n")
    return h.hexdigest()


def scan_items(rest):
    """Splits `rest` at commas into (name, value) pairs, trimming SP/HTAB at item ends and around '='."""
    items, at = [], 0
    while True:
        comma = rest.find(",", at)
        end = len(rest) if comma < 0 else comma
        piece = rest[at:end]
        eq = piece.find("=")
        if eq < 0:
            raise Invalid(f"item {piece!r} has no '='")
        items.append((piece[:eq].strip(OWS), piece[eq + 1:].strip(OWS)))
        if comma < 0:
            return items
        at = comma + 1


def parse(header):
    if type(header) is not str:
        raise Invalid("header: a string is required")
    prefix = "V2_SHA256 "
    if not header.startswith(prefix):
        raise Invalid("the header does not start with 'V2_SHA256 '")
    seen = {}
    for name, value in scan_items(header[len(prefix):]):
        if name not in KNOWN:
            raise Invalid(f"unknown item {name!r}")
        if name in seen:
            raise Invalid(f"item {name} given twice")
        if not value:
            raise Invalid(f"item {name} has an empty value")
        seen[name] = value
    for name in KNOWN:
        if name not in seen:
            raise Invalid(f"item {name} missing")
    return {name: seen[name] for name in KNOWN}


def format_header(i):
    pieces = []
    for name in KNOWN:
        v = text(i, name)
        if v == "" or "," in v:
            raise Invalid(f"{name} cannot be carried by the header")
        pieces.append(name + "=" + v)
    return "V2_SHA256 " + ",".join(pieces)


def judge(app_id, secret, method, url, authorization, body):
    if authorization is None:
        return {"valid": False, "reason": "Authorization absent"}
    try:
        items = parse(authorization)
    except Invalid as e:
        return {"valid": False, "reason": f"Authorization refused: {e}"}
    if items["appId"] != app_id:
        return {"valid": False, "reason": "appId is another merchant's"}
    mine = streamed_sign((app_id, secret, method, url, items["timestamp"], items["nonce"]), body)
    if not hmac.compare_digest(mine.encode("utf-8"), items["sign"].encode("utf-8")):
        return {"valid": False, "reason": "sign mismatch"}
    return {"valid": True}


def request_verify(i):
    return judge(text(i, "appId"), text(i, "appSecret"), text(i, "method"), text(i, "url"),
                 i["authorization"], body_of(i, "bodyB64"))


def response_verify(i):
    if type(i["status"]) is not int or i["status"] != 200:
        return {"valid": False, "reason": "not an HTTP 200 response: not verified as authentic (R9)"}
    return request_verify(i)


def webhook_verify(i):
    return judge(text(i, "appId"), text(i, "appSecret"), text(i, "method"), text(i, "notifyUrl"),
                 i["authorization"], body_of(i, "bodyB64"))


HEXDIGITS = b"0123456789abcdefABCDEF"


def unescape(component):
    src = component.encode("utf-8")
    out = bytearray()
    k = 0
    while k < len(src):
        b = src[k]
        if b == 0x2B:  # '+'
            out.append(0x20)
            k += 1
        elif b == 0x25 and k + 2 < len(src) and src[k + 1] in HEXDIGITS and src[k + 2] in HEXDIGITS:
            out.append(int(src[k + 1:k + 3], 16))
            k += 3
        else:
            out.append(b)
            k += 1
    return out.decode("utf-8")


def redirect_verify(i):
    app_id, secret, return_url = text(i, "appId"), text(i, "appSecret"), text(i, "returnUrl")
    landed = text(i, "redirectUrl").partition("#")[0]
    _, has_query, query = landed.partition("?")
    found = {"payment": [], "authorization": []}
    try:
        for piece in query.split("&") if has_query else []:
            if not piece:
                continue
            name, _, value = piece.partition("=")
            name = unescape(name)
            if name in found:
                found[name].append(unescape(value))
    except UnicodeDecodeError as e:
        return {"valid": False, "payment": None, "reason": f"not UTF-8 after percent-decoding: {e}"}
    if len(found["payment"]) != 1 or len(found["authorization"]) != 1:
        return {"valid": False, "payment": None, "reason": "exactly one payment and one authorization (R11)"}
    payment = found["payment"][0]
    verdict = judge(app_id, secret, "GET", return_url, found["authorization"][0],
                    b"payment=" + payment.encode("utf-8"))
    verdict["payment"] = payment if verdict["valid"] else None
    return verdict


def upload_validate(i):
    def no(reason):
        return {"valid": False, "reason": reason}
    filename = i.get("filename")
    if filename is None:
        return no("filename missing (2.1: required)")
    if type(filename) is not str:
        return no("filename is not a string")
    if len(filename) > 32:
        return no("filename exceeds 32 characters (2.1)")
    dot = filename.rfind(".")
    ext = filename[dot + 1:] if dot >= 0 else ""
    if ext == "":
        return no("filename without an extension (2.1)")
    if not ext.isascii() or ext.lower() not in EXTENSIONS:
        return no(f"extension {ext!r} not among jpg, jpeg, png, pdf, xls, xlsx (2.2)")
    ct = i.get("contentType")
    if ct is not None and (type(ct) is not str or len(ct) > 32):
        return no("contentType is not a string of at most 32 characters (2.1)")
    scene = i.get("scene")
    if scene is None:
        return no("scene missing (2.1: required)")
    if type(scene) is not str or len(scene) > 50 or scene != "DISPUTE_EVIDENCE":
        return no("scene must be DISPUTE_EVIDENCE exactly (2.2)")
    size = i.get("fileSize")
    if size is None:
        return {"valid": True}  # not given: unknown at this step, nothing to check (2.1 has no such field)
    if type(size) is not int or size < 0:
        return no("fileSize is not a byte count")
    if size > LIMIT:
        return no(f"{size} bytes > 2 MB (2,000,000 bytes; R13)")
    return {"valid": True}


def cd_escape(v):
    return v.replace('"', "%22").replace("\r", "%0D").replace("\n", "%0A")


def upload_form(i):
    fields = i["formFields"]
    if type(fields) is not list:
        raise Invalid("formFields: a list of pairs is required")
    for f in fields:
        if type(f) is not list or len(f) != 2 or type(f[0]) is not str or type(f[1]) is not str:
            raise Invalid("formFields: each entry is a [name, value] pair of strings")
    filename = text(i, "filename")
    ctype = i.get("contentType")
    if ctype is None:
        ctype = "application/octet-stream"
    if type(ctype) is not str:
        raise Invalid("contentType: a string is required")
    data = body_of(i, "fileB64")
    encoded = [(n, v.encode("utf-8")) for n, v in fields]
    while True:
        boundary = "----PanelPyStreaming" + os.urandom(10).hex()
        marker = boundary.encode("ascii")
        if marker not in data and all(marker not in v for _, v in encoded):
            break
    out = []
    for name, value in encoded:
        out.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{cd_escape(name)}"\r\n\r\n'.encode("utf-8"))
        out.append(value)
        out.append(b"\r\n")
    out.append((f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="{cd_escape(filename)}"\r\n'
                f"Content-Type: {ctype}\r\n\r\n").encode("utf-8"))
    out.append(data)
    out.append(f"\r\n--{boundary}--\r\n".encode("ascii"))
    return {"contentType": f"multipart/form-data; boundary={boundary}",
            "bodyB64": base64.b64encode(b"".join(out)).decode("ascii")}


def parts_of(i):
    return tuple(text(i, k) for k in ("appId", "appSecret", "method", "url", "timestamp", "nonce"))


def signature_content(i):
    parts, body = parts_of(i), body_of(i, "bodyB64")
    return {"contentB64": base64.b64encode(b"".join(p.encode("utf-8") + b"\n" for p in parts) + body + b"\n").decode("ascii")}


OPS = {
    "signature.content": signature_content,
    "signature.sign": lambda i: {"sign": streamed_sign(parts_of(i), body_of(i, "bodyB64"))},
    "authorization.format": lambda i: {"header": format_header(i)},
    "authorization.parse": lambda i: parse(i["header"]),
    "request.verify": request_verify,
    "response.verify": response_verify,
    "webhook.verify": webhook_verify,
    "redirect.verify": redirect_verify,
    "upload.validate": upload_validate,
    "upload.form": upload_form,
}


def serve(stdin, stdout):
    for line in stdin:
        try:
            msg = json.loads(line)
        except ValueError as e:
            sys.stderr.write(f"skipping a line that is not JSON ({e})\n")
            continue
        cmd = msg.get("cmd")
        if cmd == "stop":
            return
        if cmd == "start":
            reply = ({"ready": True, "protocol": 1, "implementation": IMPLEMENTATION, "operations": list(OPS)}
                     if msg.get("protocol") == 1 else {"ready": False, "reason": "protocol 1 only"})
        elif msg.get("op") in OPS:
            try:
                reply = {"id": msg["id"], "result": OPS[msg["op"]](msg["input"])}
            except Exception as e:
                reply = {"id": msg["id"], "rejected": {"reason": f"{type(e).__name__}: {e}"}}
        else:
            reply = {"id": msg.get("id"), "unsupported": {"reason": f"{msg.get('op')} not implemented"}}
        stdout.write(json.dumps(reply, separators=(",", ":")).encode("ascii") + b"\n")
        stdout.flush()


if __name__ == "__main__":
    serve(sys.stdin.buffer, sys.stdout.buffer)
