#!/usr/bin/env python3
"""pgv2kit-python-example: a testee for pgv2kit's testee protocol v1.

An independent implementation, in Python 3.8+ with the standard library only, of the
payment gateway's V2_SHA256 signing scheme (gateway-spec.md section 5, readings R1-R16)
and of the upload-credentials rules and upload form (2.1, 2.2, 4.2, 8; R13, R14).
It shares no code with the kit's TypeScript reference, so the two can check each other.

Run it by hand::

    python3 examples/python-adapter/pgv2kit_adapter.py

then type one JSON object per line on stdin, for example::

    {"cmd":"start","protocol":1}
    {"cmd":"run","id":"t1","op":"authorization.parse","input":{"header":"V2_SHA256 appId=a,sign=b,timestamp=1,nonce=n"}}
    {"cmd":"stop"}

or let the kit's runner start it as a child process (the command line is simply the path
of this file; it is executable). Protocol v1 in short:

* every message is one JSON object on one UTF-8 line; exactly one answer line per
  ``start`` and ``run`` request, in order; ``stop`` (or EOF) ends the process;
* byte strings travel base64-encoded in fields whose names end in ``B64``;
* ``run`` answers ``{"id":…,"result":{…}}``, ``{"id":…,"rejected":{"reason":…}}`` or
  ``{"id":…,"unsupported":{"reason":…}}``;
* stdout carries protocol lines only; diagnostics go to stderr.

Choices on the points the readings leave open (see README.md beside this file):

* R7  an upper-case hex sign is refused (5.2: signs are lower case);
* R8  the scheme name is case-sensitive (v2_sha256 refused); white space around items
      is refused; unknown extra items are ignored;
* R12 no timestamp window, no nonce store: old timestamps and reused nonces pass;
* R13 2 MB is 2,097,152 bytes; extensions are compared case-insensitively (.JPG ok).

The client operations (client.upload, client.createPayment) make real HTTP calls with
urllib.request to the baseUrl the runner gives: no proxy, no redirect followed, a timeout
on every call. Every 200 from the gateway is verified over its raw bytes (5.4, R9) before
anything in it is used; a response that does not verify is refused and nothing is uploaded.
"""

import base64
import binascii
import hashlib
import hmac
import http.client
import json
import re
import secrets
import sys
import time
import traceback
import urllib.error
import urllib.request

IMPLEMENTATION = {"name": "pgv2kit-python-example", "version": "1.0.0", "language": "python"}
PROTOCOL = 1
OPERATIONS = [
    "signature.content",
    "signature.sign",
    "authorization.format",
    "authorization.parse",
    "request.verify",
    "response.verify",
    "webhook.verify",
    "redirect.verify",
    "upload.validate",
    "upload.form",
    "client.upload",
    "client.createPayment",
]

SCHEME = "V2_SHA256"
ITEM_NAMES = ("appId", "sign", "timestamp", "nonce")
SIGN_RE = re.compile(r"[0-9a-f]{64}")  # R7: lower-case hex only (this adapter's choice)
ITEM_SPACE = " \t\r\n"

# 2.1, 2.2, 8 (R13)
FILENAME_MAX = 32
CONTENT_TYPE_MAX = 32
SCENE_MAX = 50
SCENES = {
    "DISPUTE_EVIDENCE": {
        "types": ("jpg", "jpeg", "png", "pdf", "xls", "xlsx"),
        "maxSize": 2 * 1024 * 1024,  # R13: 2 MB read as 2,097,152 bytes
    },
}

