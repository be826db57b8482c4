import Foundation

/// Finds the classifier weights when the user names none.
public enum ModelLocator {
    /// File name of the shipped model.
    public static let defaultFileName = "digits-lenet.safetensors"

    /// The weights to use: `explicit` if given; else `$SCANREADER_MODEL`; else
    /// `Models/digits-lenet.safetensors` beside the executable or in one of its parent
    /// folders (a `swift build` tree or an installed `share/scanreader`), else in the
    /// current directory. Returns the first candidate that exists, or the explicit path.
    public static func modelPath(explicit: String?) -> String {
        if let explicit { return explicit }
        if let env = ProcessInfo.processInfo.environment["SCANREADER_MODEL"], !env.isEmpty { return env }
        var candidates: [URL] = []
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent()
        for _ in 0..<5 {
            candidates.append(dir.appendingPathComponent("Models/\(defaultFileName)"))
            candidates.append(dir.appendingPathComponent("share/scanreader/\(defaultFileName)"))
            dir = dir.deletingLastPathComponent()
        }
        candidates.append(URL(fileURLWithPath: "Models/\(defaultFileName)"))
        let found = candidates.first { FileManager.default.fileExists(atPath: $0.path) }
        return (found ?? candidates.last!).path
    }

    /// The model card beside a weights file (same name, `.md`), if present.
    public static func modelCard(forModelAt path: String) -> String? {
        let card = URL(fileURLWithPath: path).deletingPathExtension().appendingPathExtension("md")
        return try? String(contentsOf: card, encoding: .utf8)
    }
}
