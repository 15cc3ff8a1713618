#!/usr/bin/env python3
"""py-wsgi-gateway: a payment gateway as a Python team on WSGI would write it from gateway-spec.md
and readings.md alone. Python 3.11, standard library only (wsgiref, json, hashlib, hmac).

One WSGI application behind two threaded wsgiref servers on 127.0.0.1, each at a free port:
  API:     POST /pg/v2/file/generateUploadUrl (4.1, 2.1-2.4, 5.1-5.4), POST /pg/v2/payment/create (4.3, 2.5)
  uploads: POST /upload/<bucket> (4.2), the uploadUrl returned
Credentials from PGV2_APP_ID / PGV2_APP_SECRET. First stdout line: `listening <base URL>`; it stops
when stdin closes. Uploaded files go to a temporary folder removed on exit.

Part 4 (R4) is rebuilt from the Host header and the request target as received (RAW_URI, added by
the request handler as gunicorn does: PATH_INFO is percent-decoded by WSGI and cannot serve).

Its choices, where the readings leave them open:
  - 2 MB = 2,097,152 bytes (R13); extensions compared in lower case (.PDF accepted, R13);
  - the file part's own Content-Type is ignored (R14): the policy-bound Content-Type field is stored;
  - errorMessage null on success (2.3, 7);
  - refusals: 4xx with an unsigned envelope whose code is not OK (R16); the upload address 4xx XML;
  - Authorization: Python str.strip() (Unicode white space, as wsgiref strips the field value) at every
    R8 place: the whole value, after the scheme word (split(None, 1)), both ends of an item, both
    sides of "=" (R8 a); item names compared without regard to ASCII case, a duplicate after folding
    refused (R8 e); unknown items ignored, an empty name included (R8 b); empty list elements refused;
    the scheme word exact;
  - sign: 64 hex digits in either case (R7), compared as bytes with hmac.compare_digest;
  - a reused nonce is accepted (R12);
  - formFields in any order (R14); an Authorization header at the upload address is ignored (R14);
  - 2.1 body: a repeated JSON key: the last wins; contentType null refused (a String in 2.1); unknown
    fields ignored (9); lengths in code points (R13); scene equal to DISPUTE_EVIDENCE.
"""
import base64
import hashlib
import hmac
import json
import os
import re
import secrets
import shutil
import sys
import tempfile
import threading
import time
from socketserver import ThreadingMixIn
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

APP_ID = os.environ["PGV2_APP_ID"]
APP_SECRET = os.environ["PGV2_APP_SECRET"]
POLICY_KEY = secrets.token_bytes(32)
MAX_FILE = 2_097_152
MAX_BODY = 8 * 1024 * 1024
VALIDITY = 600
ACCEPTED_TYPES = {"jpg", "jpeg", "png", "pdf", "xls", "xlsx"}
NAMES = {"appid": "appId", "sign": "sign", "timestamp": "timestamp", "nonce": "nonce"}
HEX = re.compile(r"[0-9a-fA-F]{64}")
STORE = tempfile.mkdtemp(prefix="py-wsgi-gateway-")
BUCKET = "wsgi-evidence"

lock = threading.Lock()
credentials_by_upload_no = {}
UPLOAD_URL = None


class Problem(Exception):
    def __init__(self, status, code, message):
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


def signature_content(method, url, timestamp, nonce, body):
    """5.1, R1-R3. Header-borne values are latin-1 strings of the bytes received."""
    return (
        f"{APP_ID}\n{APP_SECRET}\n{method}\n{url}\n".encode("utf-8")
        + f"{timestamp}\n{nonce}\n".encode("latin-1", "replace")
        + body
        + b"\n"
    )


def digest(method, url, timestamp, nonce, body):
    return hashlib.sha256(signature_content(method, url, timestamp, nonce, body)).digest()