# client.* (4.1-4.3, 5.4)
CREDENTIALS_PATH = "/pg/v2/file/generateUploadUrl"
PAYMENT_CREATE_PATH = "/pg/v2/payment/create"
CLIENT_TIMEOUT = 4.0  # seconds, per HTTP call: below the runner's default case timeout (5 s)
MAX_RESPONSE_BYTES = 8 * 1024 * 1024
HTTP_TOKEN_RE = re.compile(r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")


class Rejected(Exception):
    """The input is malformed: the request is answered with ``rejected``."""


class Unsupported(Exception):
    """The operation is not offered: the request is answered with ``unsupported``."""


class AuthError(Exception):
    """An Authorization value that does not follow 5.3 / R8."""


# --------------------------------------------------------------------------- inputs


def need_str(inp, key):
    if key not in inp:
        raise Rejected("input.%s is missing" % key)
    value = inp[key]
    if not isinstance(value, str):
        raise Rejected("input.%s must be a string, got %s" % (key, type_name(value)))
    return value


def opt_str(inp, key):
    """A string or null; an absent key counts as null."""
    value = inp.get(key)
    if value is not None and not isinstance(value, str):
        raise Rejected("input.%s must be a string or null, got %s" % (key, type_name(value)))
    return value


def need_b64(inp, key):
    return decode_b64(need_str(inp, key), "input." + key)


def decode_b64(text, what):
    """Standard alphabet, padded, canonical; anything else is refused."""
    try:
        data = base64.b64decode(text.encode("ascii"), validate=True)
    except (UnicodeEncodeError, binascii.Error, ValueError) as e:
        raise Rejected("%s is not standard padded base64 (%s)" % (what, e))
    if base64.b64encode(data).decode("ascii") != text:
        raise Rejected("%s is not canonical standard padded base64" % what)
    return data


def type_name(value):
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"


def b64(data):
    return base64.b64encode(data).decode("ascii")


# --------------------------------------------------------------------------- scheme


def signature_content(app_id, app_secret, method, url, timestamp, nonce, body):
    """5.1 with R1-R6: parts 1-6 as UTF-8, each followed by LF, then the body's exact
    bytes, then one LF (always: a body ending in LF gives two LFs, an empty body gives
    ``nonce LF LF``). Nothing is normalised, trimmed or re-encoded."""
    head = "".join(part + "\n" for part in (app_id, app_secret, method, url, timestamp, nonce))
    try:
        head_bytes = head.encode("utf-8")
    except UnicodeEncodeError:
        raise Rejected("a part holds a lone surrogate and has no UTF-8 form")
    return head_bytes + bytes(body) + b"\n"


def sign_content(content):
    """5.2: SHA-256 of the content, 64 lower-case hex digits."""
    return hashlib.sha256(content).hexdigest()


def parse_authorization(header):
    """5.3 with R8. Returns a dict of the four items, values verbatim; raises AuthError.

    Grammar: ``V2_SHA256`` SP item *("," item), item = name "=" value, split at the
    first "=", the value running to the next comma. Choices: the scheme is matched
    case-sensitively; white space around an item is refused (it is never silently
    dropped); unknown items (name=value, non-empty) are ignored."""
    if not isinstance(header, str):
        raise AuthError("the header is not a string")
    if header.strip(ITEM_SPACE) == "":
        raise AuthError("empty header")
    space = header.find(" ")
    scheme = header if space < 0 else header[:space]
    if scheme != SCHEME:
        raise AuthError("wrong scheme %s (expected %s)" % (json.dumps(scheme), SCHEME))
    rest = "" if space < 0 else header[space + 1:]
    if rest == "":
        raise AuthError("no items after the scheme")
    seen = {}
    for index, item in enumerate(rest.split(",")):
        where = "item %d" % (index + 1)
        if item == "":
            raise AuthError("%s is empty (stray comma)" % where)
        if item[0] in ITEM_SPACE or item[-1] in ITEM_SPACE:
            raise AuthError("%s has white space around it (refused by this parser)" % where)
        eq = item.find("=")
        if eq < 0:
            raise AuthError("%s is not name=value" % where)
        name, value = item[:eq], item[eq + 1:]
        if name == "":
            raise AuthError("%s has an empty name" % where)
        if value == "":
            raise AuthError("item %s has an empty value" % name)
        if name in seen:
            raise AuthError("item %s appears more than once" % name)
        seen[name] = value
    for name in ITEM_NAMES:
        if name not in seen:
            raise AuthError("item %s is missing" % name)
    return {name: seen[name] for name in ITEM_NAMES}


def format_authorization(items):
    """5.3: ``V2_SHA256 appId=…,sign=…,timestamp=…,nonce=…``. Values that would not
    parse back to themselves (empty, holding a comma, white space at an end) are refused."""
    for name in ITEM_NAMES:
        value = items[name]
        if value == "":
            raise Rejected("item %s is empty (5.3 / R8: no empty values)" % name)
        if "," in value:
            raise Rejected("item %s holds a comma, which ends a value in 5.3" % name)
        if value[0] in ITEM_SPACE or value[-1] in ITEM_SPACE:
            raise Rejected("item %s starts or ends with white space" % name)
    header = SCHEME + " " + ",".join("%s=%s" % (name, items[name]) for name in ITEM_NAMES)
    try:
        back = parse_authorization(header)
    except AuthError as e:
        raise Rejected("these items cannot be written as a 5.3 header: %s" % e)
    for name in ITEM_NAMES:
        if back[name] != items[name]:
            raise Rejected("item %s cannot be written as a 5.3 header (it holds a comma)" % name)
    return header


def verify_signed(app_id, app_secret, method, url, authorization, body):
    """The check shared by requests, responses, webhooks and redirects.
    Returns (valid, reason)."""
    if authorization is None:
        return False, "no Authorization"
    try:
        items = parse_authorization(authorization)
    except AuthError as e:
        return False, "Authorization refused: %s" % e
    if items["appId"] != app_id:
        return False, "the Authorization names appId %s, not this merchant's %s" % (
            json.dumps(items["appId"], ensure_ascii=False),
            json.dumps(app_id, ensure_ascii=False),
        )
    sign = items["sign"]
    if not SIGN_RE.fullmatch(sign):
        return False, "sign is not 64 lower-case hex digits"
    content = signature_content(app_id, app_secret, method, url, items["timestamp"], items["nonce"], body)
    expected = sign_content(content)
    if not hmac.compare_digest(expected.encode("ascii"), sign.encode("ascii")):
        return False, "sign does not match the content"
    return True, None


# --------------------------------------------------------------------------- redirect


class QueryDecodeError(Exception):
    pass


def query_decode(text):
    """R11: "+" is a space, then percent-decoding to bytes, read as strict UTF-8."""
    text = text.replace("+", " ")
    out = bytearray()
    i = 0
    n = len(text)
    while i < n:
        ch = text[i]
        if ch == "%":
            pair = text[i + 1:i + 3]
            if len(pair) != 2 or any(c not in "0123456789abcdefABCDEF" for c in pair):
                raise QueryDecodeError("bad percent-escape at offset %d" % i)
            out.append(int(pair, 16))
            i += 3
        else:
            try:
                out.extend(ch.encode("utf-8"))
            except UnicodeEncodeError:
                raise QueryDecodeError("lone surrogate in the query")
            i += 1
    try:
        return bytes(out).decode("utf-8")  # strict: no replacement, no Latin-1 fallback
    except UnicodeDecodeError as e:
        raise QueryDecodeError("not UTF-8 after percent-decoding (%s)" % e.reason)


def redirect_parameters(redirect_url, wanted):
    """The decoded values of the wanted parameters of the URL's query, as lists.
    The fragment is cut first (it is never part of the query); parameters are
    split at "&", and each at its first "="."""
    url = redirect_url.split("#", 1)[0]
    q = url.find("?")
    found = {name: [] for name in wanted}
    if q < 0:
        return found
    for piece in url[q + 1:].split("&"):
        if piece == "":
            continue
        eq = piece.find("=")
        raw_name, raw_value = (piece, "") if eq < 0 else (piece[:eq], piece[eq + 1:])
        try:
            name = query_decode(raw_name)
        except QueryDecodeError:
            continue  # a name that does not decode is none of the wanted ones
        if name in found:
            found[name].append(raw_value)
    return found


def verify_redirect(app_id, app_secret, return_url, redirect_url):
    """5.6 with R11. Returns (valid, payment text or None, reason)."""
    params = redirect_parameters(redirect_url, ("payment", "authorization"))
    for name in ("payment", "authorization"):
        if len(params[name]) != 1:
            return False, None, "the redirect carries %d %s parameters, not exactly one" % (len(params[name]), name)
    try:
        payment = query_decode(params["payment"][0])
    except QueryDecodeError as e:
        return False, None, "payment value: %s" % e
    try:
        authorization = query_decode(params["authorization"][0])
    except QueryDecodeError as e:
        return False, None, "authorization value: %s" % e
    try:
        body = ("payment=" + payment).encode("utf-8")
    except UnicodeEncodeError:
        return False, None, "payment value has no UTF-8 form"
    ok, reason = verify_signed(app_id, app_secret, "GET", return_url, authorization, body)
    if not ok:
        return False, None, reason
    return True, payment, None


# --------------------------------------------------------------------------- upload


def validate_upload(filename, content_type, scene, file_size):
    """2.1, 2.2, 8 with R13. Returns None when valid, else the reason."""
    if filename is None:
        return "filename: required"
    if len(filename) > FILENAME_MAX:  # code points (R13)
        return "filename: longer than %d characters (%d)" % (FILENAME_MAX, len(filename))
    dot = filename.rfind(".")
    extension = "" if dot < 0 else filename[dot + 1:]
    if extension == "":
        return "filename: must include an extension"
    if content_type is not None and len(content_type) > CONTENT_TYPE_MAX:
        return "contentType: longer than %d characters (%d)" % (CONTENT_TYPE_MAX, len(content_type))
    if scene is None:
        return "scene: required"
    if len(scene) > SCENE_MAX:
        return "scene: longer than %d characters (%d)" % (SCENE_MAX, len(scene))
    if scene != scene.upper():
        return "scene: must be upper case"
    rules = SCENES.get(scene)
    if rules is None:
        return "scene: not an allowed value (%s)" % ", ".join(sorted(SCENES))
    if extension.lower() not in rules["types"]:  # R13 choice: case-insensitive
        return "filename: file type .%s not accepted for %s (%s)" % (extension, scene, ", ".join(rules["types"]))
    if file_size is not None:
        if file_size < 0:
            return "fileSize: negative"
        if file_size > rules["maxSize"]:
            return "fileSize: %d bytes is over %d for %s" % (file_size, rules["maxSize"], scene)
    return None


def disposition_quote(text, what):
    """A name or filename inside a quoted Content-Disposition parameter, as browsers
    write it (HTML multipart/form-data encoding, RFC 7578): raw UTF-8 between quotes.
    A '"', CR or LF could only be sent percent-escaped, i.e. altered, which 4.2 and
    R14 forbid; such a value is refused instead of being changed silently."""
    for ch, label in (('"', "a double quote"), ("\r", "a CR"), ("\n", "an LF")):
        if ch in text:
            raise Rejected("%s holds %s and cannot be sent unaltered in a multipart header" % (what, label))
    return text


def build_upload_form(form_fields, filename, content_type, file_data):
    """4.2 with R14: every formFields entry as a text part, exactly and in the order
    received, then the part named file, last. Returns (Content-Type value, body)."""
    head_parts = []
    for name, value in form_fields:
        head_parts.append(
            (
                ('Content-Disposition: form-data; name="%s"\r\n\r\n' % disposition_quote(name, "formFields name %s" % json.dumps(name))).encode("utf-8"),
                value.encode("utf-8"),
            )
        )
    file_head = 'Content-Disposition: form-data; name="file"; filename="%s"\r\n' % disposition_quote(filename, "filename")
    if content_type is not None and ("\r" in content_type or "\n" in content_type):
        raise Rejected("contentType holds a CR or LF and cannot be sent as a part header")
    file_head += "Content-Type: %s\r\n\r\n" % (content_type if content_type is not None else "application/octet-stream")
    parts = head_parts + [(file_head.encode("utf-8"), bytes(file_data))]

    # A boundary derived from the content (reproducible), checked not to occur in any part.
    digest = hashlib.sha256()
    for head, data in parts:
        digest.update(head)
        digest.update(data)
    seed = digest.hexdigest()[:24]
    counter = 0
    while True:
        boundary = "pgv2kitPy" + seed + ("" if counter == 0 else "x%d" % counter)
        marker = ("--" + boundary).encode("ascii")
        if not any(marker in head or marker in data for head, data in parts):
            break
        counter += 1

    body = bytearray()
    for head, data in parts:
        body += marker + b"\r\n" + head + data + b"\r\n"
    body += marker + b"--\r\n"
    return "multipart/form-data; boundary=" + boundary, bytes(body)


# --------------------------------------------------------------------------- client


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    """Never follow a redirect: a 3xx comes back as the answer (an HTTPError)."""

    def redirect_request(self, req, fp, code, msg, headers, newurl):
        return None


# No proxy from the environment (the gateway is on loopback), no redirects.
_OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}), _NoRedirect())


