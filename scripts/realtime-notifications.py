#!/usr/bin/env python3
"""Makes Apple-style App Store Server Notifications V2 for testing msgc's NotificationVerifier.

Usage: .build-venv/bin/python scripts/realtime-notifications.py --out DIR [--now MS] [--app-apple-id N]
           [--environment Production|Sandbox] [--bundle-id ID] [--seed TEXT] [--no-apple] [--plant FILE]

Signed with the test PKI of scripts/realtime-requests.py (imported from it: the same seed gives the
same root, so a server started with that root verifies both), shaped as Apple sends them: the body
{"signedPayload": JWS}; the JWS's payload a ResponseBodyV2DecodedPayload whose `data` holds the app,
the environment and the nested signedTransactionInfo and signedRenewalInfo, each a JWS of its own
with the same three-certificate x5c. In Sandbox, `data` carries no appAppleId, as Apple's do.

  pki/...             as realtime-requests.py writes it (root.der is the trusted root)
  valid/NAME.json     notifications msgc must accept: each relevant type and subtype, a retry days
                      old, one signed by a leaf that has expired since, not-relevant and unknown types
  hostile/NAME.json   one notification per way to be refused, with the refusal and the part refused
  manifest.json       what every file is, what msgc must do, and the verdict of Apple's library
  planted.txt         with --plant FILE, instead of the three above: one signedPayload a line for each entry
                      of FILE (given subscribers, types, offers, products and signedDates), for outcomes a
                      test plants and `msgc realtime outcomes import` reads

The verdict comes from app-store-server-library itself, as a Python receiver would call it: the
body read as a ResponseBodyV2, its signedPayload given to SignedDataVerifier(root, False, environment,
bundle id, app Apple ID).verify_and_decode_notification, then data.signedTransactionInfo to
verify_and_decode_signed_transaction and data.signedRenewalInfo to verify_and_decode_renewal_info
when they are there. An accepted entry records what the library decoded (`apple.decoded`). Where msgc
is stricter than the library, `stricterThanApple` is true and `note` says why. Dates derive from
--now, keys and identifiers from --seed: the same arguments give the same bytes.
Exit status 0; 1 when Apple's library refuses a notification msgc must accept, or accepts one msgc
refuses without a note saying why (a broken fixture; the files are written all the same).
"""

import base64
import datetime
import importlib.util
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("realtime_requests", os.path.join(HERE, "realtime-requests.py"))
requests_script = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(requests_script)
b64url, canonical_json, jws, body, write_bytes = (requests_script.b64url, requests_script.canonical_json, requests_script.jws,
                                                  requests_script.body, requests_script.write_bytes)

YEARLY = "com.example.parla.plus.yearly"
MONTHLY = "com.example.parla.plus.monthly"
OFFER = "plus.yearly.half_price"
HOUR_MS = 3600 * 1000
# Apple retries a notification up to five times over about 157 hours, keeping its signedDate.
RETRY_AGE_MS = 157 * HOUR_MS
OVERSIZED_BYTES = 100 * 1024


def flip_signature_bit(token):
    head, middle, signature = token.split(".")
    raw = bytearray(base64.urlsafe_b64decode(signature + "=="))
    raw[10] ^= 0x01
    return f"{head}.{middle}.{b64url(bytes(raw))}"


