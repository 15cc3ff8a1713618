#!/usr/bin/env python3
"""py-strict-gateway: a payment gateway as a Python team would write it from gateway-spec.md and
readings.md alone. Python 3.11, standard library only (http.server, json, hashlib, hmac).

Serves, on 127.0.0.1 at a free port:
  POST /pg/v2/file/generateUploadUrl  (4.1, 2.1-2.4, 5.1-5.4)
  POST /pg/v2/payment/create          (4.3, 2.5; data.paymentNo)
and the upload address (4.2) on a second listener of the same process (another free port).
Credentials from PGV2_APP_ID / PGV2_APP_SECRET. First stdout line: `listening <base URL>`; it stops
when stdin closes. Uploaded files are kept in memory.

Its choices, where the readings leave them open:
  - 2 MB = 2,097,152 bytes (R13); the file extension must be lower case (.PDF refused, R13);
  - the file part's own Content-Type must equal the requested contentType (R14 allows refusing);
  - errorMessage: null on success (2.3, 7);
  - refusals: 4xx (401 signature, 400 body, 415/406 headers), envelope code not OK, unsigned (R16);
  - Authorization: R8's strict parser - "V2_SHA256" and exactly one SP, nothing trimmed inside the
    field value (only SP/HTAB at its two ends, which are not part of it, RFC 9110 5.5), item names
    compared exactly, unknown items refused, empty list elements refused, scheme word exact;
  - sign: 64 lower-case hex digits only; upper-case refused (R7);
  - a nonce already used in a verified request is refused (R12);
  - the formFields must arrive in the order issued (R14 allows enforcing it);
  - an Authorization header sent to the upload address is refused (R14);
  - 2.1 body: duplicate JSON keys refused, contentType null refused (2.1 types it a String), unknown
    fields ignored (9: additions); lengths in code points (R13); scene equal to DISPUTE_EVIDENCE.
"""
import base64
import hashlib
import hmac
import json
import os
import re
import secrets
import sys
import threading
import time
from datetime import datetime, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

APP_ID = os.environ["PGV2_APP_ID"]
APP_SECRET = os.environ["PGV2_APP_SECRET"]
POLICY_KEY = secrets.token_bytes(32)  # signs the upload policies this process issues
MAX_FILE = 2 * 1024 * 1024
MAX_BODY = 8 * 1024 * 1024
VALIDITY = 600  # seconds (8: uploadUrl valid 10 minutes)
EXTENSIONS = ("jpg", "jpeg", "png", "pdf", "xls", "xlsx")
VENDOR = "x-pyg"
ITEMS = ("appId", "sign", "timestamp", "nonce")
HEX64 = re.compile(r"[0-9a-f]{64}")

lock = threading.Lock()
seen_nonces = {}  # nonce -> time first verified
issued = {}  # object key -> {"fields": [(name, value)], "expires": t, "contentType": str|None}
stored = {}  # storageUri -> bytes
upload_base = None


class Refused(Exception):
    def __init__(self, status, code, message):
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


def content(method, url, timestamp, nonce, body):
    """5.1 (R1-R3): each part plus LF, the body's exact bytes, then one more LF."""
    head = "".join(p + "\n" for p in (APP_ID, APP_SECRET, method, url, timestamp, nonce))
    return head.encode("utf-8", "surrogateescape") + body + b"\n"  # header bytes as received


def sign(method, url, timestamp, nonce, body):
    return hashlib.sha256(content(method, url, timestamp, nonce, body)).hexdigest()


def parse_authorization(value):
    """R8's strict parser."""
    if not value.startswith("V2_SHA256 "):
        raise Refused(401, "UNAUTHORIZED", "Authorization is not V2_SHA256 <items>")
    rest = value[len("V2_SHA256 "):]
    items = {}
    for element in rest.split(","):
        if "=" not in element:
            raise Refused(401, "UNAUTHORIZED", "an Authorization item has no '='")
        name, item_value = element.split("=", 1)
        if name not in ITEMS:
            raise Refused(401, "UNAUTHORIZED", f"unknown Authorization item {name!r}")
        if item_value == "":
            raise Refused(401, "UNAUTHORIZED", f"empty Authorization item {name}")
        if name in items:
            raise Refused(401, "UNAUTHORIZED", f"Authorization item {name} given twice")
        items[name] = item_value
    missing = [n for n in ITEMS if n not in items]
    if missing:
        raise Refused(401, "UNAUTHORIZED", f"Authorization lacks {', '.join(missing)}")
    return items


def media_type(value):
    return value.split(";", 1)[0].strip(" \t").lower()