def parse_authorization(value):
    parts = value.strip().split(None, 1)
    if len(parts) != 2 or parts[0] != "V2_SHA256":
        raise Problem(401, "UNAUTHORIZED", "Authorization must be V2_SHA256 <items>")
    found = {}
    for element in parts[1].split(","):
        if "=" not in element:
            raise Problem(401, "UNAUTHORIZED", "Authorization items are name=value")
        name, _, item = element.partition("=")
        name, item = name.strip(), item.strip()
        canonical = NAMES.get(name.lower()) if name.isascii() else None
        if canonical is None:
            continue  # R8 (b): unknown items ignored
        if not item:
            raise Problem(401, "UNAUTHORIZED", f"{canonical} is empty")
        if canonical in found:
            raise Problem(401, "UNAUTHORIZED", f"{canonical} appears twice")
        found[canonical] = item
    if len(found) != 4:
        raise Problem(401, "UNAUTHORIZED", "Authorization needs appId, sign, timestamp and nonce")
    return found


def read_input(environ):
    length = int(environ.get("CONTENT_LENGTH") or 0)
    if length > MAX_BODY:
        raise Problem(413, "PAYLOAD_TOO_LARGE", "request too large")
    return environ["wsgi.input"].read(length) if length else b""


def first_media_type(value):
    return (value or "").split(";")[0].strip().lower()


def authenticate(environ, url, body):
    if first_media_type(environ.get("CONTENT_TYPE")) != "application/json":
        raise Problem(415, "UNSUPPORTED_MEDIA_TYPE", "Content-Type must be application/json")
    if "application/json" not in [first_media_type(v) for v in environ.get("HTTP_ACCEPT", "").split(",")]:
        raise Problem(406, "NOT_ACCEPTABLE", "Accept must include application/json")
    values = environ["pgv2.authorization"]
    if len(values) != 1:
        raise Problem(401, "UNAUTHORIZED", "one Authorization header is required")
    items = parse_authorization(values[0])
    if items["appId"] != APP_ID or not HEX.fullmatch(items["sign"]):
        raise Problem(401, "UNAUTHORIZED", "the signature does not verify")
    expected = digest(environ["REQUEST_METHOD"], url, items["timestamp"], items["nonce"], body)
    if not hmac.compare_digest(bytes.fromhex(items["sign"]), expected):
        raise Problem(401, "UNAUTHORIZED", "the signature does not verify")


def text(body, name, limit, required):
    if name not in body:
        if required:
            raise Problem(400, "INVALID_ARGUMENT", f"{name} is required")
        return None
    if not isinstance(body[name], str):
        raise Problem(400, "INVALID_ARGUMENT", f"{name} must be a string")
    if limit and len(body[name]) > limit:
        raise Problem(400, "INVALID_ARGUMENT", f"{name} exceeds {limit} characters")
    return body[name]


def generate_upload_url(body):
    filename = text(body, "filename", 32, True)
    content_type = text(body, "contentType", 32, False)
    if text(body, "scene", 50, True) != "DISPUTE_EVIDENCE":
        raise Problem(400, "INVALID_ARGUMENT", "scene must be DISPUTE_EVIDENCE")
    _, dot, extension = filename.rpartition(".")
    if not dot or not _ or not extension:
        raise Problem(400, "INVALID_ARGUMENT", "filename must include an extension")
    extension = extension.lower()
    if extension not in ACCEPTED_TYPES:
        raise Problem(400, "INVALID_ARGUMENT", f"file type {extension} not accepted")
    now = time.time()
    upload_no = f"{int(now * 1000)}-{secrets.token_hex(10)}"
    key = f"evidence/{time.strftime('%Y/%m/%d', time.gmtime(now))}/{secrets.token_hex(16)}.{extension}"
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime(now))
    fields = {
        "bucket": BUCKET,
        "key": key,
        "tagging": f"<Tagging><TagSet><Tag><Key>uploadNo</Key><Value>{upload_no}</Value></Tag></TagSet></Tagging>",
        "x-wsgi-algorithm": "WSGI4-HMAC-SHA256",
        "x-wsgi-credential": f"{APP_ID}/{stamp[:8]}/evidence/request",
        "x-wsgi-date": stamp,
    }
    if content_type is not None:
        fields["Content-Type"] = content_type
    document = {
        "expiration": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(now + VALIDITY)),
        "conditions": [{k: v} for k, v in fields.items()] + [["content-length-range", 0, MAX_FILE]],
    }
    fields["policy"] = base64.b64encode(json.dumps(document, sort_keys=True).encode()).decode()
    fields["x-wsgi-signature"] = hmac.new(POLICY_KEY, fields["policy"].encode(), hashlib.sha256).hexdigest()
    storage_uri = f"wsgi://{BUCKET}/{key}"
    with lock:
        credentials_by_upload_no[upload_no] = {"fields": dict(fields), "expires": now + VALIDITY, "uri": storage_uri}
    return {
        "uploadUrl": UPLOAD_URL,
        "storageUri": storage_uri,
        "uploadNo": upload_no,
        "formFields": fields,
        "httpMethod": "POST",
    }


