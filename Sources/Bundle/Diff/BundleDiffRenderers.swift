import Diagnostics
import Foundation
import Model

/// `msgc diff` for people: one block per product and locale with what changes there, the
/// images, then the counts and what Apple will have to review again.
///
/// Unchanged entries are counted, not listed. Text from the bundles (keys, paths, releases) is
/// shown through `TerminalText` (controls, escapes and bidi characters as `<U+001B>`), so that
/// a hand-edited manifest cannot drive the terminal.
public enum BundleDiffTextRenderer {
    public static func render(_ diff: BundleDiff) -> String {
        var out = "old  \(describe(diff.old))\nnew  \(describe(diff.new))\n"

        struct Place: Hashable, Comparable {
            var product: String, locale: String
            static func < (a: Self, b: Self) -> Bool { (a.product, a.locale) < (b.product, b.locale) }
        }
        var lines: [Place: [String]] = [:]
        for message in diff.messages where message.change != .unchanged {
            var line = "message \(safe(message.key))"
            if !message.changedFields.isEmpty { line += " (\(message.changedFields.joined(separator: ", ")))" }
            line = row(message.change, line, note: messageNote(message, environment: diff.new.environment))
            lines[Place(product: message.product, locale: message.locale), default: []].append(line)
        }
        for configuration in diff.defaults where configuration.change != .unchanged {
            lines[Place(product: configuration.product, locale: configuration.locale), default: []]
                .append(row(configuration.change, defaultLine(configuration), note: configuration.isDeferred ? "deferred until Apple approves it" : ""))
        }
        for place in lines.keys.sorted() {
            out += "\n\(safe(place.product))  \(safe(place.locale))\n"
            for line in lines[place]! { out += line }
        }
        let images = diff.images.filter { $0.change != .unchanged }
        if !images.isEmpty {
            out += "\nimages\n"
            for image in images {
                let note = image.needsReview ? reviewNote(image.change, environment: diff.new.environment) : image.change == .gone ? "no message uses it any more" : ""
                out += row(image.change, "\(safe(image.source)) \(image.imageSize)", note: note)
            }
        }

        if !diff.realtime.isEmpty {
            out += "\nrealtime facts (what a snapshot of the new bundle answers and signs)\n"
            for change in diff.realtime { out += "  \(realtimeLine(change))\n" }
        }

        if !diff.prunable.isEmpty {
            out += "\nprune after applying the new bundle (`msgc prune NEW --previous OLD`): "
            out += [(BundleDiff.Prunable.Kind.defaultConfiguration, "default configuration"), (.message, "message"), (.image, "image")]
                .map { kind, noun in plural(diff.prunable.count { $0.kind == kind }, noun) }.joined(separator: ", ") + "\n"
            for item in diff.prunable {
                out += "  \(item.kind.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0)) \(safe(item.what))"
                out += item.kind == .defaultConfiguration ? "\n" : "  \(item.identifier)\n"
            }
        }
        if !diff.pruneKept.isEmpty {
            out += "\nkept by that prune although the new bundle does not use them: \(diff.pruneKept.count)\n"
            for item in diff.pruneKept { out += "  kept \(safe(item.name)): \(safe(item.why))\n" }
        }
        out += "\n"
        out += "messages: " + counts(diff.messages.map(\.change), withheldIfAny(diff.messages.map(\.change), [.new, .gone, .changed, .unchanged])) + "\n"
        out += "images: " + counts(diff.images.map(\.change), [.new, .gone, .changed, .unchanged]) + "\n"
        out += "default configurations: " + counts(diff.defaults.map(\.change), withheldIfAny(diff.defaults.map(\.change), [.new, .gone, .repointed, .unchanged])) + "\n"
        if !diff.realtime.isEmpty { out += "realtime facts: \(diff.realtime.count) changed\n" }
        let reviewMessages = diff.messages.count(where: \.needsReview)
        let reviewImages = diff.images.count(where: \.needsReview)
        if !diff.hasUploadChanges {
            out += "the bundles hold the same uploads and default configurations"
            out += diff.realtime.isEmpty ? "\n" : ", but not the same realtime facts\n"
        } else if reviewMessages + reviewImages == 0 {
            out += "nothing new for Apple to review\n"
        } else {
            let what = [plural(reviewMessages, "message"), plural(reviewImages, "image")].filter { !$0.hasPrefix("0 ") }.joined(separator: " and ")
            out += diff.new.environment == "sandbox"
                ? "\(what) to upload; sandbox approves them by itself\n"
                : "Apple must review \(what) before they can be shown\n"
        }
        return out
    }