def read_body(handler):
    if "chunked" in (handler.headers.get("Transfer-Encoding") or "").lower():
        out = bytearray()
        while True:
            size = int(handler.rfile.readline().split(b";", 1)[0].strip() or b"0", 16)
            if size == 0:
                while handler.rfile.readline() not in (b"\r\n", b"\n", b""):
                    pass
                return bytes(out)
            if len(out) + size > MAX_BODY:
                raise Refused(413, "PAYLOAD_TOO_LARGE", "request body too large")
            out += handler.rfile.read(size)
            handler.rfile.readline()
    length = int(handler.headers.get("Content-Length") or 0)
    if length > MAX_BODY:
        raise Refused(413, "PAYLOAD_TOO_LARGE", "request body too large")
    return handler.rfile.read(length)


def no_duplicates(pairs):
    names = [k for k, _ in pairs]
    if len(set(names)) != len(names):
        raise ValueError("a key appears twice")
    return dict(pairs)


def json_object(body):
    try:
        value = json.loads(body.decode("utf-8"), object_pairs_hook=no_duplicates)
    except (UnicodeDecodeError, ValueError) as e:
        raise Refused(400, "INVALID_ARGUMENT", f"the body is not JSON: {e}")
    if not isinstance(value, dict):
        raise Refused(400, "INVALID_ARGUMENT", "the body is not a JSON object")
    return value


def string_field(body, name, max_len, required):
    if name not in body:
        if required:
            raise Refused(400, "INVALID_ARGUMENT", f"{name} is required")
        return None
    value = body[name]
    if not isinstance(value, str):
        raise Refused(400, "INVALID_ARGUMENT", f"{name} must be a string")
    if max_len is not None and len(value) > max_len:
        raise Refused(400, "INVALID_ARGUMENT", f"{name} is longer than {max_len}")
    return value


