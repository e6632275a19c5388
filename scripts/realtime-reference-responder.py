#!/usr/bin/env python3
"""A realtime server written the way a team would write one today with Apple's Python library.

Usage: .build-venv/bin/python scripts/realtime-reference-responder.py --snapshot FILE [--host H] [--port P]
           [--app-apple-id N] [--root-certificate DER ...] [--key-file P8 --key-id ID --issuer-id ID]

It is the benchmark's reference (scripts/benchmark.py --realtime-only): what `msgc realtime serve`
is measured against. It is written plainly, as Apple's documentation suggests, not to be slow:
  - the standard library's ThreadingHTTPServer, speaking HTTP/1.1 so connections are kept alive,
    with TCP_NODELAY (without it every answer waits 40 ms for a delayed ACK: a trap, not a cost);
  - each POST body read as Apple's RealtimeRequestBody and its signedPayload verified by
    SignedDataVerifier.verify_and_decode_realtime_request (one verifier for the process, offline:
    enable_online_checks=False, as msgc, which does no OCSP either);
  - the answer chosen from an msgc realtime snapshot (docs/realtime.md): the product, then the
    locale that is userLocale exactly (with '-' for '_'), else the one the snapshot's localeMatches
    names for it or for its language alone;
    there the product's `realtime` list (first usable, or the weighted split by rendezvous hashing of
    originalTransactionId, product and arm, as msgc's AnswerChooser), else the locale's default;
  - a promotional offer signed per request by PromotionalOfferV2SignatureCreator (transactionId
    = originalTransactionId) when a key is given, else offers are passed over;
  - the answer written with Apple's RealtimeResponseBody model; one log line per request on stderr.
Answers 200 with the answer, 404 when nothing answers (Apple then shows its default), 400 for a
request that fails verification, 413 for a body over 64 KiB.
"""

import argparse
import json
import math
import sys
import threading
import time
from uuid import UUID
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from appstoreserverlibrary.jws_signature_creator import PromotionalOfferV2SignatureCreator
from appstoreserverlibrary.models.AlternateProduct import AlternateProduct
from appstoreserverlibrary.models.Environment import Environment
from appstoreserverlibrary.models.LibraryUtility import _get_cattrs_converter
from appstoreserverlibrary.models.Message import Message
from appstoreserverlibrary.models.PromotionalOffer import PromotionalOffer
from appstoreserverlibrary.models.RealtimeRequestBody import RealtimeRequestBody
from appstoreserverlibrary.models.RealtimeResponseBody import RealtimeResponseBody
from appstoreserverlibrary.signed_data_verifier import SignedDataVerifier, VerificationException

MAX_BODY_BYTES = 64 * 1024


