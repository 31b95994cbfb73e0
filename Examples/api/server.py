#!/usr/bin/env python3
"""The demo's sample API, on 127.0.0.1, with nothing but Python's standard library.

    python3 Examples/api/server.py [PORT]        (port 8080 by default)

GET /melodies answers melodies.json. /orders and /customers are small REST APIs kept in memory,
the orders started from orders.json, the customers empty: GET and POST /orders, GET, PUT and DELETE
/orders/ID, the same for /customers. Each POST names the new resource with an id of the server's.
A write sent with an Idempotency-Key header that was already seen is not applied again: the first
answer is sent again. Every resource carries a "version" ("1", then one more per change) and single
answers an ETag with it; a PUT or DELETE with an If-Match naming another version is answered 412
with the current resource. An order whose "customerId" names no customer here is answered 400.
Restarting the server forgets what was written. With DEMO_LATENCY=SECONDS in its environment each
answer to a write is held that long after the write is applied (a slow network: an answer a client
killed meanwhile never reads). `swift run demo export-sample-api Examples/api` rewrites the two JSON files.

GET /events is a Server-Sent Events stream (text/event-stream) of the changes: after each one an
event "id: rev-N" with "data: {"orders": "rev-N"}" (or "customers"), a comment every 15 seconds to
keep it open, and to a client that comes back with Last-Event-ID: rev-N the events after that one.
The event only says what changed: the client asks GET /orders?since=... for the changes.

/uploads takes files over tus 1.0.0 (tus.io, core and creation): POST /uploads with Upload-Length
and Upload-Metadata answers 201 with Location: /uploads/ID (the same Idempotency-Key, the same
upload); HEAD /uploads/ID answers Upload-Offset; PATCH /uploads/ID with Upload-Offset and
Content-Type: application/offset+octet-stream appends the bytes (409 at another offset, and the
bytes of a PATCH cut short are kept, as tus asks). GET /uploads/ID answers the bytes of a complete
upload (to a Range: bytes=A-B, 206 and that piece), GET /uploads what was received
({"uploads": [...], "received": bytes}). A file sent whole, as one POST /uploads or PUT /uploads/ID
without Tus-Resumable, is kept as a complete upload (named by its Content-Disposition, 400 when it
does not match its Repr-Digest of RFC 9530), 201 with Location. An order whose
"attachments" name an upload that is not complete here is answered 400. Bytes are kept in a
temporary folder, removed when the server stops.

With DEMO_USERS="amy:apple pie,bob:battery" in its environment it wants a signed-in user: POST
/oauth/token takes the password and refresh-token grants of RFC 6749 (form-encoded) and answers a
bearer token that expires after DEMO_TOKEN_LIFETIME seconds (3600 by default); any other request
without a valid token is answered 401 with WWW-Authenticate: Bearer error="invalid_token". Each
user has orders of their own, each started from orders.json.
"""
import base64
import hashlib
import http.server
import json
import os
import pathlib
import re
import secrets
import shutil
import sys
import tempfile
import threading
import time
import urllib.parse
import uuid

HERE = pathlib.Path(__file__).resolve().parent
MELODIES = json.loads((HERE / "melodies.json").read_text(encoding="utf-8"))
SEED = json.loads((HERE / "orders.json").read_text(encoding="utf-8"))
LOCK = threading.Lock()
CHANGED = threading.Condition(LOCK)  # notified after every change, for the event streams
KEEP_ALIVE = 15
LATENCY = float(os.environ.get("DEMO_LATENCY", "0") or 0)
TUS = "1.0.0"
MAX_UPLOAD = 1 << 32
FILES = pathlib.Path(tempfile.mkdtemp(prefix="sample-api-uploads-"))