def http_exchange(method, url, headers, body):
    """One HTTP request with urllib.request. Returns (status, headers, raw body bytes);
    any status is returned, not raised. Raises Rejected on a network failure or timeout."""
    if not re.match(r"(?i)https?://", url):
        raise Rejected("client: %s is not an http(s) URL" % json.dumps(url))
    request = urllib.request.Request(url, data=body, method=method)
    for name, value in headers:
        request.add_header(name, value)
    try:
        response = _OPENER.open(request, timeout=CLIENT_TIMEOUT)
        status = response.status
    except urllib.error.HTTPError as e:  # a non-2xx status: an answer, not a failure
        response, status = e, e.code
    except (urllib.error.URLError, OSError, ValueError, http.client.HTTPException) as e:
        reason = getattr(e, "reason", e)
        raise Rejected("client: %s %s failed: %s" % (method, url, reason))
    try:
        if isinstance(response, urllib.error.HTTPError) and response.fp is None:
            data = b""  # an error answer without a body
        else:
            data = response.read(MAX_RESPONSE_BYTES + 1)
    except (OSError, ValueError, http.client.HTTPException) as e:
        raise Rejected("client: reading the answer of %s %s failed: %s" % (method, url, e))
    finally:
        response.close()
    if len(data) > MAX_RESPONSE_BYTES:
        raise Rejected("client: the answer of %s %s is larger than %d bytes" % (method, url, MAX_RESPONSE_BYTES))
    return status, response.headers, data


