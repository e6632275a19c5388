#!/usr/bin/env python3
"""A stand-in for Apple's Retention Messaging API, on loopback, for msgc's tests.

It serves the documented paths, bodies and error objects ({"errorCode", "errorMessage"}),
verifies each request's ES256 JWT against a key it makes itself (written as a .p8 file for
msgc), limits each endpoint's rate with 429 and a Retry-After in UNIX milliseconds, answers
409 to a reused identifier, keeps review states (sandbox approves at once, production leaves
uploads PENDING until /_standin/approve), and injects faults on request.

Usage: standin.py CONFIG.json — prints "PORT <n>" once it listens on 127.0.0.1 and serves
until its standard input closes. CONFIG holds:
  keyOut       where to write the private key (PKCS #8 PEM, as App Store Connect gives it)
  keyId, issuerId, bundleId   what tokens must carry
  environment  "sandbox" or "production"
  rate         requests per second per endpoint before 429 (default 1000)
  rates        {"ENDPOINT": n}: another rate for some endpoints
  burst        n: limit each endpoint with a token bucket of n requests refilled at its rate,
               instead of n requests in any one-second window (Apple counts its budget per
               hour; a small bucket is still far stricter than that)
  fail500      {"ENDPOINT": n}: the first n requests to ENDPOINT get 500
  dropAfterStore  n: the n-th message upload is stored, then the connection is closed unanswered
  messageCap   uploads beyond this many messages get 403 MaximumNumberOfMessagesReachedError
  preload      {"messages": {id: state}, "images": {id: [state, size]}}
  untrustedTLS true: speak HTTPS with a self-signed certificate no client should trust, count
               the connections and print "CONNECTIONS <n>" when standard input closes
  rateLimit    {"ENDPOINT": [n, VALUE]}: the first n requests to ENDPOINT get 429 with Retry-After
               VALUE: "past" (a second ago, in ms), "in:S" (S seconds on, in ms), or the text as
               is; "A|B|C" gives each in turn
  listShape    "bare": image items without imageSize and lists as {} when empty
  burned       identifiers Apple refuses with 409 but never lists (deleted earlier)
  ghosts       message identifiers Apple still lists but no longer holds: a delete gets 404
  clockBehind  seconds the stand-in's clock is behind the client's: a token issued in its
               future (iat later than its now) gets 401
  changeFile   [PATH, n, TEXT]: after the n-th message upload, PATH is overwritten with TEXT
  holdAfter    {"ENDPOINT": n}: requests to ENDPOINT after its n-th that passed the limits wait
               unanswered until POST /_standin/release (at most 60 s), then go on as usual: a
               client can be killed at an exact point, whatever the machine's load
  images in preload may have size null: listed without imageSize; preload may also hold
               "defaults": {"PRODUCT/LOCALE": id} and "messageImages": {message id: [image ids]}
  realtimeURL  the realtime URL already configured (default none)
  passedTest   production only: false makes Configure Realtime URL answer 403
               ForbiddenNoPassingTestError (as Apple does until a sandbox test has passed)
  perftest     Apple's performance test: {"bodies": JSONL file of signed realtime request bodies
               (scripts/realtime-requests.py's load/bodies.jsonl), "ca": PEM file the realtime URL's
               TLS certificate chains to, "total": n requests (default: every body), "concurrency":
               n at once (default 4), "threshold": ms (default 700), "successThreshold": percent
               (default 95), "hostile": one of "neverFinish" (PENDING for ever), "missing" (a
               result with only result FAIL), "empty" ({}), "garbage" (not JSON), "unknown"
               (result "ABANDONED"), "badTypes" (members of the wrong type)}. POST starts a burst
               of real HTTPS requests to the configured URL on a thread of its own: each body POSTed
               once, timed, judged (200 with exactly one of message, alternateProduct,
               promotionalOffer is a success); the result is PENDING until every request is
               answered, then PASS or FAIL by the thresholds, in Apple's PerformanceTestResultResponse
               shape. When Apple's Python library is importable, bodies are read and results
               written through its models (RealtimeUrlRequest, PerformanceTestRequest,
               PerformanceTestResponse, PerformanceTestResultResponse).
ENDPOINT is one of listMessages, listImages, uploadImage, uploadMessage, configureDefault,
deleteMessage, deleteImage (403 ImageInUseError while a message uses it), getDefault (404
DefaultMessageNotFoundError when none), deleteDefault, configureRealtimeUrl (400
BadRequestRealtimeUrlError for a body Apple's model refuses), getRealtimeUrl (404
RealtimeUrlNotFoundError when none), deleteRealtimeUrl, startPerformanceTest (400
ExistingPerformanceTestRunError while one runs, InvalidPerformanceTestRequestError without a URL),
getPerformanceTestResult (404 PerformanceTestRunNotFoundError for an unknown id). `servedDeleted` in the log counts messages
deleted while a default pointed at them.

GET /_standin/log returns what was asked (with times), what is held, and `early` (requests
before their Retry-After) and `outOfOrder` (a message before its images, a default before its
message); "defaultReadErrors": {"PRODUCT/LOCALE": error name} makes Get Default Message answer
that error there (the default stays); POST /_standin/approve approves all; POST /_standin/calm drops rateLimit faults;
POST /_standin/release lets held requests (holdAfter) go on, holds no more, and answers once they are done.
"""