def create_payment(body):
    for name in ("merchantTradeNo", "amount", "currency", "description", "merchantAttach", "notifyUrl", "returnUrl"):
        text(body, name, None, False)
    objects = (
        ("payer", ("userId", "name", "email", "phone")),
        ("payMethod", ("type",)),
        ("tradeEnv", ("ip", "deviceId")),
    )
    for name, subfields in objects:
        if name in body:
            if not isinstance(body[name], dict):
                raise Problem(400, "INVALID_ARGUMENT", f"{name} must be an object")
            for sub in subfields:
                text(body[name], sub, None, False)
    if "amount" in body and not re.fullmatch(r"\d+(?:\.\d+)?", body["amount"]):
        raise Problem(400, "INVALID_ARGUMENT", "amount must be a decimal string")
    return {"paymentNo": f"W{time.time_ns()}", "merchantTradeNo": body.get("merchantTradeNo"), "status": "PENDING"}


ROUTES = {"/pg/v2/file/generateUploadUrl": generate_upload_url, "/pg/v2/payment/create": create_payment}


def api(environ, start_response):
    def reply(status, envelope, url=None):
        out = json.dumps(envelope).encode()
        headers = [("Content-Type", "application/json"), ("Content-Length", str(len(out)))]
        if status == 200:
            timestamp, nonce = str(int(time.time() * 1000)), secrets.token_hex(16)
            sign = digest(environ["REQUEST_METHOD"], url, timestamp, nonce, out).hex()
            value = f"V2_SHA256 timestamp={timestamp},appId={APP_ID},nonce={nonce},sign={sign}"
            headers.append(("Authorization", value))
        start_response({200: "200 OK", 400: "400 Bad Request", 401: "401 Unauthorized", 404: "404 Not Found",
                        405: "405 Method Not Allowed", 406: "406 Not Acceptable", 413: "413 Content Too Large",
                        415: "415 Unsupported Media Type"}[status], headers)
        return [out]

    try:
        body = read_input(environ)
        target = environ["RAW_URI"]
        route = ROUTES.get(target.split("?", 1)[0])  # a query is signed (part 4), not read
        if route is None:
            raise Problem(404, "NOT_FOUND", "no such operation")
        if environ["REQUEST_METHOD"] != "POST":
            raise Problem(405, "METHOD_NOT_ALLOWED", "POST only")
        url = f"{environ['wsgi.url_scheme']}://{environ.get('HTTP_HOST', '')}{target}"
        authenticate(environ, url, body)
        try:
            parsed = json.loads(body.decode("utf-8"))
        except ValueError:
            raise Problem(400, "INVALID_ARGUMENT", "the body is not JSON")
        if not isinstance(parsed, dict):
            raise Problem(400, "INVALID_ARGUMENT", "the body is not a JSON object")
        return reply(200, {"code": "OK", "errorMessage": None, "data": route(parsed)}, url)
    except Problem as p:
        return reply(p.status, {"code": p.code, "errorMessage": p.message})


