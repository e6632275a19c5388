#!/usr/bin/env python3
"""Reads realtime answers with Apple's own models, as a test oracle for `msgc realtime check`.

For each JSON file given, prints one line: `ok`, or `bad: REASON` when Apple's Python library
(app-store-server-library) cannot read it as a RealtimeResponseBody with exactly one answer
(message, alternateProduct or promotionalOffer) that names its message identifier, and for
alternateProduct a product, for promotionalOffer a signature (V2 or V1). A member the model
does not know is reported as `unknown: NAME` (the library drops it). Exit status 0 unless a
file cannot be read at all.
"""
import json
import sys

from appstoreserverlibrary.models.LibraryUtility import _get_cattrs_converter
from appstoreserverlibrary.models.RealtimeResponseBody import RealtimeResponseBody


def judge(text):
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
    if answers[0] == "promotionalOffer" and answer.promotionalOfferSignatureV2 is None and answer.promotionalOfferSignatureV1 is None:
        return "bad: no signature"
    unknown = sorted(set(data) - set(converter.unstructure(body)))
    return "ok" + "".join(f" unknown: {name}" for name in unknown)


def main():
    for path in sys.argv[1:]:
        with open(path, encoding="utf-8") as handle:
            print(judge(handle.read()))


if __name__ == "__main__":
    main()