import datetime
import ipaddress
import json
import os
import re
import shutil
import socket
import ssl
import sys
import tempfile
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import jwt
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

ERRORS = {
    "MessageAlreadyExists": (409, 4090001), "ImageAlreadyExists": (409, 4090000),
    "MaximumNumberOfMessagesReached": (403, 4030016), "MaximumNumberOfImagesReached": (403, 4030014),
    "MessageNotApproved": (403, 4030017), "ImageNotApproved": (403, 4030018), "MessageNotFound": (404, 4040015),
    "RateLimitExceeded": (429, 4290000), "GeneralInternal": (500, 5000000), "HeaderTooLong": (400, 4000162),
    "InvalidImage": (400, 4000161), "GeneralBadRequest": (400, 4000000),
    "ImageInUse": (403, 4030019), "ImageNotFound": (404, 4040014), "DefaultMessageNotFound": (404, 4040020),
    "InvalidLocale": (400, 4000164),
    "BadRequestRealtimeUrl": (400, 4000215), "ForbiddenNoPassingTest": (403, 4030026), "RealtimeUrlNotFound": (404, 4040021),
    "InvalidPerformanceTestRequest": (400, 4000211), "ExistingPerformanceTestRun": (400, 4000213),
    "PerformanceTestRunNotFound": (404, 4040018),
}
UUID = r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
ROUTES = [
    ("GET", re.compile(r"^/inApps/v1/messaging/message/list$"), "listMessages"),
    ("GET", re.compile(r"^/inApps/v1/messaging/image/list$"), "listImages"),
    ("PUT", re.compile(rf"^/inApps/v1/messaging/image/({UUID})$"), "uploadImage"),
    ("PUT", re.compile(rf"^/inApps/v1/messaging/message/({UUID})$"), "uploadMessage"),
    ("PUT", re.compile(r"^/inApps/v1/messaging/default/([A-Za-z0-9._-]+)/([A-Za-z0-9-]+)$"), "configureDefault"),
    ("DELETE", re.compile(rf"^/inApps/v1/messaging/message/({UUID})$"), "deleteMessage"),
    ("DELETE", re.compile(rf"^/inApps/v1/messaging/image/({UUID})$"), "deleteImage"),
    ("GET", re.compile(r"^/inApps/v1/messaging/default/([A-Za-z0-9._-]+)/([A-Za-z0-9-]+)$"), "getDefault"),
    ("DELETE", re.compile(r"^/inApps/v1/messaging/default/([A-Za-z0-9._-]+)/([A-Za-z0-9-]+)$"), "deleteDefault"),
    ("PUT", re.compile(r"^/inApps/v1/messaging/realtime/url$"), "configureRealtimeUrl"),
    ("GET", re.compile(r"^/inApps/v1/messaging/realtime/url$"), "getRealtimeUrl"),
    ("DELETE", re.compile(r"^/inApps/v1/messaging/realtime/url$"), "deleteRealtimeUrl"),
    ("POST", re.compile(r"^/inApps/v1/messaging/performanceTest$"), "startPerformanceTest"),
    ("GET", re.compile(r"^/inApps/v1/messaging/performanceTest/result/([^/]+)$"), "getPerformanceTestResult"),
]