class Generator:
    def __init__(self, arguments):
        self.arguments = arguments
        self.seeded = requests_script.Seeded(arguments.seed)
        self.now_ms = arguments.now
        now = datetime.datetime.fromtimestamp(self.now_ms / 1000, tz=datetime.timezone.utc)
        self.pki = requests_script.PKI(self.seeded, now)
        self.environment = arguments.environment
        self.other_environment = "Sandbox" if self.environment == "Production" else "Production"
        self.entries = []

    def otid(self, label):
        return str(2000000000000000 + int.from_bytes(self.seeded.digest("otid:" + label)[:6], "big") % 10**12)

    def transaction(self, label, signed_date, **changes):
        """A JWSTransactionDecodedPayload as Apple signs it for a subscription renewal."""
        value = {
            "transactionId": str(int(self.otid(label)) + 7), "originalTransactionId": self.otid(label),
            "webOrderLineItemId": str(int(self.otid(label)) + 11), "bundleId": self.arguments.bundle_id, "productId": YEARLY,
            "subscriptionGroupIdentifier": "21345678", "purchaseDate": signed_date - HOUR_MS,
            "originalPurchaseDate": signed_date - 400 * 24 * HOUR_MS, "expiresDate": signed_date + 364 * 24 * HOUR_MS,
            "quantity": 1, "type": "Auto-Renewable Subscription", "inAppOwnershipType": "PURCHASED", "signedDate": signed_date,
            "environment": self.environment, "transactionReason": "RENEWAL", "storefront": "USA", "storefrontId": "143441",
            "price": 49990, "currency": "USD",
        }
        value.update(changes)
        return {key: item for key, item in value.items() if item is not DROP}

    def renewal(self, label, signed_date, **changes):
        """A JWSRenewalInfoDecodedPayload as Apple signs it."""
        value = {
            "originalTransactionId": self.otid(label), "autoRenewProductId": YEARLY, "productId": YEARLY, "autoRenewStatus": 1,
            "signedDate": signed_date, "environment": self.environment, "recentSubscriptionStartDate": signed_date - 400 * 24 * HOUR_MS,
            "renewalDate": signed_date + 364 * 24 * HOUR_MS,
        }
        value.update(changes)
        return {key: item for key, item in value.items() if item is not DROP}

    def notification(self, label, notification_type, subtype=None, *, signed_date=None, transaction=None, renewal=None,
                     data_changes=None, changes=None, chain=None, transaction_chain=None, renewal_chain=None):
        """A ResponseBodyV2DecodedPayload with `data`; `transaction` and `renewal` are payloads (signed here) or
        already signed text."""
        signed_date = self.now_ms if signed_date is None else signed_date
        chain = chain or self.pki.chain()
        data = {"bundleId": self.arguments.bundle_id, "bundleVersion": "42", "environment": self.environment, "status": 1}
        if self.environment == "Production":
            data["appAppleId"] = self.arguments.app_apple_id
        if transaction is not None:
            data["signedTransactionInfo"] = transaction if isinstance(transaction, str) else jws(transaction, transaction_chain or chain)
        if renewal is not None:
            data["signedRenewalInfo"] = renewal if isinstance(renewal, str) else jws(renewal, renewal_chain or chain)
        data.update(data_changes or {})
        payload = {"notificationType": notification_type, "notificationUUID": self.seeded.uuid("notification:" + label),
                   "data": {key: item for key, item in data.items() if item is not DROP}, "version": "2.0", "signedDate": signed_date}
        if subtype is not None:
            payload["subtype"] = subtype
        payload.update(changes or {})
        return {key: item for key, item in payload.items() if item is not DROP}

    def subscription(self, label, notification_type, subtype=None, *, signed_date=None, transaction=None, renewal=None, **keywords):
        """A notification about one subscription, with both nested JWSs."""
        date = self.now_ms if signed_date is None else signed_date
        return self.notification(label, notification_type, subtype, signed_date=date,
                                 transaction=self.transaction(label, date, **(transaction or {})),
                                 renewal=self.renewal(label, date, **(renewal or {})), **keywords)

    def add(self, kind, name, data, *, reason, refusal=None, part=None, msgc=None, note=None, expected_kind=None):
        self.entries.append({"name": name, "kind": kind, "file": f"{kind}/{name}.json", "bytes": data, "reason": reason,
                             "refusal": refusal, "part": part, "msgc": msgc or ("accept" if kind == "valid" else "refuse"),
                             "note": note, "expectedKind": expected_kind})

    def valid(self):
        def add(name, payload, reason, expected_kind, chain=None):
            self.add("valid", name, body(jws(payload, chain or self.pki.chain())), reason=reason, expected_kind=expected_kind)

        add("offer-redeemed", self.subscription("offer-redeemed", "OFFER_REDEEMED", "UPGRADE",
                                                transaction={"offerIdentifier": OFFER, "offerType": 2, "transactionReason": "PURCHASE"},
                                                renewal={"offerIdentifier": OFFER, "offerType": 2}),
            "OFFER_REDEEMED, the transaction and renewal info naming the offer", "offer-redeemed")
        add("offer-redeemed-in-renewal-info", self.subscription("offer-redeemed-renewal", "OFFER_REDEEMED",
                                                                renewal={"offerIdentifier": OFFER, "offerType": 2}),
            "OFFER_REDEEMED without a subtype, only the renewal info naming the offer (it applies at the next renewal)",
            "offer-redeemed")
        add("renewal-pref-downgrade", self.subscription("renewal-pref", "DID_CHANGE_RENEWAL_PREF", "DOWNGRADE",
                                                        renewal={"autoRenewProductId": MONTHLY}),
            "DID_CHANGE_RENEWAL_PREF / DOWNGRADE to the monthly plan", "renewal-preference-changed")
        add("auto-renew-disabled", self.subscription("auto-renew-disabled", "DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_DISABLED",
                                                     renewal={"autoRenewStatus": 0}),
            "DID_CHANGE_RENEWAL_STATUS / AUTO_RENEW_DISABLED: a cancellation", "auto-renew-disabled")
        add("auto-renew-enabled", self.subscription("auto-renew-enabled", "DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_ENABLED"),
            "DID_CHANGE_RENEWAL_STATUS / AUTO_RENEW_ENABLED: a cancellation taken back", "auto-renew-enabled")
        add("expired-voluntary", self.subscription("expired-voluntary", "EXPIRED", "VOLUNTARY", renewal={"autoRenewStatus": 0}),
            "EXPIRED / VOLUNTARY: acknowledged, not counted", "not-relevant")
        add("subscribed", self.subscription("subscribed", "SUBSCRIBED", "INITIAL_BUY",
                                            transaction={"transactionReason": "PURCHASE"}),
            "SUBSCRIBED / INITIAL_BUY: acknowledged, not counted", "not-relevant")
        add("test", self.notification("test", "TEST"), "TEST, as App Store Connect's request sends it: data without nested JWSs",
            "not-relevant")
        add("unknown-future-type", self.subscription("unknown-type", "SUBSCRIPTION_PAUSED", "PAUSED_BY_USER"),
            "a notificationType and subtype Apple may add later: kept as written, acknowledged", "not-relevant")
        add("status-change-unknown-subtype", self.subscription("unknown-subtype", "DID_CHANGE_RENEWAL_STATUS", "SOMETHING_NEW"),
            "DID_CHANGE_RENEWAL_STATUS with a subtype msgc does not know: not relevant", "not-relevant")
        retry_date = self.now_ms - RETRY_AGE_MS
        add("retry-157-hours-old", self.subscription("retry", "DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_DISABLED",
                                                     signed_date=retry_date, renewal={"autoRenewStatus": 0}),
            "Apple's last retry, 157 hours after signedDate, which it keeps: no age bound", "auto-renew-disabled")
        # The leaf valid from 30 days to one day before --now: valid at signedDate, expired at receipt.
        expired = [self.pki.expired_leaf, self.pki.intermediate, self.pki.root]
        old = self.now_ms - 72 * HOUR_MS
        add("retry-leaf-expired-since", self.subscription("retry-expired-leaf", "OFFER_REDEEMED", signed_date=old, chain=expired,
                                                          transaction={"offerIdentifier": OFFER, "offerType": 2}),
            "a retry signed 72 hours ago by a leaf that expired a day ago: the chain is checked at signedDate", "offer-redeemed",
            chain=expired)
        minimal = {"notificationType": "DID_CHANGE_RENEWAL_STATUS",
                   "data": {"bundleId": self.arguments.bundle_id, "environment": self.environment}}
        if self.environment == "Production":
            minimal["data"]["appAppleId"] = self.arguments.app_apple_id
        add("minimal", minimal, "only notificationType and data's app and environment: every other member may be missing "
            "(the chain is checked at the time of receipt)", "not-relevant")
        add("unknown-and-null-members", self.subscription(
            "unknown-members", "DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_DISABLED",
            transaction={"offerIdentifier": None, "someFutureMember": {"a": [1]}}, renewal={"autoRenewProductId": None},
            data_changes={"someFutureMember": 7, "status": None}, changes={"someFutureMember": "x", "version": None}),
            "members Apple may add later are ignored; null is the same as absent", "auto-renew-disabled")
        summary = {"notificationType": "RENEWAL_EXTENSION", "subtype": "SUMMARY", "notificationUUID": self.seeded.uuid("summary"),
                   "version": "2.0", "signedDate": self.now_ms,
                   "summary": {"requestIdentifier": self.seeded.uuid("summary-request"), "environment": self.environment,
                               "appAppleId": self.arguments.app_apple_id, "bundleId": self.arguments.bundle_id, "productId": YEARLY,
                               "storefrontCountryCodes": ["USA"], "succeededCount": 3, "failedCount": 0}}
        add("renewal-extension-summary", summary, "RENEWAL_EXTENSION / SUMMARY: the app and environment come from summary",
            "not-relevant")
        purchase_id = ("SANDBOX_" if self.environment == "Sandbox" else "") + "0a1b2c3d-0000-4000-8000-00000000abcd"
        token = {"notificationType": "EXTERNAL_PURCHASE_TOKEN", "subtype": "UNREPORTED", "notificationUUID": self.seeded.uuid("token"),
                 "version": "2.0", "signedDate": self.now_ms,
                 "externalPurchaseToken": {"externalPurchaseId": purchase_id, "tokenCreationDate": self.now_ms - HOUR_MS,
                                           "appAppleId": self.arguments.app_apple_id, "bundleId": self.arguments.bundle_id}}
        add("external-purchase-token", token, "EXTERNAL_PURCHASE_TOKEN: the environment follows externalPurchaseId's SANDBOX prefix",
            "not-relevant")

    def planted(self, entries):
        """One signedPayload per entry of --plant, in order: notifications about given subscribers, so that a test
        knows every outcome it planted."""
        lines = []
        for index, entry in enumerate(entries):
            label = entry.get("label", f"planted-{index}")
            date = int(entry["signedDate"])
            otid = str(entry["originalTransactionId"])
            bundle_id = entry.get("bundleId", self.arguments.bundle_id)
            transaction = {"originalTransactionId": otid, "transactionId": otid + "7", "bundleId": bundle_id}
            renewal = {"originalTransactionId": otid}
            if "offerIdentifier" in entry:
                transaction.update(offerIdentifier=entry["offerIdentifier"], offerType=2)
                renewal.update(offerIdentifier=entry["offerIdentifier"], offerType=2)
            if "autoRenewProductId" in entry:
                renewal["autoRenewProductId"] = entry["autoRenewProductId"]
            if "autoRenewStatus" in entry:
                renewal["autoRenewStatus"] = entry["autoRenewStatus"]
            changes = {"notificationUUID": entry["notificationUUID"]} if "notificationUUID" in entry else None
            payload = self.subscription(label, entry["type"], entry.get("subtype"), signed_date=date, transaction=transaction,
                                        renewal=renewal, data_changes={"bundleId": bundle_id}, changes=changes)
            token = jws(payload, self.pki.chain())
            lines.append(body(token).decode("utf-8") if entry.get("wrapped") else token)
        return "".join(line + "\n" for line in lines)

    def hostile(self):
        pki = self.pki
        chain = pki.chain()
        add = self.add

        def signed(payload, chain=chain, **keywords):
            return body(jws(payload, chain, **keywords))

        def disabled(label, **keywords):
            return self.subscription(label, "DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_DISABLED", **keywords)

        # The body.
        add("hostile", "body-not-json", b'{"signedPayload": "eyJ', reason="the body is not JSON (cut short)",
            refusal="malformed-body", part="body")
        add("hostile", "body-not-object", b'["eyJhbGciOiJFUzI1NiJ9.e30.AA"]', reason="the body is a JSON array",
            refusal="malformed-body", part="body")
        add("hostile", "no-signed-payload", b'{"notificationType": "TEST"}', reason="no signedPayload member",
            refusal="malformed-body", part="body")
        add("hostile", "signed-payload-not-string", b'{"signedPayload": 42}', reason="signedPayload is a number",
            refusal="malformed-body", part="body")
        valid = signed(disabled("oversized"))
        oversized = valid[:-1] + b',"padding":"' + b"A" * OVERSIZED_BYTES + b'"}'
        add("hostile", "oversized-body", oversized, refusal="body-too-large", part="body",
            reason=f"a valid notification padded to {len(oversized)} bytes, over the 64 KiB cap",
            note="Apple's library reads any size; msgc caps the body before reading it")

        # The outer JWS.
        add("hostile", "jws-two-segments", body("eyJhbGciOiJFUzI1NiJ9.e30"), reason="a JWS of two segments",
            refusal="malformed-jws", part="notification")
        payload = disabled("padded")
        header = b64url(canonical_json({"alg": "ES256", "x5c": [certificate.x5c for certificate in chain]}))
        padded = base64.urlsafe_b64encode(canonical_json(payload)).decode("ascii")
        if not padded.endswith("="):
            payload["notificationUUID"] += "0"
            padded = base64.urlsafe_b64encode(canonical_json(payload)).decode("ascii")
        signing_input = (header + "." + padded).encode("ascii")
        add("hostile", "payload-not-base64url", body(signing_input.decode("ascii") + "." +
                                                     b64url(requests_script.es256(pki.leaf.key, signing_input))),
            reason="the payload part in base64url with '=' padding, signed as written", refusal="malformed-jws", part="notification",
            note="PyJWT pads and decodes it; msgc reads JWS parts as strict base64url (RFC 7515: no padding)")
        add("hostile", "other-root", signed(disabled("other-root"), [pki.other_leaf, pki.other_intermediate, pki.other_root]),
            reason="a chain with Apple's OIDs to a root that is not trusted", refusal="untrusted-chain", part="notification")
        add("hostile", "leaf-without-oid", signed(disabled("leaf-without-oid"), [pki.leaf_without_oid, pki.intermediate, pki.root]),
            reason="the leaf lacks extension 1.2.840.113635.100.6.11.1", refusal="missing-oid", part="notification")
        add("hostile", "intermediate-without-oid",
            signed(disabled("intermediate-without-oid"), [pki.leaf_under_intermediate_without_oid, pki.intermediate_without_oid, pki.root]),
            reason="the intermediate lacks extension 1.2.840.113635.100.6.2.1", refusal="missing-oid", part="notification")
        add("hostile", "bad-signature", body(flip_signature_bit(jws(disabled("bad-signature"), chain))),
            reason="one bit of the notification's signature flipped", refusal="bad-signature", part="notification")
        add("hostile", "leaf-expired-at-signed-date", signed(disabled("expired-at-date"), [pki.expired_leaf, pki.intermediate, pki.root]),
            reason="signed now by a leaf that expired a day ago", refusal="certificate-expired", part="notification")
        add("hostile", "claims-exp-past", signed(disabled("exp-past", changes={"exp": 1000000000})),
            reason="an exp claim in 2001 (PyJWT checks registered claims)", refusal="stale", part="notification")
        add("hostile", "payload-not-json", body(jws(None, chain, payload_bytes=b"not JSON")),
            reason="a signed payload that is not JSON", refusal="malformed-payload", part="notification")

        # The nested JWSs.
        add("hostile", "transaction-bad-signature",
            signed(self.notification("transaction-bad-signature", "OFFER_REDEEMED", transaction=flip_signature_bit(
                jws(self.transaction("transaction-bad-signature", self.now_ms, offerIdentifier=OFFER), chain)))),
            reason="a good notification whose signedTransactionInfo has one bit of its signature flipped",
            refusal="bad-signature", part="signed-transaction-info")
        add("hostile", "renewal-info-bad-signature",
            signed(self.notification("renewal-bad-signature", "DID_CHANGE_RENEWAL_PREF", renewal=flip_signature_bit(
                jws(self.renewal("renewal-bad-signature", self.now_ms, autoRenewProductId=MONTHLY), chain)))),
            reason="a good notification whose signedRenewalInfo has one bit of its signature flipped",
            refusal="bad-signature", part="signed-renewal-info")
        other = [pki.other_leaf, pki.other_intermediate, pki.other_root]
        add("hostile", "transaction-other-root", signed(disabled("transaction-other-root", transaction_chain=other)),
            reason="a good notification whose signedTransactionInfo chains to another root", refusal="untrusted-chain",
            part="signed-transaction-info")
        add("hostile", "renewal-info-other-root", signed(disabled("renewal-other-root", renewal_chain=other)),
            reason="a good notification whose signedRenewalInfo chains to another root", refusal="untrusted-chain",
            part="signed-renewal-info")
        add("hostile", "renewal-info-without-oid",
            signed(disabled("renewal-without-oid", renewal_chain=[pki.leaf_without_oid, pki.intermediate, pki.root])),
            reason="signedRenewalInfo signed by a leaf without Apple's OID", refusal="missing-oid", part="signed-renewal-info")
        add("hostile", "transaction-not-jws", signed(self.notification("transaction-not-jws", "OFFER_REDEEMED", transaction="not a JWS")),
            reason="signedTransactionInfo that is not a JWS", refusal="malformed-jws", part="signed-transaction-info")

        # Another app or environment.
        add("hostile", "other-bundle-id", signed(disabled("other-bundle", data_changes={"bundleId": "com.example.other"})),
            reason="data.bundleId of another app", refusal="wrong-app", part="notification")
        add("hostile", "other-environment", signed(disabled("other-environment", data_changes={"environment": self.other_environment})),
            reason=f"data.environment {self.other_environment}", refusal="wrong-environment", part="notification")
        note = None if self.environment == "Production" else \
            "Apple's library checks appAppleId in Production only; msgc refuses one that is there and is not the configured one"
        add("hostile", "other-app-apple-id",
            signed(disabled("other-app-apple-id", data_changes={"appAppleId": self.arguments.app_apple_id + 1})),
            reason="data.appAppleId of another app", refusal="wrong-app", part="notification", note=note)
        add("hostile", "no-app", signed({"notificationType": "TEST", "notificationUUID": self.seeded.uuid("no-app"),
                                         "signedDate": self.now_ms}),
            reason="no data, summary, externalPurchaseToken or appData: no app to be this one", refusal="wrong-app",
            part="notification")
        add("hostile", "transaction-other-bundle-id",
            signed(disabled("transaction-other-bundle", transaction={"bundleId": "com.example.other"})),
            reason="signedTransactionInfo of another app", refusal="wrong-app", part="signed-transaction-info")
        add("hostile", "transaction-other-environment",
            signed(disabled("transaction-other-environment", transaction={"environment": self.other_environment})),
            reason=f"signedTransactionInfo in {self.other_environment}", refusal="wrong-environment", part="signed-transaction-info")
        add("hostile", "renewal-info-other-environment",
            signed(disabled("renewal-other-environment", renewal={"environment": self.other_environment})),
            reason=f"signedRenewalInfo in {self.other_environment}", refusal="wrong-environment", part="signed-renewal-info")

        # Members of another JSON type.
        converted = "Apple's library converts the member to the type its model declares; msgc reads Apple's types as documented"
        add("hostile", "signed-date-as-string", signed(disabled("signed-date-string", changes={"signedDate": str(self.now_ms)})),
            reason="signedDate written as a string", refusal="malformed-payload", part="notification", note=converted)
        add("hostile", "notification-type-as-number", signed(disabled("type-number", changes={"notificationType": 5})),
            reason="notificationType written as a number", refusal="malformed-payload", part="notification", note=converted)
        add("hostile", "data-not-object", signed(disabled("data-string", changes={"data": "com.example.parla"})),
            reason="data written as a string", refusal="malformed-payload", part="notification")
        add("hostile", "transaction-offer-type-as-string",
            signed(disabled("offer-type-string", transaction={"offerType": "2", "offerIdentifier": OFFER})),
            reason="signedTransactionInfo's offerType written as a string", refusal="malformed-payload",
            part="signed-transaction-info", note=converted)
        if self.environment == "Production":
            add("hostile", "app-apple-id-as-string",
                signed(disabled("app-apple-id-string", data_changes={"appAppleId": str(self.arguments.app_apple_id)})),
                reason="data.appAppleId written as a string", refusal="malformed-payload", part="notification", note=converted)