def credentials(body):
    filename = string_field(body, "filename", 32, True)
    content_type = string_field(body, "contentType", 32, False)
    scene = string_field(body, "scene", 50, True)
    if scene != "DISPUTE_EVIDENCE":
        raise Refused(400, "INVALID_ARGUMENT", "scene is not an allowed value")
    stem, ext = os.path.splitext(filename)
    if not ext:
        raise Refused(400, "INVALID_ARGUMENT", "filename has no extension")
    if ext[1:] not in EXTENSIONS:
        raise Refused(400, "INVALID_ARGUMENT", f"file type {ext[1:]} is not accepted for DISPUTE_EVIDENCE")
    if content_type == "":
        raise Refused(400, "INVALID_ARGUMENT", "contentType is empty")
    now = time.time()
    stamp = int(now * 1000)
    upload_no = f"{stamp}-{secrets.token_hex(8)}"
    name = f"{secrets.token_hex(12)}{ext}"
    key = f"evidence/{name}"
    date = datetime.fromtimestamp(now, timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    expiration = datetime.fromtimestamp(now + VALIDITY, timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    tagging = f"<Tagging><TagSet><Tag><Key>uploadNo</Key><Value>{upload_no}</Value></Tag></TagSet></Tagging>"
    bound = [("bucket", "pgv2-evidence"), ("key", key)]
    if content_type is not None:
        bound.append(("Content-Type", content_type))
    bound += [
        ("tagging", tagging),
        (f"{VENDOR}-algorithm", "PYG-HMAC-SHA256"),
        (f"{VENDOR}-credential", f"{APP_ID}/{date[:8]}/evidence"),
        (f"{VENDOR}-date", date),
    ]
    conditions = [{k: v} for k, v in bound] + [["content-length-range", 0, MAX_FILE]]
    policy = base64.b64encode(json.dumps({"expiration": expiration, "conditions": conditions}).encode()).decode()
    signature = hmac.new(POLICY_KEY, policy.encode(), hashlib.sha256).hexdigest()
    cut = 4 if content_type is not None else 3  # the policy after tagging, as the entries are listed in 2.4
    fields = bound[:cut] + [("policy", policy)] + bound[cut:]
    fields.append((f"{VENDOR}-signature", signature))
    with lock:
        issued[key] = {
            "fields": fields,
            "expires": now + VALIDITY,
            "contentType": content_type,
            "uri": f"pyg://pgv2-evidence/{key}",
        }
    return {
        "uploadUrl": upload_base,
        "storageUri": f"pyg://pgv2-evidence/{key}",
        "uploadNo": upload_no,
        "formFields": dict(fields),
        "httpMethod": "POST",
    }


PAYMENT_STRINGS = ("merchantTradeNo", "amount", "currency", "description", "merchantAttach", "notifyUrl", "returnUrl")
PAYMENT_OBJECTS = {
    "payer": ("userId", "name", "email", "phone"),
    "payMethod": ("type",),
    "tradeEnv": ("ip", "deviceId"),
}


def payment(body):
    for name in PAYMENT_STRINGS:
        string_field(body, name, None, False)
    for name, subfields in PAYMENT_OBJECTS.items():
        if name in body:
            if not isinstance(body[name], dict):
                raise Refused(400, "INVALID_ARGUMENT", f"{name} must be an object")
            for sub in subfields:
                string_field(body[name], sub, None, False)
    if "amount" in body and not re.fullmatch(r"[0-9]+(\.[0-9]+)?", body["amount"]):
        raise Refused(400, "INVALID_ARGUMENT", "amount is not a decimal string")
    stamp = int(time.time() * 1000)
    data = {"paymentNo": f"PY{stamp}{secrets.randbelow(10**6):06d}", "status": "PENDING", "refundStatus": "NO_REFUND"}
    for name in ("merchantTradeNo", "amount", "currency", "merchantAttach"):
        if name in body:
            data[name] = body[name]
    data["createdTime"] = datetime.now(timezone.utc).isoformat(timespec="seconds")
    return data


OPERATIONS = {"/pg/v2/file/generateUploadUrl": credentials, "/pg/v2/payment/create": payment}


class ApiHandler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_POST(self):
        try:
            body = read_body(self)
        except Refused as e:
            self.close_connection = True
            return self.answer(e.status, {"code": e.code, "errorMessage": e.message})
        operation = OPERATIONS.get(self.path.split("?", 1)[0])  # routed by path; a query is signed, not read
        if operation is None:
            return self.answer(404, {"code": "NOT_FOUND", "errorMessage": "no such operation"})
        host = self.headers.get("Host")
        url = f"http://{host}{self.path}"  # R4: the full URL as the client addressed it
        try:
            self.verify(url, body)
            data = operation(json_object(body))
        except Refused as e:
            return self.answer(e.status, {"code": e.code, "errorMessage": e.message})
        self.answer(200, {"code": "OK", "errorMessage": None, "data": data}, url)

    def verify(self, url, body):
        if not self.headers.get("Host"):
            raise Refused(400, "INVALID_ARGUMENT", "no Host")
        if media_type(self.headers.get("Content-Type") or "") != "application/json":
            raise Refused(415, "UNSUPPORTED_MEDIA_TYPE", "Content-Type must be application/json")
        if media_type(self.headers.get("Accept") or "") != "application/json":
            raise Refused(406, "NOT_ACCEPTABLE", "Accept must be application/json")
        values = self.headers.get_all("Authorization") or []
        if len(values) != 1:
            raise Refused(401, "UNAUTHORIZED", "exactly one Authorization header is required")
        # http.server reads header bytes as ISO-8859-1; SP/HTAB at the ends are not part of the value
        value = values[0].encode("latin-1").decode("utf-8", "surrogateescape").strip(" \t")
        items = parse_authorization(value)
        if items["appId"] != APP_ID:
            raise Refused(401, "UNAUTHORIZED", "unknown appId")
        if not HEX64.fullmatch(items["sign"]):
            raise Refused(401, "UNAUTHORIZED", "sign is not 64 lower-case hex digits")
        expected = sign(self.command, url, items["timestamp"], items["nonce"], body)
        if not hmac.compare_digest(items["sign"].encode(), expected.encode()):
            raise Refused(401, "UNAUTHORIZED", "the signature does not verify")
        with lock:
            if items["nonce"] in seen_nonces:
                raise Refused(401, "UNAUTHORIZED", "nonce already used")
            now = time.time()
            for n in [n for n, t in seen_nonces.items() if t < now - 3600]:
                del seen_nonces[n]
            seen_nonces[items["nonce"]] = now

    def answer(self, status, envelope, url=None):
        out = json.dumps(envelope, ensure_ascii=False).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(out)))
        if url is not None:  # 5.4: over the request's method and URL and these exact bytes
            timestamp, nonce = str(int(time.time() * 1000)), secrets.token_urlsafe(12)
            s = sign(self.command, url, timestamp, nonce, out)
            self.send_header("Authorization", f"V2_SHA256 appId={APP_ID},sign={s},timestamp={timestamp},nonce={nonce}")
        self.end_headers()
        self.wfile.write(out)

    def not_allowed(self):
        read_body(self)
        self.answer(405, {"code": "METHOD_NOT_ALLOWED", "errorMessage": "POST only"})

    do_GET = do_PUT = do_DELETE = do_PATCH = not_allowed