APPLE_MODEL_NAMES = ("PerformanceTestRequest", "PerformanceTestResponse", "PerformanceTestResultResponse", "RealtimeUrlRequest")
_apple_models = None


def apple_models():
    """Apple's own models, the oracle for bodies and results, when the venv has them (else None).
    Imported at first use, not at start: most stand-ins serve no realtime or performance test
    route, and importing them costs a fifth of a second of CPU, paid by each of the suite's forty
    stand-ins. The import lock makes a first use from two threads at once safe."""
    global _apple_models
    if _apple_models is None:
        try:
            import importlib
            from appstoreserverlibrary.models.LibraryUtility import _get_cattrs_converter
            models = {name: getattr(importlib.import_module(f"appstoreserverlibrary.models.{name}"), name)
                      for name in APPLE_MODEL_NAMES}
            _apple_models = (_get_cattrs_converter, models)
        except ImportError:
            _apple_models = False
    return _apple_models or None


def through_model(name, value):
    """`value` structured by Apple's model `name` and written back, when the library is here."""
    loaded = apple_models()
    if loaded is None:
        return value
    converter_for, models = loaded
    converter = converter_for(models[name])
    return converter.unstructure(converter.structure(value, models[name]))


class PerformanceTest:
    """One run of Apple's performance test: a bounded burst of signed requests to `url`."""

    def __init__(self, request_id, url, settings):
        self.request_id = request_id
        self.url = url
        self.settings = settings
        bodies = [line for line in open(settings["bodies"], "rb").read().split(b"\n") if line.strip()]
        self.bodies = bodies[:settings.get("total", len(bodies))]
        self.config = {"maxConcurrentRequests": settings.get("concurrency", 4), "totalRequests": len(self.bodies),
                       "totalDuration": 60000, "responseTimeThreshold": settings.get("threshold", 700),
                       "successRateThreshold": settings.get("successThreshold", 95)}
        self.times = []
        self.failures = {}
        self.sent = 0
        self.lock = threading.Lock()
        threading.Thread(target=self.run, daemon=True).start()

    def run(self):
        import http.client
        import urllib.parse
        target = urllib.parse.urlsplit(self.url)
        context = ssl.create_default_context(cafile=self.settings.get("ca"))
        queue = list(self.bodies)

        def worker():
            while True:
                with self.lock:
                    if not queue:
                        return
                    body = queue.pop()
                started = time.monotonic()
                outcome = "SUCCESS"
                try:
                    connection = http.client.HTTPSConnection(target.hostname, target.port or 443, context=context, timeout=5)
                    connection.request("POST", target.path or "/", body, {"Content-Type": "application/json"})
                    response = connection.getresponse()
                    data = response.read()
                    connection.close()
                    if response.status != 200:
                        outcome = "UNSUCCESSFUL_HTTP_RESPONSE_CODE"
                    else:
                        answer = json.loads(data)
                        if sum(key in answer for key in ("message", "alternateProduct", "promotionalOffer")) != 1:
                            outcome = "INVALID_RESPONSE"
                except ssl.SSLError:
                    outcome = "TLS_ISSUE"
                except socket.timeout:
                    outcome = "TIMED_OUT"
                except (ConnectionError, OSError):
                    outcome = "SOCKET_ISSUE"
                except ValueError:
                    outcome = "INVALID_RESPONSE"
                elapsed = (time.monotonic() - started) * 1000
                with self.lock:
                    self.sent += 1
                    if outcome == "SUCCESS" and elapsed > self.config["responseTimeThreshold"]:
                        outcome = "TIMED_OUT"
                    if outcome == "SUCCESS":
                        self.times.append(elapsed)
                    else:
                        self.failures[outcome] = self.failures.get(outcome, 0) + 1

        threads = [threading.Thread(target=worker, daemon=True) for _ in range(self.config["maxConcurrentRequests"])]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()

    def result(self):
        with self.lock:
            pending = len(self.bodies) - self.sent
            body = {"config": self.config, "target": self.url, "numPending": pending}
            if pending:
                body["result"] = "PENDING"
                return body
            times = sorted(self.times)
            succeeded = len(times)
            rate = int(100 * succeeded / len(self.bodies)) if self.bodies else 0

            def percentile(p):
                return int(times[min(len(times) - 1, int(len(times) * p / 100))]) if times else 0
            body.update({"successRate": rate, "failures": dict(self.failures),
                         "responseTimes": {"average": int(sum(times) / len(times)) if times else 0, "p50": percentile(50),
                                           "p90": percentile(90), "p95": percentile(95), "p99": percentile(99)},
                         "result": "PASS" if rate >= self.config["successRateThreshold"] else "FAIL"})
            return body