class _Drop:
    """A member value that removes the member."""


DROP = _Drop()


class NotificationOracle(requests_script.AppleOracle):
    """What a Python receiver built on Apple's library decides about one notification body."""

    def __init__(self, root_der, environment, app_apple_id, bundle_id):
        from appstoreserverlibrary.models.ResponseBodyV2 import ResponseBodyV2
        super().__init__(root_der, environment, app_apple_id, bundle_id, model=ResponseBodyV2)

    def judge(self, data):
        request, refusal = self.read_body(data)
        if refusal:
            return refusal
        part = "notification"
        try:
            notification = self.verifier.verify_and_decode_notification(request.signedPayload)
            transaction = renewal = None
            if notification.data is not None and notification.data.signedTransactionInfo is not None:
                part = "signed-transaction-info"
                transaction = self.verifier.verify_and_decode_signed_transaction(notification.data.signedTransactionInfo)
            if notification.data is not None and notification.data.signedRenewalInfo is not None:
                part = "signed-renewal-info"
                renewal = self.verifier.verify_and_decode_renewal_info(notification.data.signedRenewalInfo)
        except self.verification_exception as error:
            return {"verdict": "refused", "status": error.status.name, "part": part}
        except Exception as error:
            return {"verdict": "refused", "status": "exception", "exception": type(error).__name__, "part": part}
        return {"verdict": "accepted", "decoded": decoded(notification, transaction, renewal)}