class Shop:
    """One user's orders and customers (everyone's when nobody signs in), by collection.
    `revision` moves on with every change: a listing's ETag, so an unchanged listing is a 304, and
    its Sync-Token, from which GET /orders?since=rev-N answers what changed (410 for a token this
    server never gave). `touched` keeps each resource's last change, deletions included, by
    (collection, id); `answered` maps an Idempotency-Key to the (status, value) of the write that
    first used it."""

    def __init__(self):
        self.items = {"orders": {order["id"]: dict(order, version="1") for order in SEED}, "customers": {}}
        self.revision = 0
        self.touched = {}
        self.answered = {}
        self.events = []  # (revision, collection), the last 1,000, for GET /events
        self.uploads = {}  # id -> Upload
        self.upload_keys = {}  # Idempotency-Key -> upload id
        self.received = 0  # every byte a PATCH brought, kept or not

    def touch(self, collection, ident):
        self.revision += 1
        self.touched[(collection, ident)] = self.revision
        self.events = self.events[-999:] + [(self.revision, collection)]
        CHANGED.notify_all()

    def refusal(self, collection, value):
        """Why the shop refuses `value` for `collection`, or None: an order naming no customer here."""
        customer = value.get("customerId") if collection == "orders" else None
        if customer is not None and customer not in self.items["customers"]:
            return {"errors": [{"field": "customerId", "message": "The shop has no customer %s." % customer}]}
        attachments = value.get("attachments") if collection == "orders" else None
        for attachment in attachments if isinstance(attachments, list) else []:
            upload = self.uploads.get(attachment.get("id") if isinstance(attachment, dict) else None)
            if upload is None or upload.offset != upload.length:
                name = attachment.get("id") if isinstance(attachment, dict) else attachment
                return {"errors": [{"field": "attachments", "message": "The shop has no upload %s." % name}]}
        return None


class Upload:
    """A tus upload: its length, the bytes received so far (in a file of FILES), its metadata."""

    def __init__(self, ident, length, metadata):
        self.ident, self.length, self.metadata, self.offset = ident, length, metadata, 0
        self.path = FILES / ident
        self.path.write_bytes(b"")
        self.hash = hashlib.sha256()

    def describe(self):
        done = self.offset == self.length
        return {"id": self.ident, "length": self.length, "offset": self.offset, "metadata": self.metadata,
                "sha256": self.hash.hexdigest() if done else None}


SHOPS = {}  # user ("" when nobody signs in) -> Shop
# Signing in, when DEMO_USERS names users: their passwords, the access tokens granted (token ->
# (user, expiry)) and the refresh tokens (token -> user). No token or password is ever printed.
USERS = dict(pair.split(":", 1) for pair in os.environ.get("DEMO_USERS", "").split(",") if ":" in pair)
ACCESS = {}
REFRESH = {}
LIFETIME = int(os.environ.get("DEMO_TOKEN_LIFETIME", "3600"))