def stable_hash(text):
    """FNV-1a, 64 bits, over UTF-8: the split msgc's AnswerChooser makes, so both give the same arm."""
    value = 0xCBF29CE484222325
    for byte in text.encode("utf-8"):
        value = ((value ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return value


def rendezvous_score(subscriber, product_id, arm, weight):
    """Weighted rendezvous hashing, as msgc's AnswerChooser: SplitMix64's finalizer over the
    FNV-1a of subscriber, product and arm, the top 53 bits mapped into (0, 1), -ln(u) / weight."""
    z = stable_hash(subscriber + "\n" + product_id + "\n" + arm)
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
    z ^= z >> 31
    return -math.log(((z >> 11) + 0.5) / 9007199254740992.0) / weight


class Snapshot:
    def __init__(self, path):
        with open(path, encoding="utf-8") as handle:
            data = json.load(handle)
        if data.get("format") != "msgc-realtime-snapshot" or data.get("schemaVersion") != 1:
            raise ValueError(f"{path} is not an msgc realtime snapshot of schema version 1")
        self.bundle_id = data["bundleId"]
        self.environment = data["environment"]
        self.products = {product["id"]: product for product in data["products"]}

    def choose(self, product_id, user_locale, original_transaction_id, can_sign_offers):
        product = self.products.get(product_id)
        if product is None:
            return None
        locales = {entry["locale"]: entry for entry in product["locales"]}
        matches = product["localeMatches"]
        tag = user_locale.replace("_", "-")
        locale = (locales.get(tag) or locales.get(matches.get(tag, ""))
                  or locales.get(matches.get(tag.split("-")[0], "")))
        if locale is None:
            return None
        usable = {message["key"]: message for message in locale["messages"]
                  if message["answer"] != "promotionalOffer" or can_sign_offers}
        arms = [(usable[arm["message"]], arm["weight"]) for arm in product.get("realtime", []) if arm["message"] in usable]
        if not arms or product.get("choice") is None:
            return usable.get(locale["default"]) if locale["default"] else None
        if product["choice"] == "first-usable":
            return arms[0][0]
        best = None
        for message, weight in arms:
            if weight <= 0:
                continue
            score = rendezvous_score(original_transaction_id, product_id, message["key"], weight)
            if best is None or score < best[1]:
                best = (message, score)
        return best[0] if best else arms[0][0]


class Responder:
    def __init__(self, arguments):
        self.snapshot = Snapshot(arguments.snapshot)
        environment = Environment.PRODUCTION if self.snapshot.environment == "production" else Environment.SANDBOX
        roots = []
        for path in arguments.root_certificate:
            with open(path, "rb") as handle:
                roots.append(handle.read())
        self.verifier = SignedDataVerifier(roots, False, environment, self.snapshot.bundle_id, arguments.app_apple_id)
        self.offers = None
        if arguments.key_file:
            with open(arguments.key_file, "rb") as handle:
                self.offers = PromotionalOfferV2SignatureCreator(handle.read(), arguments.key_id, arguments.issuer_id,
                                                                 self.snapshot.bundle_id)
        self.request_converter = _get_cattrs_converter(RealtimeRequestBody)
        self.response_converter = _get_cattrs_converter(RealtimeResponseBody)
        self.log_lock = threading.Lock()

    def respond(self, body):
        """(status, JSON bytes or b"", what to log)"""
        try:
            request = self.request_converter.structure(json.loads(body), RealtimeRequestBody)
            decoded = self.verifier.verify_and_decode_realtime_request(request.signedPayload)
        except VerificationException as error:
            return 400, b"", {"refused": error.status.name}
        except Exception as error:
            return 400, b"", {"refused": type(error).__name__}
        log = {"requestIdentifier": str(decoded.requestIdentifier), "product": decoded.productId, "locale": decoded.userLocale}
        message = self.snapshot.choose(decoded.productId, decoded.userLocale, decoded.originalTransactionId, self.offers is not None)
        if message is None:
            return 404, b"", log
        log["message"] = message["key"]
        identifier = UUID(message["identifier"])
        if message["answer"] == "alternateProduct":
            answer = RealtimeResponseBody(alternateProduct=AlternateProduct(messageIdentifier=identifier, productId=message["productId"]))
        elif message["answer"] == "promotionalOffer":
            signature = self.offers.create_signature(decoded.productId, message["offerIdentifier"], decoded.originalTransactionId)
            answer = RealtimeResponseBody(promotionalOffer=PromotionalOffer(messageIdentifier=identifier, promotionalOfferSignatureV2=signature))
        else:
            answer = RealtimeResponseBody(message=Message(messageIdentifier=identifier))
        return 200, json.dumps(self.response_converter.unstructure(answer)).encode("utf-8"), log


def make_handler(responder):
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        # The status line and headers go out in one write and the body in another: with Nagle's
        # algorithm on, the body then waits for the client's delayed ACK, 40 ms on Linux.
        disable_nagle_algorithm = True

        def do_POST(self):
            started = time.monotonic()
            length = int(self.headers.get("Content-Length") or 0)
            if length > MAX_BODY_BYTES:
                self.send(413, b"")
                self.close_connection = True
                return
            status, answer, log = responder.respond(self.rfile.read(length))
            self.send(status, answer)
            log.update(status=status, ms=round((time.monotonic() - started) * 1000, 3))
            with responder.log_lock:
                print(json.dumps(log), file=sys.stderr, flush=True)

        def do_GET(self):
            self.send(200 if self.path == "/healthz" else 404, b"")

        def send(self, status, answer):
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(answer)))
            self.end_headers()
            self.wfile.write(answer)

        def log_message(self, format, *args):
            pass  # the JSON line above is the log

    return Handler


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--snapshot", required=True)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8080)
    parser.add_argument("--app-apple-id", type=int)
    parser.add_argument("--root-certificate", action="append", required=True, help="a trusted root, DER (repeat)")
    parser.add_argument("--key-file", help="the In-App Purchase key (.p8) for promotional offer signatures")
    parser.add_argument("--key-id")
    parser.add_argument("--issuer-id")
    arguments = parser.parse_args()
    if arguments.key_file and not (arguments.key_id and arguments.issuer_id):
        parser.error("--key-file needs --key-id and --issuer-id")
    server = ThreadingHTTPServer((arguments.host, arguments.port), make_handler(Responder(arguments)))
    server.daemon_threads = True
    print(f"listening on {arguments.host}:{server.server_address[1]}", file=sys.stderr, flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    server.server_close()


if __name__ == "__main__":
    main()
