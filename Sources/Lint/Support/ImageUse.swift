import Model

/// One place where a message uses an image file, and in which of Apple's two sizes.
struct ImageUse {
    enum Role: Equatable {
        /// The message's full-size image (Apple's `FULL_SIZE`).
        case fullSize
        /// The icon of bullet `index` (Apple's `BULLET_POINT`).
        case bullet(Int)

        /// "full-size image", "bullet 2 image".
        var displayName: String {
            switch self {
            case .fullSize: "full-size image"
            case .bullet(let index): "bullet \(index + 1) image"
            }
        }
    }

    /// The message that uses the image, as findings name it.
    var subject: Subject
    var file: Located<String>
    var role: Role

    /// Every image reference of every message, in message order: made once for the rules that
    /// look at each (`LintContext.imageUses`). A use holds its message's subject, not the
    /// message, which is many strings to copy for every use.
    static func all(in catalog: Catalog) -> [ImageUse] {
        var uses: [ImageUse] = []
        for message in catalog.messages {
            let subject = message.subject
            if let file = message.image?.file { uses.append(ImageUse(subject: subject, file: file, role: .fullSize)) }
            for (index, bullet) in message.bullets.enumerated() {
                if let image = bullet.image { uses.append(ImageUse(subject: subject, file: image, role: .bullet(index))) }
            }
        }
        return uses
    }
}

extension LintContext {
    /// The PNG structure of the file at `path`, as the content-tree walk read it, or nil when
    /// there are no bytes to read (a missing or unreadable file is `image-file-not-found`'s finding).
    func png(at path: String) -> Result<PNGInfo, PNGProblem>? {
        catalog.images[path]?.png
    }
}