def multipart_parts(content_type, body):
    match = re.match(r'multipart/form-data\s*;.*?boundary=("?)([^";]+)\1', content_type or "", re.I)
    if not match:
        raise Problem(400, "MalformedPOSTRequest", "multipart/form-data expected")
    boundary = b"--" + match.group(2).encode("latin-1")
    if not body.startswith(boundary):
        raise Problem(400, "MalformedPOSTRequest", "no opening boundary")
    end = body.find(b"\r\n" + boundary + b"--")
    if end < 0:
        raise Problem(400, "MalformedPOSTRequest", "no closing boundary")
    parts = []
    for raw in body[len(boundary):end].split(b"\r\n" + boundary):
        head, sep, data = raw.partition(b"\r\n\r\n")
        if not raw.startswith(b"\r\n") or not sep:
            raise Problem(400, "MalformedPOSTRequest", "malformed part")
        headers = {}
        for line in head[2:].decode("utf-8", "replace").split("\r\n"):
            if line:
                k, _, v = line.partition(":")
                headers[k.strip().lower()] = v.strip()
        disposition = headers.get("content-disposition", "")
        name = re.search(r'(?:^|;)\s*name="([^"]*)"', disposition)
        if not name or not disposition.lower().startswith("form-data"):
            raise Problem(400, "MalformedPOSTRequest", "part without a name")
        parts.append((name.group(1), "filename=" in disposition, data))
    return parts


def upload(environ, start_response):
    try:
        body = read_input(environ)
        if environ["RAW_URI"] != f"/upload/{BUCKET}":
            raise Problem(404, "NoSuchBucket", "no such bucket")
        if environ["REQUEST_METHOD"] != "POST":
            raise Problem(405, "MethodNotAllowed", "POST only")
        parts = multipart_parts(environ.get("CONTENT_TYPE"), body)
        if not parts or parts[-1][0] != "file" or not parts[-1][1]:
            raise Problem(400, "InvalidArgument", "the file must be the last part")
        form = {}
        for name, _, data in parts[:-1]:
            if name in form or name == "file":
                raise Problem(400, "InvalidArgument", f"part {name} appears twice")
            form[name] = data.decode("utf-8", "surrogateescape")
        policy = form.get("policy", "")
        good = hmac.new(POLICY_KEY, policy.encode("utf-8", "surrogateescape"), hashlib.sha256).hexdigest()
        if not hmac.compare_digest(good.encode(), form.get("x-wsgi-signature", "").encode("utf-8", "surrogateescape")):
            raise Problem(403, "SignatureDoesNotMatch", "the policy signature does not match")
        tag = re.search(r"<Value>([^<]*)</Value>", form.get("tagging", ""))
        with lock:
            issued = credentials_by_upload_no.get(tag.group(1)) if tag else None
        if issued is None or form != issued["fields"]:
            raise Problem(403, "AccessDenied", "the form fields differ from those issued")
        if time.time() > issued["expires"]:
            raise Problem(403, "AccessDenied", "the upload address expired")
        data = parts[-1][2]
        if len(data) > MAX_FILE:
            raise Problem(400, "EntityTooLarge", "the file exceeds 2 MB")
        path = os.path.join(STORE, hashlib.sha256(issued["uri"].encode()).hexdigest())
        with open(path, "wb") as f:
            f.write(data)
        start_response("204 No Content", [])
        return []
    except Problem as p:
        out = f"<Error><Code>{p.code}</Code><Message>{p.message}</Message></Error>".encode()
        start_response(f"{p.status} {p.code}", [("Content-Type", "application/xml"), ("Content-Length", str(len(out)))])
        return [out]


class Handler(WSGIRequestHandler):
    def get_environ(self):
        env = super().get_environ()
        env["RAW_URI"] = self.path  # the request target as received
        env["pgv2.authorization"] = self.headers.get_all("Authorization") or []
        return env

    def log_message(self, *args):
        pass


class Server(ThreadingMixIn, WSGIServer):
    daemon_threads = True
    request_queue_size = 128


def main():
    global UPLOAD_URL
    api_server = make_server("127.0.0.1", 0, api, server_class=Server, handler_class=Handler)
    upload_server = make_server("127.0.0.1", 0, upload, server_class=Server, handler_class=Handler)
    UPLOAD_URL = f"http://127.0.0.1:{upload_server.server_port}/upload/{BUCKET}"
    for server in (api_server, upload_server):
        threading.Thread(target=server.serve_forever, daemon=True).start()
    print(f"listening http://127.0.0.1:{api_server.server_port}", flush=True)
    try:
        sys.stdin.read()
    finally:
        api_server.shutdown()
        upload_server.shutdown()
        shutil.rmtree(STORE, ignore_errors=True)


if __name__ == "__main__":
    main()
