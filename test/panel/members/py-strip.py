#!/usr/bin/env python3
"""Panel member `py-strip`: a protocol v1 testee (JSON lines on stdin/stdout), Python 3.11, stdlib only.

A correct implementation of the gateway's V2_SHA256 signing scheme and evidence upload, written from
gateway-spec.md and readings.md alone. Its defensible choices (each within the readings):

- Authorization parsing (5.3, R8): trims with Python `str.strip()` -- Unicode white space as
  `str.isspace()` defines it (SP, HTAB, CR, LF, VT, FF, U+001C-U+001F, U+0085, U+00A0, U+3000, ...) --
  at every place R8(a) allows: the whole header value (RFC 9110 5.5: leading and trailing white space
  is not part of a field value), after the scheme word (`str.split(None, 1)`), both ends of each item,
  both sides of "=". White space inside a value is kept. Unknown items are ignored, one with an empty
  name included (R8(b)). The scheme word is compared exactly (R8: `V2_SHA256`). A duplicate that only
  appears after trimming is refused.
- Verification (5.2, R7): only the lower-case hex digest is accepted; the right digest in upper case
  is refused.
- upload.validate (2.2, 8, R13): 2 MB = 2,097,152 bytes; the extension is compared without regard to
  (ASCII) letter case, so `scan.PDF` is accepted.
- authorization.format writes the items in the order of 5.3 (appId, sign, timestamp, nonce).
- upload.form uses a Node-form-data-like boundary (`-` x 26 + 24 hex digits), unquoted.
Everything else follows the spec and R1-R16 as written: content bytes R1-R6, URL as sent R4, raw
response bytes R9 (only 200 verified, 200 without Authorization invalid, appId must be the
merchant's own), webhook part 4 = notifyUrl as submitted R10, redirect decoding R11 (urllib.parse:
`+` as space, percent-decoding as strict UTF-8, exactly one payment and one authorization), upload
form R14.
"""
import base64
import hashlib
import hmac
import json
import secrets
import sys
import urllib.parse

IMPLEMENTATION = {"name": "panel-py-strip", "version": "1.0.0", "language": "python"}
SCHEME = "V2_SHA256"
ITEM_NAMES = ("appId", "sign", "timestamp", "nonce")
ACCEPTED_EXTENSIONS = ("jpg", "jpeg", "png", "pdf", "xls", "xlsx")
MAX_FILE_BYTES = 2 * 1024 * 1024  # R13 upper bound: 2,097,152


class Refused(Exception):
    """The input is refused; the message is the reason."""


def need_str(value, what):
    if not isinstance(value, str):
        raise Refused(f"{what} must be a string")
    return value


def b64bytes(value, what):
    return base64.b64decode(need_str(value, what), validate=True)


# --- 5.1, 5.2 ---------------------------------------------------------------------------------

def signature_content(app_id, secret, method, url, timestamp, nonce, body):
    """Seven parts, each followed by one LF; the body as its exact bytes (R1-R6)."""
    head = "".join(part + "\n" for part in (app_id, secret, method, url, timestamp, nonce))
    return head.encode("utf-8") + body + b"\n"


def sign_of(content):
    return hashlib.sha256(content).hexdigest()  # lower case, 64 digits (5.2)


# --- 5.3, R8 ----------------------------------------------------------------------------------

def parse_authorization(header):
    need_str(header, "header")
    words = header.strip().split(None, 1)
    if len(words) < 2:
        raise Refused("no items after the scheme word")
    scheme, rest = words
    if scheme != SCHEME:
        raise Refused(f"scheme {scheme!r} is not {SCHEME}")
    found = {}
    for raw in rest.split(","):
        item = raw.strip()
        if "=" not in item:
            raise Refused(f"item {item!r} has no '='")
        name, value = item.split("=", 1)
        name, value = name.strip(), value.strip()
        if name not in ITEM_NAMES:
            continue  # R8(b): unknown items ignored
        if name in found:
            raise Refused(f"item {name} appears twice")
        if value == "":
            raise Refused(f"item {name} is empty")
        found[name] = value
    for name in ITEM_NAMES:
        if name not in found:
            raise Refused(f"item {name} is missing")
    return {name: found[name] for name in ITEM_NAMES}


