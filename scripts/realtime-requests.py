#!/usr/bin/env python3
"""Makes Apple-style realtime requests for testing and benchmarking `msgc realtime serve`.

Usage: .build-venv/bin/python scripts/realtime-requests.py --out DIR [--now MS] [--app-apple-id N]
           [--environment Production|Sandbox] [--bundle-id ID] [--product ID ...] [--locale TAG ...]
           [--count N] [--seed TEXT] [--no-fixtures]

Apple signs each realtime request with a key whose certificate chains to Apple Root CA - G3.
Tests cannot have that key, so this script makes a test PKI of the same shape and signs with it:

  pki/root.der|pem            self-signed EC P-256 root (the server's `--root-certificate`)
  pki/intermediate.der|pem    signed by the root, carries extension 1.2.840.113635.100.6.2.1
  pki/leaf.der|pem            signed by the intermediate, carries 1.2.840.113635.100.6.11.1
  pki/other-root.der|pem      an unrelated root, for "a chain to another root"
  pki/offer-key.p8            an In-App Purchase style key (PKCS#8 PEM, P-256) for offer signatures
  pki/offer-key-public.pem    its public half, to verify promotionalOfferSignatureV2

Every request is a file holding the exact HTTP body Apple would POST: {"signedPayload": JWS},
with the JWS signed ES256 and its header's x5c = [leaf, intermediate, root] (base64 DER).

  valid/NAME.json     one request per --product and --locale (and a few more), all acceptable
  hostile/NAME.json   one request per way to be refused, with the reason in the manifest
  load/bodies.jsonl   --count requests, one body per line, each with its own originalTransactionId
                      and requestIdentifier (for wrk's Lua script, scripts/realtime-load.lua, and for
                      bursts), numbered from --first-index
  manifest.json       what every file is, and the verdict of Apple's own library on it

The verdict comes from app-store-server-library itself: the body is read as a RealtimeRequestBody
and its signedPayload given to SignedDataVerifier(root, enable_online_checks=False, ...)
.verify_and_decode_realtime_request, the call a Python server makes today. Each manifest entry says
`apple` (accepted, or refused with the library's status or exception) and `msgc` (accept or refuse,
what msgc's server must do); where msgc is deliberately stricter than Apple's library (the age of
signedDate, a wrong appAppleId in Sandbox, which the library checks only in Production, member
types the library converts, a body over the size cap) the two differ and `stricterThanApple`
is true, with a `note` saying why. `refusal` names the kind of refusal (kebab-case, the
Prometheus label the server reports it under, as the realtime contract suggests it).

Deterministic: keys are derived from --seed, ECDSA signatures are deterministic (RFC 6979), names
and identifiers come from the seed, and every date from --now (default: the current second, which
a live server needs, since it checks signedDate's age). The same arguments give the same bytes.
The load requests are checked with Apple's library on a sample only (the first 8), to stay fast.
Exit status 0; 1 when Apple's library refuses a request msgc must accept, or accepts one msgc
refuses without a note saying why (a broken fixture; the files are written all the same); 2 for
arguments that cannot be used.
"""

import argparse
import base64
import datetime
import hashlib
import hmac
import json
import os
import re
import sys
import time
import uuid

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature
from cryptography.x509.oid import NameOID

LEAF_OID = x509.ObjectIdentifier("1.2.840.113635.100.6.11.1")
INTERMEDIATE_OID = x509.ObjectIdentifier("1.2.840.113635.100.6.2.1")
CURVE_ORDER = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551
# The long-lived certificates do not depend on --now, so the PKI is the same bytes on every run.
LONG_NOT_BEFORE = datetime.datetime(2020, 1, 1, tzinfo=datetime.timezone.utc)
LONG_NOT_AFTER = datetime.datetime(2049, 12, 31, tzinfo=datetime.timezone.utc)
# The bounds msgc's server applies by default (RealtimeResponder.Configuration); the stale and
# future requests sit well outside them so that a slow test machine does not blur the verdict.
MAX_REQUEST_AGE_SECONDS = 300
MAX_CLOCK_SKEW_SECONDS = 60
STALE_BY_SECONDS = 3600
FUTURE_BY_SECONDS = 600
HUGE_BODY_BYTES = 2 * 1024 * 1024
APPLE_SAMPLE_OF_LOAD = 8


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def canonical_json(value):
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


class Seeded:
    """Everything random in the output, derived from one seed text."""

    def __init__(self, seed):
        self.seed = seed

    def digest(self, label):
        return hashlib.sha256(f"{self.seed}\0{label}".encode("utf-8")).digest()

    def private_key(self, label, curve=None):
        if curve is None:
            scalar = int.from_bytes(self.digest("key:" + label), "big") % (CURVE_ORDER - 1) + 1
            return ec.derive_private_key(scalar, ec.SECP256R1())
        # Another 256-bit curve: a scalar below 2^200 is below its order too.
        return ec.derive_private_key(int.from_bytes(self.digest("key:" + label), "big") % 2**200 + 1, curve)

    def serial(self, label):
        return int.from_bytes(self.digest("serial:" + label)[:16], "big") | 1

    def uuid(self, label):
        return str(uuid.UUID(bytes=self.digest("uuid:" + label)[:16], version=4))


