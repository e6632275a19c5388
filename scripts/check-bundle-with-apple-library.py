#!/usr/bin/env python3
"""Checks every message of msgc bundles against Apple's own Python client-library models.

Usage: check-bundle-with-apple-library.py BUNDLE [BUNDLE ...]

Each messages/*.json must contain only UploadMessageRequestBody's keys (and its nested
UploadMessageImage / BulletPoint keys) and must construct through the library's attrs
models, which run Apple's length validators (header 66, body 144, alt text 150, bullet text
66, at most 5 bullets). Each defaults/**/*.json must be a DefaultConfigurationRequest. The
library counts code points, so UTF-16 lengths (Apple's Java library) are checked as well.
Needs: pip install app-store-server-library
"""
import json
import pathlib
import sys

from appstoreserverlibrary.models.BulletPoint import BulletPoint
from appstoreserverlibrary.models.DefaultConfigurationRequest import DefaultConfigurationRequest
from appstoreserverlibrary.models.HeaderPosition import HeaderPosition
from appstoreserverlibrary.models.UploadMessageImage import UploadMessageImage
from appstoreserverlibrary.models.UploadMessageRequestBody import UploadMessageRequestBody

BODY_KEYS = {"header", "body", "image", "headerPosition", "bulletPoints"}
IMAGE_KEYS = {"imageIdentifier", "altText"}
BULLET_KEYS = {"text", "imageIdentifier", "altText"}
JAVA_LIMITS = {"header": 66, "body": 144}


def utf16_length(text):
    return len(text.encode("utf-16-le")) // 2


def check_message(path):
    data = json.loads(path.read_bytes())
    extra = set(data) - BODY_KEYS
    assert not extra, f"{path}: keys Apple does not take: {sorted(extra)}"
    for key, limit in JAVA_LIMITS.items():
        assert utf16_length(data[key]) <= limit, f"{path}: {key} over {limit} UTF-16 units"
    image = None
    if "image" in data:
        assert set(data["image"]) <= IMAGE_KEYS, f"{path}: image keys {sorted(data['image'])}"
        assert utf16_length(data["image"]["altText"]) <= 150
        image = UploadMessageImage(imageIdentifier=data["image"]["imageIdentifier"], altText=data["image"]["altText"])
    bullets = None
    if "bulletPoints" in data:
        bullets = []
        for bullet in data["bulletPoints"]:
            assert set(bullet) == BULLET_KEYS, f"{path}: bullet keys {sorted(bullet)}"
            assert utf16_length(bullet["text"]) <= 66 and utf16_length(bullet["altText"]) <= 150
            bullets.append(BulletPoint(text=bullet["text"], imageIdentifier=bullet["imageIdentifier"], altText=bullet["altText"]))
    position = HeaderPosition(data["headerPosition"]) if "headerPosition" in data else None
    UploadMessageRequestBody(header=data["header"], body=data["body"], image=image, headerPosition=position, bulletPoints=bullets)


def check_default(path):
    data = json.loads(path.read_bytes())
    assert set(data) == {"messageIdentifier"}, f"{path}: keys {sorted(data)}"
    DefaultConfigurationRequest(messageIdentifier=data["messageIdentifier"])


def main(bundles):
    count = 0
    for bundle in map(pathlib.Path, bundles):
        messages = sorted((bundle / "messages").glob("*.json"))
        assert messages, f"{bundle}: no messages"
        for path in messages:
            check_message(path)
            count += 1
        for path in sorted((bundle / "defaults").glob("*/*.json")):
            check_default(path)
    print(f"Apple's library accepted {count} message bodies")


if __name__ == "__main__":
    main(sys.argv[1:])