def endpoint(base_url, path):
    """The operation's URL: the base URL without its trailing "/", then the path."""
    return base_url.rstrip("/") + path


def signed_call(base_url, path, app_id, app_secret, body):
    """POST a signed JSON body (5.1-5.3) to an operation of the gateway; the body bytes
    signed are the bytes sent. Returns (url, status, headers, raw body)."""
    url = endpoint(base_url, path)
    timestamp = str(int(time.time() * 1000))
    nonce = secrets.token_hex(16)
    sign = sign_content(signature_content(app_id, app_secret, "POST", url, timestamp, nonce, body))
    authorization = format_authorization({"appId": app_id, "sign": sign, "timestamp": timestamp, "nonce": nonce})
    headers = [("Content-Type", "application/json"), ("Accept", "application/json"), ("Authorization", authorization)]
    status, response_headers, data = http_exchange("POST", url, headers, body)
    return url, status, response_headers, data


def _unique_members(pairs):
    """json.loads object hook: a dict in the text's order (every key, integer-like ones
    too); a key repeated in one object is refused."""
    members = {}
    for name, value in pairs:
        if name in members:
            raise ValueError("key %s appears twice in one object" % json.dumps(name))
        members[name] = value
    return members


def _no_constant(name):
    raise ValueError("%s is not JSON" % name)