class Certificate:
    def __init__(self, certificate, key):
        self.certificate = certificate
        self.key = key
        self.der = certificate.public_bytes(serialization.Encoding.DER)
        self.x5c = base64.b64encode(self.der).decode("ascii")


def make_certificate(seeded, label, subject, issuer, *, ca, oid=None, not_before=LONG_NOT_BEFORE, not_after=LONG_NOT_AFTER, curve=None):
    """A certificate OpenSSL's strict mode (which Apple's Python library turns on) accepts:
    version 3, key identifiers, a critical basicConstraints and keyUsage; `issuer` None: self-signed;
    `curve` another curve than P-256 for its key."""
    key = seeded.private_key(label, curve)
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, subject),
                      x509.NameAttribute(NameOID.ORGANIZATION_NAME, "msgc test PKI")])
    issuer_name = name if issuer is None else issuer.certificate.subject
    issuer_key = key if issuer is None else issuer.key
    builder = (x509.CertificateBuilder()
               .subject_name(name).issuer_name(issuer_name).public_key(key.public_key())
               .serial_number(seeded.serial(label)).not_valid_before(not_before).not_valid_after(not_after)
               .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True)
               .add_extension(x509.KeyUsage(digital_signature=not ca, content_commitment=False, key_encipherment=False,
                                            data_encipherment=False, key_agreement=False, key_cert_sign=ca,
                                            crl_sign=ca, encipher_only=False, decipher_only=False), critical=True)
               .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
               .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(issuer_key.public_key()), critical=False))
    if oid is not None:
        builder = builder.add_extension(x509.UnrecognizedExtension(oid, b"\x05\x00"), critical=False)
    return Certificate(builder.sign(issuer_key, hashes.SHA256(), ecdsa_deterministic=True), key)


