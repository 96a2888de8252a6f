import DataStoreKit
public import Foundation

/// A store directory as one fuzz input, so that libFuzzer mutates every file of a store at once: each file is
/// a line `=== NAME` followed by its bytes, up to the next such line. Names are relative paths of letters,
/// digits, `.`, `_` and `-`, optionally in `segments/`; a part with any other name is ignored, so a mutated
/// input never writes outside the directory.
public enum StoreArchive {
    static let marker = Array("=== ".utf8)

    /// The archive of `files` (relative path → bytes).
    public static func archive(_ files: [String: Data]) -> [UInt8] {
        var bytes: [UInt8] = []
        for (name, data) in files.sorted(by: { $0.key < $1.key }) {
            if !bytes.isEmpty { bytes.append(UInt8(ascii: "\n")) }
            bytes += marker + Array(name.utf8) + [UInt8(ascii: "\n")] + Array(data)
        }
        return bytes
    }

    /// The files of an archive; malformed parts are left out.
    static func files(in bytes: [UInt8]) -> [String: [UInt8]] {
        var files: [String: [UInt8]] = [:]
        var starts: [Int] = []
        var index = 0
        while index + marker.count <= bytes.count {
            if (index == 0 || bytes[index - 1] == UInt8(ascii: "\n"))
                && bytes[index..<(index + marker.count)].elementsEqual(marker)
            {
                starts.append(index)
                index += marker.count
            } else {
                index += 1
            }
        }
        for (position, start) in starts.enumerated() {
            // The part runs to the newline before the next marker.
            let end = position + 1 < starts.count ? starts[position + 1] - 1 : bytes.count
            let part = bytes[(start + marker.count)..<max(start + marker.count, end)]
            guard let newline = part.firstIndex(of: UInt8(ascii: "\n")) else { continue }
            let name = String(decoding: part[..<newline], as: UTF8.self)
            guard isSafe(name) else { continue }
            files[name] = Array(part[(newline + 1)...])
        }
        return files
    }

    static func isSafe(_ name: String) -> Bool {
        let file = name.hasPrefix("segments/") ? String(name.dropFirst("segments/".count)) : name
        guard !file.isEmpty, file != ".", file != "..", file.count <= 100 else { return false }
        return file.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
                || "._-".unicodeScalars.contains($0)
        }
    }

    /// Writes the archive's files into a new temporary directory (with a `segments` subdirectory) and runs
    /// `body` on it; the directory is removed afterwards. `nil` when the files could not be written (the
    /// machine, not the store).
    static func withDirectory<Result>(
        _ bytes: [UInt8], prefix: String, _ body: (URL, [String: [UInt8]]) -> Result
    ) -> Result? {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "fuzz-\(prefix)-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let files = files(in: bytes)
        do {
            try FileManager.default.createDirectory(
                at: directory.appendingPathComponent("segments"), withIntermediateDirectories: true)
            for (name, data) in files { try Data(data).write(to: directory.appendingPathComponent(name)) }
        } catch {
            return nil
        }
        return body(directory, files)
    }

    /// Whether every file of `files` still holds its bytes.
    static func isUnchanged(_ directory: URL, _ files: [String: [UInt8]]) -> Bool {
        for (name, data) in files {
            guard let now = contents(of: directory.appendingPathComponent(name)), now == Data(data) else {
                return false
            }
        }
        return true
    }

    /// A file's bytes, or `nil` if it cannot be read. Not `Data(contentsOf:)`: on Linux that leaks a 4 KB buffer
    /// for every empty file it reads (swift-foundation's zero-size path), which grew the `jsonstore` run by
    /// about half a kilobyte per execution until libFuzzer's memory limit stopped it.
    static func contents(of url: URL) -> Data? {
        try? StoreFile(path: url.path, mode: .readOnly).readToEnd(from: 0)
    }
}