    static func describe(_ side: BundleDiff.Side) -> String {
        "\(safe(side.path))  \(safe(side.environment))  \(side.release.map { "release \(safe($0))" } ?? "no release")  \(safe(side.digest))"
    }

    /// `PRODUCT  LOCALE  message KEY: FIELD 'OLD' → 'NEW'`, or `PRODUCT  FIELD …` for a product's own fact.
    static func realtimeLine(_ change: BundleDiff.RealtimeChange) -> String {
        func value(_ text: String?) -> String { text.map { "'\(safe($0))'" } ?? "absent" }
        if change.field == "product" {
            return "\(safe(change.product))  product \(change.old == nil ? "new" : "gone")"
        }
        let place = if let locale = change.locale, let key = change.key {
            "\(safe(change.product))  \(safe(locale))  message \(safe(key)): "
        } else {
            "\(safe(change.product))  "
        }
        return place + "\(change.field) \(value(change.old)) → \(value(change.new))"
    }

    static func row(_ change: BundleDiff.Change, _ what: String, note: String) -> String {
        let label = change.rawValue.padding(toLength: 11, withPad: " ", startingAt: 0)
        return "  \(label) \(what)\(note.isEmpty ? "" : " — \(note)")\n"
    }

    static func messageNote(_ message: BundleDiff.MessageChange, environment: String) -> String {
        if message.needsReview { return reviewNote(message.change, environment: environment) }
        if message.change == .gone { return "no longer uploaded; Apple keeps it until it is deleted" }
        if message.change == .withheld, let reason = message.withheldReason { return withheldNote(reason) }
        return ""
    }

    /// Why a message the sources still have is not in the new bundle, and what the locale shows meanwhile.
    static func withheldNote(_ reason: String) -> String {
        let why = Manifest.NotShipped.Reason(rawValue: reason)?.waitsForTranslation == false
            ? "withheld (its translation fails a rule)" : "withheld (waiting for translation: \(reason))"
        return "\(why); Apple keeps what it has until the translation ships"
    }

    static func reviewNote(_ change: BundleDiff.Change, environment: String) -> String {
        let again = change == .changed ? " again" : ""
        return environment == "sandbox" ? "new upload" : "new upload, Apple reviews it\(again)"
    }

    static func defaultLine(_ configuration: BundleDiff.DefaultChange) -> String {
        let old = configuration.oldKey.map(safe) ?? "?"
        let new = configuration.newKey.map(safe) ?? "?"
        switch configuration.change {
        case .new: return "default → \(new)"
        case .gone: return "default (was \(old)) no longer configured by this bundle; Apple keeps the earlier configuration until it is deleted"
        case .withheld: return "default \(old) — \(withheldNote(configuration.withheldReason ?? ""))"
        case .repointed: return old == new ? "default → \(new) (its new content)" : "default \(old) → \(new)"
        default: return "default → \(new)"
        }
    }

    /// `order` with `withheld` before `unchanged` when some change is withheld: a release
    /// without a locale waiting for translation reads as before.
    static func withheldIfAny(_ changes: [BundleDiff.Change], _ order: [BundleDiff.Change]) -> [BundleDiff.Change] {
        guard changes.contains(.withheld) else { return order }
        return order.filter { $0 != .unchanged } + [.withheld, .unchanged]
    }

    static func counts(_ changes: [BundleDiff.Change], _ order: [BundleDiff.Change]) -> String {
        order.map { change in "\(changes.count { $0 == change }) \(change.rawValue)" }.joined(separator: ", ")
    }

    static func plural(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }

    /// Text from a manifest as terminal text (`TerminalText`).
    static func safe(_ text: String) -> String { TerminalText.escaped(text) }
}