class PKI:
    def __init__(self, seeded, now):
        self.root = make_certificate(seeded, "root", "msgc Test Root CA", None, ca=True)
        self.intermediate = make_certificate(seeded, "intermediate", "msgc Test Intermediate", self.root, ca=True, oid=INTERMEDIATE_OID)
        self.leaf = make_certificate(seeded, "leaf", "msgc Test Realtime Signing", self.intermediate, ca=False, oid=LEAF_OID)
        self.other_root = make_certificate(seeded, "other-root", "Another Root CA", None, ca=True)
        self.other_intermediate = make_certificate(seeded, "other-intermediate", "Another Intermediate", self.other_root, ca=True, oid=INTERMEDIATE_OID)
        self.other_leaf = make_certificate(seeded, "other-leaf", "Another Realtime Signing", self.other_intermediate, ca=False, oid=LEAF_OID)
        self.leaf_without_oid = make_certificate(seeded, "leaf-without-oid", "msgc Test Leaf Without OID", self.intermediate, ca=False)
        self.intermediate_without_oid = make_certificate(seeded, "intermediate-without-oid", "msgc Test Intermediate Without OID", self.root, ca=True)
        self.leaf_under_intermediate_without_oid = make_certificate(seeded, "leaf-under-plain-intermediate", "msgc Test Leaf Under Plain Intermediate", self.intermediate_without_oid, ca=False, oid=LEAF_OID)
        day = datetime.timedelta(days=1)
        self.expired_leaf = make_certificate(seeded, "expired-leaf", "msgc Test Expired Leaf", self.intermediate, ca=False, oid=LEAF_OID,
                                             not_before=now - 30 * day, not_after=now - day)
        self.future_leaf = make_certificate(seeded, "future-leaf", "msgc Test Not Yet Valid Leaf", self.intermediate, ca=False, oid=LEAF_OID,
                                            not_before=now + day, not_after=now + 30 * day)
        # 256-bit keys on other curves: the chain verifies, but ES256 is P-256 only.
        self.secp256k1_leaf = make_certificate(seeded, "secp256k1-leaf", "msgc Test Leaf On secp256k1", self.intermediate, ca=False,
                                               oid=LEAF_OID, curve=ec.SECP256K1())
        self.brainpool_leaf = make_certificate(seeded, "brainpool-leaf", "msgc Test Leaf On brainpoolP256r1", self.intermediate, ca=False,
                                               oid=LEAF_OID, curve=ec.BrainpoolP256R1())
        self.self_signed_leaf = make_certificate(seeded, "self-signed-leaf", "msgc Test Self-Signed Leaf", None, ca=False, oid=LEAF_OID)
        self.offer_key = seeded.private_key("offer-key")

    def chain(self):
        return [self.leaf, self.intermediate, self.root]

    def write(self, folder):
        os.makedirs(folder, exist_ok=True)
        files = {}
        for name, certificate in (("root", self.root), ("intermediate", self.intermediate), ("leaf", self.leaf),
                                  ("other-root", self.other_root)):
            write_bytes(os.path.join(folder, name + ".der"), certificate.der)
            write_bytes(os.path.join(folder, name + ".pem"), certificate.certificate.public_bytes(serialization.Encoding.PEM))
            files[name] = {"der": f"pki/{name}.der", "pem": f"pki/{name}.pem",
                           "sha256": hashlib.sha256(certificate.der).hexdigest().upper()}
        write_bytes(os.path.join(folder, "offer-key.p8"), self.offer_key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
        write_bytes(os.path.join(folder, "offer-key-public.pem"), self.offer_key.public_key().public_bytes(
            serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo))
        files["offerKey"] = {"pkcs8": "pki/offer-key.p8", "publicPem": "pki/offer-key-public.pem"}
        return files


def write_bytes(path, data):
    with open(path, "wb") as handle:
        handle.write(data)


def es256(key, signing_input):
    """A JWS ES256 signature: r and s, 32 bytes each (RFC 7518 §3.4), deterministic (RFC 6979)."""
    r, s = decode_dss_signature(key.sign(signing_input, ec.ECDSA(hashes.SHA256(), deterministic_signing=True)))
    return r.to_bytes(32, "big") + s.to_bytes(32, "big")


def jws(payload, chain, *, key=None, header=None, payload_bytes=None):
    """The compact JWS Apple sends: header {alg, x5c}, payload, ES256 signature by the leaf's key."""
    header = header if header is not None else {"alg": "ES256", "x5c": [certificate.x5c for certificate in chain]}
    signing_input = (b64url(canonical_json(header)) + "." +
                     b64url(payload_bytes if payload_bytes is not None else canonical_json(payload))).encode("ascii")
    return signing_input.decode("ascii") + "." + b64url(es256(key or chain[0].key, signing_input))


def body(signed_payload):
    return canonical_json({"signedPayload": signed_payload})


class Generator:
    def __init__(self, arguments):
        self.arguments = arguments
        self.seeded = Seeded(arguments.seed)
        self.now_ms = arguments.now
        self.now = datetime.datetime.fromtimestamp(self.now_ms / 1000, tz=datetime.timezone.utc)
        self.pki = PKI(self.seeded, self.now)
        self.entries = []

    def payload(self, label, **changes):
        payload = {
            "originalTransactionId": str(2000000000000000 + int.from_bytes(self.seeded.digest("otid:" + label)[:6], "big") % 10**12),
            "appAppleId": self.arguments.app_apple_id,
            "productId": self.arguments.product[0],
            "userLocale": self.arguments.locale[0],
            "requestIdentifier": self.seeded.uuid("request:" + label),
            "signedDate": self.now_ms,
            "environment": self.arguments.environment,
        }
        payload.update(changes)
        return payload

    def add(self, kind, name, data, *, reason, refusal=None, payload=None, msgc=None, note=None):
        msgc = msgc or ("accept" if kind == "valid" else "refuse")
        self.entries.append({"name": name, "kind": kind, "file": f"{kind}/{name}.json", "bytes": data,
                             "reason": reason, "refusal": refusal, "payload": payload, "msgc": msgc, "note": note})

    def valid(self):
        pki = self.pki
        chain = pki.chain()
        for product in self.arguments.product:
            for locale in self.arguments.locale:
                name = f"{product}--{locale}"
                payload = self.payload(name, productId=product, userLocale=locale)
                self.add("valid", name, body(jws(payload, chain)), reason=f"a request for {product} in {locale}", payload=payload)
        payload = self.payload("underscore-locale", userLocale=self.arguments.locale[0].replace("-", "_"))
        self.add("valid", "underscore-locale", body(jws(payload, chain)),
                 reason="userLocale spelled with an underscore, as devices may", payload=payload)
        payload = self.payload("unknown-locale", userLocale="tlh-001")
        self.add("valid", "unknown-locale", body(jws(payload, chain)),
                 reason="a locale no snapshot has: verified, nothing to answer with", payload=payload)
        payload = self.payload("unknown-product", productId="com.example.unknown.product")
        self.add("valid", "unknown-product", body(jws(payload, chain)),
                 reason="a product the snapshot lacks: verified, nothing to answer with", payload=payload)
        payload = self.payload("just-inside-age", signedDate=self.now_ms - (MAX_REQUEST_AGE_SECONDS - 60) * 1000)
        self.add("valid", "signed-four-minutes-ago", body(jws(payload, chain)),
                 reason="signedDate 240 s before --now, inside the 300 s bound", payload=payload)
        payload = self.payload("extra-member")
        payload["someFutureMember"] = "Apple may add members"
        self.add("valid", "unknown-payload-member", body(jws(payload, chain)),
                 reason="a payload member Apple may add later is ignored", payload=payload)
        payload = self.payload("extra-body-member")
        data = canonical_json({"signedPayload": jws(payload, chain), "someFutureMember": 1})
        self.add("valid", "unknown-body-member", data, reason="a body member Apple may add later is ignored", payload=payload)

    def hostile(self):
        pki = self.pki
        chain = pki.chain()
        add = self.add

        def signed(name, payload=None, **keywords):
            payload = payload if payload is not None else self.payload(name)
            return body(jws(payload, keywords.pop("chain", chain), **keywords)), payload

        # The body itself.
        add("hostile", "malformed-json", b'{"signedPayload": "eyJ', reason="the body is not JSON (cut short)", refusal="malformed-body")
        add("hostile", "empty-body", b"", reason="an empty body", refusal="malformed-body")
        add("hostile", "body-not-object", b'["eyJhbGciOiJFUzI1NiJ9.e30.AA"]', reason="the body is a JSON array", refusal="malformed-body")
        add("hostile", "missing-signed-payload", b"{}", reason="no signedPayload member", refusal="malformed-body")
        add("hostile", "signed-payload-not-string", b'{"signedPayload": 42}', reason="signedPayload is a number", refusal="malformed-body")
        add("hostile", "body-not-utf8", b'{"signedPayload": "\xff\xfe"}', reason="the body is not UTF-8", refusal="malformed-body")
        data, payload = signed("huge-body")
        huge = data[:-1] + b', "padding": "' + b"A" * HUGE_BODY_BYTES + b'"}'
        add("hostile", "huge-body", huge, payload=payload, refusal="body-too-large",
            reason=f"a valid request padded to {len(huge)} bytes, far over any body cap",
            note="Apple's library reads any size; msgc's server caps the body before reading it")

        # The JWS envelope.
        add("hostile", "jws-two-segments", body("eyJhbGciOiJFUzI1NiJ9.e30"), reason="a JWS of two segments", refusal="malformed-jws")
        add("hostile", "jws-bad-base64", body("eyJhbGci!!!.e30.AAAA"), reason="JWS segments that are not base64url", refusal="malformed-jws")
        add("hostile", "jws-header-not-json", body(b64url(b"not json") + "." + b64url(b"{}") + ".AAAA"),
            reason="a JWS header that is not JSON", refusal="malformed-jws")
        data, payload = signed("bad-signature")
        head, middle, signature = json.loads(data)["signedPayload"].split(".")
        raw = bytearray(base64.urlsafe_b64decode(signature + "=="))
        raw[10] ^= 0x01
        add("hostile", "bad-signature", body(f"{head}.{middle}.{b64url(bytes(raw))}"), payload=payload,
            reason="one bit of the signature flipped", refusal="bad-signature")
        original = self.payload("tampered-payload")
        signed_token = jws(original, chain)
        head, _, signature = signed_token.split(".")
        tampered = dict(original, appAppleId=original["appAppleId"] + 1, productId="com.example.tampered")
        add("hostile", "tampered-payload", body(f"{head}.{b64url(canonical_json(tampered))}.{signature}"), payload=tampered,
            reason="the payload changed after signing (the signature is of another payload)", refusal="bad-signature")
        data, payload = signed("signed-by-other-key", key=pki.other_leaf.key)
        add("hostile", "signed-by-another-key", data, payload=payload,
            reason="a good chain, but the signature is by a key other than the leaf's", refusal="bad-signature")

        # Algorithms.
        payload = self.payload("alg-none")
        header = {"alg": "none", "x5c": [certificate.x5c for certificate in chain]}
        add("hostile", "alg-none", body(b64url(canonical_json(header)) + "." + b64url(canonical_json(payload)) + "."),
            payload=payload, reason='alg "none" and no signature', refusal="unsupported-algorithm")
        payload = self.payload("alg-hs256")
        header = {"alg": "HS256", "x5c": [certificate.x5c for certificate in chain]}
        signing_input = b64url(canonical_json(header)) + "." + b64url(canonical_json(payload))
        secret = pki.leaf.key.public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
        mac = hmac.new(secret, signing_input.encode("ascii"), hashlib.sha256).digest()
        add("hostile", "alg-hs256", body(signing_input + "." + b64url(mac)), payload=payload,
            reason="alg HS256, keyed with the leaf's public key (the algorithm-confusion attack)", refusal="unsupported-algorithm")
        data, payload = signed("alg-es384", header={"alg": "ES384", "x5c": [certificate.x5c for certificate in chain]})
        add("hostile", "alg-es384", data, payload=payload, reason="alg ES384 (signed as ES256)", refusal="unsupported-algorithm")
        data, payload = signed("alg-missing", header={"x5c": [certificate.x5c for certificate in chain]})
        add("hostile", "alg-missing", data, payload=payload, reason="a header without alg", refusal="unsupported-algorithm")

        # The chain.
        for name, certificates, reason, refusal in (
            ("x5c-missing", None, "a header without x5c", "chain-length"),
            ("x5c-empty", [], "x5c is empty", "chain-length"),
            ("x5c-two-certificates", [pki.leaf, pki.intermediate], "x5c of two certificates (no root)", "chain-length"),
            ("x5c-four-certificates", [pki.leaf, pki.intermediate, pki.root, pki.root], "x5c of four certificates", "chain-length"),
            ("chain-to-another-root", [pki.other_leaf, pki.other_intermediate, pki.other_root],
             "a well-formed chain with Apple's OIDs, to a root the server does not trust", "untrusted-chain"),
            ("intermediate-from-another-root", [pki.leaf, pki.other_intermediate, pki.root],
             "the leaf's intermediate replaced by another root's intermediate", "untrusted-chain"),
            ("self-signed-leaf", [pki.self_signed_leaf, pki.intermediate, pki.root],
             "a self-signed leaf with the leaf OID", "untrusted-chain"),
            ("leaf-without-oid", [pki.leaf_without_oid, pki.intermediate, pki.root],
             "the leaf lacks extension 1.2.840.113635.100.6.11.1", "missing-oid"),
            ("intermediate-without-oid", [pki.leaf_under_intermediate_without_oid, pki.intermediate_without_oid, pki.root],
             "the intermediate lacks extension 1.2.840.113635.100.6.2.1", "missing-oid"),
            ("leaf-on-secp256k1", [pki.secp256k1_leaf, pki.intermediate, pki.root],
             "a leaf whose key is a 256-bit EC key on secp256k1, signing as ES256 (P-256 only)", "bad-signature"),
            ("leaf-on-brainpoolP256r1", [pki.brainpool_leaf, pki.intermediate, pki.root],
             "a leaf whose key is a 256-bit EC key on brainpoolP256r1, signing as ES256 (P-256 only)", "bad-signature"),
            ("leaf-expired", [pki.expired_leaf, pki.intermediate, pki.root],
             "the leaf expired the day before signedDate", "certificate-expired"),
            ("leaf-not-yet-valid", [pki.future_leaf, pki.intermediate, pki.root],
             "the leaf becomes valid the day after signedDate", "certificate-expired"),
        ):
            payload = self.payload(name)
            if certificates is None:
                header = {"alg": "ES256"}
            else:
                header = {"alg": "ES256", "x5c": [certificate.x5c for certificate in certificates]}
            key = certificates[0].key if certificates else pki.leaf.key
            add("hostile", name, body(jws(payload, chain, key=key, header=header)), payload=payload, reason=reason, refusal=refusal)
        payload = self.payload("x5c-not-certificates")
        header = {"alg": "ES256", "x5c": [b64url(b"not a certificate"), "%%%", pki.root.x5c]}
        add("hostile", "x5c-not-certificates", body(jws(payload, chain, header=header)), payload=payload,
            reason="x5c entries that are not base64 DER certificates", refusal="untrusted-chain")
        payload = self.payload("x5c-root-substituted")
        header = {"alg": "ES256", "x5c": [pki.leaf.x5c, pki.intermediate.x5c, pki.other_root.x5c]}
        add("hostile", "x5c-third-is-another-root", body(jws(payload, chain, header=header)), payload=payload,
            reason="leaf and intermediate good, but x5c's third certificate is another root", refusal="untrusted-chain",
            note="Apple's library never reads x5c's third certificate (it completes the chain with its own trusted root) "
                 "and accepts; msgc holds it to be the root the chain ends in, as the header claims")

        # The header beyond alg and x5c, as PyJWT reads it.
        x5c = [certificate.x5c for certificate in chain]
        for name, extra, reason, note in (
            ("kid-not-string", {"kid": 7}, "a kid that is a number", None),
            ("crit-unknown", {"crit": ["exp"], "exp": 1}, "a crit header naming an extension no verifier supports", None),
            ("crit-empty", {"crit": []}, "an empty crit header", None),
            ("b64-false", {"b64": False, "crit": ["b64"]}, "b64 false (an unencoded payload), declared critical", None),
            ("b64-false-not-critical", {"b64": False}, "b64 false without crit", None),
            ("crit-b64-true", {"b64": True, "crit": ["b64"]}, "crit naming b64, with b64 true",
             "PyJWT accepts crit [\"b64\"] when b64 is there; Apple sends no crit, and msgc refuses every one"),
        ):
            data, payload = signed("header-" + name, header={"alg": "ES256", "x5c": x5c, **extra})
            add("hostile", "header-" + name, data, payload=payload, reason=reason, refusal="malformed-jws", note=note)

        # Registered claims, as PyJWT's decode checks them (no audience expected, no leeway);
        # times far from any --now, so that Apple's library, which reads the clock, agrees.
        for name, change, reason, refusal, note in (
            ("exp-past", {"exp": 1000000000}, "exp in 2001: the token expired", "stale", None),
            ("nbf-future", {"nbf": 4102444800}, "nbf in 2100: not valid yet", "future", None),
            ("iat-future", {"iat": 4102444800}, "iat in 2100: issued in the future", "future", None),
            ("exp-not-number", {"exp": "soon"}, "exp that is not a number", "malformed-payload", None),
            ("exp-as-string", {"exp": "4102444800"}, "exp as a numeric string", "malformed-payload",
             "PyJWT reads a numeric string as a time with Python's int(); msgc takes a JSON number only"),
            ("aud-present", {"aud": "com.example.parla"}, "an aud claim (Apple's library expects no audience)", "malformed-payload", None),
            ("sub-not-string", {"sub": 5}, "a sub claim that is a number", "malformed-payload", None),
            ("jti-not-string", {"jti": ["a"]}, "a jti claim that is a list", "malformed-payload", None),
        ):
            data, payload = signed("claims-" + name, self.payload("claims-" + name, **change))
            add("hostile", "claims-" + name, data, payload=payload, reason=reason, refusal=refusal, note=note)

        # The payload.
        other_environment = "Sandbox" if self.arguments.environment == "Production" else "Production"
        data, payload = signed("wrong-app", self.payload("wrong-app", appAppleId=self.arguments.app_apple_id + 1))
        add("hostile", "wrong-app-apple-id", data, payload=payload, reason="appAppleId of another app", refusal="wrong-app",
            note=None if self.arguments.environment == "Production" else
            "Apple's library checks appAppleId in Production only; msgc checks it whenever --app-apple-id is given")
        data, payload = signed("wrong-environment", self.payload("wrong-environment", environment=other_environment))
        add("hostile", "wrong-environment", data, payload=payload, reason=f"environment {other_environment}", refusal="wrong-environment")
        data, payload = signed("unknown-environment", self.payload("unknown-environment", environment="Xcode"))
        add("hostile", "environment-xcode", data, payload=payload, reason="environment Xcode (unsigned by Apple in real life)",
            refusal="wrong-environment")
        data, payload = signed("stale", self.payload("stale", signedDate=self.now_ms - STALE_BY_SECONDS * 1000))
        add("hostile", "stale-signed-date", data, payload=payload, refusal="stale",
            reason=f"signedDate {STALE_BY_SECONDS} s before --now (the bound is {MAX_REQUEST_AGE_SECONDS} s): a replayed request",
            note="Apple's library puts no bound on signedDate's age; msgc refuses a replay")
        data, payload = signed("future", self.payload("future", signedDate=self.now_ms + FUTURE_BY_SECONDS * 1000))
        add("hostile", "future-signed-date", data, payload=payload, refusal="future",
            reason=f"signedDate {FUTURE_BY_SECONDS} s after --now (the bound is {MAX_CLOCK_SKEW_SECONDS} s of clock skew)",
            note="Apple's library puts no bound on signedDate; msgc refuses a date this far ahead")
        for member in ("originalTransactionId", "appAppleId", "productId", "userLocale", "requestIdentifier", "signedDate", "environment"):
            payload = self.payload("missing-" + member)
            del payload[member]
            add("hostile", "payload-missing-" + member, body(jws(payload, chain)), payload=payload,
                reason=f"the payload lacks {member}", refusal="malformed-payload")
        for name, change, reason in (
            ("appAppleId-as-string", {"appAppleId": str(self.arguments.app_apple_id)}, "appAppleId as a string"),
            ("signedDate-as-string", {"signedDate": str(self.now_ms)}, "signedDate as a string"),
            ("originalTransactionId-as-number", {"originalTransactionId": 2000000000000001}, "originalTransactionId as a number"),
            ("requestIdentifier-not-uuid", {"requestIdentifier": "not-a-uuid"}, "requestIdentifier is not a UUID"),
            ("productId-null", {"productId": None}, "productId is null"),
        ):
            data, payload = signed(name, self.payload(name, **change))
            if name.endswith("-as-string") or name.endswith("-as-number"):
                note = "Apple's library converts the member to the type it expects; msgc reads Apple's types as documented"
            elif name == "productId-null":
                note = "Apple's library lets a null member through (its model does not check types); msgc refuses it"
            else:
                note = None
            add("hostile", "payload-" + name, data, payload=payload, reason=reason, refusal="malformed-payload", note=note)
        for name, raw, reason in (
            ("payload-not-json", b"this is not JSON", "a payload that is not JSON"),
            ("payload-array", b"[1,2,3]", "a payload that is a JSON array"),
            ("payload-empty", b"", "an empty payload"),
        ):
            add("hostile", name, body(jws(None, chain, payload_bytes=raw)), reason=reason, refusal="malformed-payload")

    def load(self, folder):
        chain = self.pki.chain()
        header = b64url(canonical_json({"alg": "ES256", "x5c": [certificate.x5c for certificate in chain]}))
        key = self.pki.leaf.key
        products, locales = self.arguments.product, self.arguments.locale
        lines = []
        for index in range(self.arguments.first_index, self.arguments.first_index + self.arguments.count):
            payload = {
                "originalTransactionId": str(3000000000000000 + index),
                "appAppleId": self.arguments.app_apple_id,
                "productId": products[index % len(products)],
                "userLocale": locales[(index // len(products)) % len(locales)],
                "requestIdentifier": self.seeded.uuid(f"load:{index}"),
                "signedDate": self.now_ms,
                "environment": self.arguments.environment,
            }
            signing_input = (header + "." + b64url(canonical_json(payload))).encode("ascii")
            token = signing_input.decode("ascii") + "." + b64url(es256(key, signing_input))
            lines.append(body(token))
        os.makedirs(folder, exist_ok=True)
        write_bytes(os.path.join(folder, "bodies.jsonl"), b"\n".join(lines) + (b"\n" if lines else b""))
        return lines


class AppleOracle:
    """What a Python server built on Apple's library decides about one request body (or, with
    another `model`, about another body Apple signs: realtime-notifications.py's oracle)."""

    @classmethod
    def of(cls, pki, arguments):
        """The oracle for what the generator made with these arguments: trusting its root, for its app."""
        return cls(pki.root.der, arguments.environment, arguments.app_apple_id, arguments.bundle_id)

    def __init__(self, root_der, environment, app_apple_id, bundle_id, model=None):
        from appstoreserverlibrary.models.Environment import Environment
        from appstoreserverlibrary.models.LibraryUtility import _get_cattrs_converter
        from appstoreserverlibrary.models.RealtimeRequestBody import RealtimeRequestBody
        from appstoreserverlibrary.signed_data_verifier import SignedDataVerifier, VerificationException
        self.verifier = SignedDataVerifier([root_der], False, Environment(environment), bundle_id, app_apple_id)
        self.model = model or RealtimeRequestBody
        self.converter = _get_cattrs_converter(self.model)
        self.verification_exception = VerificationException

    def read_body(self, data):
        """The body as Apple's model reads it, and None; or None and the refusal."""
        try:
            request = self.converter.structure(json.loads(data), self.model)
        except Exception as error:
            return None, {"verdict": "refused", "status": "unreadable-body", "exception": type(error).__name__}
        if request.signedPayload is None:
            return None, {"verdict": "refused", "status": "no-signed-payload"}
        return request, None

    def judge(self, data):
        request, refusal = self.read_body(data)
        if refusal:
            return refusal
        try:
            decoded = self.verifier.verify_and_decode_realtime_request(request.signedPayload)
        except self.verification_exception as error:
            return {"verdict": "refused", "status": error.status.name}
        except Exception as error:
            return {"verdict": "refused", "status": "exception", "exception": type(error).__name__}
        return {"verdict": "accepted", "requestIdentifier": str(decoded.requestIdentifier)}


# What realtime-notifications.py shares with this script, imported from here so that the two
# cannot drift: the options every generator takes, and the writing of the entries and manifest.

def argument_parser(description, doc, *, signed, now_required):
    """A parser with the options both generators take; `signed` names what they sign."""
    parser = argparse.ArgumentParser(description=description, epilog=doc.split("\n\n", 2)[2],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", required=True, help="the folder to write into (created; files in it are replaced)")
    if now_required:
        parser.add_argument("--now", type=int, required=True, help="the signing time, Unix milliseconds; every date derives from it")
    else:
        parser.add_argument("--now", type=int, default=None,
                            help="the signing time, Unix milliseconds (default: the current second); every date derives from it")
    parser.add_argument("--app-apple-id", type=int, default=1234567890, help=f"appAppleId of the {signed} (default 1234567890)")
    parser.add_argument("--environment", choices=("Production", "Sandbox"), default="Production",
                        help=f"environment of the {signed} (default Production)")
    parser.add_argument("--bundle-id", default="com.example.parla",
                        help="the app's bundle id (default com.example.parla; Apple's verifier wants one)")
    parser.add_argument("--seed", default="msgc-realtime", help="the seed of keys, serial numbers and identifiers")
    parser.add_argument("--no-apple", action="store_true", help="do not ask Apple's library for verdicts (faster, none recorded)")
    return parser


def check_arguments(parser, arguments):
    """The checks of the shared options (after the script's own); --now defaults to the current second."""
    if arguments.now is None:
        arguments.now = int(time.time()) * 1000
    if not 0 < arguments.app_apple_id < 2**53:
        parser.error("--app-apple-id must be a positive integer")
    if not 10**12 <= arguments.now < 10**14:
        parser.error("--now is Unix time in milliseconds (13 digits)")


def write_entries(out, entries, oracle):
    """Writes each entry's file; returns the manifest's records (with Apple's verdict when there is an
    oracle) and the names of the entries where Apple's library and msgc's expectation differ without a
    note saying why msgc is stricter (broken fixtures)."""
    records = []
    disagreements = []
    for entry in entries:
        os.makedirs(os.path.join(out, entry["kind"]), exist_ok=True)
        write_bytes(os.path.join(out, entry["file"]), entry["bytes"])
        record = {key: value for key, value in entry.items() if key != "bytes" and value is not None}
        record["size"] = len(entry["bytes"])
        if oracle is not None:
            record["apple"] = oracle.judge(entry["bytes"])
            accepted = record["apple"]["verdict"] == "accepted"
            record["stricterThanApple"] = accepted and entry["msgc"] == "refuse"
            if accepted != (entry["msgc"] == "accept") and not (record["stricterThanApple"] and entry["note"]):
                disagreements.append(entry["name"])
        records.append(record)
    return records, disagreements


def write_manifest(out, manifest, disagreements, script):
    """Writes manifest.json; the exit status: 1 (said on standard error) when there are disagreements."""
    write_bytes(os.path.join(out, "manifest.json"), json.dumps(manifest, indent=2, sort_keys=True).encode("utf-8") + b"\n")
    if disagreements:
        print(f"{script}: Apple's library and msgc's expectation differ without a note: {', '.join(disagreements)}", file=sys.stderr)
        return 1
    return 0


def parse_arguments(argv):
    parser = argument_parser("Make a test PKI and Apple-style signed realtime requests (valid, hostile, load), "
                             "with Apple's library's verdict on each in manifest.json.", __doc__, signed="requests", now_required=False)
    parser.add_argument("--product", action="append", default=None,
                        help="a productId (repeat; default com.example.parla.plus.yearly)")
    parser.add_argument("--locale", action="append", default=None,
                        help="a userLocale (repeat; default en-US de-DE fr-FR ja-JP zh-CN en-GB es-ES ko-KR)")
    parser.add_argument("--count", type=int, default=0, help="how many load requests to write to load/bodies.jsonl (default 0)")
    parser.add_argument("--first-index", type=int, default=0,
                        help="number the load requests from this (their originalTransactionId and requestIdentifier "
                             "derive from it): another run's requests with the same PKI, e.g. a burst after a load")
    parser.add_argument("--no-fixtures", action="store_true", help="write only the PKI and the load requests")
    arguments = parser.parse_args(argv)
    arguments.product = arguments.product or ["com.example.parla.plus.yearly"]
    arguments.locale = arguments.locale or ["en-US", "de-DE", "fr-FR", "ja-JP", "zh-CN", "en-GB", "es-ES", "ko-KR"]
    if not 0 <= arguments.count <= 1_000_000 or not 0 <= arguments.first_index <= 10**12:
        parser.error("--count must be between 0 and 1000000, --first-index between 0 and 10^12")
    check_arguments(parser, arguments)
    for value in arguments.product + arguments.locale:
        # They name files (valid/PRODUCT--LOCALE.json): letters, digits, '.', '_', '-' only, as Apple's ids.
        if not re.fullmatch(r"[A-Za-z0-9_][A-Za-z0-9._-]{0,99}", value):
            parser.error(f"unusable --product or --locale (letters, digits, '.', '_', '-'): {value!r}")
    return arguments


def main(argv):
    arguments = parse_arguments(argv)
    generator = Generator(arguments)
    out = arguments.out
    os.makedirs(out, exist_ok=True)
    pki_files = generator.pki.write(os.path.join(out, "pki"))
    if not arguments.no_fixtures:
        generator.valid()
        generator.hostile()
    oracle = None if arguments.no_apple else AppleOracle.of(generator.pki, arguments)
    requests, disagreements = write_entries(out, generator.entries, oracle)
    manifest = {
        "format": "msgc-realtime-requests", "version": 1,
        "now": arguments.now, "appAppleId": arguments.app_apple_id, "environment": arguments.environment,
        "bundleId": arguments.bundle_id, "seed": arguments.seed,
        "bounds": {"maxRequestAgeSeconds": MAX_REQUEST_AGE_SECONDS, "maxClockSkewSeconds": MAX_CLOCK_SKEW_SECONDS},
        "pki": pki_files,
        "requests": requests,
    }
    if arguments.count:
        lines = generator.load(os.path.join(out, "load"))
        sample = [oracle.judge(line)["verdict"] for line in lines[:APPLE_SAMPLE_OF_LOAD]] if oracle else []
        manifest["load"] = {"file": "load/bodies.jsonl", "count": len(lines),
                            "appleAcceptedOfSample": sample.count("accepted"), "sample": len(sample)}
    return write_manifest(out, manifest, disagreements, "realtime-requests.py")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