class State:
    def __init__(self, config):
        self.config = config
        self.lock = threading.Lock()
        preload = config.get("preload", {})
        self.messages = dict(preload.get("messages", {}))
        self.images = {k: tuple(v) for k, v in preload.get("images", {}).items()}
        self.defaults = dict(preload.get("defaults", {}))
        self.served_deleted = 0  # messages deleted while a default pointed at them
        self.log = []
        self.window = {}
        self.blocked_until = {}
        self.early = 0  # requests that came before the Retry-After they were given
        self.fail500 = dict(config.get("fail500", {}))
        self.uploads = 0
        self.message_images = {k: list(v) for k, v in preload.get("messageImages", {}).items()}
        self.rate_limit = {k: list(v) for k, v in config.get("rateLimit", {}).items()}
        self.out_of_order = 0
        self.realtime_url = config.get("realtimeURL")
        self.tests = {}
        self.passed = {}  # requests per endpoint that passed the limits (holdAfter)
        self.released = threading.Event()
        self.holding = 0  # held requests not yet answered


def make_handler(state, public_key):
    config = state.config
    rate = config.get("rate", 1000)
    review = config.get("environment") == "production"

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):
            pass

        def reply(self, status, body=None, headers=None):
            data = b"" if body is None else json.dumps(body).encode()
            self.send_response(status)
            for key, value in (headers or {}).items():
                self.send_header(key, value)
            if body is not None:
                self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def reply_bytes(self, status, data):
            self.send_response(status)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def error(self, name, message, headers=None):
            status, code = ERRORS[name]
            self.reply(status, {"errorCode": code, "errorMessage": message}, headers)

        def do_GET(self):
            self.handle_request("GET")

        def do_PUT(self):
            self.handle_request("PUT")

        def do_POST(self):
            self.handle_request("POST")

        def do_DELETE(self):
            self.handle_request("DELETE")

        def handle_request(self, method):
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
            path, _, query = self.path.partition("?")
            if path == "/_standin/log":
                with state.lock:
                    return self.reply(200, {"log": state.log, "messages": state.messages,
                                            "images": {k: list(v) for k, v in state.images.items()},
                                            "defaults": state.defaults, "early": state.early,
                                            "servedDeleted": state.served_deleted,
                                            "outOfOrder": state.out_of_order})
            if path == "/_standin/approve" and method == "POST":
                with state.lock:
                    state.messages = {k: "APPROVED" for k in state.messages}
                    state.images = {k: ("APPROVED", v[1]) for k, v in state.images.items()}
                return self.reply(200, {})
            if path == "/_standin/release" and method == "POST":
                # Answered once every held request has been carried out (within 30 s).
                state.released.set()
                for _ in range(600):
                    with state.lock:
                        if state.holding == 0:
                            break
                    time.sleep(0.05)
                return self.reply(200, {})
            if path == "/_standin/calm" and method == "POST":
                with state.lock:
                    state.rate_limit = {}
                return self.reply(200, {})
            route = next(((name, m) for (verb, pattern, name) in ROUTES if verb == method and (m := pattern.match(path))), None)
            entry = {"method": method, "path": path, "query": query, "time": time.time()}
            with state.lock:
                state.log.append(entry)
            if route is None:
                entry["status"] = 404
                return self.reply(404, {"errorCode": 4040000, "errorMessage": "no such path"})
            name, match = route
            entry["endpoint"] = name
            # Authentication first, as Apple does: a bad token never reaches the limits.
            auth = self.headers.get("Authorization", "")
            try:
                token = auth.removeprefix("Bearer ")
                if jwt.get_unverified_header(token).get("kid") != config["keyId"]:
                    raise ValueError("unknown key")
                claims = jwt.decode(token, public_key, algorithms=["ES256"], audience="appstoreconnect-v1",
                                    issuer=config["issuerId"], options={"require": ["exp", "iat", "iss", "aud", "bid"]})
                if claims["bid"] != config["bundleId"] or claims["exp"] - claims["iat"] > 3600:
                    raise ValueError("bad claims")
                if claims["iat"] > time.time() - config.get("clockBehind", 0):
                    raise ValueError("issued in the future")
            except Exception:
                entry["status"] = 401
                return self.reply(401)
            now = time.time()
            with state.lock:
                if now < state.blocked_until.get(name, 0):
                    state.early += 1
                limit = config.get("rates", {}).get(name, rate)
                if "burst" in config:
                    tokens, then = state.window.get(name, (config["burst"], now))
                    tokens = min(config["burst"], tokens + (now - then) * limit)
                    if tokens < 1:
                        retry = now + (1 - tokens) / limit
                        state.blocked_until[name] = retry
                        state.window[name] = (tokens, now)
                        entry["status"] = 429
                        return self.error("RateLimitExceeded", "rate limit exceeded", {"Retry-After": str(int(retry * 1000) + 1)})
                    state.window[name] = (tokens - 1, now)
                    window = None
                else:
                    window = [t for t in state.window.get(name, []) if t > now - 1]
                if window is not None and len(window) >= limit:
                    retry = window[0] + 1
                    state.blocked_until[name] = retry
                    state.window[name] = window
                    entry["status"] = 429
                    return self.error("RateLimitExceeded", "rate limit exceeded", {"Retry-After": str(int(retry * 1000) + 1)})
                fault = state.rate_limit.get(name)
                if fault and fault[0] > 0:
                    fault[0] -= 1
                    choices = fault[1].split("|")
                    value = choices[fault[0] % len(choices)]
                    if value == "past":
                        value = str(int((now - 1) * 1000))
                    elif value.startswith("in:"):
                        value = str(int((now + float(value[3:])) * 1000))
                    entry["status"] = 429
                    return self.error("RateLimitExceeded", "rate limit exceeded", {"Retry-After": value})
                if window is not None:
                    window.append(now)
                    state.window[name] = window
                if state.fail500.get(name, 0) > 0:
                    state.fail500[name] -= 1
                    entry["status"] = 500
                    return self.error("GeneralInternal", "try again")
                state.passed[name] = state.passed.get(name, 0) + 1
                held = state.passed[name] > config.get("holdAfter", {}).get(name, state.passed[name])
                if held:
                    state.holding += 1
            if held:
                state.released.wait(timeout=60)
            try:
                with state.lock:
                    return self.route(name, match, body, query, entry)
            finally:
                if held:
                    with state.lock:
                        state.holding -= 1

        def route(self, name, match, body, query, entry):
            pending = "PENDING" if review else "APPROVED"
            bare = config.get("listShape") == "bare"
            if name == "listMessages":
                entry["status"] = 200
                items = [{"messageIdentifier": k, "messageState": v} for k, v in sorted(state.messages.items())]
                items += [{"messageIdentifier": k, "messageState": "APPROVED"} for k in config.get("ghosts", [])]
                return self.reply(200, {"messageIdentifiers": items} if items or not bare else {})
            if name == "listImages":
                entry["status"] = 200
                items = [{"imageIdentifier": k, "imageState": v[0], **({"imageSize": v[1]} if v[1] else {})}
                         for k, v in sorted(state.images.items())]
                return self.reply(200, {"imageIdentifiers": items} if items or not bare else {})
            if name == "uploadImage":
                identifier = match.group(1)
                size = dict(p.split("=", 1) for p in query.split("&") if "=" in p).get("imageSize")
                if identifier in state.images or identifier in config.get("burned", []):
                    entry["status"] = 409
                    return self.error("ImageAlreadyExists", "image exists")
                if not body.startswith(b"\x89PNG\r\n\x1a\n") or size not in ("FULL_SIZE", "BULLET_POINT"):
                    entry["status"] = 400
                    return self.error("InvalidImage", "not a PNG")
                state.images[identifier] = (pending, size)
                entry["status"] = 200
                return self.reply(200)
            if name == "uploadMessage":
                identifier = match.group(1)
                if identifier in state.messages or identifier in config.get("burned", []):
                    entry["status"] = 409
                    return self.error("MessageAlreadyExists", "message exists")
                cap = config.get("messageCap")
                if cap is not None and len(state.messages) >= cap:
                    entry["status"] = 403
                    return self.error("MaximumNumberOfMessagesReached", "2,000 messages")
                try:
                    message = json.loads(body)
                    assert isinstance(message["header"], str) and isinstance(message["body"], str)
                except Exception:
                    entry["status"] = 400
                    return self.error("GeneralBadRequest", "body is not an UploadMessageRequestBody")
                if len(message["header"]) > 66:
                    entry["status"] = 400
                    return self.error("HeaderTooLong", "header too long")
                state.messages[identifier] = pending
                state.message_images[identifier] = [i for i in [(message.get("image") or {}).get("imageIdentifier")]
                                                    + [b.get("imageIdentifier") for b in message.get("bulletPoints", [])] if i]
                if any(i not in state.images for i in state.message_images[identifier]):
                    state.out_of_order += 1
                state.uploads += 1
                change = config.get("changeFile")
                if change and change[1] == state.uploads:
                    with open(change[0], "w") as out:
                        out.write(change[2])
                if config.get("dropAfterStore") == state.uploads:
                    entry["status"] = "dropped"
                    self.close_connection = True
                    self.connection.shutdown(socket.SHUT_RDWR)
                    return
                entry["status"] = 200
                return self.reply(200)
            if name == "configureDefault":
                product, locale = match.group(1), match.group(2)
                identifier = json.loads(body or b"{}").get("messageIdentifier")
                if identifier not in state.messages:
                    state.out_of_order += 1
                    entry["status"] = 404
                    return self.error("MessageNotFound", "no such message")
                if state.messages[identifier] != "APPROVED":
                    entry["status"] = 403
                    return self.error("MessageNotApproved", "message not approved")
                if any(state.images.get(i, ("",))[0] != "APPROVED" for i in state.message_images.get(identifier, [])):
                    entry["status"] = 403
                    return self.error("ImageNotApproved", "image not approved")
                state.defaults[f"{product}/{locale}"] = identifier
                entry["status"] = 200
                return self.reply(200)

            if name == "deleteMessage":
                identifier = match.group(1)
                if identifier not in state.messages:
                    entry["status"] = 404
                    return self.error("MessageNotFound", "no such message")
                if identifier in state.defaults.values():
                    state.served_deleted += 1
                del state.messages[identifier]
                state.message_images.pop(identifier, None)
                entry["status"] = 200
                return self.reply(200)
            if name == "deleteImage":
                identifier = match.group(1)
                if identifier not in state.images:
                    entry["status"] = 404
                    return self.error("ImageNotFound", "no such image")
                if any(identifier in used for used in state.message_images.values()):
                    entry["status"] = 403
                    return self.error("ImageInUse", "a message uses this image")
                del state.images[identifier]
                entry["status"] = 200
                return self.reply(200)
            if name == "getDefault":
                refused = config.get("defaultReadErrors", {}).get(f"{match.group(1)}/{match.group(2)}")
                if refused:
                    entry["status"] = ERRORS[refused][0]
                    return self.error(refused, "refused to read this default")
                identifier = state.defaults.get(f"{match.group(1)}/{match.group(2)}")
                if identifier is None:
                    entry["status"] = 404
                    return self.error("DefaultMessageNotFound", "no default")
                entry["status"] = 200
                return self.reply(200, {"messageIdentifier": identifier})
            if name == "deleteDefault":
                state.defaults.pop(f"{match.group(1)}/{match.group(2)}", None)
                entry["status"] = 200
                return self.reply(200)
            if name == "configureRealtimeUrl":
                try:
                    url = through_model("RealtimeUrlRequest", json.loads(body))["realtimeURL"]
                    assert isinstance(url, str) and url.startswith("https://") and len(url) <= 256
                except Exception:
                    entry["status"] = 400
                    return self.error("BadRequestRealtimeUrl", "invalid realtime URL")
                if review and not config.get("passedTest", True):
                    entry["status"] = 403
                    return self.error("ForbiddenNoPassingTest", "no passing performance test")
                state.realtime_url = url
                entry["status"] = 200
                return self.reply(200)
            if name == "getRealtimeUrl":
                if state.realtime_url is None:
                    entry["status"] = 404
                    return self.error("RealtimeUrlNotFound", "no realtime URL")
                entry["status"] = 200
                return self.reply(200, {"realtimeURL": state.realtime_url})
            if name == "deleteRealtimeUrl":
                state.realtime_url = None
                entry["status"] = 200
                return self.reply(200)
            if name == "startPerformanceTest":
                try:
                    request = through_model("PerformanceTestRequest", json.loads(body))
                    assert isinstance(request["originalTransactionId"], str) and request["originalTransactionId"]
                except Exception:
                    entry["status"] = 400
                    return self.error("InvalidPerformanceTestRequest", "body is not a PerformanceTestRequest")
                settings = config.get("perftest")
                if state.realtime_url is None or settings is None:
                    entry["status"] = 400
                    return self.error("InvalidPerformanceTestRequest", "no realtime URL to test")
                if any(test.result().get("result") == "PENDING" for test in state.tests.values()) or \
                        (settings.get("hostile") == "neverFinish" and state.tests):
                    entry["status"] = 400
                    return self.error("ExistingPerformanceTestRun", "a test is running")
                request_id = str(uuid.uuid4())
                state.tests[request_id] = PerformanceTest(request_id, state.realtime_url, settings)
                entry["status"] = 200
                answer = {"config": state.tests[request_id].config, "requestId": request_id}
                return self.reply(200, through_model("PerformanceTestResponse", answer))
            if name == "getPerformanceTestResult":
                test = state.tests.get(match.group(1))
                if test is None:
                    entry["status"] = 404
                    return self.error("PerformanceTestRunNotFound", "no such test")
                entry["status"] = 200
                hostile = config["perftest"].get("hostile")
                if hostile == "garbage":
                    return self.reply_bytes(200, b"<html>upstream error</html>")
                if hostile == "empty":
                    return self.reply(200, {})
                if hostile == "missing":
                    return self.reply(200, {"result": "FAIL"})
                result = test.result()
                if hostile == "neverFinish":
                    result = {"config": test.config, "target": test.url, "result": "PENDING", "numPending": 1}
                elif hostile == "unknown":
                    result["result"] = "ABANDONED"
                if hostile == "badTypes":
                    if result.get("result") == "PENDING":
                        return self.reply(200, result)
                    result.update({"successRate": "ninety", "responseTimes": [1, 2], "failures": {"TIMED_OUT": "2"},
                                   "config": {"totalRequests": 12.5}})
                    return self.reply(200, result)
                if hostile in ("unknown",):
                    return self.reply(200, result)
                return self.reply(200, through_model("PerformanceTestResultResponse", result))

    return Handler