def authentic_envelope(what, url, status, headers, data, app_id, app_secret):
    """5.4 with R9 and R16: only a 200 is used, and only when it verifies over the raw
    bytes with this request's method and URL and names this merchant's appId. Returns
    the envelope (2.3) read from those bytes; raises Rejected otherwise."""
    if status != 200:
        said = ""
        try:
            envelope = json.loads(data.decode("utf-8"))
            if isinstance(envelope, dict) and isinstance(envelope.get("errorMessage"), str):
                said = ": errorMessage %s" % json.dumps(envelope["errorMessage"][:200])
        except ValueError:
            pass
        raise Rejected("%s: the gateway answered HTTP %d%s; not 200, so not used (R9, R16)" % (what, status, said))
    found = headers.get_all("Authorization") or []
    if len(found) > 1:
        raise Rejected("%s is not authentic: it carries %d Authorization headers (5.4, R9)" % (what, len(found)))
    ok, reason = verify_signed(app_id, app_secret, "POST", url, found[0] if found else None, data)
    if not ok:
        raise Rejected("%s is not authentic: %s (5.4, R9); not used" % (what, reason))
    try:
        envelope = json.loads(data.decode("utf-8"), object_pairs_hook=_unique_members, parse_constant=_no_constant)
    except ValueError as e:  # UnicodeDecodeError and JSONDecodeError are ValueErrors
        raise Rejected("%s is authentic but not JSON: %s" % (what, e))
    if not isinstance(envelope, dict) or not isinstance(envelope.get("code"), str):
        raise Rejected("%s is authentic but not an envelope with a string code (2.3)" % what)
    if envelope.get("errorMessage") is not None and not isinstance(envelope["errorMessage"], str):
        raise Rejected("%s is authentic but its errorMessage is neither a string nor null (2.3)" % what)
    if envelope.get("data") is not None and not isinstance(envelope["data"], dict):
        raise Rejected("%s is authentic but its data is not an object (2.3)" % what)
    return envelope


