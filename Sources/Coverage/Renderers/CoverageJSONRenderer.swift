import Bundle
import Model

/// The coverage report as msgc's canonical JSON (schema version 1).
///
/// ```
/// { "schemaVersion": 1, "environment": "production", "hasState": true, "sourceLocale": "en-US",
///   "locales": ["en-US", …], "blockingErrors": 0,
///   "totals": { "messages": 45, "ready": 37, "cells": 9, "defaultsReady": 8 },
///   "localeTotals": [ { "locale": "en-US", "messages": …, "ready": …, "cells": …, "defaultsReady": … } ],
///   "products": [ { "product": "…", "defaultMessage": "winback" | null, "messages": 5, "totals": { … },
///     "cells": [ { "locale": "de-DE", "messages": 5, "ready": 4, "defaultReady": true, "status": "partial",
///       "notReady": [ { "key": "benefits", "default": false, "reasons": [ { "reason": "stale", "fields": ["header"] } ] } ] } ] } ] }
/// ```
///
/// Reasons, in this order within a message: `missing` (`fields`: no unit, or an empty
/// target); `not-translated` (`fields`, `states`: a target whose state says it is not translated
/// yet, `states` as the files wrote them, `no state` where none was written); `stale` (`fields`:
/// translated from an older source text); `below-minimum-state` (`fields`, `states`); `ambiguous`
/// (`fields`: the unit is repeated in its file with different targets); `failing-rule` (`code`,
/// `message`: an error in this message in this locale); `rejected` (`upload`); `pending` (`upload`, `state`:
/// Apple's state, or null when not uploaded yet). An `upload` is `{ "kind": "message" | "image",
/// "identifier": …, "image": path }` (`image` only for images). Arrays keep the report's
/// order (products as in msgc.yaml, locales source first, messages by key); object keys are sorted.
/// A cell where some message ships its previous translation (stale, kept until updated; counted
/// in `ready`) also has `"previousTranslation": [ { "key", "default", "fields" } ]`.
public enum CoverageJSONRenderer {
    public static let schemaVersion = 1

    public static func render(_ report: CoverageReport) -> String {
        json(report).canonicalText
    }

    static func json(_ report: CoverageReport) -> JSONValue {
        [
            "schemaVersion": .integer(schemaVersion),
            "environment": .string(report.environment.rawValue),
            "hasState": .bool(report.hasState),
            "sourceLocale": .string(report.sourceLocale),
            "locales": .array(report.locales.map { .string($0) }),
            "blockingErrors": .integer(report.blockingErrorCount),
            "totals": tally(report.totals),
            "localeTotals": .array(report.localeTotals.map { total in
                var object = tallyObject(total.totals)
                object["locale"] = .string(total.locale)
                return .object(object)
            }),
            "products": .array(report.products.map(product)),
        ]
    }

    static func product(_ product: ProductCoverage) -> JSONValue {
        [
            "product": .string(product.product),
            "defaultMessage": product.defaultKey.map { .string($0) } ?? .null,
            "messages": .integer(product.messageCount),
            "totals": tally(product.totals),
            "cells": .array(product.cells.map(cell)),
        ]
    }

    static func cell(_ cell: CoverageCell) -> JSONValue {
        var object: [String: JSONValue] = [
            "locale": .string(cell.locale),
            "messages": .integer(cell.messageCount),
            "ready": .integer(cell.readyCount),
            "defaultReady": .bool(cell.isDefaultReady),
            "status": .string(cell.status.rawValue),
            "notReady": .array(cell.notReady.map { message in
                [
                    "key": .string(message.key),
                    "default": .bool(message.isDefault),
                    "reasons": .array(message.reasons.map(reason)),
                ]
            }),
        ]
        // Only where some message ships a previous translation: reports without one read as before.
        if !cell.previousTranslation.isEmpty {
            object["previousTranslation"] = .array(cell.previousTranslation.map { message in
                ["key": .string(message.key), "default": .bool(message.isDefault), "fields": .array(message.fields.map { .string($0) })]
            })
        }
        return .object(object)
    }

    static func reason(_ reason: CoverageReason) -> JSONValue {
        var object: [String: JSONValue] = ["reason": .string(reason.kind.rawValue)]
        switch reason {
        case .missing(let fields), .stale(let fields), .ambiguous(let fields):
            object["fields"] = .array(fields.map { .string($0) })
        case .belowMinimumState(let fields, let states), .notTranslated(let fields, let states):
            object["fields"] = .array(fields.map { .string($0) })
            object["states"] = .array(states.map { .string($0) })
        case .failingRule(let code, let message):
            object["code"] = .string(code)
            object["message"] = .string(message)
        case .rejected(let upload):
            object["upload"] = self.upload(upload)
        case .pending(let upload, let state):
            object["upload"] = self.upload(upload)
            object["state"] = state.map { .string($0) } ?? .null
        }
        return .object(object)
    }

    static func upload(_ upload: UploadReference) -> JSONValue {
        var object: [String: JSONValue] = ["kind": .string(upload.kind.rawValue), "identifier": .string(upload.identifier)]
        if let path = upload.imagePath { object["image"] = .string(path) }
        return .object(object)
    }

    static func tally(_ tally: Tally) -> JSONValue { .object(tallyObject(tally)) }

    static func tallyObject(_ tally: Tally) -> [String: JSONValue] {
        [
            "messages": .integer(tally.messages), "ready": .integer(tally.ready), "cells": .integer(tally.cells),
            "defaultsReady": .integer(tally.defaultsReady),
        ]
    }
}
