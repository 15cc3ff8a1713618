#!/usr/bin/env python3
"""A small gateway over HTTP whose Authorization parser is py-go-style's (a Go gateway's string
semantics: strings.TrimSpace, strings.Split, strings.EqualFold; its header comment states the R8
choices). Python 3.11, stdlib only, written from gateway-spec.md and readings.md alone.

It serves POST /pg/v2/file/generateUploadUrl (4.1): a request whose Authorization verifies (5.1-5.3:
part 4 the full URL as sent, R4; the exact body bytes, R3) gets 200 with a 5.4-signed envelope whose
data follows 2.4; any other gets 401 with a code that is not OK (R16). Nothing else is served (404).
Credentials come from PGV2_APP_ID and PGV2_APP_SECRET. It listens on 127.0.0.1 at a free port and
writes `listening http://127.0.0.1:<port>` as its first line on stdout; it stops when stdin closes.
"""
import hashlib
import hmac
import importlib.util
import json
import os
import secrets
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

_spec = importlib.util.spec_from_file_location("py_go_style", Path(__file__).with_name("py-go-style.py"))
member = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(member)

APP_ID = os.environ["PGV2_APP_ID"]
APP_SECRET = os.environ["PGV2_APP_SECRET"]
PATH = "/pg/v2/file/generateUploadUrl"


def sign(method, url, timestamp, nonce, body):
    return hashlib.sha256(member.content_bytes(APP_ID, APP_SECRET, method, url, timestamp, nonce, body)).hexdigest()


def authentic(value, url, body):
    """The request's Authorization (the field value, Go-style parsed) verifies over this request."""
    if value is None:
        return False
    try:
        items = member.parse_header(value)
    except member.Refuse:
        return False
    given = items["sign"]
    if items["appId"] != APP_ID or len(given) != 64 or not set(given) <= set("0123456789abcdefABCDEF"):
        return False
    return hmac.compare_digest(bytes.fromhex(given), bytes.fromhex(sign("POST", url, items["timestamp"], items["nonce"], body)))


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        if self.path != PATH:
            return self.answer(404, {"code": "NOT_FOUND", "errorMessage": "no such operation"})
        url = f"http://{self.headers.get('Host')}{self.path}"
        # the field value as http.server gives it: its bytes read as ISO-8859-1 (as Node's server does)
        if not authentic(self.headers.get("Authorization"), url, body):
            return self.answer(401, {"code": "UNAUTHORIZED", "errorMessage": "the signature does not verify"})
        stamp = str(int(time.time() * 1000))
        data = {"uploadUrl": "https://uploads.example.com/evidence", "storageUri": f"s3://evidence/{stamp}.pdf",
                "uploadNo": f"{stamp}-{secrets.token_hex(4)}", "httpMethod": "POST", "formFields": {"key": f"evidence/{stamp}.pdf"}}
        self.answer(200, {"code": "OK", "errorMessage": None, "data": data}, url)

    def answer(self, status, envelope, url=None):
        out = json.dumps(envelope, separators=(",", ":")).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(out)))
        if url is not None:  # 5.4: the response signed over the request's method and URL and its own bytes
            timestamp, nonce = str(int(time.time() * 1000)), secrets.token_hex(8)
            items = {"appId": APP_ID, "sign": sign("POST", url, timestamp, nonce, out), "timestamp": timestamp, "nonce": nonce}
            self.send_header("Authorization", member.format_header(items))
        self.end_headers()
        self.wfile.write(out)


def main():
    # the kit sends requests several at a time: the default backlog of 5 refuses some under load
    ThreadingHTTPServer.request_queue_size = 128
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    print(f"listening http://127.0.0.1:{server.server_address[1]}", flush=True)
    sys.stdin.read()  # until the parent closes stdin (or goes away)
    server.shutdown()


if __name__ == "__main__":
    main()