def request_credentials(base_url, app_id, app_secret, filename, content_type, scene):
    """4.1: the credentials request, then its response verified (5.4) and read (2.4).
    Returns the data dict with formFields as [name, value] pairs in the order received."""
    fields = {"filename": filename}
    if content_type is not None:
        fields["contentType"] = content_type
    fields["scene"] = scene
    body = json.dumps(fields, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    url, status, headers, data = signed_call(base_url, CREDENTIALS_PATH, app_id, app_secret, body)
    what = "the credentials response (POST %s)" % url
    envelope = authentic_envelope(what, url, status, headers, data, app_id, app_secret)
    if envelope["code"] != "OK":
        raise Rejected("%s is authentic but its code is %s, not OK (2.3)" % (what, json.dumps(envelope["code"])))
    credentials = envelope.get("data")
    if not isinstance(credentials, dict):
        raise Rejected("%s is authentic but has no data object (2.4)" % what)
    for name in ("uploadUrl", "storageUri", "uploadNo", "httpMethod"):
        if not isinstance(credentials.get(name), str) or credentials[name] == "":
            raise Rejected("%s is authentic but data.%s is missing or not a non-empty string (2.4)" % (what, name))
    if not re.match(r"(?i)https?://", credentials["uploadUrl"]):
        raise Rejected("%s is authentic but data.uploadUrl is not an http(s) URL (2.4)" % what)
    if not HTTP_TOKEN_RE.fullmatch(credentials["httpMethod"]):
        raise Rejected("%s is authentic but data.httpMethod is not an HTTP method (2.4)" % what)
    form_fields = credentials.get("formFields")
    if not isinstance(form_fields, dict):
        raise Rejected("%s is authentic but data.formFields is missing or not an object (2.4)" % what)
    pairs = []
    for name, value in form_fields.items():  # the text's order (R14), unknown entries kept (R15)
        if not isinstance(value, str):
            raise Rejected("%s is authentic but formFields entry %s is not a string (2.4)" % (what, json.dumps(name)))
        pairs.append((name, value))
    return dict(credentials, formFields=pairs)


def upload_file(credentials, filename, content_type, file_data):
    """4.2 with R14: the form to uploadUrl with httpMethod, formFields exactly and in
    order, the file part last; no Authorization header (5.7). Success is HTTP 204."""
    header, body = build_upload_form(credentials["formFields"], filename, content_type, file_data)
    status, _headers, data = http_exchange(credentials["httpMethod"], credentials["uploadUrl"], [("Content-Type", header)], body)
    if status != 204:
        text = data.decode("utf-8", "replace")[:200]
        raise Rejected("the upload address answered HTTP %d, not 204%s; the file is not stored (4.2)" % (status, ": " + json.dumps(text) if text else ""))


# --------------------------------------------------------------------------- operations


def op_signature_content(inp):
    return {"contentB64": b64(content_from(inp))}


def op_signature_sign(inp):
    return {"sign": sign_content(content_from(inp))}


def content_from(inp):
    values = [need_str(inp, k) for k in ("appId", "appSecret", "method", "url", "timestamp", "nonce")]
    body = need_b64(inp, "bodyB64")
    return signature_content(*values, body)


def op_authorization_format(inp):
    items = {name: need_str(inp, name) for name in ITEM_NAMES}
    return {"header": format_authorization(items)}


def op_authorization_parse(inp):
    header = need_str(inp, "header")
    try:
        return parse_authorization(header)
    except AuthError as e:
        raise Rejected(str(e))


def verify_answer(ok, reason):
    return {"valid": True} if ok else {"valid": False, "reason": reason}


def op_request_verify(inp):
    app_id, secret, method, url = (need_str(inp, k) for k in ("appId", "appSecret", "method", "url"))
    authorization = need_authorization(inp)
    body = need_b64(inp, "bodyB64")
    return verify_answer(*verify_signed(app_id, secret, method, url, authorization, body))


def op_response_verify(inp):
    app_id, secret, method, url = (need_str(inp, k) for k in ("appId", "appSecret", "method", "url"))
    if "status" not in inp:
        raise Rejected("input.status is missing")
    status = inp["status"]
    if isinstance(status, bool) or not isinstance(status, int):
        raise Rejected("input.status must be an integer, got %s" % type_name(status))
    authorization = need_authorization(inp)
    body = need_b64(inp, "bodyB64")
    if status != 200:  # R9: only a 200 is verified, so nothing else is authentic
        return verify_answer(False, "HTTP status %d: only 200 is verified (R9)" % status)
    return verify_answer(*verify_signed(app_id, secret, method, url, authorization, body))


def op_webhook_verify(inp):
    app_id, secret, notify_url, method = (need_str(inp, k) for k in ("appId", "appSecret", "notifyUrl", "method"))
    authorization = need_authorization(inp)
    body = need_b64(inp, "bodyB64")
    # R10: part 4 is notifyUrl as submitted, never the delivery URL
    return verify_answer(*verify_signed(app_id, secret, method, notify_url, authorization, body))


def op_redirect_verify(inp):
    app_id, secret, return_url, redirect_url = (need_str(inp, k) for k in ("appId", "appSecret", "returnUrl", "redirectUrl"))
    ok, payment, reason = verify_redirect(app_id, secret, return_url, redirect_url)
    if ok:
        return {"valid": True, "payment": payment}
    return {"valid": False, "payment": None, "reason": reason}


def op_upload_validate(inp):
    filename = opt_str(inp, "filename")
    content_type = opt_str(inp, "contentType")
    scene = opt_str(inp, "scene")
    file_size = inp.get("fileSize")
    if file_size is not None:
        if isinstance(file_size, float) and file_size.is_integer():
            file_size = int(file_size)
        if isinstance(file_size, bool) or not isinstance(file_size, int):
            raise Rejected("input.fileSize must be an integer or null, got %s" % type_name(file_size))
    reason = validate_upload(filename, content_type, scene, file_size)
    return {"valid": True} if reason is None else {"valid": False, "reason": reason}


def op_upload_form(inp):
    if "formFields" not in inp:
        raise Rejected("input.formFields is missing")
    fields = inp["formFields"]
    if not isinstance(fields, list):
        raise Rejected("input.formFields must be an array of [name, value] pairs")
    pairs = []
    for i, pair in enumerate(fields):
        if not (isinstance(pair, list) and len(pair) == 2 and all(isinstance(x, str) for x in pair)):
            raise Rejected("input.formFields[%d] is not a [name, value] pair of strings" % i)
        pairs.append((pair[0], pair[1]))
    filename = need_str(inp, "filename")
    content_type = opt_str(inp, "contentType")
    data = need_b64(inp, "fileB64")
    try:
        header, body = build_upload_form(pairs, filename, content_type, data)
    except UnicodeEncodeError:
        raise Rejected("a name, value or filename has no UTF-8 form (lone surrogate)")
    return {"contentType": header, "bodyB64": b64(body)}


def mask_secret(text, secret):
    """The text with the secret replaced by its first two characters and stars (none
    shown for a secret of four characters or fewer): reasons never carry the secret."""
    if not secret:
        return text
    shown = secret[:2] if len(secret) > 4 else ""
    return text.replace(secret, shown + "*" * (len(secret) - len(shown)))


def op_client_upload(inp):
    base_url, app_id, app_secret, filename, scene = (need_str(inp, k) for k in ("baseUrl", "appId", "appSecret", "filename", "scene"))
    if "contentType" not in inp:
        raise Rejected("input.contentType is missing (null when there is none)")
    content_type = opt_str(inp, "contentType")
    data = need_b64(inp, "fileB64")
    try:
        credentials = request_credentials(base_url, app_id, app_secret, filename, content_type, scene)
        upload_file(credentials, filename, content_type, data)
    except UnicodeEncodeError:
        raise Rejected("a text input has no UTF-8 form (lone surrogate)")
    except Rejected as e:
        raise Rejected(mask_secret(str(e), app_secret))
    return {"storageUri": credentials["storageUri"], "uploadNo": credentials["uploadNo"]}


def op_client_create_payment(inp):
    base_url, app_id, app_secret = (need_str(inp, k) for k in ("baseUrl", "appId", "appSecret"))
    payment = inp.get("payment")
    if not isinstance(payment, dict):
        raise Rejected("input.payment must be a JSON object, got %s" % type_name(payment))
    try:
        body = json.dumps(payment, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    except UnicodeEncodeError:
        raise Rejected("input.payment has no UTF-8 form (lone surrogate)")
    try:
        return create_payment(base_url, app_id, app_secret, body)
    except Rejected as e:
        raise Rejected(mask_secret(str(e), app_secret))


def create_payment(base_url, app_id, app_secret, body):
    """4.3: the signed payment creation; the verified envelope's code and paymentNo."""
    url, status, headers, data = signed_call(base_url, PAYMENT_CREATE_PATH, app_id, app_secret, body)
    what = "the payment response (POST %s)" % url
    envelope = authentic_envelope(what, url, status, headers, data, app_id, app_secret)
    payment_no = (envelope.get("data") or {}).get("paymentNo")
    if payment_no is not None and not isinstance(payment_no, str):
        raise Rejected("%s is authentic but data.paymentNo is neither a string nor null (2.3)" % what)
    return {"code": envelope["code"], "paymentNo": payment_no}


def need_authorization(inp):
    if "authorization" not in inp:
        raise Rejected("input.authorization is missing (null when there is none)")
    return opt_str(inp, "authorization")


HANDLERS = {
    "signature.content": op_signature_content,
    "signature.sign": op_signature_sign,
    "authorization.format": op_authorization_format,
    "authorization.parse": op_authorization_parse,
    "request.verify": op_request_verify,
    "response.verify": op_response_verify,
    "webhook.verify": op_webhook_verify,
    "redirect.verify": op_redirect_verify,
    "upload.validate": op_upload_validate,
    "upload.form": op_upload_form,
    "client.upload": op_client_upload,
    "client.createPayment": op_client_create_payment,
}


# --------------------------------------------------------------------------- protocol


def log(message):
    try:
        sys.stderr.write("pgv2kit-python-example: %s\n" % message)
        sys.stderr.flush()
    except Exception:
        pass


def send(message):
    # ensure_ascii keeps the line pure ASCII (lone surrogates included) and free of raw LFs
    line = json.dumps(message, ensure_ascii=True, separators=(",", ":")) + "\n"
    sys.stdout.buffer.write(line.encode("ascii"))
    sys.stdout.buffer.flush()


def handle_start(msg):
    protocol = msg.get("protocol")
    if isinstance(protocol, int) and not isinstance(protocol, bool) and protocol == PROTOCOL:
        return {"ready": True, "protocol": PROTOCOL, "implementation": IMPLEMENTATION, "operations": list(OPERATIONS)}
    return {"ready": False, "reason": "this testee speaks protocol %d only, not %s" % (PROTOCOL, json.dumps(protocol))}


def handle_run(msg):
    case_id = msg.get("id")
    if not isinstance(case_id, str):
        return {"id": case_id, "rejected": {"reason": "run request without a string id"}}
    op = msg.get("op")
    inp = msg.get("input")
    try:
        if not isinstance(op, str):
            raise Rejected("op must be a string")
        handler = HANDLERS.get(op)
        if handler is None:
            raise Unsupported("unknown operation %s" % json.dumps(op))
        if not isinstance(inp, dict):
            raise Rejected("input must be a JSON object")
        return {"id": case_id, "result": handler(inp)}
    except Rejected as e:
        return {"id": case_id, "rejected": {"reason": str(e)}}
    except Unsupported as e:
        return {"id": case_id, "unsupported": {"reason": str(e)}}
    except Exception as e:  # a bug must not kill the process
        log("internal error in case %s (%s):\n%s" % (case_id, op, traceback.format_exc()))
        return {"id": case_id, "rejected": {"reason": "internal error: %s: %s" % (type(e).__name__, e)}}


def main():
    stdin = sys.stdin.buffer
    while True:
        try:
            raw = stdin.readline()
        except KeyboardInterrupt:
            return 0
        if not raw:
            return 0  # EOF
        try:
            text = raw.decode("utf-8").strip("\r\n")
        except UnicodeDecodeError:
            log("ignored a line that is not UTF-8")
            continue
        if text.strip() == "":
            continue
        try:
            msg = json.loads(text)
        except ValueError as e:
            log("ignored a line that is not JSON (%s): %.200s" % (e, text))
            continue
        if not isinstance(msg, dict):
            log("ignored a JSON line that is not an object: %.200s" % text)
            continue
        cmd = msg.get("cmd")
        try:
            if cmd == "stop":
                return 0
            if cmd == "start":
                send(handle_start(msg))
            elif cmd == "run":
                send(handle_run(msg))
            else:
                log("ignored a message with unknown cmd %s" % json.dumps(cmd))
        except BrokenPipeError:
            return 0
        except Exception:
            log("could not answer: %s" % traceback.format_exc())


if __name__ == "__main__":
    sys.exit(main())