def parse_multipart(content_type, body):
    """RFC 7578: a list of (headers dict, name, filename or None, bytes)."""
    m = re.search(r'boundary=(?:"([^"]+)"|([^;\s]+))', content_type, re.I)
    if media_type(content_type) != "multipart/form-data" or not m:
        raise Refused(400, "MalformedPOSTRequest", "the body is not multipart/form-data")
    delimiter = b"--" + (m.group(1) or m.group(2)).encode("latin-1")
    chunks = body.split(b"\r\n" + delimiter)
    if not chunks[0].startswith(delimiter):
        raise Refused(400, "MalformedPOSTRequest", "no opening boundary")
    chunks[0] = chunks[0][len(delimiter):]
    parts = []
    for i, chunk in enumerate(chunks):
        if chunk.startswith(b"--"):
            if i == 0:
                raise Refused(400, "MalformedPOSTRequest", "no parts")
            return parts
        if not chunk.startswith(b"\r\n") or b"\r\n\r\n" not in chunk:
            raise Refused(400, "MalformedPOSTRequest", "a malformed part")
        head, data = chunk[2:].split(b"\r\n\r\n", 1)
        headers = {}
        for line in head.decode("utf-8", "replace").split("\r\n") if head else []:
            if ":" not in line:
                raise Refused(400, "MalformedPOSTRequest", "a malformed part header")
            k, v = line.split(":", 1)
            headers[k.strip().lower()] = v.strip()
        disposition = headers.get("content-disposition", "")
        name = re.search(r';\s*name="([^"]*)"', disposition)
        if not disposition.lower().startswith("form-data") or not name:
            raise Refused(400, "MalformedPOSTRequest", "a part without a form-data name")
        filename = re.search(r';\s*filename="([^"]*)"', disposition)
        parts.append((headers, name.group(1), filename.group(1) if filename else None, data))
    raise Refused(400, "MalformedPOSTRequest", "no closing boundary")


class UploadHandler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_POST(self):
        try:
            body = read_body(self)
            self.upload(body)
        except Refused as e:
            return self.error(e.status, e.code, e.message)
        self.send_response(204)
        self.end_headers()

    def upload(self, body):
        if self.path != "/evidence":
            raise Refused(404, "NoSuchBucket", "no such upload address")
        if self.headers.get("Authorization") is not None:
            raise Refused(400, "InvalidArgument", "an upload carries no Authorization header (5.7)")
        parts = parse_multipart(self.headers.get("Content-Type") or "", body)
        if not parts or parts[-1][1] != "file":
            raise Refused(400, "InvalidArgument", "the last part must be the file")
        file_headers, _, filename, data = parts[-1]
        fields = [(name, value.decode("utf-8", "surrogateescape")) for _, name, fn, value in parts[:-1]]
        if any(name == "file" for name, _ in fields) or filename is None:
            raise Refused(400, "InvalidArgument", "exactly one file part, the last")
        key = dict(fields).get("key")
        with lock:
            record = issued.get(key)
        if record is None or fields != record["fields"]:
            raise Refused(403, "AccessDenied", "the form fields are not those issued, in the order issued")
        policy = dict(fields)["policy"]
        expected = hmac.new(POLICY_KEY, policy.encode(), hashlib.sha256).hexdigest()
        if not hmac.compare_digest(expected, dict(fields)[f"{VENDOR}-signature"]):
            raise Refused(403, "SignatureDoesNotMatch", "the policy signature does not match")
        if time.time() > record["expires"]:
            raise Refused(403, "AccessDenied", "the upload address has expired")
        if len(data) > MAX_FILE:
            raise Refused(400, "EntityTooLarge", "the file is larger than 2 MB")
        if record["contentType"] is not None and file_headers.get("content-type") != record["contentType"]:
            raise Refused(400, "InvalidArgument", "the file part's Content-Type is not the requested one")
        with lock:
            stored[record["uri"]] = data

    def error(self, status, code, message):
        out = f"<Error><Code>{code}</Code><Message>{message}</Message></Error>".encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/xml")
        self.send_header("Content-Length", str(len(out)))
        self.end_headers()
        self.wfile.write(out)

    def not_allowed(self):
        try:
            read_body(self)
        except Refused:
            self.close_connection = True
        self.error(405, "MethodNotAllowed", "POST only")

    do_GET = do_PUT = do_DELETE = do_PATCH = not_allowed


class Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 128  # the kit sends several requests at a time


def main():
    global upload_base
    api = Server(("127.0.0.1", 0), ApiHandler)
    uploads = Server(("127.0.0.1", 0), UploadHandler)
    upload_base = f"http://127.0.0.1:{uploads.server_address[1]}/evidence"
    for server in (api, uploads):
        threading.Thread(target=server.serve_forever, daemon=True).start()
    print(f"listening http://127.0.0.1:{api.server_address[1]}", flush=True)
    sys.stdin.read()
    api.shutdown()
    uploads.shutdown()


if __name__ == "__main__":
    main()