def decoded(notification, transaction, renewal):
    """What the library decoded, in the members msgc's DecodedNotification has."""
    bundle_id = app_apple_id = environment = None
    # The library's own choice of where the app is (verify_and_decode_notification).
    token = notification.externalPurchaseToken
    if notification.data is not None or notification.summary is not None:
        section = notification.data if notification.data is not None else notification.summary
        bundle_id, app_apple_id, environment = section.bundleId, section.appAppleId, section.rawEnvironment
    elif token is not None:
        bundle_id, app_apple_id = token.bundleId, token.appAppleId
        environment = "Sandbox" if token.externalPurchaseId and token.externalPurchaseId.startswith("SANDBOX") else "Production"
    elif notification.appData is not None:
        section = notification.appData
        bundle_id, app_apple_id, environment = section.bundleId, section.appAppleId, section.rawEnvironment
    result = {"notificationUUID": notification.notificationUUID, "notificationType": notification.rawNotificationType,
              "subtype": notification.rawSubtype, "signedDate": notification.signedDate, "environment": environment,
              "bundleId": bundle_id, "appAppleId": app_apple_id, "transaction": None, "renewalInfo": None}
    if transaction is not None:
        result["transaction"] = {
            "originalTransactionId": transaction.originalTransactionId, "transactionId": transaction.transactionId,
            "productId": transaction.productId, "offerIdentifier": transaction.offerIdentifier, "offerType": transaction.rawOfferType,
            "signedDate": transaction.signedDate, "bundleId": transaction.bundleId, "environment": transaction.rawEnvironment}
    if renewal is not None:
        result["renewalInfo"] = {
            "originalTransactionId": renewal.originalTransactionId, "productId": renewal.productId,
            "autoRenewProductId": renewal.autoRenewProductId, "autoRenewStatus": renewal.rawAutoRenewStatus,
            "offerIdentifier": renewal.offerIdentifier, "offerType": renewal.rawOfferType, "signedDate": renewal.signedDate,
            "environment": renewal.rawEnvironment}
    return result


