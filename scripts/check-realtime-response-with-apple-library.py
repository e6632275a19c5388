#!/usr/bin/env python3
"""Reads realtime answers with Apple's own models, as a test oracle for `msgc realtime check`.

For each JSON file given, prints one line: `ok`, or `bad: REASON` when Apple's Python library
(app-store-server-library) cannot read it as a RealtimeResponseBody with exactly one answer
(message, alternateProduct or promotionalOffer) that names its message identifier, and for
alternateProduct a product (and a billingPlanType, when given, of Apple's BillingPlanType), for promotionalOffer a signature (V2 or V1). A member the model
does not know is reported as `unknown: NAME` (the library drops it). Exit status 0 unless a
file cannot be read at all.

With `--offer-public-key PEM` (the public half of the In-App Purchase key the server signs
with), a promotionalOfferSignatureV2 is verified too, as the App Store would before it shows
the offer: an ES256 JWS whose signature that key verifies, with a `kid` header, and the claims
Apple's PromotionalOfferV2SignatureCreator writes (`iss`, `bid`, `aud` = `promotional-offer`,
`iat`, a UUID `nonce`, `productId`, `offerIdentifier`) plus `transactionId`, which realtime
answers must carry. `--key-id`, `--issuer-id`, `--bundle-id`, `--product-id`, `--offer-id` and
`--transaction-id` name what those must be (the request's originalTransactionId for the
last). A signature that fails is `bad: offer signature: REASON`; one that passes leaves the
line as it was.
"""
import argparse
import json
import sys
import uuid

from appstoreserverlibrary.models.LibraryUtility import _get_cattrs_converter
from appstoreserverlibrary.models.RealtimeResponseBody import RealtimeResponseBody


def judge(text, expected=None):
    try:
        data = json.loads(text)
    except ValueError as error:
        return f"bad: not JSON ({error})"
    if not isinstance(data, dict):
        return "bad: not an object"
    converter = _get_cattrs_converter(RealtimeResponseBody)
    try:
        body = converter.structure(data, RealtimeResponseBody)
    except Exception as error:  # cattrs raises its own exception groups for every shape error
        return f"bad: the model cannot read it ({type(error).__name__})"
    answers = [name for name in ("message", "alternateProduct", "promotionalOffer") if getattr(body, name) is not None]
    if len(answers) != 1:
        return f"bad: {len(answers)} answers"
    answer = getattr(body, answers[0])
    if answer.messageIdentifier is None:
        return "bad: no messageIdentifier"
    if answers[0] == "alternateProduct" and answer.productId is None:
        return "bad: no productId"
    if answers[0] == "alternateProduct" and answer.rawBillingPlanType is not None and answer.billingPlanType is None:
        return f"bad: billingPlanType {answer.rawBillingPlanType!r} is not one of Apple's BillingPlanType"
    if answers[0] == "promotionalOffer" and answer.promotionalOfferSignatureV2 is None and answer.promotionalOfferSignatureV1 is None:
        return "bad: no signature"
    if answers[0] == "promotionalOffer" and expected is not None and answer.promotionalOfferSignatureV2 is not None:
        problem = offer_signature_problem(answer.promotionalOfferSignatureV2, expected)
        if problem:
            return f"bad: offer signature: {problem}"
    unknown = sorted(set(data) - set(converter.unstructure(body)))
    return "ok" + "".join(f" unknown: {name}" for name in unknown)


def offer_signature_problem(token, expected):
    """Why the App Store would refuse this promotionalOfferSignatureV2, or None."""
    import jwt
    try:
        header = jwt.get_unverified_header(token)
    except jwt.PyJWTError as error:
        return f"not a JWS ({error})"
    if header.get("alg") != "ES256":
        return f"alg {header.get('alg')!r}, not ES256"
    if not isinstance(header.get("kid"), str) or not header["kid"]:
        return "no kid header"
    try:
        claims = jwt.decode(token, expected["key"], algorithms=["ES256"], audience="promotional-offer",
                            options={"require": ["iss", "aud", "iat"]})
    except jwt.PyJWTError as error:
        return f"{type(error).__name__}: {error}"
    for name in ("bid", "nonce", "productId", "offerIdentifier", "transactionId"):
        if not isinstance(claims.get(name), str) or not claims[name]:
            return f"no {name} claim"
    try:
        uuid.UUID(claims["nonce"])
    except ValueError:
        return "the nonce is not a UUID"
    for label, actual in (("key_id", header["kid"]), ("issuer_id", claims["iss"]), ("bundle_id", claims["bid"]),
                          ("product_id", claims["productId"]), ("offer_id", claims["offerIdentifier"]),
                          ("transaction_id", claims["transactionId"])):
        wanted = expected.get(label)
        if wanted is not None and actual != wanted:
            return f"{label.replace('_', ' ')} {actual!r}, not {wanted!r}"
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="*", help="realtime answers (JSON), one verdict line each")
    parser.add_argument("--offer-public-key", metavar="PEM", help="verify promotionalOfferSignatureV2 with this public key")
    for name in ("key-id", "issuer-id", "bundle-id", "product-id", "offer-id", "transaction-id"):
        parser.add_argument(f"--{name}", help="with --offer-public-key: what the signature must name")
    arguments = parser.parse_args()
    expected = None
    if arguments.offer_public_key:
        with open(arguments.offer_public_key, "rb") as handle:
            expected = {"key": handle.read()}
        for name in ("key_id", "issuer_id", "bundle_id", "product_id", "offer_id", "transaction_id"):
            expected[name] = getattr(arguments, name)
    for path in arguments.files:
        with open(path, encoding="utf-8") as handle:
            print(judge(handle.read(), expected))


if __name__ == "__main__":
    main()
