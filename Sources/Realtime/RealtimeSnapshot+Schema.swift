import Model

extension RealtimeSnapshot {
    /// The JSON Schema (draft-07) of the snapshot file, for servers written in other languages
    /// and for checking a file by hand; schemas/realtime-snapshot.schema.json holds the same bytes.
    public static var jsonSchema: JSONValue {
        let name: JSONValue = ["type": "string", "pattern": "^[A-Za-z0-9._-]+$"]
        let uuid: JSONValue = ["type": "string", "pattern": "^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$"]
        let answer: JSONValue = [
            "description": "A message a server may answer with, in the member `answer` names.",
            "type": "object",
            "required": ["key", "type", "answer", "identifier", "images", "version"],
            "properties": [
                "key": name,
                "type": ["enum": .array(MessageType.allCases.map { .string($0.rawValue) })],
                "answer": ["description": "The member of Apple's RealtimeResponseBody that carries it.", "enum": .array(Answer.Kind.allCases.map { .string($0.rawValue) })],
                "identifier": uuid,
                "images": ["description": "Every image the message shows; empty for offers and switch-plan messages.", "type": "array", "items": uuid],
                "productId": ["description": "switch-plan messages: the product offered (alternateProduct.productId).", "type": "string"],
                "billingPlanType": ["description": "switch-plan messages: how the plan offered is billed (alternateProduct.billingPlanType).", "enum": .array(BillingPlanType.allCases.map { .string($0.appleValue) })],
                "offerIdentifier": ["description": "promotional-offer messages: the offer's identifier in App Store Connect, for the signature.", "type": "string"],
                "version": ["description": "current: the bundle's; previous: the last approved version, while the bundle's waits for review.", "enum": ["current", "previous"]],
            ],
            "additionalProperties": false,
        ]
        let locale: JSONValue = [
            "type": "object",
            "required": ["locale", "default", "messages"],
            "properties": [
                "locale": name,
                "default": ["description": "The key of the product's default message among `messages`, or null.", "type": ["string", "null"]],
                "messages": ["type": "array", "items": answer],
            ],
            "additionalProperties": false,
        ]
        let product: JSONValue = [
            "type": "object",
            "required": ["id", "locales", "localeMatches"],
            "properties": [
                "id": name,
                "group": ["description": "The product's subscription group (msgc.yaml's group).", "type": "string"],
                "choice": ["description": "How to pick among `realtime`: the first usable, or a split by weight stable per originalTransactionId. Absent: answer with the default.", "enum": ["first-usable", "weighted"]],
                "realtime": [
                    "type": "array",
                    "items": ["type": "object", "required": ["message", "weight"], "properties": ["message": name, "weight": ["type": "integer", "minimum": 1, "maximum": .integer(RealtimeChoice.maxWeight)]], "additionalProperties": false],
                ],
                "locales": ["description": "The locales with something to answer with, sorted.", "type": "array", "items": locale],
                "localeMatches": ["description": "Which locale answers each App Store Connect short code (docs/realtime.md, Locale matching).", "type": "object", "additionalProperties": name],
            ],
            "additionalProperties": false,
        ]
        return [
            "$schema": "http://json-schema.org/draft-07/schema#",
            "title": "msgc realtime snapshot",
            "description": "What a realtime server may answer Apple with, per product and locale, for one environment: written by `msgc realtime snapshot` (docs/realtime.md).",
            "type": "object",
            "required": ["format", "schemaVersion", "generator", "bundleId", "environment", "bundleDigest", "release", "products", "omitted"],
            "properties": [
                "format": ["const": .string(format)],
                "schemaVersion": ["const": .integer(schemaVersion)],
                "generator": ["type": "object", "required": ["name", "version"]],
                "bundleId": ["type": "string"],
                "environment": ["enum": ["sandbox", "production"]],
                "bundleDigest": ["type": "string", "pattern": "^sha256:[0-9a-f]{64}$"],
                "release": ["type": ["string", "null"]],
                "products": ["type": "array", "items": product],
                "omitted": [
                    "description": "Every message of the bundle no server may answer with, and why.",
                    "type": "array",
                    "items": [
                        "type": "object",
                        "required": ["product", "locale", "key", "reason", "detail"],
                        "properties": [
                            "product": name, "locale": name, "key": name, "identifier": uuid,
                            "reason": ["enum": .array(Omission.Reason.allCases.map { .string($0.rawValue) })],
                            "detail": ["type": "string"],
                        ],
                        "additionalProperties": false,
                    ],
                ],
            ],
            "additionalProperties": false,
        ]
    }
}