def parse_arguments(argv):
    parser = requests_script.argument_parser(
        "Make Apple-style signed App Store Server Notifications V2 (valid and hostile) with the test PKI of "
        "realtime-requests.py, with Apple's library's verdict on each in manifest.json.", __doc__, signed="notifications",
        now_required=True)
    parser.add_argument("--plant", metavar="FILE",
                        help="instead of the fixtures and manifest, write pki/ and planted.txt: one signedPayload a line (or "
                             "{\"signedPayload\": …} when an entry has \"wrapped\": true) for each entry of FILE, a JSON list of "
                             "{originalTransactionId, type, subtype?, signedDate, notificationUUID?, offerIdentifier?, "
                             "autoRenewProductId?, autoRenewStatus?, bundleId?, label?, wrapped?}")
    arguments = parser.parse_args(argv)
    requests_script.check_arguments(parser, arguments)
    return arguments


def main(argv):
    arguments = parse_arguments(argv)
    generator = Generator(arguments)
    out = arguments.out
    os.makedirs(out, exist_ok=True)
    pki_files = generator.pki.write(os.path.join(out, "pki"))
    if arguments.plant is not None:
        with open(arguments.plant, encoding="utf-8") as handle:
            entries = json.load(handle)
        write_bytes(os.path.join(out, "planted.txt"), generator.planted(entries).encode("utf-8"))
        return 0
    generator.valid()
    generator.hostile()
    oracle = None if arguments.no_apple else NotificationOracle.of(generator.pki, arguments)
    records, disagreements = requests_script.write_entries(out, generator.entries, oracle)
    manifest = {
        "format": "msgc-realtime-notifications", "version": 1, "now": arguments.now, "appAppleId": arguments.app_apple_id,
        "environment": arguments.environment, "bundleId": arguments.bundle_id, "seed": arguments.seed, "pki": pki_files,
        "notifications": records,
    }
    return requests_script.write_manifest(out, manifest, disagreements, "realtime-notifications.py")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