def format_authorization(i):
    values = [need_str(i[name], name) for name in ITEM_NAMES]
    for name, value in zip(ITEM_NAMES, values):
        if value == "" or "," in value:
            raise Refused(f"{name} cannot be carried in the header (empty or contains ',')")
    return SCHEME + " " + ",".join(f"{n}={v}" for n, v in zip(ITEM_NAMES, values))


# --- verification (5.4-5.6, R9-R11) -----------------------------------------------------------

def check(app_id, secret, method, url, authorization, body):
    """Returns None when authentic, else the reason."""
    if authorization is None:
        return "no Authorization"
    try:
        items = parse_authorization(authorization)
    except Refused as e:
        return f"Authorization refused: {e}"
    if items["appId"] != app_id:
        return "appId is not the merchant's own"
    expected = sign_of(signature_content(app_id, secret, method, url,
                                         items["timestamp"], items["nonce"], body))
    if not hmac.compare_digest(expected.encode("utf-8"), items["sign"].encode("utf-8")):
        return "sign does not match the signature content"
    return None


def verdict(reason):
    return {"valid": True} if reason is None else {"valid": False, "reason": reason}


def request_verify(i):
    return verdict(check(need_str(i["appId"], "appId"), need_str(i["appSecret"], "appSecret"),
                         need_str(i["method"], "method"), need_str(i["url"], "url"),
                         i.get("authorization"), b64bytes(i["bodyB64"], "bodyB64")))


def response_verify(i):
    if i["status"] != 200 or isinstance(i["status"], bool):
        return verdict(f"only an HTTP 200 response is verified as authentic (R9); status {i['status']}")
    return request_verify(i)


def webhook_verify(i):
    return verdict(check(need_str(i["appId"], "appId"), need_str(i["appSecret"], "appSecret"),
                         need_str(i["method"], "method"), need_str(i["notifyUrl"], "notifyUrl"),
                         i.get("authorization"), b64bytes(i["bodyB64"], "bodyB64")))


def redirect_verify(i):
    app_id = need_str(i["appId"], "appId")
    secret = need_str(i["appSecret"], "appSecret")
    return_url = need_str(i["returnUrl"], "returnUrl")
    url = need_str(i["redirectUrl"], "redirectUrl").split("#", 1)[0]
    query = url.split("?", 1)[1] if "?" in url else ""
    try:
        pairs = urllib.parse.parse_qsl(query, keep_blank_values=True, errors="strict", separator="&")
    except (UnicodeDecodeError, ValueError) as e:
        return {"valid": False, "payment": None, "reason": f"query does not decode: {e}"}
    payments = [v for k, v in pairs if k == "payment"]
    auths = [v for k, v in pairs if k == "authorization"]
    if len(payments) != 1 or len(auths) != 1:
        return {"valid": False, "payment": None,
                "reason": f"{len(payments)} payment and {len(auths)} authorization parameters (R11: one each)"}
    body = ("payment=" + payments[0]).encode("utf-8")
    reason = check(app_id, secret, "GET", return_url, auths[0], body)
    if reason is None:
        return {"valid": True, "payment": payments[0]}
    return {"valid": False, "payment": None, "reason": reason}


# --- upload (2.1, 2.2, 4.2, 8, R13, R14) ------------------------------------------------------

def upload_problem(i):
    filename, content_type, scene, size = i.get("filename"), i.get("contentType"), i.get("scene"), i.get("fileSize")
    if filename is None:
        return "filename is required (2.1)"
    if not isinstance(filename, str):
        return "filename must be a string (2.1)"
    if len(filename) > 32:
        return f"filename has {len(filename)} characters; at most 32 (2.1, 8)"
    stem, dot, ext = filename.rpartition(".")
    if not dot or ext == "":
        return "filename must include an extension (2.1)"
    if not (ext.isascii() and ext.lower() in ACCEPTED_EXTENSIONS):
        return f"extension {ext!r} is not accepted for DISPUTE_EVIDENCE (2.2, 8)"
    if content_type is not None:
        if not isinstance(content_type, str):
            return "contentType must be a string (2.1)"
        if len(content_type) > 32:
            return f"contentType has {len(content_type)} characters; at most 32 (2.1, 8)"
    if scene is None:
        return "scene is required (2.1)"
    if not isinstance(scene, str):
        return "scene must be a string (2.1)"
    if len(scene) > 50:
        return "scene is longer than 50 characters (2.1, 8)"
    if scene != "DISPUTE_EVIDENCE":
        return f"scene {scene!r} is not an allowed value (2.2)"
    if size is None:
        return None  # not given: the size is not known at this step, nothing to check (2.1 has no such field)
    if not isinstance(size, int) or isinstance(size, bool) or size < 0:
        return "fileSize must be a non-negative integer"
    if size > MAX_FILE_BYTES:
        return f"file of {size} bytes exceeds 2 MB = {MAX_FILE_BYTES} bytes (2.2, 8, R13)"
    return None