def main():
    config = json.load(open(sys.argv[1]))
    private = ec.generate_private_key(ec.SECP256R1())
    with open(config["keyOut"], "wb") as out:
        out.write(private.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                        serialization.NoEncryption()))
    state = State(config)
    tls = untrusted_tls_context() if config.get("untrustedTLS") else None
    server = CountingServer(("127.0.0.1", 0), make_handler(state, private.public_key()), tls)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    print(f"PORT {server.server_address[1]}", flush=True)
    sys.stdin.read()  # until the test closes it
    server.shutdown()
    if tls:
        print(f"CONNECTIONS {server.connections}", flush=True)


class CountingServer(ThreadingHTTPServer):
    """Counts the connections it accepts, and wraps each in TLS when given a context (a failed
    handshake is an OSError, which the server drops)."""

    def __init__(self, address, handler, tls):
        self.tls = tls
        self.connections = 0
        super().__init__(address, handler)

    def get_request(self):
        connection, address = self.socket.accept()
        self.connections += 1
        if self.tls:
            connection = self.tls.wrap_socket(connection, server_side=True)
        return connection, address


def untrusted_tls_context():
    """A server context with a certificate for 127.0.0.1 that signs itself."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")])
    now = datetime.datetime.now(datetime.timezone.utc)
    certificate = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(hours=1))
        .not_valid_after(now + datetime.timedelta(hours=1))
        .add_extension(x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), critical=False)
        .sign(key, hashes.SHA256())
    )
    folder = tempfile.mkdtemp()
    certificate_path, key_path = os.path.join(folder, "cert.pem"), os.path.join(folder, "key.pem")
    with open(certificate_path, "wb") as out:
        out.write(certificate.public_bytes(serialization.Encoding.PEM))
    with open(key_path, "wb") as out:
        out.write(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                    serialization.NoEncryption()))
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(certificate_path, key_path)
    shutil.rmtree(folder)
    return context


if __name__ == "__main__":
    main()