/// `msgc diff --format json`: the comparison as msgc's canonical JSON, `"schemaVersion": 1`.
///
/// `messages`, `images` and `defaults` list what changes (unchanged entries are only counted,
/// under `summary`), in the same order as the text; `review` lists the identifiers Apple must
/// review before they can be shown; `realtime`, present only when some realtime fact differs,
/// lists each as `product`, `locale` and `key` (null for a product's own fact), `field`, `old`
/// and `new` (null when absent).
public enum BundleDiffJSONRenderer {
    public static let schemaVersion = 1

    public static func render(_ diff: BundleDiff) -> String {
        func side(_ side: BundleDiff.Side) -> JSONValue {
            ["path": .string(side.path), "bundleId": .string(side.bundleId), "environment": .string(side.environment),
             "release": side.release.map { .string($0) } ?? .null, "digest": .string(side.digest)]
        }
        func optional(_ text: String?) -> JSONValue { text.map { .string($0) } ?? .null }
        func summary(_ changes: [BundleDiff.Change], _ order: [BundleDiff.Change]) -> JSONValue {
            .object(Dictionary(uniqueKeysWithValues: order.map { change in (change.rawValue, JSONValue.integer(changes.count { $0 == change })) }))
        }
        let messages: [JSONValue] = diff.messages.filter { $0.change != .unchanged }.map {
            ["product": .string($0.product), "locale": .string($0.locale), "key": .string($0.key), "change": .string($0.change.rawValue),
             "oldIdentifier": optional($0.oldIdentifier), "newIdentifier": optional($0.newIdentifier),
             "changedFields": .array($0.changedFields.map { .string($0) }), "needsReview": .bool($0.needsReview),
             "withheldReason": optional($0.withheldReason)]
        }
        let images: [JSONValue] = diff.images.filter { $0.change != .unchanged }.map {
            ["source": .string($0.source), "imageSize": .string($0.imageSize), "change": .string($0.change.rawValue),
             "oldIdentifier": optional($0.oldIdentifier), "newIdentifier": optional($0.newIdentifier), "needsReview": .bool($0.needsReview)]
        }
        let defaults: [JSONValue] = diff.defaults.filter { $0.change != .unchanged }.map {
            ["product": .string($0.product), "locale": .string($0.locale), "change": .string($0.change.rawValue),
             "oldKey": optional($0.oldKey), "newKey": optional($0.newKey),
             "oldMessageIdentifier": optional($0.oldMessage), "newMessageIdentifier": optional($0.newMessage), "deferred": .bool($0.isDeferred),
             "withheldReason": optional($0.withheldReason)]
        }
        var document: JSONValue = [
            "schemaVersion": .integer(schemaVersion),
            "old": side(diff.old),
            "new": side(diff.new),
            "messages": .array(messages),
            "images": .array(images),
            "defaults": .array(defaults),
            "summary": [
                "messages": summary(diff.messages.map(\.change), BundleDiffTextRenderer.withheldIfAny(diff.messages.map(\.change), [.new, .gone, .changed, .unchanged])),
                "images": summary(diff.images.map(\.change), [.new, .gone, .changed, .unchanged]),
                "defaults": summary(diff.defaults.map(\.change), BundleDiffTextRenderer.withheldIfAny(diff.defaults.map(\.change), [.new, .gone, .repointed, .unchanged])),
            ],
            "review": .array(diff.identifiersToReview.map { .string($0) }),
            "prune": .array(diff.prunable.map { ["kind": .string($0.kind.rawValue), "identifier": .string($0.identifier), "what": .string($0.what)] }),
        ]
        if !diff.pruneKept.isEmpty, case .object(var members) = document {
            members["pruneKept"] = .array(diff.pruneKept.map { ["name": .string($0.name), "why": .string($0.why)] })
            document = .object(members)
        }
        if !diff.realtime.isEmpty, case .object(var members) = document {
            members["realtime"] = .array(diff.realtime.map {
                ["product": .string($0.product), "locale": optional($0.locale), "key": optional($0.key), "field": .string($0.field),
                 "old": optional($0.old), "new": optional($0.new)]
            })
            document = .object(members)
        }
        return document.canonicalText
    }
}