class Handler(http.server.BaseHTTPRequestHandler):
    # HTTP/1.1: a client's connection stays open between its requests. Every answer says its
    # Content-Length, and every request's body is read whole before it is answered (`parse_request`),
    # so that nothing of one request is taken for the start of the next.
    protocol_version = "HTTP/1.1"
    raw = b""

    def parse_request(self):
        if not super().parse_request():
            return False
        try:
            length = int(self.headers.get("Content-Length") or 0)
        except ValueError:
            self.send_error(400, "Content-Length is not a number")
            return False
        self.raw = self.rfile.read(length) if length > 0 else b""
        # A body cut short: a tus PATCH keeps what came (do_PATCH); nothing else is applied.
        self.cut = len(self.raw) < length
        self.user = ""
        return True

    def send_json(self, status, value=None, etag=None, token=None):
        body = b"" if value is None else json.dumps(value, ensure_ascii=False).encode("utf-8")
        if LATENCY > 0 and self.command in ("POST", "PUT", "DELETE"):
            time.sleep(LATENCY)
        self.send_response(status)
        if token is not None:
            self.send_header("Sync-Token", token)
        if etag is not None:
            self.send_header("ETag", etag)
        elif isinstance(value, dict) and "version" in value:
            self.send_header("ETag", '"%s"' % value["version"])
        self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def read_json(self):
        try:
            value = json.loads(self.raw or b"null")
        except ValueError:
            return None
        return value if isinstance(value, dict) else None

    def query(self):
        return dict(urllib.parse.parse_qsl(self.path.partition("?")[2]))

    def send_feed(self, collection, token):
        """What changed in `collection` after `token`: {"changes", "deleted", "next", "more"}, or 410."""
        shop = self.shop()
        since = int(token[4:]) if token.startswith("rev-") and token[4:].isdigit() else -1
        if since < 0 or since > shop.revision:
            return self.send_json(410, {"error": "the token is not known: list again"})
        touched = [ident for (kind, ident), revision in sorted(shop.touched.items(), key=lambda item: item[1])
                   if kind == collection and revision > since]
        items = shop.items[collection]
        changes = [items[ident] for ident in touched if ident in items]
        deleted = [ident for ident in touched if ident not in items]
        return self.send_json(
            200, {"changes": changes, "deleted": deleted, "next": "rev-%d" % shop.revision, "more": False})

    user = ""

    def shop(self):
        """The orders of the user signed in (call it holding LOCK)."""
        return SHOPS.setdefault(self.user, Shop())

    def signed_in(self):
        """True when no sign-in is wanted or the request carries a valid token; else answers 401."""
        if not USERS:
            return True
        header = self.headers.get("Authorization") or ""
        token = header[7:] if header.startswith("Bearer ") else ""
        with LOCK:
            user, expires = ACCESS.get(token, (None, 0))
        if user is not None and expires > time.time():
            self.user = user
            return True
        body = b'{"error": "invalid_token"}'
        self.send_response(401)
        self.send_header("WWW-Authenticate", 'Bearer error="invalid_token"')
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
        return False

    def grant(self):
        """The token endpoint: a password or refresh-token grant answered with a bearer token."""
        form = dict(urllib.parse.parse_qsl(self.raw.decode("utf-8", "replace")))
        with LOCK:
            if form.get("grant_type") == "password":
                name = form.get("username", "")
                user = name if name in USERS and USERS[name] == form.get("password") else None
            elif form.get("grant_type") == "refresh_token":
                user = REFRESH.get(form.get("refresh_token", ""))
            else:
                return self.send_json(400, {"error": "unsupported_grant_type"})
            if user is None:
                return self.send_json(400, {"error": "invalid_grant"})
            access, refresh = secrets.token_urlsafe(24), secrets.token_urlsafe(24)
            ACCESS[access] = (user, time.time() + LIFETIME)
            REFRESH[refresh] = user
        return self.send_json(200, {
            "access_token": access, "token_type": "Bearer", "expires_in": LIFETIME, "refresh_token": refresh})

    def route(self):
        parts = [part for part in self.path.split("?")[0].split("/") if part]
        return parts[0] if parts else "", parts[1] if len(parts) > 1 else None, len(parts)

    def send_events(self):
        """GET /events: the changes as they happen, until the client goes away."""
        last = self.headers.get("Last-Event-ID", "")
        with LOCK:
            shop = self.shop()
            sent = int(last[4:]) if last.startswith("rev-") and last[4:].isdigit() else shop.revision
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True
        try:
            while True:
                with LOCK:
                    fresh = [(revision, kind) for revision, kind in shop.events if revision > sent]
                    if not fresh:
                        CHANGED.wait(KEEP_ALIVE)
                        fresh = [(revision, kind) for revision, kind in shop.events if revision > sent]
                text = "".join('id: rev-%d\ndata: {"%s": "rev-%d"}\n\n' % (revision, kind, revision)
                               for revision, kind in fresh) or ": keep-alive\n\n"
                sent = max([sent] + [revision for revision, _ in fresh])
                self.wfile.write(text.encode("utf-8"))
                self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            return None

    def send_tus(self, status, fields=None, body=b"", content_type="text/plain"):
        self.send_response(status)
        self.send_header("Tus-Resumable", TUS)
        for name, value in (fields or {}).items():
            self.send_header(name, value)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def tus_version_refused(self):
        if self.headers.get("Tus-Resumable") == TUS:
            return False
        self.send_tus(412, {"Tus-Version": TUS})
        return True

    def create_upload(self):
        """POST /uploads: a new upload, or the one made before with the same Idempotency-Key."""
        if self.tus_version_refused():
            return None
        key = self.headers.get("Idempotency-Key")
        with LOCK:
            shop = self.shop()
            if key is not None and key in shop.upload_keys:
                return self.send_tus(201, {"Location": "/uploads/%s" % shop.upload_keys[key]})
            field = self.headers.get("Upload-Length") or ""
            if not field.isdigit():
                return self.send_tus(400, body=b"Upload-Length is missing")
            if int(field) > MAX_UPLOAD:
                return self.send_tus(413, body=b"larger than %d bytes" % MAX_UPLOAD)
            metadata = {}
            for pair in (self.headers.get("Upload-Metadata") or "").split(","):
                name, _, value = pair.strip().partition(" ")
                if name:
                    try:
                        metadata[name] = base64.b64decode(value).decode("utf-8", "replace")
                    except ValueError:
                        return self.send_tus(400, body=b"Upload-Metadata is not base64")
            ident = uuid.uuid4().hex[:12]
            shop.uploads[ident] = Upload(ident, int(field), metadata)
            if key is not None:
                shop.upload_keys[key] = ident
        self.send_tus(201, {"Location": "/uploads/%s" % ident})

    def take_whole(self, ident=None):
        """POST /uploads or PUT /uploads/ID without Tus-Resumable: a file sent whole."""
        key = self.headers.get("Idempotency-Key")
        digest = hashlib.sha256(self.raw)
        with LOCK:
            shop = self.shop()
            shop.received += len(self.raw)
            if key is not None and key in shop.upload_keys:
                return self.send_tus(201, {"Location": "/uploads/%s" % shop.upload_keys[key]})
            if len(self.raw) > MAX_UPLOAD:
                return self.send_tus(413, body=b"larger than %d bytes" % MAX_UPLOAD)
            said = self.headers.get("Repr-Digest")
            if said is not None and said != "sha-256=:%s:" % base64.b64encode(digest.digest()).decode():
                return self.send_tus(400, body=b"the body does not match its Repr-Digest")
            metadata = {"filetype": self.headers.get("Content-Type") or "application/octet-stream"}
            for parameter in (self.headers.get("Content-Disposition") or "").split(";"):
                name, _, value = parameter.strip().partition("=")
                if name == "filename*" and value.startswith("UTF-8''"):
                    metadata["filename"] = urllib.parse.unquote(value[len("UTF-8''"):])
                elif name == "filename" and "filename" not in metadata:
                    metadata["filename"] = value.strip('"')
            if ident is not None and not re.fullmatch(r"[A-Za-z0-9_-]{1,64}", ident):
                return self.send_tus(400, body=b"an upload id is letters, digits, - and _")
            ident = ident or uuid.uuid4().hex[:12]
            upload = Upload(ident, len(self.raw), metadata)
            upload.path.write_bytes(self.raw)
            upload.hash, upload.offset = digest, len(self.raw)
            shop.uploads[ident] = upload
            if key is not None:
                shop.upload_keys[key] = ident
        self.send_tus(201, {"Location": "/uploads/%s" % ident})

    def do_HEAD(self):
        if not self.signed_in() or self.tus_version_refused():
            return None
        collection, ident, depth = self.route()
        with LOCK:
            upload = self.shop().uploads.get(ident) if (collection, depth) == ("uploads", 2) else None
            if upload is None:
                return self.send_tus(404)
            fields = {"Upload-Offset": str(upload.offset), "Upload-Length": str(upload.length),
                      "Cache-Control": "no-store"}
        self.send_tus(200, fields)

    def do_PATCH(self):
        if not self.signed_in() or self.tus_version_refused():
            return None
        collection, ident, depth = self.route()
        with LOCK:
            shop = self.shop()
            upload = shop.uploads.get(ident) if (collection, depth) == ("uploads", 2) else None
            if upload is None:
                return self.send_tus(404)
            if self.headers.get("Content-Type") != "application/offset+octet-stream":
                return self.send_tus(415)
            if self.headers.get("Upload-Offset") != str(upload.offset):
                return self.send_tus(409, {"Upload-Offset": str(upload.offset)})
            shop.received += len(self.raw)
            if upload.offset + len(self.raw) > upload.length:
                return self.send_tus(400, body=b"past Upload-Length")
            with upload.path.open("ab") as file:
                file.write(self.raw)
            upload.hash.update(self.raw)
            upload.offset += len(self.raw)
            offset = upload.offset
        if self.cut:
            self.close_connection = True
            return None
        self.send_tus(204, {"Upload-Offset": str(offset)})

    def send_upload(self, ident):
        """GET /uploads/ID: the bytes of a complete upload, read from its file as they are sent."""
        with LOCK:
            upload = self.shop().uploads.get(ident)
            if upload is None or upload.offset != upload.length:
                return self.send_json(404, {"error": "not found"})
            path, length = upload.path, upload.length
            kind = upload.metadata.get("filetype") or "application/octet-stream"
        first, last = 0, length - 1
        asked = self.headers.get("Range") or ""
        if asked.startswith("bytes=") and "-" in asked:
            start, _, end = asked[6:].partition("-")
            if not start.isdigit() or int(start) >= length or (end and not end.isdigit()):
                self.send_response(416)
                self.send_header("Content-Range", "bytes */%d" % length)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return None
            first, last = int(start), min(int(end) if end else length - 1, length - 1)
            self.send_response(206)
            self.send_header("Content-Range", "bytes %d-%d/%d" % (first, last, length))
        else:
            self.send_response(200)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(last - first + 1))
        self.end_headers()
        with path.open("rb") as file:
            file.seek(first)
            left = last - first + 1
            while left > 0:
                piece = file.read(min(left, 1 << 20))
                if not piece:
                    break
                self.wfile.write(piece)
                left -= len(piece)

    def do_OPTIONS(self):
        self.send_tus(204, {"Tus-Version": TUS, "Tus-Extension": "creation", "Tus-Max-Size": str(MAX_UPLOAD)})

    def do_GET(self):
        if not self.signed_in():
            return None
        collection, ident, depth = self.route()
        if (collection, depth) == ("events", 1):
            return self.send_events()
        if (collection, depth) == ("uploads", 2):
            return self.send_upload(ident)
        if (collection, depth) == ("uploads", 1):
            with LOCK:
                shop = self.shop()
                listing = {"uploads": [upload.describe() for upload in shop.uploads.values()],
                           "received": shop.received}
            return self.send_json(200, listing)
        with LOCK:
            shop = self.shop()
            if (collection, depth) == ("melodies", 1):
                return self.send_json(200, MELODIES)
            items = shop.items.get(collection)
            if items is not None and depth == 1 and "since" in self.query():
                return self.send_feed(collection, self.query()["since"])
            if items is not None and depth == 1:
                tag = '"%s-%d"' % (collection, shop.revision)
                if self.headers.get("If-None-Match") == tag:
                    self.send_response(304)
                    self.send_header("ETag", tag)
                    self.end_headers()
                    return None
                return self.send_json(200, list(items.values()), etag=tag, token="rev-%d" % shop.revision)
            if items is not None and depth == 2 and ident in items:
                return self.send_json(200, items[ident])
        self.send_json(404, {"error": "not found"})

    def repeated(self):
        """Answers again a write whose Idempotency-Key was seen; False for a new one."""
        key = self.headers.get("Idempotency-Key")
        if key is None or key not in self.shop().answered:
            return False
        self.send_json(*self.shop().answered[key])
        return True

    def remember(self, status, value=None):
        key = self.headers.get("Idempotency-Key")
        if key is not None:
            self.shop().answered[key] = (status, value)
        return status, value

    def stale(self, current):
        """Answers 412 with the current resource when If-Match names another version; False otherwise."""
        tag = (self.headers.get("If-Match") or "").strip()
        if tag.startswith("W/"):
            tag = tag[2:]
        if len(tag) >= 2 and tag[0] == tag[-1] == '"':
            tag = tag[1:-1]
        if not tag or tag == "*" or tag == current.get("version"):
            return False
        self.send_json(412, current)
        return True

    def do_POST(self):
        if self.path.split("?")[0] == "/oauth/token" and USERS:
            return self.grant()
        if not self.signed_in():
            return None
        collection, _, depth = self.route()
        if (collection, depth) == ("uploads", 1):
            return self.create_upload() if "Tus-Resumable" in self.headers else self.take_whole()
        value = self.read_json()
        with LOCK:
            items = self.shop().items.get(collection)
            if items is None or depth != 1:
                return self.send_json(404, {"error": "not found"})
            if value is None:
                return self.send_json(400, {"errors": []})
            if self.repeated():
                return None
            refusal = self.shop().refusal(collection, value)
            if refusal is not None:
                return self.send_json(400, refusal)
            value["id"] = uuid.uuid4().hex[:8]
            value["version"] = "1"
            items[value["id"]] = value
            self.shop().touch(collection, value["id"])
            answer = self.remember(201, value)
        self.send_json(*answer)

    def do_PUT(self):
        if not self.signed_in():
            return None
        collection, ident, depth = self.route()
        if (collection, depth) == ("uploads", 2) and "Tus-Resumable" not in self.headers:
            return self.take_whole(ident)
        value = self.read_json()
        with LOCK:
            if self.repeated():
                return None
            items = self.shop().items.get(collection)
            if items is None or depth != 2 or ident not in items:
                return self.send_json(404, {"error": "not found"})
            if value is None:
                return self.send_json(400, {"errors": []})
            if self.stale(items[ident]):
                return None
            refusal = self.shop().refusal(collection, value)
            if refusal is not None:
                return self.send_json(400, refusal)
            value["id"] = ident
            value["version"] = str(int(items[ident].get("version", "0")) + 1)
            items[ident] = value
            self.shop().touch(collection, ident)
            answer = self.remember(200, value)
        self.send_json(*answer)

    def do_DELETE(self):
        if not self.signed_in():
            return None
        collection, ident, depth = self.route()
        with LOCK:
            if self.repeated():
                return None
            items = self.shop().items.get(collection)
            if items is None or depth != 2 or ident not in items:
                return self.send_json(404, {"error": "not found"})
            if self.stale(items[ident]):
                return None
            del items[ident]
            self.shop().touch(collection, ident)
            answer = self.remember(204)
        self.send_json(*answer)


if __name__ == "__main__":
    port = int(sys.argv[1]) if len(sys.argv) > 1 else 8080
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler)
    print(f"Sample API on http://127.0.0.1:{port}/ (Ctrl-C to stop)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        shutil.rmtree(FILES, ignore_errors=True)