def upload_validate(i):
    problem = upload_problem(i)
    return {"valid": True} if problem is None else {"valid": False, "reason": problem}


def disposition_quote(s):
    return s.replace("\r", "%0D").replace("\n", "%0A").replace('"', "%22").encode("utf-8")


def upload_form(i):
    fields = i["formFields"]
    if not isinstance(fields, list):
        raise Refused("formFields must be a list of pairs")
    pairs = []
    for pair in fields:
        if not (isinstance(pair, list) and len(pair) == 2):
            raise Refused("a formFields entry is not a [name, value] pair")
        pairs.append((need_str(pair[0], "field name"), need_str(pair[1], "field value")))
    filename = need_str(i["filename"], "filename")
    content_type = i.get("contentType")
    content_type = "application/octet-stream" if content_type is None else need_str(content_type, "contentType")
    data = b64bytes(i["fileB64"], "fileB64")
    payloads = [v.encode("utf-8") for _, v in pairs] + [data]
    while True:
        boundary = ("-" * 26 + secrets.token_hex(12)).encode("ascii")
        if not any(boundary in p for p in payloads):
            break
    out = bytearray()
    for (name, _), payload in zip(pairs, payloads):
        out += b"--" + boundary + b"\r\n"
        out += b'Content-Disposition: form-data; name="' + disposition_quote(name) + b'"\r\n\r\n'
        out += payload + b"\r\n"
    out += b"--" + boundary + b"\r\n"
    out += b'Content-Disposition: form-data; name="file"; filename="' + disposition_quote(filename) + b'"\r\n'
    out += b"Content-Type: " + content_type.encode("utf-8") + b"\r\n\r\n"
    out += data + b"\r\n--" + boundary + b"--\r\n"
    return {"contentType": "multipart/form-data; boundary=" + boundary.decode("ascii"),
            "bodyB64": base64.b64encode(bytes(out)).decode("ascii")}


# --- protocol v1 --------------------------------------------------------------------------------

def op_content(i):
    c = signature_content(*(need_str(i[k], k) for k in ("appId", "appSecret", "method", "url", "timestamp", "nonce")),
                          b64bytes(i["bodyB64"], "bodyB64"))
    return {"contentB64": base64.b64encode(c).decode("ascii")}


def op_sign(i):
    return {"sign": sign_of(base64.b64decode(op_content(i)["contentB64"]))}


OPS = {
    "signature.content": op_content,
    "signature.sign": op_sign,
    "authorization.format": lambda i: {"header": format_authorization(i)},
    "authorization.parse": lambda i: parse_authorization(i["header"]),
    "request.verify": request_verify,
    "response.verify": response_verify,
    "webhook.verify": webhook_verify,
    "redirect.verify": redirect_verify,
    "upload.validate": upload_validate,
    "upload.form": upload_form,
}


def answer(m):
    if m["cmd"] == "start":
        if m.get("protocol") != 1:
            return {"ready": False, "reason": "this testee speaks protocol 1 only"}
        return {"ready": True, "protocol": 1, "implementation": IMPLEMENTATION, "operations": list(OPS)}
    if m.get("op") not in OPS:
        return {"id": m["id"], "unsupported": {"reason": f"{m.get('op')} is not implemented"}}
    try:
        return {"id": m["id"], "result": OPS[m["op"]](m["input"])}
    except Exception as e:  # the implementation refused the input
        return {"id": m["id"], "rejected": {"reason": f"{type(e).__name__}: {e}"}}


def main():
    for line in sys.stdin.buffer:
        try:
            m = json.loads(line)
        except ValueError as e:
            print("not a JSON line:", e, file=sys.stderr)
            continue
        if m.get("cmd") == "stop":
            break
        sys.stdout.write(json.dumps(answer(m), separators=(",", ":")) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
